"""What the pages and /api/… read: the CLI's own JSON builders, over read-only connections.

Requests run in worker threads; each thread opens its own read-only Store. Results of the
costlier builders are kept until the database changes (``Reader.generation``, bumped by the
server's one poller), so fifty phones refreshing after an event cost one build, not fifty.

A file put in place of the database (a restore renames a whole new one over it) is another
file: connections opened before keep reading the old one. The poller notices (``file_identity``
changes) and calls ``Reader.reopen``: each thread then opens the new file on its next request,
and nothing kept from the old one is used again (``epoch``).
"""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pancli.app.career import resolve_known
from pancli.app.persons import player_career
from pancli.app.recorder import Recorder
from pancli.app.reports import sessions_overview, sheet_grid
from pancli.app.views import board_data, history_data, settle_json, settle_result, standings_data
from pancli.core.errors import InputError
from pancli.core.i18n import _, language
from pancli.core.rows import LoggedEvent, Session
from pancli.storage.store import Store

if TYPE_CHECKING:
    from pancli.app.view_types import BoardJson, HistoryJson, HistoryPageJson, SettleJson, StandingsJson
    from pancli.core.settle import Settlement

HANDS_PER_PAGE = 10
RECENT_EVENTS = 12
SHEET_HANDS = 60  # the most hands the settle-up page lays out hand by hand
CACHE_BYTES = 64 * 2**20  # what kept answers may hold: a few hundred pages of a long night

T = TypeVar("T")


class NotFound(InputError):
    """An unknown session, player or page: 404, with the reason."""


class HandIndex:
    """Where each hand lies in a session's log: runs of consecutive seq numbers per hand.

    The log is append-only, so the index is built once (one pass over the session's events)
    and then extended with the events after the last seq it saw. A hand is almost always one
    run; an undo recorded hands later but belonging to an older hand adds a short run.
    """

    def __init__(self) -> None:
        self.last_seq = 0
        self.last_hand: object = object()
        self.runs: dict[int | None, list[list[int]]] = {}
        self.lock = threading.Lock()

    def update(self, store: Store, session_id: int) -> None:
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

    def ranges(self, hands: Iterable[int | None]) -> list[tuple[int, int]]:
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
    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


