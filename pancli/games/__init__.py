"""The games pancli keeps score for, each behind the contract in ``protocol.py``.

Every game lives in its own folder (``panguingue/``, ``contract/``, ``polish/``) with a pure
core and a ``game.py`` adapter. A game made elsewhere (a plug-in, a test) joins with
``register``; sessions name their game by ``Game.name``.
"""

from __future__ import annotations

from pancli.core.errors import InputError
from pancli.games.protocol import Game

GAMES: dict[str, Game] = {}


def register(g: Game) -> Game:
    """Make a game known to every command, the recorder and the archives."""
    GAMES[g.name] = g
    return g


def game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise InputError(f"unknown game '{name}'", f"choose one of {', '.join(GAMES)}") from None


def _load_toml_rules(path: str, from_dict):
    """House rules from a TOML file: the keys of the game's rules, optionally ``preset = NAME``."""
    import tomllib
    from pathlib import Path

    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"rules file {p} does not exist", "check the path") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read rules file {p}", str(e)) from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{p} is not valid TOML ({e})", "fix the line it names") from None
    try:
        return from_dict(data)
    except InputError as e:
        raise InputError(f"{p}: {e.message}", e.hint) from None


def _resolve(preset: str | None, rules_file: str | None, rules_class, default: str):
    if preset and rules_file:
        raise InputError("give --preset or --rules, not both", "a rules file can name its preset itself")
    if rules_file:
        return _load_toml_rules(rules_file, rules_class.from_dict)
    return rules_class.preset(preset or default)


def _register_builtins() -> None:
    from pancli.games.contract.game import Contract
    from pancli.games.panguingue.game import Panguingue
    from pancli.games.polish.game import Polish

    for g in (Panguingue(), Contract(), Polish()):
        register(g)


_register_builtins()
