"""Recording a hand: the default game's declared actions (made from its declarations, no module of
their own), the undo and the board."""

from pancli.core.i18n import N_

PANEL = N_("Recording a hand")  # its panel of `pan --help`
# Its commands, in the order `pan --help` lists them: each is the module of its name in this
# folder, or else one of the default game's declared actions.
COMMANDS = ("deal", "drop", "stay", "meld", "add", "split", "borrow", "spread", "out", "foul", "dead", "void", "chop", "undo", "board")
