"""Polish Pan, the shedding game, with its chess clock."""
