"""The other games called Pan: the chess clock here, and the games' own groups (`pan contract`,
`pan polish`), which the games register (``Game.register_commands``) and this room holds."""

from pancli.core.i18n import N_

PANEL = N_("The other games called Pan")  # its panel of `pan --help`
# Its commands, in the order `pan --help` lists them: each is the module of its name in this
# folder, or else one of the default game's declared actions.
COMMANDS = ("clock",)
