"""The kinds of words `pan` commands take: cards, players, meld numbers, sessions.

Each is one click ParamType used by every command that takes such a word, so reading it,
refusing it with a one-line reason, and completing it in `pan table` happen in one place.
Converting a player or cards needs the session (its players, its house rules), which the type
finds in the command's ``AppContext``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from typer._click.shell_completion import CompletionItem
from typer._click.types import ParamType  # the copy of click that typer runs (0.22 on)

from pancli.cli.context import AppContext, app_context
from pancli.core.errors import InputError
from pancli.core.i18n import N_
from pancli.core.ledger import MAX_CHIPS

if TYPE_CHECKING:
    from typer._click.core import Context, Parameter
    from typer._click.shell_completion import CompletionItem

    from pancli.games.protocol import Game


def _obj(ctx: Context | None) -> AppContext:
    obj = ctx.find_object(AppContext) if ctx is not None else None
    if obj is None and ctx is not None and ctx.resilient_parsing:
        # Completing a word for bash, zsh or fish: the root command's callback has not run.
        root = ctx.find_root()
        obj = root.ensure_object(AppContext)
        obj.db = root.params.get("db") or os.environ.get("PANCLI_DB")
    if obj is None:
        obj = app_context()
    return obj


class CompletingType(ParamType):
    """A word with candidates: `pan table` asks ``candidates`` itself; bash, zsh and fish ask
    through click's ``shell_complete``, which lands here too."""

    def candidates(self, obj: AppContext, incomplete: str, typed: Sequence[str] = (),
                   path: Sequence[str] = ()) -> list[str]:
        return []

    def shell_complete(self, ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
        typed: list[str] = []
        for value in (ctx.params.values() if ctx is not None else ()):
            for v in value if isinstance(value, (list, tuple)) else (value,):
                if isinstance(v, str):
                    typed.append(v)
        path: list[str] = []  # `pan contract lay`: contract, lay
        at = ctx
        while at is not None and at.parent is not None:
            path.insert(0, at.info_name or "")
            at = at.parent
        from pancli.cli.shell.bugs import tab_offers  # noqa: PLC0415 only Tab in bash, zsh or fish
        from pancli.storage.paths import resolve_path  # noqa: PLC0415 only Tab in bash, zsh or fish

        obj = _obj(ctx)
        nothing: list[CompletionItem] = []
        return tab_offers(lambda: resolve_path(obj.db),
                          lambda: [CompletionItem(c) for c in self.candidates(obj, incomplete, typed, path)], nothing)


class PlayerType(CompletingType):
    """A player of the current session: any case, or a unique start of the name (`an` → Ana)."""

    name = "player"

    def __init__(self, in_hand: bool = False) -> None:
        self.in_hand = in_hand  # completion offers only the players still in the hand

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> str:
        return _obj(ctx).open_recorder().player(value)

    def candidates(self, obj: AppContext, incomplete: str, typed: Sequence[str] = (),
                   path: Sequence[str] = ()) -> list[str]:
        rec = obj.open_recorder()
        state = rec.state()
        names = rec.game.active_players(state) if self.in_hand else rec.game.players(state)
        already = {w.lower() for w in typed}
        return [n for n in names if n.lower().startswith(incomplete.lower()) and n.lower() not in already]


def _game_of(path: Sequence[str]) -> Game[Any, Any]:
    """The game whose command ``path`` is (`contract lay`), whose pack Tab completes; the default
    game for the commands at the top (`meld`, `check`)."""
    from pancli.games import GAMES, default_game  # noqa: PLC0415 the games: only Tab

    return GAMES[path[0]] if path and path[0] in GAMES else default_game()


class NameType(PlayerType):
    """A player of the current session that the command reads itself (a game of its own says
    which names it takes): only Tab's candidates come from here."""

    name = "name"

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> str:
        return str(value)


class KnownPlayerType(CompletingType):
    """A player of any session (`pan player ana`): the command resolves the name."""

    name = "name"

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> str:
        return str(value)

    def candidates(self, obj: AppContext, incomplete: str, typed: Sequence[str] = (),
                   path: Sequence[str] = ()) -> list[str]:
        from pancli.app.career import known_players  # noqa: PLC0415 the app layer: only Tab

        store = obj.open_store(create=False)
        with store.snapshot():
            names = known_players(store)
        return [n for n in names if n.lower().startswith(incomplete.lower())]


class CardsType(CompletingType):
    """Cards in any notation the default game's commands accept (`5S`, `5s5s5s`, `5♠,5♠`), read
    under the current session's house rules (the default preset's for a session of another game:
    its own commands read their cards themselves)."""

    name = "cards"

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> tuple[str, ...]:
        from pancli.games import default_game  # noqa: PLC0415 the games: only when cards are read

        if isinstance(value, tuple):
            return value
        g = default_game()
        rec = _obj(ctx).open_recorder()
        rules = rec.rules if rec.game.at_top else g.schema.defaults  # the session plays pan's own commands' game
        return g.read_cards(value, rules)

    def candidates(self, obj: AppContext, incomplete: str, typed: Sequence[str] = (),
                   path: Sequence[str] = ()) -> list[str]:
        return _game_of(path).complete("card", incomplete)


class MeldsType(CompletingType):
    """Several melds, in the one grammar of ``pancli.core.grouping``: `AS 2S 3S / 5S 5S 5S`, quoted
    or not, `/`, `+` or `|` between the melds. A word becomes its pieces (card text, `/` where a
    separator stood); ``melds`` groups the words and reads the cards. The cards are read by the
    command, not here: `pan check --rules` and the contract game read them with packs of their own."""

    name = "melds"

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> tuple[str, ...]:
        from pancli.core.grouping import word_pieces  # noqa: PLC0415 only when melds are read

        return value if isinstance(value, tuple) else word_pieces(value)

    def candidates(self, obj: AppContext, incomplete: str, typed: Sequence[str] = (),
                   path: Sequence[str] = ()) -> list[str]:
        from pancli.core.grouping import SEPARATOR  # noqa: PLC0415 only Tab

        return _game_of(path).complete("card", incomplete) + ([SEPARATOR] if not incomplete else [])


def melds(words: Iterable[str | tuple[str, ...]] | None, each_word_a_meld: bool = False) -> list[str]:
    """The melds written across MeldsType words, each as its cards' codes read under the current
    session's rules (see ``CardsType``)."""
    from pancli.games.actions import read_melds  # noqa: PLC0415 the games' readers: only when a word is read (the one reader of melds, the dealer's too)

    return [" ".join(m) for m in read_melds(list(words or ()), lambda text: CARDS.convert(text, None, None),
                                             each_word_a_meld)]


class MeldNumberType(CompletingType):
    """A meld's number as `pan board` shows it."""

    name = "meld"

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> int:
        option = param.opts[0] if param is not None and param.param_type_name == "option" else N_("the meld")
        return self.number(value, option)

    @staticmethod
    def number(value: Any, option: str) -> int:
        from pancli.games.actions import read_meld_number  # noqa: PLC0415 the games' readers: only when a word is read (the one reader of a meld number, the dealer's too)

        return read_meld_number(value, option)

    def candidates(self, obj: AppContext, incomplete: str, typed: Sequence[str] = (),
                   path: Sequence[str] = ()) -> list[str]:
        rec = obj.open_recorder()
        state = rec.state()
        owner = None
        for w in typed:
            try:
                owner = rec.player(w)
                break
            except InputError:  # not a player's name (a card, an option): the next word may be
                continue
        return rec.game.complete("meld", incomplete, state, owner)


class SessionType(CompletingType):
    """A session's name (or a unique start of it)."""

    name = "session"

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> str:
        return str(value)

    def candidates(self, obj: AppContext, incomplete: str, typed: Sequence[str] = (),
                   path: Sequence[str] = ()) -> list[str]:
        names = [s.name for s in obj.open_store(create=False).sessions()]
        return [n for n in names if n.lower().startswith(incomplete.lower())]


PLAYER = PlayerType()
PLAYER_IN_HAND = PlayerType(in_hand=True)
NAME = NameType()
KNOWN_PLAYER = KnownPlayerType()
CARDS = CardsType()
MELDS = MeldsType()
MELD = MeldNumberType()
SESSION = SessionType()


def flat(groups: Iterable[Sequence[str]] | None) -> list[str]:
    """The cards of several card words, in order."""
    return [c for g in groups or () for c in g]


class CountType(ParamType):
    """A whole number in a range (chips, points, a hand, a deal): anything else, a negative
    number included, is refused in one line saying what the option takes."""

    name = "integer"

    def __init__(self, noun: str = "a number of chips", low: int = 1, high: int | None = None) -> None:
        self.noun, self.low, self.high = noun, low, MAX_CHIPS if high is None else high

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> int:
        from pancli.games.actions import read_count  # noqa: PLC0415 the games' readers: only when a word is read (the one reader of a count, the dealer's too)

        return read_count(value, self.noun, self.low, self.high)


# The nouns are messages (N_): the reader of a count words its refusal with them.
CHIPS = CountType(N_("a number of chips"))
HAND = CountType(N_("a hand number"), low=0)
EVENTS = CountType(N_("a number of events"), low=0)
