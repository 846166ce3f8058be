"""Starting a session: checking what the host gave, storing it, making it the current one.

The command line (`pan session new`) and the dealer's phone start a session the same way: the
names, the game, its house rules, the chip value and the first dealer are checked, the game makes
its first state from them (so counts and seats are refused before anything is stored), and then
the session is stored and made current in one lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pancli.app.recorder import resolve_player
from pancli.app.rulesfile import resolve as resolve_rules
from pancli.core.money import chip_value as money_per_chip
from pancli.core.names import clean_name, clean_players
from pancli.games import game as get_game

if TYPE_CHECKING:
    from pancli.storage.store import Store


@dataclass(frozen=True)
class NewSession:
    """A session just started: its id, and the words that say so."""

    id: int
    name: str
    game: str
    players: tuple[str, ...]
    dealer: str
    words: str


def new_session(store_opener: Callable[[], Store], name: str, players: Iterable[str], *, game: str,
                dealer: str | None = None, preset: str | None = None,
                rules: str | Path | None = None, chip_value: str | None = None) -> NewSession:
    """Check everything, then store the session and make it current.

    ``store_opener`` is called only once all is checked, so a refusal never creates a database.
    """
    g = get_game(game)
    name = clean_name(name, "session")
    names = clean_players(p for p in players if p.strip())
    house = resolve_rules(preset, rules, g.name)
    value = money_per_chip(chip_value) if chip_value is not None else None
    first = resolve_player(names, dealer) if dealer else None
    g.new_state(house, names, first)  # checks names, counts and seats before anything is stored
    store = store_opener()
    with store.lock():
        sid = store.create_session(name, g.name, names, first, g.rules_to_dict(house),
                                   float(value) if value is not None else None)  # exact through repr: see core/money
        store.set_setting("current_session", str(sid))
    deals = first or names[0]
    words = (f"Session {name} ({g.title}): {', '.join(names)}. "
             f"{deals} deals first. It is now the current session.")
    return NewSession(sid, name, g.name, tuple(names), deals, words)
