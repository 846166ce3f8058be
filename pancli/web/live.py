"""Live updates: the one poller that watches the database, and the hub that tells every open page.

ONE poller thread watches the database (``PRAGMA data_version``, a few times a second, on its own
read-only connection) and fans a message out to every connected page; an undo is an event too,
so it shows the same way.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from pancli.core.errors import PanError
from pancli.storage.store import Store
from pancli.web.data import Reader, file_identity

POLL_SECONDS = 0.2
KEEPALIVE_SECONDS = 5   # a ping this often when nothing happens: two missed and a page says it is not live


class Hub:
    """The connected pages: each has a queue; the poller's messages go to all of them."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[str | None]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    def subscribe(self) -> asyncio.Queue[str | None]:
        q: asyncio.Queue[str | None] = asyncio.Queue(maxsize=8)
        self.queues.add(q)
        return q

    def unsubscribe(self, q: asyncio.Queue[str | None]) -> None:
        self.queues.discard(q)

    def publish(self, message: str | None) -> None:
        for q in list(self.queues):
            if q.full():  # a page that stopped reading: the newest message is all it needs
                q.get_nowait()
            q.put_nowait(message)

    def close(self) -> None:
        """Ends every stream (Ctrl-C), so the server stops at once instead of waiting on them."""
        self.closed = True
        self.publish(None)

    def close_threadsafe(self) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.close)


def current_of(store: Store, reader: Reader) -> dict[str, Any] | None:
    """The session a page opened for "the current session" shows now (its id and name), or None:
    the one `pan serve --session` named, else the one `pan session new`/`use` made current."""
    try:
        s = store.session(reader.default_session)
    except PanError:
        return None
    return {"id": s.id, "name": s.name}


class Poller(threading.Thread):
    """Watches the database for commits by other connections, and for another file put in its
    place, and tells the hub what changed."""

    def __init__(self, reader: Reader, hub: Hub, interval: float = POLL_SECONDS):
        super().__init__(name="pan-serve-poller", daemon=True)
        self.reader, self.hub, self.interval = reader, hub, interval
        self.stopped = threading.Event()

    def run(self) -> None:
        reader = self.reader
        identity = file_identity(reader.path)  # before opening: a file swapped in meanwhile is seen next time
        store = Store(reader.path, readonly=True)
        try:
            version = store.data_version()
            last_id = store.last_event_id_of_all()
            reader.mark = reader.mark_of(store, reader.epoch)
            reader.current = current_of(store, reader)
            try:  # warm the hand index of the session shown by default, for the first history page
                reader.hand_index(store.session(reader.default_session).id)
            except PanError:
                pass
            while not self.stopped.wait(self.interval):
                try:
                    now_identity = file_identity(reader.path)
                    if now_identity is not None and now_identity != identity:
                        fresh = Store(reader.path, readonly=True)  # refused (half-written, foreign): tried again
                        store.close()
                        store, identity = fresh, now_identity
                        version, last_id = store.data_version(), store.last_event_id_of_all()
                        reader.reopen()
                        changed, whole = {}, True
                    else:
                        now = store.data_version()
                        if now == version:
                            continue
                        version = now
                        changed = store.sessions_changed_since(last_id)
                        newest = store.last_event_id_of_all()
                        whole = newest < last_id  # the log is shorter: restored in place, read afresh
                        last_id = newest
                        if whole:
                            reader.reopen()
                    reader.mark = reader.mark_of(store, reader.epoch)
                    reader.current = current_of(store, reader)
                except Exception:  # a damaged or vanished file: keep serving what can be read
                    continue
                reader.generation += 1
                message = json.dumps({"generation": reader.generation, "current": reader.current,
                                      "sessions": [] if whole else sorted(changed), "any": whole or not changed})
                loop = self.hub.loop
                if loop is not None and not loop.is_closed():
                    loop.call_soon_threadsafe(self.hub.publish, message)
        finally:
            store.close()
