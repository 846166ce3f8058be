# A Friday at the Pan table: six players, Gus sits down after hand 3, nine hands.
# Hoyle rules: 2 chips to drop (they go on the tops), going out pays 1 plus conditions.
# Replay it with:  pan --db tonight.db table < examples/tonight.pan
session new tonight --players Ana,Ben,Cruz,Dee,Eli,Fay --dealer Fay --preset hoyle --chip-value 0.25

# Hand 1: Fay deals, Ana is eldest. Two drop; Ben goes out with a heart rope.
deal
d eli fay
m cruz 7d7d7d
m ben ah2h3h
a ben 4h
m dee kc kh ks
a cruz 7d
m ben 6s6h6d
a ben 5h
o ben qc qd qs

# Hand 2: the winner is eldest. Ana lays a long diamond rope and splits it;
# Dee borrows a king from her four to make a K-Q-J rope.
deal
d cruz
m ana ad2d3d4d5d6d
split ana 1 "AD 2D 3D" "4D 5D 6D"
m dee kh ks kc kd
borrow dee --from 3 KD --with QD JD
m eli 5s5s5s
a eli 5s
m ana 7c7c7c
m fay jc qc kc
o ana 7c 7c

# Hand 3: a wrong meld is typed for Eli and taken back with undo.
deal
d ben dee fay
m cruz 3c3c3c
m eli 4s4s4s
u
m eli 4s5s6s
a eli 7s js
a eli qs
m cruz 2c2c2c
a eli ks
m eli 2d2d2d
o eli 2d

# Gus takes a seat after Cruz between hands.
seat add Gus --after Cruz

# Hand 4: five drop; Gus and Fay play it out.
deal
d ana ben cruz dee eli
m gus 3s3s3s
m fay kd qd jd
a gus 3s
m fay ah ah ah
a fay ah
m fay 6c6c6c
o fay 6c

# Hand 5
deal
d gus
m ana 5h5h5h
m cruz jh qh kh
a ana 5h
m dee 6c6c6c
m ana ac2c3c
a ana 4c 5c
o ana 6c 7c

# Hand 6: all but Ben drop; he takes the tops without play.
deal
d cruz dee eli fay gus ana

# Hand 7
deal
d fay
m dee 7s7s7s
m ben 3d3d3d
a dee 7s
m gus qh qh qh
m dee 4c4c4c
a dee 4c
o dee ks ks ks

# Hand 8
deal
d ana gus
m eli 2s2s2s
m cruz 5c5c5c
a cruz 5c 5c
m eli jh jh jh
m cruz 6d6d6d
o cruz 7d7d7d

# Hand 9: the last hand of the night.
deal
d ben eli
m fay kh kh kh
m gus 3h4h5h
a gus 6h 7h
m fay ac ad ah
m gus qs qs qs
o gus kc kd ks
