"""Several hosts or tables: sync through a shared folder, the club, live replication and restore."""

from pancli.core.i18n import N_

PANEL = N_("Several hosts or tables")  # its panel of `pan --help`
# Its commands, in the order `pan --help` lists them: each is the module of its name in this
# folder, or else one of the default game's declared actions.
COMMANDS = ("sync", "club", "replicate", "restore")