def size_of(value: object) -> int:
    """Roughly the memory a kept value holds: exact for text, a walk of a JSON-like object."""
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(size_of(k) + size_of(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return sys.getsizeof(value) + sum(size_of(v) for v in value)
    return sys.getsizeof(value)


def file_identity(path: Path) -> tuple[int, int] | None:
    """Which file the path names now (device and inode), or None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class Reader:
    def __init__(self, db_path: str | Path, session: str | None = None, cache_size: int = 256,
                 cache_bytes: int = CACHE_BYTES):
        self.path = Path(db_path)
        self.default_session = session
        self.generation = 0     # bumped by the poller on every change: tells the pages to refresh
        self.mark: tuple[int, ...] | None = None  # (epoch, the change mark) the poller saw last (Store.change_mark)
        self.current: dict[str, Any] | None = None  # the session "the current session" is now, as the poller saw it
        self.epoch = 0          # bumped when the file is replaced: every thread opens it afresh
        self._local = threading.local()
        self._cache: OrderedDict[Any, tuple[Any, int]] = OrderedDict()  # (mark, key) -> (value, its size in bytes)
        self._cache_size, self._cache_bytes, self._bytes = cache_size, cache_bytes, 0
        self._lock = threading.Lock()
        self._hands: dict[tuple[int, int], HandIndex] = {}  # (epoch, session id) -> its index
        self._pending: dict[Any, _Pending] = {}
        Store(self.path, readonly=True).close()  # a missing or foreign file is refused at start

    # -- plumbing --------------------------------------------------------------------------

    def store(self) -> Store:
        """This thread's connection, opened afresh after the file was replaced."""
        local = self._local
        store: Store | None = getattr(local, "store", None)
        if store is None or local.epoch != self.epoch:
            epoch = self.epoch
            if store is not None:
                local.store = None
                store.close()
            store = local.store = Store(self.path, readonly=True)
            local.epoch = epoch
        return store

    def store_epoch(self) -> int:
        """The epoch of the file this thread's connection reads (the one ``store()`` gave)."""
        epoch: int = self._local.epoch
        return epoch

    def mark_of(self, store: Store, epoch: int) -> tuple[int, ...]:
        """What kept answers read from ``store`` are filed under: its file and its change mark."""
        return (epoch, *store.change_mark())

    def reopen(self) -> None:
        """Another file is in the database's place, or its log was rewritten: nothing read from the
        old one is kept, and every thread opens the file again on its next request."""
        with self._lock:
            self.epoch += 1
            self._hands.clear()
            self._cache.clear()
            self._bytes = 0

    def peek(self, key: object) -> Any:
        """The kept value for ``key`` as of the poller's last look, or None (for a caller on the
        event loop, which must not wait on the database)."""
        with self._lock:
            kept = self._cache.get((self.mark, key))
        return None if kept is None else kept[0]

    def kept(self) -> list[Any]:
        """The keys of the answers kept now (of every change mark)."""
        with self._lock:
            return [key for _, key in self._cache]

    def forget(self) -> None:
        """Drops every kept answer (a database put in place of another keeps none of its own)."""
        with self._lock:
            self._cache.clear()
            self._bytes = 0

    def kept_bytes(self) -> int:
        with self._lock:
            return self._bytes

    def _keep(self, key: object, value: object) -> None:
        """Keeps an answer, the least recently used going first past the count or the bytes; an
        answer bigger than a quarter of the bound (a whole long night as JSON) is served but not
        kept, so that it cannot push out every page the phones keep asking for."""
        size = size_of(value)
        if size > self._cache_bytes // 4:
            return
        self._cache[key] = (value, size)
        self._bytes += size
        while len(self._cache) > self._cache_size or self._bytes > self._cache_bytes:
            self._bytes -= self._cache.popitem(last=False)[1][1]

    def cached(self, key: object, build: Callable[[], T]) -> T:
        """``build()``, kept until the database changes (checked on every call, so a reload right
        after an event is fresh even before the poller sees it). Requests that ask for the same
        thing at once (fifty phones told of the same event) wait for one build instead of each making it."""
        store = self.store()
        key = (self.mark_of(store, self.store_epoch()), key)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                found: T = self._cache[key][0]
                return found
            pending = self._pending.get(key)
            owner = pending is None
            if pending is None:
                pending = self._pending[key] = _Pending()
        if not owner:
            pending.done.wait()
            if pending.error is not None:
                raise pending.error
            waited: T = pending.value
            return waited
        try:
            pending.value = build()
        except BaseException as e:
            pending.error = e
            raise
        finally:
            with self._lock:
                if pending.error is None and key not in self._cache:
                    self._keep(key, pending.value)
                del self._pending[key]
            pending.done.set()
        made: T = pending.value
        return made

    def session(self, name: str | None = None) -> Session:
        try:
            return self.store().session(name or self.default_session)
        except InputError as e:
            raise NotFound(e.message, e.hint) from None

    def recorder(self, session: Session) -> Recorder:
        return Recorder(self.store(), session)

    def hand_index(self, session_id: int) -> HandIndex:
        store = self.store()
        with self._lock:
            index = self._hands.setdefault((self.store_epoch(), session_id), HandIndex())
        index.update(store, session_id)
        return index

    # -- the JSON objects (the same as the CLI's --json) ------------------------------------

    def board(self, session: Session) -> BoardJson:
        return board_data(self.recorder(session))

    def standings(self, session: Session) -> StandingsJson:
        return standings_data(self.recorder(session))

    def history(self, session: Session, hand: int | None = None, page: int = 1, everything: bool = False) -> HistoryJson:
        """`pan history --json` (``everything``), `pan history --hand N --json` (``hand``), or one page
        (``history_page``)."""
        store = self.store()
        if everything:  # kept by the caller as the JSON it answers with, not twice
            return history_data(store, session)
        if hand is not None:
            index = self.hand_index(session.id)
            return history_data(store, session, events=self._events(store, session, index, [hand]))
        return self.history_page(session, page)

    def history_page(self, session: Session, page: int = 1) -> HistoryPageJson:
        """One page of HANDS_PER_PAGE hands, newest page first: the history's shape with the page's
        ``hands``, its number and how many ``pages`` there are."""
        store = self.store()
        index = self.hand_index(session.id)
        hands = index.hands()
        pages = max(1, -(-len(hands) // HANDS_PER_PAGE))
        if page < 1 or page > pages:
            raise NotFound(_("there is no page {page} of the history of '{session}'").format(
                page=page, session=session.name), _("pages 1 to {pages}").format(pages=pages))
        end = len(hands) - (page - 1) * HANDS_PER_PAGE
        chosen = hands[max(0, end - HANDS_PER_PAGE):end]
        data = history_data(store, session, events=self._events(store, session, index, chosen))
        return {**data, "hands": chosen, "page": page, "pages": pages}

    @staticmethod
    def _events(store: Store, session: Session, index: HandIndex, hands: Iterable[int | None]) -> list[LoggedEvent]:
        wanted = set(hands)
        with store.snapshot():
            events = [e for a, b in index.ranges(hands) for e in store.log.session_log(session.id, a, b)]
        return [e for e in events if e.hand in wanted]

    def recent(self, session: Session, count: int = RECENT_EVENTS) -> HistoryJson:
        store = self.store()
        with store.snapshot():
            last = store.log.last_seq(session.id)
            events = store.log.session_log(session.id, max(1, last - count + 1), last) if last else []
        return history_data(store, session, events=events)

    def settle(self, session: Session) -> tuple[Settlement, SettleJson]:
        s, value = settle_result(self.store(), session)
        return s, settle_json(session, s)

    def sheet(self, session: Session) -> dict[str, Any] | None:
        """The night hand by hand (pancli.app.reports.sheet_grid) for the settle-up page, or None past
        SHEET_HANDS hands: a longer night fits no sheet of paper, and reading it would slow the page."""
        hands = [h for h in self.hand_index(session.id).hands() if h is not None]  # kept: no scan of the log
        if hands and max(hands) > SHEET_HANDS:
            return None
        return sheet_grid(self.store(), session)

    def player_name(self, text: str) -> str:
        """The player's name as recorded, from what was typed (any case, a unique start)."""
        try:  # kept like an answer: a long night's players take a while to list
            return self.cached(("player-name", text), lambda: resolve_known(self.store(), text))
        except InputError as e:
            raise NotFound(e.message, e.hint) from None

    def player(self, name: str) -> dict[str, Any]:
        resolved = self.player_name(name)
        store = self.store()
        # its words (the favourite condition) are said in the request's language
        return self.cached(("player", resolved, language()), lambda: player_career(store, resolved))

    def sessions(self) -> list[dict[str, Any]]:
        store = self.store()
        return self.cached(("sessions", language()), lambda: sessions_overview(store))

    def session_names(self) -> list[dict[str, Any]]:
        return [{"name": s.name, "game": s.game, "id": s.id} for s in self.store().sessions()]
