"""`pan clock`: a chess clock for the current Polish Pan deal."""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from pancli.cli.commands.other_games.game_commands import game_recorder, record_action
from pancli.cli.groups import command_set
from pancli.cli.output import console, say
from pancli.cli.params import CountType
from pancli.core.errors import InputError, RuleError
from pancli.core.i18n import _, pgettext

if TYPE_CHECKING:
    from rich.table import Table

    from pancli.games.polish.clock import Clock

# What the clock shows after each tick: (clock, now in ms, the players out of the deal).
Show = Callable[["Clock", int, set[str]], None]

commands = command_set()  # what this module adds to `pan`


# == the chess clock ======================================================================

PASS_KEYS = (" ", "\r", "\n")


def _now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@contextmanager
def _open_keys() -> Iterator[Callable[[float], str | None]]:
    """Single key presses from the terminal: yields ``read(timeout_seconds) -> key or None``."""
    if not sys.stdin.isatty():
        raise InputError(_("pan clock needs a terminal to read the keys"), _("run it in a terminal window"))
    try:
        import termios  # noqa: PLC0415 the platform's own, tried in turn
        import tty  # noqa: PLC0415 the platform's own, tried in turn
    except ImportError:  # Windows
        import msvcrt  # noqa: PLC0415 the platform's own, tried in turn

        if sys.platform != "win32":  # never: msvcrt is only on Windows; tells mypy what follows is Windows code
            raise

        def read_windows(timeout: float) -> str | None:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if msvcrt.kbhit():
                    return msvcrt.getwch()
                time.sleep(0.01)
            return None

        yield read_windows
        return

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        def read(timeout: float) -> str | None:
            ready, _writable, _errors = select.select([fd], [], [], timeout)
            return os.read(fd, 1).decode(errors="ignore") if ready else None

        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def run_clock(clock: Clock, now: Callable[[], int], read_key: Callable[[float], str | None],
              show: Show = lambda clock, now_ms, out: None, out: set[str] | None = None,
              refresh_s: float = 0.1) -> tuple[str, Clock]:
    """Run a chess clock until a flag falls, the deal is decided, or someone quits.

    ``now`` gives the time in milliseconds and ``read_key(timeout)`` waits at most ``timeout``
    seconds for a key: space or enter passes the turn to the next player still in the deal,
    b passes it back (spades back), o marks the player on move as out and passes on, p pauses or
    resumes, q quits. Returns ``(how, clock)`` with how one of "flag", "decided", "quit".
    """
    from pancli.games.polish import clock as ck  # noqa: PLC0415 start-up: the game engine

    out = out if out is not None else set()
    clock = ck.start(clock, now())
    while True:
        t = now()
        clock = ck.tick(clock, t)
        show(clock, t, out)
        if clock.flagged:
            return "flag", clock
        wait = refresh_s
        if clock.running:
            wait = min(refresh_s, max(0.0, ck.remaining(clock, t)[clock.turn] / 1000))
        key = read_key(wait)
        if key is None:
            continue
        key = key.lower()
        t = now()
        clock = ck.tick(clock, t)
        if clock.flagged:  # the time ran out before the key was pressed
            show(clock, t, out)
            return "flag", clock
        if key == "q":
            return "quit", clock
        if key == "p":
            clock = ck.pause(clock, t) if clock.running else ck.start(clock, t)
            continue
        if key == "o":
            out.add(clock.turn)
        if key in PASS_KEYS or key in ("b", "o"):
            nxt = _next_on_clock(clock.players, clock.turn, out, back=key == "b")
            if nxt is None:
                clock = ck.pause(clock, t) if clock.running else clock
                show(clock, t, out)
                return "decided", clock
            clock = ck.press(clock, t, nxt)


