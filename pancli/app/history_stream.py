"""`pan history` read a page at a time: the events of a night in order, each with its words, in
memory that does not grow with the night (but for the N events `--last N` keeps aside).

The events and their words are the ones `pan history --json` gives (app/views.py
``history_data``): every event, undos and voided ones included, an undo worded with what it took
back, the same filters (``names_player``, the last N).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING

from pancli.app.views import event_texts, names_player

if TYPE_CHECKING:
    from pancli.core.rows import LoggedEvent, Session
    from pancli.storage.store import Store

PAGE = 2_000  # events read at once: a few hundred kilobytes however long the night


def pages(store: Store, session: Session, hand: int | None = None) -> Iterator[list[LoggedEvent]]:
    """The session's events (or one hand's) in order, a page at a time."""
    if hand is not None:  # one hand: a few dozen events
        yield store.log.hand_events(session.id, hand)
        return
    last = store.log.last_seq(session.id)
    for first in range(1, last + 1, PAGE):
        page = store.log.session_log(session.id, first, first + PAGE - 1, tallies=False)  # words and payments only
        if page:
            yield page


def history_events(store: Store, session: Session, hand: int | None = None, player: str | None = None,
                   last: int | None = None) -> Iterator[tuple[LoggedEvent, str]]:
    """Each event of `pan history [--hand N] [--player NAME] [--last N]` with its words."""
    if last is not None and last <= 0:
        return
    kept: deque[LoggedEvent] | None = deque(maxlen=last) if last is not None else None
    for page in pages(store, session, hand):
        if player is not None:
            page = [e for e in page if names_player(e.payload, player)]
        if kept is not None:
            kept.extend(page)  # worded once they are known to be the last
        else:
            yield from zip(page, event_texts(store, session, page))
    if kept:
        events = list(kept)
        yield from zip(events, event_texts(store, session, events))
