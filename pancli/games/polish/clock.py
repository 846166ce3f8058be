"""A chess clock for timed Polish Pan: every player gets the same total time (spec B.3 "Timed play").

Pure logic: every function takes the current time as ``now_ms`` (milliseconds from any fixed
origin) and returns a new ``Clock``; nothing here reads the real clock. Only the player whose turn it
is loses time. When that player's time runs out the flag falls: the clock stops, remembers who
flagged, and ``flag_event`` turns that into the ``clock_flag`` event of ``pancli.games.polish.engine`` (Q-B9).

Decisions where the spec is silent:
* A fallen flag freezes the clock; every later operation is refused until a new clock is made.
* ``press`` passes the turn to the next player in seating order unless the caller names one, since
  Pan's turn order depends on the pile (spades back) and on who is out.
* An optional per-move increment (Fischer style) is added to the mover's time on ``press``;
  it is 0 unless asked for.
* A timestamp earlier than the last one is refused as unreadable input.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pancli.core.errors import InputError, RuleError
from pancli.core.i18n import _


@dataclass(frozen=True)
class Clock:
    players: tuple[str, ...]
    remaining_ms: tuple[int, ...]   # banked time per player, not counting the running period
    turn: str                       # whose time runs (or would run) now
    running: bool = False
    since_ms: int | None = None     # when the current running period began
    increment_ms: int = 0
    flagged: str | None = None      # the player whose time ran out
    flagged_at_ms: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Clock:
        return cls(**{**d, "players": tuple(d["players"]), "remaining_ms": tuple(d["remaining_ms"])})


def new_clock(players: Iterable[str], total_ms: int, first: str | None = None, increment_ms: int = 0) -> Clock:
    """A paused clock giving each player ``total_ms``; ``first`` (default: the first seated) moves first."""
    names = tuple(players)
    if len(names) < 2 or len(set(names)) < len(names):
        raise InputError(_("a clock needs two or more players with different names"), _("list each player once"))
    for label, value in (("total", total_ms), ("increment", increment_ms)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            text = (_("the total time must be a whole number of milliseconds, not {value}") if label == "total"
                    else _("the increment must be a whole number of milliseconds, not {value}"))
            raise InputError(text.format(value=repr(value)), _("e.g. 300000 for 5 minutes"))
    if total_ms == 0:
        raise InputError(_("the total time must be more than 0"), _("e.g. 300000 for 5 minutes"))
    first = names[0] if first is None else _known(names, first)
    return Clock(players=names, remaining_ms=(total_ms,) * len(names), turn=first, increment_ms=increment_ms)


def start(clock: Clock, now_ms: int) -> Clock:
    """Start (or resume) the clock of the player in turn."""
    _refuse_flagged(clock)
    if clock.running:
        raise RuleError(_("the clock is already running"), _("pause it first, or press to pass the turn"))
    return dataclasses.replace(clock, running=True, since_ms=_timestamp(now_ms))


def pause(clock: Clock, now_ms: int) -> Clock:
    """Stop the clock, charging the player in turn for the time used; may find that the flag fell."""
    clock = tick(clock, now_ms)
    if clock.flagged or not clock.running:
        return clock
    return dataclasses.replace(_charge(clock, now_ms), running=False, since_ms=None)


def press(clock: Clock, now_ms: int, next_player: str | None = None) -> Clock:
    """The player in turn has moved: charge the time used and start the next player's time."""
    clock = tick(clock, now_ms)
    if clock.flagged:
        return clock
    nxt = _known(clock.players, next_player) if next_player else _seat_after(clock.players, clock.turn)
    charged = _charge(clock, now_ms) if clock.running else clock
    seat = clock.players.index(clock.turn)
    bonus = charged.remaining_ms[seat] + clock.increment_ms
    remaining = charged.remaining_ms[:seat] + (bonus,) + charged.remaining_ms[seat + 1:]
    return dataclasses.replace(charged, remaining_ms=remaining, turn=nxt)