def _next_on_clock(players: tuple[str, ...], mover: str, out: set[str], back: bool = False) -> str | None:
    active = [p for p in players if p not in out]
    if len(active) < 2:
        return None
    n, seat, step = len(players), players.index(mover), -1 if back else 1
    for i in range(1, n + 1):
        candidate = players[(seat + step * i) % n]
        if candidate not in out:
            return candidate
    return None


def _clock_view(clock: Clock, now_ms: int, out: set[str]) -> Table:
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    from pancli.games.polish.clock import format_ms, remaining  # noqa: PLC0415 start-up: the game engine

    left = remaining(clock, now_ms)
    if clock.flagged:
        state = pgettext("clock", "flag!")
    else:
        state = pgettext("clock", "running") if clock.running else pgettext("clock", "paused")
    # Translators: the keys (space/enter, b, o, p, q) stay as they are
    table = Table(title=_("Pan clock · {state} · space/enter: pass · b: back · o: out · p: pause · q: quit").format(
        state=state), title_justify="left")
    table.add_column("")
    table.add_column(pgettext("clock column", "player"))
    table.add_column(pgettext("clock column", "time"), justify="right")
    for p in clock.players:
        mark = "▶" if p == clock.turn else ""
        style = "dim" if p in out else ("bold red" if p == clock.flagged else ("bold" if p == clock.turn else None))
        name = _("{player} (out)").format(player=p) if p in out else p
        table.add_row(mark, name, format_ms(left[p]), style=style)
    return table


@commands.command("clock")
def clock_command(
    minutes: float | None = typer.Option(None, "--minutes", "-m", min=0.05,
                                            help="Minutes per player (default: house rule clock_minutes, else 5)."),
    increment: int = typer.Option(0, "--increment", "-i", click_type=CountType("a number of seconds", 0, 86_400),
                                  help="Seconds added to a player's time per move."),
    first: str | None = typer.Option(None, "--first", metavar="NAME",
                                        help="Who moves first: the holder of the 9♥ (default: the first seat)."),
) -> None:
    """A chess clock for the current Polish Pan deal; a player whose time runs out loses the deal.

    Keys: space or enter passes the turn, b passes it back (spades back), o marks the player on
    move as out, p pauses, q quits. A fallen flag is recorded as a clock_flag event.

    Example: pan clock --minutes 3 --first ana
    """
    from pancli.games.polish import clock as ck  # noqa: PLC0415 start-up: the game engine

    recorder = game_recorder("polish")
    state = recorder.state()
    if state.over:
        raise RuleError(_("the game is over: {player} completed {word}").format(player=state.loser,
                                                                             word=state.rules.word),
                        _("start a new session to play on"))
    total_minutes = minutes if minutes is not None else (state.rules.clock_minutes or 5)
    players = list(state.players)
    clock = ck.new_clock(players, int(round(total_minutes * 60_000)),
                         recorder.player(first) if first else None, increment * 1000)
    gone: set[str] = set()
    con = console()
    with _open_keys() as read_key:
        if con.is_terminal:
            from rich.live import Live  # noqa: PLC0415 start-up: rich

            with Live(_clock_view(clock, 0, gone), console=con, refresh_per_second=10, transient=False) as live:
                how, clock = run_clock(clock, _now_ms, read_key,
                                       lambda c, t, out: live.update(_clock_view(c, t, out)), gone)
        else:
            how, clock = run_clock(clock, _now_ms, read_key, out=gone)
    if how == "flag":
        # Translators: the table is told the player lost on time (Polish seed: "przegrywa on automatycznie")
        say(_("{player}'s time has run out.").format(player=clock.flagged))
        assert clock.flagged is not None  # how is "flag" only once a flag has fallen
        record_action("polish", "clock", player=clock.flagged)  # its declaration (games/polish/actions.py)
    elif how == "decided":
        holding = [p for p in players if p not in gone]
        say(_("Deal decided: {player} is left holding cards; record it with `pan polish lost {player}` "
              "(or `pan polish nolose`).").format(player=holding[0]))
    else:
        say(_("Clock stopped; nothing recorded."))
