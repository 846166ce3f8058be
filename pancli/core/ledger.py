"""What one recorded event does: chips that move, counters that change, lines to say.

Every game's pure core returns a Step from applying one event; storage keeps the
payments and tallies beside the event, so standings are sums over effective events.

A payment says what it is for as data: a ``code`` from its game's vocabulary (documented in one
place per game, e.g. ``pancli/games/panguingue/reasons.py``) and ``params``, the particulars.
``reason`` is the same in English, rendered from them by the game's wording when it is asked for
(to show it, or to store it beside them for people); it is never compared or read back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pancli.core.i18n import _
from pancli.core.reasons import shown_reason

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject

MAX_CHIPS = 1_000_000_000  # the most chips one number may say (see pancli/core/money.py)

TOPS = "(tops)"    # the chips on the foot of the stock until someone wins them
HOUSE = "(house)"  # a house collection leaves the players for good
POOLS = (TOPS, HOUSE)

StateT = TypeVar("StateT")  # a game's state: Step[PanState] is what Panguingue's apply returns


_SCALARS = (str, int, bool, float, type(None))


_PLAIN_TYPES = frozenset(_SCALARS)


def _freeze(value: Any) -> Any:
    t = type(value)
    if t in _SCALARS:
        return value
    if (t is tuple or t is list) and set(map(type, value)) <= _PLAIN_TYPES:  # cards, as a rule
        return value if t is tuple else tuple(value)
    if isinstance(value, Mapping):
        return value if isinstance(value, Params) else Params(value)
    if isinstance(value, (list, tuple)):
        if all(type(v) in _SCALARS for v in value):
            return tuple(value)
        return tuple(_freeze(v) for v in value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"a payment parameter must be plain data, not {type(value).__name__}")


def _thaw(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Params):
        return value.plain()
    if isinstance(value, tuple):
        return [v if type(v) in _SCALARS else _thaw(v) for v in value]
    return value


class Params(Mapping[str, Any]):
    """The particulars of a payment's reason: an immutable, hashable mapping of plain data
    (strings, numbers, booleans, lists, nested mappings), with one canonical JSON text."""

    __slots__ = ("_items", "_json")

    def __init__(self, data: Mapping[str, Any] | None = None, /, **more: Any):
        merged = {**data, **more} if data else more
        self._items: tuple[tuple[str, Any], ...] | None = tuple(sorted([(k, v if type(v) in _SCALARS else _freeze(v))
                                                  for k, v in merged.items()]))
        self._json: str | None = None

    @classmethod
    def from_json(cls, text: str) -> Params:
        """Params as stored: their canonical JSON text, parsed only when they are read. Compared
        with others by ``to_json``, they are never parsed (a long night has 100,000 of them)."""
        p = cls.__new__(cls)
        p._items, p._json = None, text
        return p

    def _pairs(self) -> tuple[tuple[str, Any], ...]:
        items = self._items
        if items is None:
            items = self._items = tuple(sorted([(k, _freeze(v)) for k, v in json.loads(self._json or "{}").items()]))
        return items

    def __getitem__(self, key: str) -> Any:
        for k, v in self._pairs():
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _v in self._pairs())

    def __len__(self) -> int:
        return len(self._pairs())

    def __hash__(self) -> int:
        return hash(self._pairs())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Params):
            return self._pairs() == other._pairs()
        return Mapping.__eq__(self, other)

    def __repr__(self) -> str:
        return f"Params({self.plain()!r})"

    def plain(self) -> JsonObject:
        """As a plain dict (lists for sequences), ready for JSON or TOML."""
        return {k: v if type(v) in _SCALARS else _thaw(v) for k, v in self._pairs()}

    def to_json(self) -> str:
        """The canonical JSON text: keys sorted, no spaces. Stored as is, and compared as text."""
        if self._json is None:
            self._json = _flat_json(self._pairs()) or canonical_json(self.plain())
        return self._json


def _flat_json(items: tuple[tuple[str, Any], ...]) -> str | None:
    """canonical_json of params whose values are whole numbers, texts, booleans, None or tuples
    of texts (every payment's, as a rule), written without the encoder's machinery: a replay
    words the particulars of every payment it compares. None for anything else."""
    parts = []
    for k, v in items:
        t = type(v)
        if t is int:
            text = int.__repr__(v)
        elif t is str:
            text = _quoted(v)
        elif t is tuple and all(type(x) is str for x in v):
            text = "[" + ",".join([_quoted(x) for x in v]) + "]"
        elif t is bool:
            text = "true" if v else "false"
        elif v is None:
            text = "null"
        else:
            return None
        parts.append(_quoted(k) + ":" + text)
    return "{" + ",".join(parts) + "}"


def canonical_json(data: Mapping[str, Any]) -> str:
    return _CANONICAL(data)


# One encoder for every call: json.dumps with options makes a new one each time, and a replay
# words the particulars of every payment it compares.
_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode
_quoted = json.encoder.encode_basestring  # a text as that encoder writes it (ensure_ascii=False)


NO_PARAMS = Params()


# Payments and tallies are made by the hundred thousand when a long night is replayed: their
# __init__ fills the instance dict directly, twice as fast as a frozen dataclass's setattr calls.

@dataclass(frozen=True, init=False)
class Payment:
    """Chips that move from a payer to a payee, and what for (a code and its params)."""

    payer: str
    payee: str
    chips: int
    # What it is for, from the game's vocabulary; None in a payment stored by pancli 0.1, which is
    # compared by players and chips only.
    code: str | None
    params: Params = NO_PARAMS       # the particulars
    # The game's wording of (code, params) in English; payments are equal whatever their wording.
    wording: Callable[[str, Params], str] | None = field(default=None, compare=False, repr=False)
    # The reason as it was stored or archived beside the payment (read back, never compared).
    said: str | None = field(default=None, compare=False, repr=False)

    def __init__(self, payer: str, payee: str, chips: int, code: str | None, params: Params = NO_PARAMS,
                 wording: Callable[[str, Params], str] | None = None, said: str | None = None):
        d = self.__dict__
        d["payer"], d["payee"], d["chips"], d["code"], d["params"], d["wording"], d["said"] = \
            payer, payee, chips, code, params, wording, said

    @property
    def reason(self) -> str:
        """The reason in English, for people."""
        if self.said is not None:
            return self.said
        if self.wording and self.code is not None:
            return self.wording(self.code, self.params)
        return self.code or ""

    def line(self) -> str:
        return _("{payer} pays {payee} {chips}: {reason}").format(
            payer=self.payer, payee=self.payee, chips=self.chips, reason=shown_reason(self.code, self.params, self.reason))


@dataclass(frozen=True, init=False)
class Tally:
    """A counter for standings and reports: hands played, won, dropped, conditions, points."""

    player: str
    stat: str
    amount: int = 1

    def __init__(self, player: str, stat: str, amount: int = 1):
        d = self.__dict__
        d["player"], d["stat"], d["amount"] = player, stat, amount


@dataclass(init=False, slots=True)
class Step(Generic[StateT]):
    """The result of applying one event to a game state."""

    state: StateT
    payments: list[Payment]
    tallies: list[Tally]
    lines: list[str]
    # False when nothing will read the lines (a check compares only payments, tallies and the
    # stored event): a game may then leave them unworded.
    worded: bool

    def __init__(self, state: StateT, payments: list[Payment] | None = None, tallies: list[Tally] | None = None,
                 lines: list[str] | None = None, worded: bool = True):
        # by hand: a replay makes one Step an event, and the generated one calls a factory a list
        self.state, self.worded = state, worded
        self.payments = [] if payments is None else payments
        self.tallies = [] if tallies is None else tallies
        self.lines = [] if lines is None else lines
