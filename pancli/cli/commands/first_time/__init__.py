"""The first command a newcomer runs: the sample evening."""

from pancli.core.i18n import N_

PANEL = N_("First time here")  # its panel of `pan --help`
# Its commands, in the order `pan --help` lists them: each is the module of its name in this
# folder, or else one of the default game's declared actions.
COMMANDS = ("demo",)
