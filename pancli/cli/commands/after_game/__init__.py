"""After the game: standings, history, reports, careers, head-to-head, ratings, the list of sessions, settle-up, the bank,
archives and re-scoring."""

from pancli.core.i18n import N_

PANEL = N_("After the game")  # its panel of `pan --help`
# Its commands, in the order `pan --help` lists them: each is the module of its name in this
# folder, or else one of the default game's declared actions.
COMMANDS = ("standings", "history", "report", "player", "versus", "ratings", "sessions", "settle", "buyin", "cashout", "export", "import", "rescore")