def tick(clock: Clock, now_ms: int) -> Clock:
    """Bring the clock up to ``now_ms``: if the player in turn has run out, the flag falls."""
    _refuse_flagged(clock)
    _timestamp(now_ms)
    if not clock.running or clock.since_ms is None:  # a running clock always has its start
        return clock
    if now_ms < clock.since_ms:
        raise InputError(_("time went backwards: {now} ms is before {since} ms").format(now=now_ms, since=clock.since_ms),
                         _("pass timestamps in increasing order"))
    seat = clock.players.index(clock.turn)
    fall = clock.since_ms + clock.remaining_ms[seat]
    if now_ms < fall:
        return clock
    remaining = clock.remaining_ms[:seat] + (0,) + clock.remaining_ms[seat + 1:]
    return dataclasses.replace(clock, remaining_ms=remaining, running=False, since_ms=None,
                               flagged=clock.turn, flagged_at_ms=fall)


def remaining(clock: Clock, now_ms: int) -> dict[str, int]:
    """Each player's time left at ``now_ms``, never below 0; does not change the clock."""
    left = dict(zip(clock.players, clock.remaining_ms))
    if clock.running and clock.since_ms is not None:
        left[clock.turn] = max(0, left[clock.turn] - max(0, now_ms - clock.since_ms))
    return left


def flag_fallen(clock: Clock, now_ms: int) -> str | None:
    """The player whose time has run out at ``now_ms``, if any."""
    if clock.flagged:
        return clock.flagged
    return clock.turn if clock.running and remaining(clock, now_ms)[clock.turn] == 0 else None


def flag_event(clock: Clock) -> dict[str, Any] | None:
    """The ``clock_flag`` event to record in a Polish Pan game once a flag has fallen, as its
    declared action builds it (games/polish/actions.py, which `pan clock` records)."""
    from pancli.games.actions import by_name  # noqa: PLC0415
    from pancli.games.polish.actions import ACTIONS  # noqa: PLC0415 the declarations load only for a flag

    return dict(by_name(ACTIONS)["clock"].build({"player": clock.flagged})[0]) if clock.flagged else None


def format_ms(ms: int) -> str:
    """``m:ss`` as a clock face shows it, with tenths in the last ten seconds."""
    ms = max(0, ms)
    if ms < 10_000:
        return f"{ms // 1000}.{ms % 1000 // 100}"
    minutes, seconds = divmod(ms // 1000, 60)
    return f"{minutes}:{seconds:02d}"


def _charge(clock: Clock, now_ms: int) -> Clock:
    seat = clock.players.index(clock.turn)
    used = now_ms - (clock.since_ms if clock.since_ms is not None else now_ms)
    remaining_ms = clock.remaining_ms[:seat] + (clock.remaining_ms[seat] - used,) + clock.remaining_ms[seat + 1:]
    return dataclasses.replace(clock, remaining_ms=remaining_ms, since_ms=now_ms if clock.running else None)


def _seat_after(players: tuple[str, ...], player: str) -> str:
    return players[(players.index(player) + 1) % len(players)]


def _known(players: tuple[str, ...], name: str) -> str:
    if name not in players:
        raise InputError(_("no player {name} on this clock").format(name=repr(name)),
                         _("players: {players}").format(players=", ".join(players)))
    return name


def _refuse_flagged(clock: Clock) -> None:
    if clock.flagged:
        raise RuleError(_("{player}'s time has run out; this clock is finished").format(player=clock.flagged),
                        _("record the clock_flag event and start a new clock for the next deal"))


def _timestamp(now_ms: Any) -> int:
    if isinstance(now_ms, bool) or not isinstance(now_ms, int):
        raise InputError(_("a timestamp must be a whole number of milliseconds, not {value}").format(
            value=repr(now_ms)), _("pass now_ms as an int"))
    return now_ms
