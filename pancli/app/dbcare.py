"""Looking after the database: what it holds, whether it is sound, and a consistent copy of it."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

from pancli.core.errors import PanError, StoreError
from pancli.core.rows import Session, StoredEvent
from pancli.storage.store import Store


class CheckFailed(PanError):
    """`pan db check` found a problem: the first one is the message."""

    exit_code = 1


def status(store) -> dict:
    path = Path(store.path)
    size = path.stat().st_size
    wal = Path(str(path) + "-wal")
    wal_size = wal.stat().st_size if wal.exists() else 0
    with store.snapshot():
        counts = store.care.counts()
    return {"file": str(path.resolve()), "size": size, "wal_size": wal_size,
            **{k: counts[k] for k in ("sessions", "events", "payments", "tallies", "undos", "imported_sessions")},
            "schema_version": len(counts["migrations"]), "migrations": counts["migrations"],
            "sqlite": counts["sqlite"], "journal_mode": counts["journal_mode"]}


# A session this long is checked in parts, one per core, each replayed from a checkpoint in a
# process of its own; a shorter one is not worth starting processes for.
PARALLEL_FROM = 4000


def check_session(store, session: Session, workers: int | None = None, pool=None) -> tuple[str | None, dict]:
    """Replay one session once and compare each event with what is stored; returns (first problem
    or None, figures). Payments are compared by players, chips, code and parameters (players and
    chips only for rows written before payments had codes), never by their reason text."""
    # start-up: only db check replays (not db status or backup)
    from pancli.app.rescore import gc_paused  # noqa: PLC0415
    from pancli.games import game as get_game  # noqa: PLC0415

    g = get_game(session.game)
    name = session.name
    payments, tallies = store.log.stray_rows(session.id)
    if payments or tallies:
        return (f"session '{name}': {payments} payments and {tallies} tallies belong to no event of the "
                "session, or to another hand than their event's"), {"session": name}
    try:
        rules = g.rules_from_dict(session.rules)
    except PanError as e:
        return f"session '{name}': cannot be replayed: {e}", {"session": name}
    parts = _parts(store, session, g, workers)
    with gc_paused():
        if len(parts) == 1:
            results = [check_part(store, session, g, rules, *parts[0])]
        else:
            args = [(str(store.path), session, first, last) for first, last in parts]
            if pool is not None:
                results = pool.starmap(_check_part_apart, args)
            else:  # called on its own (no threads running here): a pool for this session
                import multiprocessing  # noqa: PLC0415 start-up: only a long session's check starts processes

                with multiprocessing.get_context("fork").Pool(len(parts)) as own:
                    results = own.starmap(_check_part_apart, args)
    problem = next((p for p, _ in results if p), None)
    figures = {"session": name, "events": sum(f["events"] for _, f in results),
               "payments": sum(f["payments"] for _, f in results)}
    if problem:
        return f"session '{name}', {problem}", figures
    nets, tallies, hand_nets = running_totals(f["sums"] for _, f in results)
    if (nets, tallies, hand_nets) != (store.log.balances(session.id), store.log.tallies(session.id),
                                      store.log.hand_nets(session.id)):
        return f"session '{name}': the running totals differ from the sums of the log", figures
    total = sum(nets.values())
    figures["sum"] = total
    if g.zero_sum and total != 0:
        return f"session '{name}': the balances sum to {total}, not 0", figures
    return None, figures


def _parts(store, session: Session, g, workers: int | None) -> list[tuple[int, int | None]]:
    """Seq ranges that can be checked apart: each begins at a checkpoint that was never undone (so
    no undo after it reaches before it) and ends at the next part's checkpoint, which it replays
    too, so that the state a part restores is checked to be the one the part before it reached."""
    last = store.log.last_seq(session.id)
    workers = workers or min(4, os.cpu_count() or 1)
    if workers < 2 or last < PARALLEL_FROM or not g.checkpoint_kind:
        return [(1, None)]
    seqs = [s for s in store.log.checkpoint_seqs(session.id, g.checkpoint_kind) if s > 1]
    cuts: list[int] = []
    for k in range(1, workers):
        want = last * k // workers
        cut = next((s for s in seqs if s >= want and (not cuts or s > cuts[-1])), None)
        if cut is not None:
            cuts.append(cut)
    bounds = [1] + cuts
    return [(first, bounds[i + 1] if i + 1 < len(bounds) else None) for i, first in enumerate(bounds)]


def _check_part_apart(path: str, session: Session, first: int, last: int | None):
    """check_part in a worker process, on a read-only connection of its own (and, as in the
    parent, without the cycle collector walking the rows as they are read)."""
    # start-up: only db check replays (not db status or backup)
    from pancli.app.rescore import gc_paused  # noqa: PLC0415
    from pancli.games import game as get_game  # noqa: PLC0415

    store = Store(path, readonly=True)
    try:
        with gc_paused(), store.snapshot():
            g = get_game(session.game)
            return check_part(store, session, g, g.rules_from_dict(session.rules), first, last)
    finally:
        store.close()


def check_part(store, session: Session, g, rules, first: int, last: int | None) -> tuple[str | None, dict]:
    """Replay the events numbered ``first`` to ``last`` (from the checkpoint that ``first`` is, or
    from the session's start) and compare them with what is stored. The event numbered ``last`` is
    the next part's checkpoint: compared here, counted there."""
    # start-up: only db check replays (not db status or backup)
    from pancli.app.archive import log_events  # noqa: PLC0415
    from pancli.app.rescore import first_difference, replay  # noqa: PLC0415

    rows = store.log.session_log(session.id, first, last)
    events = log_events(store, session, rows)
    counted = events if last is None else events[:-1]
    figures: dict[str, object] = {"events": len(counted), "payments": sum(len(ev.payments or ()) for ev in counted)}
    stored = {ev.seq: {"payload": e.payload, "payments": e.payments, "tallies": e.tallies}
              for e, ev in zip(rows, events)}
    try:
        start = g.restore(rules, rows[0].payload) if first > 1 else None
        replayed = replay(g, rules, session.players, session.dealer, events, start=start)
    except PanError as e:
        return f"cannot be replayed: {e}", figures
    diff = first_difference(replayed, stored)
    if diff:
        return diff, figures
    for ev in counted:
        bad = [p for p in ev.payments or () if not isinstance(p.chips, int) or p.chips <= 0]
        if bad:
            return f"event #{ev.seq}: a payment of {bad[0].chips!r} chips", figures
    figures["sums"] = log_sums(rows if last is None else rows[:-1])
    return None, figures


def log_sums(rows: list[StoredEvent]) -> tuple[dict, dict]:
    """What the running totals should hold for these events (Store.session_log rows): net chips
    per hand and player (or pool), and tallies per player and stat. Every event counts but the
    undone ones, as the running totals do."""
    undone = {e.undo_of for e in rows if e.undo_of is not None}
    hands: dict[int, dict[str, int]] = {}
    tallies: dict[str, dict[str, int]] = {}
    for e in rows:
        if e.id in undone:
            continue
        if e.payments:
            hand = e.hand or 0
            moved = hands.get(hand)
            if moved is None:
                moved = hands[hand] = defaultdict(int)
            for p in e.payments:
                moved[p.payee] += p.chips
                moved[p.payer] -= p.chips
        for t in e.tallies:
            counts = tallies.get(t.player)
            if counts is None:
                counts = tallies[t.player] = defaultdict(int)
            counts[t.stat] += t.amount
    return hands, tallies


def running_totals(parts) -> tuple[dict, dict, dict]:
    """What the running totals should hold, from the log_sums of a session's parts: shaped as
    Store.balances, Store.tallies and Store.hand_nets."""
    nets: dict[str, int] = defaultdict(int)
    tallies: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    hand_nets: dict[tuple[int, str], int] = defaultdict(int)
    for hands, counts in parts:
        for hand, moved in hands.items():
            for player, chips in moved.items():
                nets[player] += chips
                hand_nets[hand, player] += chips
        for player, stats in counts.items():
            for stat, amount in stats.items():
                tallies[player][stat] += amount
    by_player = {p: kept for p, stats in tallies.items() if (kept := {s: v for s, v in stats.items() if v})}
    return ({p: v for p, v in sorted(nets.items()) if v}, by_player,
            {k: v for k, v in hand_nets.items() if v})


def check(store, progress=None) -> tuple[str | None, dict]:
    """Integrity check, then every session replayed. Returns (first problem or None, figures).

    With a session long enough to be checked in parts, the worker processes are started first
    (forking a process that runs threads can leave a child waiting on a lock forever), and
    SQLite's integrity check runs in one of them beside the replay; its verdict comes first."""
    with store.snapshot():
        sessions = store.sessions()
        long = [s for s in sessions if store.log.last_seq(s.id) >= PARALLEL_FROM]
    workers = min(4, os.cpu_count() or 1)
    if not long or workers < 2:
        with store.snapshot():
            problem = store.care.integrity_problem()
        if problem:
            return problem, {}
        return _check_sessions(store, sessions, progress, None)
    import multiprocessing  # noqa: PLC0415 start-up: only a long session's check starts processes

    # One process more than cores: the integrity check takes one for its first seconds.
    with multiprocessing.get_context("fork").Pool(workers + 1) as pool:
        integrity = pool.apply_async(store.care.integrity_problem_at, (str(store.path),))
        failure = None
        try:
            problem, figures = _check_sessions(store, sessions, progress, pool)
        except Exception as e:  # a damaged file: SQLite's own verdict says more
            failure = e
        broken = integrity.get()
    if broken:
        return broken, {}
    if failure is not None:
        raise failure
    return problem, figures


def _check_sessions(store, sessions: list[Session], progress, pool) -> tuple[str | None, dict]:
    figures = {"sessions": 0, "events": 0, "payments": 0}
    with store.snapshot():
        for session in sessions:
            problem, f = check_session(store, session, pool=pool)
            figures["sessions"] += 1
            figures["events"] += f.get("events", 0)
            figures["payments"] += f.get("payments", 0)
            if progress:
                progress(f)
            if problem:
                return problem, figures
    return None, figures


def backup(store, dest: str | os.PathLike, force: bool = False) -> dict:
    """A consistent copy of the whole database, taken in one read transaction (SQLite's backup API),
    so a writer in another process cannot tear it. The target is checked (never the database or its
    -wal/-shm; an existing file only with ``force``) and written by the shared atomic writer."""
    from pancli.app.files import check_target, write_atomic  # noqa: PLC0415 start-up: hashlib, only backup writes a file

    dest = check_target(dest, force, store.path, "backup")
    if not dest.parent.exists():
        raise StoreError(f"the folder {dest.parent} does not exist", "create it first")
    found: dict = {}

    def copy(tmp: Path) -> None:
        found.update(store.care.copy_to(tmp))
        if found["check"] != "ok":
            raise StoreError(f"the copy failed its check ({found['check']})",
                             "try again; the database itself was not changed")

    write_atomic(dest, copy)
    return {"file": str(dest), "size": dest.stat().st_size, "sessions": found["sessions"], "events": found["events"]}
