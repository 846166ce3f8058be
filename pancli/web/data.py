"""What the pages and /api/… read: the CLI's own JSON builders, over read-only connections.

Requests run in worker threads; each thread opens its own read-only Store. Results of the
costlier builders are kept until the database changes (``Reader.generation``, bumped by the
server's one poller), so fifty phones refreshing after an event cost one build, not fifty.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

from pancli.app.recorder import Recorder
from pancli.app.reports import player_career, resolve_known, sessions_overview
from pancli.app.views import board_data, history_data, settle_json, settle_result, standings_data
from pancli.core.errors import InputError
from pancli.core.rows import Session, StoredEvent
from pancli.storage.store import Store

HANDS_PER_PAGE = 10
RECENT_EVENTS = 12


class NotFound(InputError):
    """An unknown session, player or page: 404, with the reason."""


class HandIndex:
    """Where each hand lies in a session's log: runs of consecutive seq numbers per hand.

    The log is append-only, so the index is built once (one pass over the session's events)
    and then extended with the events after the last seq it saw. A hand is almost always one
    run; an undo recorded hands later but belonging to an older hand adds a short run.
    """

    def __init__(self):
        self.last_seq = 0
        self.last_hand: object = object()
        self.runs: dict[int | None, list[list[int]]] = {}
        self.lock = threading.Lock()

    def update(self, store, session_id: int) -> None:
        with self.lock:
            for seq, hand in store.log.event_hands(session_id, self.last_seq):
                runs = self.runs.setdefault(hand, [])
                if runs and hand == self.last_hand and runs[-1][1] == self.last_seq:
                    runs[-1][1] = seq
                else:
                    runs.append([seq, seq])
                self.last_seq, self.last_hand = seq, hand

    def hands(self) -> list[int | None]:
        """Oldest first; events before the first hand (None) come first."""
        return sorted(self.runs, key=lambda h: -1 if h is None else h)

    def ranges(self, hands) -> list[tuple[int, int]]:
        """The seq ranges holding these hands' events, merged where they touch."""
        spans = sorted(tuple(r) for h in hands for r in self.runs.get(h, ()))
        merged: list[list[int]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        return [(a, b) for a, b in merged]


class _Pending:
    def __init__(self):
        self.done = threading.Event()
        self.value = None
        self.error: BaseException | None = None


class Reader:
    def __init__(self, db_path: str | Path, session: str | None = None, cache_size: int = 256):
        self.path = Path(db_path)
        self.default_session = session
        self.generation = 0     # bumped by the poller on every change: tells the pages to refresh
        self.mark: tuple | None = None  # the database's change mark the poller saw last (Store.change_mark)
        self._local = threading.local()
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._hands: dict[int, HandIndex] = {}
        self._pending: dict = {}
        Store(self.path, readonly=True).close()  # a missing or foreign file is refused at start

    # -- plumbing --------------------------------------------------------------------------

    def store(self):
        store = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = Store(self.path, readonly=True)
        return store

    def peek(self, key):
        """The kept value for ``key`` as of the poller's last look, or None (for a caller on the
        event loop, which must not wait on the database)."""
        with self._lock:
            return self._cache.get((self.mark, key))

    def cached(self, key, build):
        """``build()``, kept until the database changes (checked on every call, so a reload right
        after an event is fresh even before the poller sees it). Requests that ask for the same
        thing at once (fifty phones told of the same event) wait for one build instead of each making it."""
        key = (self.store().change_mark(), key)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            pending = self._pending.get(key)
            owner = pending is None
            if pending is None:
                pending = self._pending[key] = _Pending()
        if not owner:
            pending.done.wait()
            if pending.error is not None:
                raise pending.error
            return pending.value
        try:
            pending.value = build()
        except BaseException as e:
            pending.error = e
            raise
        finally:
            with self._lock:
                if pending.error is None:
                    self._cache[key] = pending.value
                    while len(self._cache) > self._cache_size:
                        self._cache.popitem(last=False)
                del self._pending[key]
            pending.done.set()
        return pending.value

    def session(self, name: str | None = None) -> Session:
        try:
            return self.store().session(name or self.default_session)
        except InputError as e:
            raise NotFound(e.message, e.hint) from None

    def recorder(self, session: Session):
        return Recorder(self.store(), session)

    def hand_index(self, session_id: int) -> HandIndex:
        with self._lock:
            index = self._hands.setdefault(session_id, HandIndex())
        index.update(self.store(), session_id)
        return index

    # -- the JSON objects (the same as the CLI's --json) ------------------------------------

    def board(self, session: Session) -> dict:
        return board_data(self.recorder(session))

    def standings(self, session: Session) -> dict:
        return standings_data(self.recorder(session))

    def history(self, session: Session, hand: int | None = None, page: int = 1, everything: bool = False) -> dict:
        """`pan history --json` (``everything``), `pan history --hand N --json` (``hand``), or one page
        of HANDS_PER_PAGE hands, newest page first, in the same shape with ``page`` and ``pages``."""
        store = self.store()
        if everything:
            return self.cached(("history", session.id), lambda: history_data(store, session))
        index = self.hand_index(session.id)
        if hand is not None:
            return history_data(store, session, events=self._events(store, session, index, [hand]))
        hands = index.hands()
        pages = max(1, -(-len(hands) // HANDS_PER_PAGE))
        if page < 1 or page > pages:
            raise NotFound(f"there is no page {page} of the history of '{session.name}'",
                           f"pages 1 to {pages}")
        end = len(hands) - (page - 1) * HANDS_PER_PAGE
        chosen = hands[max(0, end - HANDS_PER_PAGE):end]
        data = history_data(store, session, events=self._events(store, session, index, chosen))
        return data | {"hands": chosen, "page": page, "pages": pages}

    @staticmethod
    def _events(store, session: Session, index: HandIndex, hands) -> list[StoredEvent]:
        wanted = set(hands)
        with store.snapshot():
            events = [e for a, b in index.ranges(hands) for e in store.log.session_log(session.id, a, b)]
        return [e for e in events if e.hand in wanted]

    def recent(self, session: Session, count: int = RECENT_EVENTS) -> dict:
        store = self.store()
        with store.snapshot():
            last = store.log.last_seq(session.id)
            events = store.log.session_log(session.id, max(1, last - count + 1), last) if last else []
        return history_data(store, session, events=events)

    def settle(self, session: Session) -> tuple:
        s, value = settle_result(self.store(), session)
        return s, settle_json(session, s)

    def player(self, name: str) -> dict:
        store = self.store()
        try:
            resolved = resolve_known(store, name)
        except InputError as e:
            raise NotFound(e.message, e.hint) from None
        return self.cached(("player", resolved), lambda: player_career(store, resolved))

    def sessions(self) -> list[dict]:
        store = self.store()
        return self.cached(("sessions",), lambda: sessions_overview(store))

    def session_names(self) -> list[dict]:
        return [{"name": s.name, "game": s.game, "id": s.id} for s in self.store().sessions()]
