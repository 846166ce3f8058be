"""Sessions and seats: the evening's session, who sits where, the table shell and the phones' pages."""

from pancli.core.i18n import N_

PANEL = N_("Sessions and seats")  # its panel of `pan --help`
# Its commands, in the order `pan --help` lists them: each is the module of its name in this
# folder, or else one of the default game's declared actions.
COMMANDS = ("session", "seat", "table", "serve")
