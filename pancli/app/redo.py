"""`redo`: what undo took back, recorded again. One implementation, for the table shell (`redo`)
and the dealer's page (its Redo button).

What can be redone is read from the log, whoever undid it (the keyboard, a phone, another
terminal): an undo adds the event it took back, the same event recorded again takes it off, and
any other event clears it. Redo records the last of them again, through the recorder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pancli.core.i18n import _

if TYPE_CHECKING:
    from pancli.app.recorder import Recorder
    from pancli.core.ledger import Step
    from pancli.games.protocol import Game
    from pancli.storage.store import Store

WINDOW = 60  # events looked back over for what undo took back: a night's run of undos is a few


def redo_stack(store: Store, session_id: int) -> list[dict[str, Any]]:
    """What undo took back and nothing new has replaced yet, newest last."""
    last = store.log.last_seq(session_id)
    stack: list[dict[str, Any]] = []
    events = store.log.session_log(session_id, max(1, last - WINDOW + 1))
    undone = store.log.payloads_by_seq(session_id, [e.undo_of for e in events if e.undo_of is not None])
    for e in events:
        if e.undo_of is not None:
            if e.undo_of in undone:
                stack.append(undone[e.undo_of])
        elif stack and e.payload == stack[-1]:
            stack.pop()
        else:
            stack.clear()
    return stack


def redo(rec: Recorder, worded: bool = True) -> tuple[dict[str, Any], list[Step[Any]]] | None:
    """Record again the last event undo took back: (its payload, the steps recorded), or None when
    there is nothing to redo (each face says so in its own words)."""
    stack = redo_stack(rec.store, rec.session.id)
    if not stack:
        return None
    payload = stack[-1]
    return payload, rec.record_many([payload], worded=worded)


def redid(game: Game[Any, Any], payload: dict[str, Any]) -> str:
    """The first line a redo prints, on every face."""
    return _("Redid: {event}").format(event=game.event_words(payload))
