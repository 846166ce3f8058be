"""`pan`'s commands, one folder (a room) per panel of `pan --help`, in the order of the panels.

A room's ``__init__`` names its panel and its commands; the command NAME is the module
``<room>/NAME.py`` (``import_.py`` for `pan import`) that adds it to ``commands = command_set()``,
or, with no such module, the default game's declared action NAME (``Game.actions``), made by
cli/action_commands.py. A command imports only its own module (cli/registry.py).
"""

ROOMS = ("first_time", "sessions", "recording", "disputes", "after_game", "other_games", "database", "hosts")
