"""What is printed instead of suits, box drawing and block elements on a terminal that draws
East Asian "ambiguous" characters two cells wide (``--ambiguous-wide``, pancli.cli.terminal):
each of these is one cell on every terminal. A module of its own, without imports, so that the
wrapper (cli/fit) and the streams (cli/terminal) both read it.
"""

from __future__ import annotations

# What is printed instead under the opt-in: each of these is one cell on every terminal.
_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_BOX = {**dict.fromkeys("─━═╌╍┄┅┈┉╴╶╸╺", "-"), **dict.fromkeys("│┃║╎╏┆┇┊┋╵╷╹╻", "|"),
        **{chr(c): "+" for c in range(0x250C, 0x254C)}, **{chr(c): "+" for c in range(0x2552, 0x256D)},
        **dict.fromkeys("╭╮╯╰", "+")}
# The report's sparklines: eighths of a block, lowest to highest, as an ASCII ramp.
_BARS = dict(zip("▁▂▃▄▅▆▇█", "_.:-=+*#"))
LETTERS = str.maketrans({**_SUITS, **_BOX, **_BARS})
