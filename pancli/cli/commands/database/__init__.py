"""The database: where it lives and how it is kept."""

from pancli.core.i18n import N_

PANEL = N_("The database")  # its panel of `pan --help`
# Its commands, in the order `pan --help` lists them: each is the module of its name in this
# folder, or else one of the default game's declared actions.
COMMANDS = ("db",)
