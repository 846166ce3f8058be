"""`pan sync --watch`: the folder and this database kept in step by themselves.

One loop, one sync at a time: sync once, then wait until something worth a sync happens and sync
again, until Ctrl-C. What is worth a sync is decided by a cheap look, the *state*, taken after
each sync and again on every wake-up:

* the folder: every other device's subfolder, its archives and its club roster entries (names,
  sizes, modification times), hidden files skipped (a sync engine's temporary files). This
  device's own subfolder is left out: the sync itself writes it (``device.json`` every time), and
  a state that included it would wake the loop after each of its own syncs, for ever;
* this database: the newest event's id of the sessions this device records. What a sync imports
  is another device's, so only an event recorded here (by `pan`, the table shell, the dealer's
  page) makes it differ.

Waking up: the folder through ``watchfiles`` (file-system notifications: inotify, FSEvents,
ReadDirectoryChangesW), debounced, so a burst of changes (a sync engine bringing ten files) is one
sync; where it cannot watch (not installed, no wheel for the platform) a look every
``POLL_SECONDS``. The database is looked at every ``DB_SECONDS`` (one indexed query, as `pan
serve`'s poller does): SQLite writes to a journal beside it that comes and goes, which no watch on
a path follows reliably. Either way the state decides, so a notification that changes nothing
(this device's own writes) costs one look and no sync.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pancli.storage.store import Store

POLL_SECONDS = 2.0     # a look at the folder this often where the platform cannot watch
DB_SECONDS = 1.0       # a look at the database this often (one query of its newest event's id)
FOLDER_LOOKS = 30      # with notifications, a look at the folder all the same every 30 database looks
DEBOUNCE_MS = 400      # changes this close together are one wake-up


@dataclass(frozen=True)
class State:
    folder: frozenset[tuple[str, int, int]]
    newest_event: int


def folder_state(root: Path, me: str) -> frozenset[tuple[str, int, int]]:
    """Every file below the other devices' subfolders (two levels: archives and the roster's
    entries), as (relative path, size, modification time); links and hidden files skipped."""
    seen: set[tuple[str, int, int]] = set()

    def walk(path: Path, rel: str, depth: int) -> None:
        try:
            entries = list(os.scandir(path))
        except OSError:
            return
        for e in entries:
            if e.name.startswith(".") or e.is_symlink():
                continue
            try:
                if e.is_dir():
                    if depth < 2:
                        walk(Path(e.path), f"{rel}{e.name}/", depth + 1)
                    continue
                st = e.stat()
            except OSError:
                continue
            seen.add((rel + e.name, st.st_size, st.st_mtime_ns))

    try:
        top = list(os.scandir(root))
    except OSError:
        return frozenset()
    for d in top:
        if d.name != me and not d.name.startswith(".") and not d.is_symlink() and d.is_dir():
            walk(Path(d.path), d.name + "/", 1)
    return frozenset(seen)


def wake_ups(root: Path, stop: threading.Event, force_polling: bool = False) -> Iterator[bool]:
    """Yields each time something may have changed, until ``stop`` is set (Ctrl-C raises
    KeyboardInterrupt): True when the folder may have (a notification, or a look where the platform
    cannot watch, or now and then all the same), False for the database's look alone."""
    try:
        if force_polling:
            raise ImportError
        import watchfiles  # noqa: PLC0415 only `pan sync --watch` pays for it
    except ImportError:
        while not stop.wait(POLL_SECONDS):
            yield True
        return
    quiet = 0
    for changes in watchfiles.watch(root, debounce=DEBOUNCE_MS, step=50, stop_event=stop,
                                    rust_timeout=int(DB_SECONDS * 1000), yield_on_timeout=True,
                                    raise_interrupt=True):
        quiet = 0 if changes else quiet + 1
        # a look at the folder now and then all the same: a notification lost (a network mount)
        yield bool(changes) or quiet % FOLDER_LOOKS == 0


def watch(store: Store, root: Path, me: str, run: Callable[[], None], stop: threading.Event,
          force_polling: bool = False) -> None:
    """``run`` (one sync) now, then again each time the state differs from the one taken just
    before the last sync (so a file arriving or an event recorded during a sync brings one more);
    returns when ``stop`` is set."""

    def around_a_sync() -> State:
        before = State(folder_state(root, me), newest(store, me))
        run()
        return before

    after = around_a_sync()
    for folder_too in wake_ups(root, stop, force_polling):
        if stop.is_set():
            return
        try:
            now = State(folder_state(root, me) if folder_too else after.folder, newest(store, me))
        except Exception:  # noqa: BLE001 the database busy a moment: looked at again next time
            continue
        if now != after:
            after = around_a_sync()


def newest(store: Store, me: str) -> int:
    return store.queries.last_own_event(me)
