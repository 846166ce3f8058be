"""`pan history` read a page at a time: the events of a night in order, each with its words and
its payment lines, in memory that does not grow with the night (but for the N events `--last N`
keeps aside).

The events and their words are the ones `pan history --json` gives (app/views.py
``history_data``): every event, undos and voided ones included, an undo worded with what it took
back, the same filters (``names_player``, the last N). A long night says the same things over and
over (a player drops, the tops pay the winner): an event's words and its payment lines are made
once for each text stored (the payload, the payments' rows), and remembered for the next event
that stores the same, up to ``MEMO`` texts at a time.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pancli.app.views import names_player
from pancli.core.i18n import ENGLISH, language
from pancli.core.ledger import NO_PARAMS, Params
from pancli.core.reasons import shown_reason
from pancli.core.text import called_lines
from pancli.games import game
from pancli.storage.mapping import payload_of

if TYPE_CHECKING:
    from pancli.core.rows import Session
    from pancli.storage.mapping import StoredEvent
    from pancli.storage.store import Store

PAGE = 2_000  # events read at once: a few hundred kilobytes however long the night
# How many texts are remembered at once (then forgotten, and remembered anew): events' words, and
# payments' lines (whose rows take more room).
MEMO, MEMO_PAID = 20_000, 2_000


class Worded(NamedTuple):
    """An event as `pan history` shows it."""

    seq: int
    hand: int | None
    voided: bool                         # an undo took it back
    text: str                            # the event in words
    payments: tuple[str, ...]            # its payments, as ``payment_lines`` says them


def pages(store: Store, session: Session, hand: int | None = None) -> Iterator[list[StoredEvent]]:
    """The session's events (or one hand's) in order, a page at a time."""
    if hand is not None:  # one hand: a few dozen events
        yield store.log.stored_events(session.id, hand=hand)
        return
    last = store.log.last_seq(session.id)
    for first in range(1, last + 1, PAGE):
        page = store.log.stored_events(session.id, first, first + PAGE - 1)
        if page:
            yield page


def _remembered(memo: dict[Any, Any], key: Any, value: Any, most: int = MEMO) -> Any:
    if len(memo) >= most:
        memo.clear()
    memo[key] = value
    return value


def row_lines(rows: Sequence[Sequence[Any]], english: bool) -> list[str]:
    """``payment_lines`` of payments as ``StoredEvent`` holds them (rows of payer, payee, chips,
    code, params, reason, once its JSON text is read), worded straight from the rows: in English
    (``english``) a reason is the one stored, and its particulars are not read."""
    groups: dict[tuple[str, int, str], list[str]] = {}
    said: str | None = None
    params = NO_PARAMS
    for payer, payee, chips, code, text, reason in rows:
        if code is not None and not english:
            if text is None:
                reason = shown_reason(code, NO_PARAMS, reason)
            else:
                if text != said:  # the payers of one thing share its params
                    said, params = text, Params.from_json(text)
                reason = shown_reason(code, params, reason)
        found = groups.get((payee, chips, reason))
        if found is None:
            groups[payee, chips, reason] = [payer]
        else:
            found.append(payer)
    return called_lines(groups)


class _Words:
    """The words of one session's events, each text worded once."""

    def __init__(self, store: Store, session: Session) -> None:
        self.store, self.session, self.game = store, session, game(session.game)
        self.said: dict[str, str] = {}                                # by payload
        self.paid: dict[str, tuple[str, ...]] = {}                    # by payments' rows
        self.about: dict[str, bool] = {}                              # by payload: names the player

    def names(self, e: StoredEvent, player: str) -> bool:
        found = self.about.get(e.payload)
        if found is None:
            found = _remembered(self.about, e.payload, names_player(payload_of(e.payload), player))
        return found

    def worded(self, events: Sequence[StoredEvent]) -> Iterator[Worded]:
        """Each event with its words; an undo's with what it took back (an event of ``events``,
        or read)."""
        payloads: dict[int, str] | None = None
        english = language() == ENGLISH
        for e in events:
            if e.undo_of is None:
                text = self.said.get(e.payload)
                if text is None:
                    text = _remembered(self.said, e.payload, self.game.event_words(payload_of(e.payload), None))
            else:
                if payloads is None:
                    payloads = {x.seq: x.payload for x in events}
                undone = payloads.get(e.undo_of)
                found = payload_of(undone) if undone is not None else (
                    self.store.log.payloads_by_seq(self.session.id, [e.undo_of]).get(e.undo_of))
                text = self.game.event_words(payload_of(e.payload), found)
            lines: tuple[str, ...] = ()
            if e.payments:
                lines = self.paid.get(e.payments) or _remembered(
                    self.paid, e.payments, tuple(row_lines(json.loads(e.payments), english)), MEMO_PAID)
            yield Worded(e.seq, e.hand, e.voided_by is not None, text, lines)


def history_events(store: Store, session: Session, hand: int | None = None, player: str | None = None,
                   last: int | None = None) -> Iterator[Worded]:
    """Each event of `pan history [--hand N] [--player NAME] [--last N]` with its words."""
    if last is not None and last <= 0:
        return
    words = _Words(store, session)
    kept: deque[StoredEvent] | None = deque(maxlen=last) if last is not None else None
    for page in pages(store, session, hand):
        if player is not None:
            page = [e for e in page if words.names(e, player)]
        if kept is not None:
            kept.extend(page)  # worded once they are known to be the last
        else:
            yield from words.worded(page)
    if kept:
        yield from words.worded(list(kept))
