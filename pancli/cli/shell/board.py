"""Where the table stands, as `pan table` shows it: the prompt, the live board after a line that
changed something, and the game's words when a line ends a hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pancli.cli.shell.bugs import expected_errors
from pancli.core.i18n import _
from pancli.core.ledger import POOLS
from pancli.core.names import inert
from pancli.core.words import signed

if TYPE_CHECKING:
    from pancli.app.recorder import Recorder
    from pancli.cli.shell.protocol import Shell

    TableState = tuple[int, Any]  # the session's id and its game's state


def prompt_text(shell: Shell) -> str:
    rec = shell.recorder()
    if rec is None:
        return "pan> "
    try:
        state = rec.state()
    except expected_errors():  # a damaged log: the next line's command says so
        state = None
    status = rec.game.status(state) if state is not None else None
    where = rec.session.name + (f" · {status}" if status else "")
    return f"{inert(where)}> "


def board_lines(shell: Shell) -> list[str]:
    """The live board in one to three lines: the hand, who is in with melds and chips, the night."""
    rec = shell.recorder()
    if rec is None:
        return []
    return [inert(line) for line in compact_board(rec)]  # names from the log, shown inert


def table_state(shell: Shell) -> TableState | None:
    """The current session's id and state, or None."""
    rec = shell.recorder()
    if rec is None:
        return None
    try:
        return rec.session.id, rec.state()
    except expected_errors():  # a damaged log: the line's own command says so
        return None


def hand_over_lines(shell: Shell, before: TableState | None) -> list[str]:
    """When a line ends a hand: the game's words on it (who won, who deals next…); ``before`` is
    the table_state before the line."""
    after = table_state(shell)
    rec = shell.recorder()
    if after is None or rec is None:
        return []
    state_before = before[1] if before is not None and before[0] == after[0] else None
    return rec.game.hand_over_lines(state_before, after[1])


def compact_board(rec: Recorder) -> list[str]:
    """One to three lines: the game's own (in Panguingue the hand, who is in with melds, worth and
    chips), then the night's totals."""
    state, balances = rec.standing()
    lines = rec.game.board_lines(rec.game.board(rec.session, state))
    seats = rec.game.players(state)
    names = list(seats) + [p for p in balances if p not in seats and p not in POOLS]
    night = " · ".join(f"{p} {signed(balances.get(p, 0), zero='+0')}" for p in sorted(names, key=lambda p: -balances.get(p, 0)))
    # Translators: the board's last line: the night's chips so far, "Ana +12 · Ben -12"
    lines.append(_("night: {totals}").format(totals=night))
    return lines
