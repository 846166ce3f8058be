"""The kinds of words `pan` commands take: cards, players, meld numbers, sessions.

Each is one click ParamType used by every command that takes such a word, so reading it,
refusing it with a one-line reason, and completing it in `pan table` happen in one place.
Converting a player or cards needs the session (its players, its house rules), which the type
finds in the command's ``AppContext``.
"""

from __future__ import annotations

from typer._click.types import ParamType  # the copy of click that typer runs (0.22 on)

from pancli.cli.context import AppContext
from pancli.core.errors import InputError


def _obj(ctx) -> AppContext:
    obj = ctx.find_object(AppContext) if ctx is not None else None
    if obj is None:
        from pancli.cli.context import app_context

        obj = app_context()
    return obj


class PlayerType(ParamType):
    """A player of the current session: any case, or a unique start of the name (`an` → Ana)."""

    name = "player"

    def __init__(self, in_hand: bool = False):
        self.in_hand = in_hand  # completion offers only the players still in the hand

    def convert(self, value, param, ctx):
        return _obj(ctx).open_recorder().player(value)

    def candidates(self, obj: AppContext, incomplete: str, typed=()) -> list[str]:
        rec = obj.open_recorder()
        state = rec.state()
        names = rec.game.active_players(state) if self.in_hand else rec.game.players(state)
        already = {w.lower() for w in typed}
        return [n for n in names if n.lower().startswith(incomplete.lower()) and n.lower() not in already]


class CardsType(ParamType):
    """Cards in any notation the default game's commands accept (`5S`, `5s5s5s`, `5♠,5♠`), read
    under the current session's house rules (the default preset's for a session of another game:
    its own commands read their cards themselves)."""

    name = "cards"

    def convert(self, value, param, ctx):
        from pancli.games import default_game

        if isinstance(value, tuple):
            return value
        g = default_game()
        rec = _obj(ctx).open_recorder()
        rules = rec.rules if rec.session.game == g.name else g.schema.defaults
        return g.read_cards(value, rules)

    def candidates(self, obj: AppContext, incomplete: str, typed=()) -> list[str]:
        from pancli.games import default_game

        return default_game().complete("card", incomplete)


class MeldsType(CardsType):
    """Cards of several melds, the melds separated by `|`: `"AS 2S 3S | 5S 5S 5S"`. A word becomes
    its cards with `|` kept between them; ``melds`` groups the words."""

    name = "melds"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        out: list = []
        for i, piece in enumerate(value.split("|")):
            if i:
                out.append("|")
            if piece.strip():
                out.extend(super().convert(piece, param, ctx))
        return tuple(out)


def melds(words, each_word_a_meld: bool = False) -> list[str]:
    """The melds written across converted MeldsType words: `|` ends a meld, and so does the end of
    a word when each word is a meld (`pan split ben 2 "AD 2D 3D" "4D 5D 6D"`)."""
    groups: list[list[str]] = [[]]
    for word in words or ():
        for item in word:
            if item == "|":
                groups.append([])
            else:
                groups[-1].append(item)
        if each_word_a_meld:
            groups.append([])
    return [" ".join(g) for g in groups if g]


class MeldNumberType(ParamType):
    """A meld's number as `pan board` shows it."""

    name = "meld"

    def convert(self, value, param, ctx):
        option = param.opts[0] if param is not None and param.param_type_name == "option" else "the meld"
        return self.number(value, option)

    @staticmethod
    def number(value, option: str) -> int:
        try:
            n = value if isinstance(value, int) else int(str(value).strip().replace("_", "x"), 10)
        except ValueError:
            n = None
        if n is None or not 1 <= n <= 100_000:
            raise InputError(f"{option} takes a meld number, not '{str(value)[:40]}'",
                             "see the numbers with `pan board`") from None
        return n

    def candidates(self, obj: AppContext, incomplete: str, typed=()) -> list[str]:
        rec = obj.open_recorder()
        state = rec.state()
        owner = None
        for w in typed:
            try:
                owner = rec.player(w)
                break
            except Exception:
                continue
        return rec.game.complete("meld", incomplete, state, owner)


class SessionType(ParamType):
    """A session's name (or a unique start of it)."""

    name = "session"

    def convert(self, value, param, ctx):
        return value

    def candidates(self, obj: AppContext, incomplete: str, typed=()) -> list[str]:
        names = [s.name for s in obj.open_store(create=False).sessions()]
        return [n for n in names if n.lower().startswith(incomplete.lower())]


PLAYER = PlayerType()
PLAYER_IN_HAND = PlayerType(in_hand=True)
CARDS = CardsType()
MELDS = MeldsType()
MELD = MeldNumberType()
SESSION = SessionType()


def flat(groups) -> list[str]:
    """The cards of several card words, in order."""
    return [c for g in groups or () for c in g]


class CountType(ParamType):
    """A whole number in a range (chips, points, a hand, a deal): anything else, a negative
    number included, is refused in one line saying what the option takes."""

    name = "integer"

    def __init__(self, noun: str = "a number of chips", low: int = 1, high: int | None = None):
        from pancli.core.ledger import MAX_CHIPS

        self.noun, self.low, self.high = noun, low, MAX_CHIPS if high is None else high

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            n = value
        else:
            try:
                n = int(str(value).strip().replace("_", "x"), 10)
            except ValueError:
                n = None
        if n is None or not self.low <= n <= self.high:
            span = f"above 0 and at most {self.high:,}" if self.low == 1 else f"from {self.low} to {self.high:,}"
            raise InputError(f"{str(value)[:40]} is not {self.noun}", f"give a whole number {span}")
        return n


CHIPS = CountType("a number of chips")
HAND = CountType("a hand number", low=0)
