"""`pan db check`: SQLite's integrity check, then every session checked (check/session.py),
and what the check verified remembered when every session passed."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pancli.app.check import session as parts
from pancli.app.check.marks import mark_key
from pancli.app.check.session import check_session, plan
from pancli.core.errors import PanError, StoreError
from pancli.core.i18n import _
from pancli.core.rows import CheckMark
from pancli.storage.care import DatabaseCare
from pancli.storage.store import Store

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

Progress = Callable[[dict[str, Any]], None]  # told each session's figures as it is checked


class CheckFailed(PanError):
    """`pan db check` found a problem: the first one is the message."""

    exit_code = 1


def check(store: Store, progress: Progress | None = None, full: bool = False) -> tuple[str | None, dict[str, Any]]:
    """Integrity check, then every session checked (check_session). Returns (first problem or
    None, figures). What each session's check verified is remembered when every session passed,
    so that the next check replays only what was recorded since; ``full`` replays everything.

    With a replay long enough to be checked in parts, the worker processes are started first
    (forking a process that runs threads can leave a child waiting on a lock forever), and
    SQLite's integrity check runs in one of them beside the replay; otherwise in a thread
    (SQLite lets go of Python's lock while it checks). Its verdict comes first."""
    mark_key()  # a key file not to trust is refused before any work
    with store.snapshot():  # what to replay, to know whether to start processes
        marks = {} if full else store.care.check_marks()
        plans = [plan(store, s, marks.get(s.id)) for s in store.sessions()]
    workers = min(4, os.cpu_count() or 1)
    long = workers >= 2 and any(p.replayed >= parts.PARALLEL_FROM for p in plans)
    failure = None
    problem: str | None = None
    figures: dict[str, Any] = {}
    if long:
        import multiprocessing  # noqa: PLC0415 start-up: only a long session's check starts processes

        # One process more than cores: the integrity check takes one for its first seconds.
        with multiprocessing.get_context("fork").Pool(workers + 1) as pool:
            integrity = pool.apply_async(store.care.integrity_problem_at, (str(store.path),))
            try:
                problem, figures = _check_sessions(store, full, progress, pool)
            except Exception as e:  # a damaged file: SQLite's own verdict says more
                failure = e
            broken = integrity.get()
    else:
        import contextvars  # noqa: PLC0415
        import threading  # noqa: PLC0415 start-up: only db check runs a thread

        verdict: list[str | None] = []
        speaking = contextvars.copy_context()  # the thread says its verdict in the command's language
        thread = threading.Thread(target=lambda: verdict.append(speaking.run(_integrity_or_failure, store.path)))
        thread.start()
        try:
            problem, figures = _check_sessions(store, full, progress, None)
        except Exception as e:  # a damaged file: SQLite's own verdict says more
            failure = e
        thread.join()
        broken = verdict[0] if verdict else None
    if broken:
        return broken, {}
    if failure is not None:
        raise failure
    if problem is None:
        _remember(store, [m for m in figures.pop("marks") if m is not None])
    else:
        figures.pop("marks", None)
    return problem, figures


def _integrity_or_failure(path: str | os.PathLike[str]) -> str | None:
    try:
        return DatabaseCare.integrity_problem_at(path)
    except StoreError as e:
        return e.message
    except Exception as e:  # noqa: BLE001 a damaged file: say so, as the replay would
        return _("SQLite integrity check: {error}").format(error=e)


def _remember(store: Store, marks: list[CheckMark]) -> None:
    """Keep what this check verified; a database that cannot be written is checked in full
    the next time too."""
    if not marks:
        return
    try:
        with store.lock():
            store.care.save_check_marks(marks)
    except StoreError:
        pass


def _check_sessions(store: Store, full: bool, progress: Progress | None,
                    pool: Pool | None) -> tuple[str | None, dict[str, Any]]:
    """Every session checked in one snapshot (planned again in it: more may have been recorded
    since the plan that decided on processes); in this process alone without a pool (a thread
    runs beside it, and a process forked then could hang)."""
    figures: dict[str, Any] = {"sessions": 0, "events": 0, "payments": 0, "replayed": 0, "remembered": 0,
                               "marks": []}
    with store.snapshot():
        marks = {} if full else store.care.check_marks()
        for session in store.sessions():
            p = plan(store, session, marks.get(session.id))
            problem, f = check_session(store, p, workers=None if pool else 1, pool=pool)
            figures["sessions"] += 1
            for k in ("events", "payments", "replayed", "remembered"):
                figures[k] += f.get(k, 0)
            if progress:
                progress(f)
            if problem:
                if "fix" in f:
                    figures["fix"] = f["fix"]
                return problem, figures
            figures["marks"].append(f["mark"])
    return None, figures


