"""Disputes: is a meld legal, may a discard be taken, what the house rules say."""

from pancli.core.i18n import N_

PANEL = N_("Disputes")  # its panel of `pan --help`
# Its commands, in the order `pan --help` lists them: each is the module of its name in this
# folder, or else one of the default game's declared actions.
COMMANDS = ("check", "turn", "rules")
