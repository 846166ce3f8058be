"""The games pancli keeps score for, each behind the contract in ``protocol.py``.

Every game lives in its own folder (``panguingue/``, ``contract/``, ``polish/``) with a pure
core and a ``game.py`` adapter. A game made elsewhere (a plug-in, a test) joins with
``register``; sessions name their game by ``Game.name``. House rules are declared with the knob
schema (``pancli.core.knobs``); rules files are read by ``pancli.app.rulesfile``.
"""

from __future__ import annotations

from typing import Any

from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.knobs import did_you_mean
from pancli.core.reasons import add_reason_words
from pancli.games.contract.game import Contract
from pancli.games.panguingue.game import Panguingue
from pancli.games.polish.game import Polish
from pancli.games.protocol import Game

GAMES: dict[str, Game[Any, Any]] = {}

# The game a session plays unless it names another, the one whose commands are `pan`'s own
# (deal, meld …: ``Game.at_top``). What a game is like (its commands at the top, scored in chips,
# its pack, its actions) the game says itself (pancli.games.protocol); no code asks which it is.
DEFAULT_GAME = "panguingue"


def default_game() -> Game[Any, Any]:
    return GAMES[DEFAULT_GAME]


def register(g: Game[Any, Any]) -> Game[Any, Any]:
    """Make a game known to every command, the recorder and the archives."""
    GAMES[g.name] = g
    add_reason_words(g.payment_words)
    return g


def game(name: str) -> Game[Any, Any]:
    try:
        return GAMES[name]
    except KeyError:
        raise InputError(_("unknown game '{name}'{suggestion}").format(name=name, suggestion=did_you_mean(name, GAMES)),
                         _("choose one of {games}").format(games=", ".join(GAMES))) from None


def _register_builtins() -> None:
    for g in (Panguingue(), Contract(), Polish()):
        register(g)


_register_builtins()
