"""Looking after the database: what it holds, whether it is sound, and a consistent copy of it."""

from __future__ import annotations

import os
from pathlib import Path

from pancli.core.errors import PanError, StoreError


class CheckFailed(PanError):
    """`pan db check` found a problem: the first one is the message."""

    exit_code = 1


def status(store) -> dict:
    path = Path(store.path)
    size = path.stat().st_size
    wal = Path(str(path) + "-wal")
    wal_size = wal.stat().st_size if wal.exists() else 0
    with store.snapshot():
        counts = store.counts()
    return {"file": str(path.resolve()), "size": size, "wal_size": wal_size,
            **{k: counts[k] for k in ("sessions", "events", "payments", "tallies", "undos", "imported_sessions")},
            "schema_version": len(counts["migrations"]), "migrations": counts["migrations"],
            "sqlite": counts["sqlite"], "journal_mode": counts["journal_mode"]}


def check_session(store, session: dict) -> tuple[str | None, dict]:
    """Replay one session once and compare each event with what is stored; returns (first problem
    or None, figures). Payments are compared by players, chips, code and parameters (players and
    chips only for rows written before payments had codes), never by their reason text."""
    from pancli.app.rescore import gc_paused

    with gc_paused():
        return _check_session(store, session)


def _check_session(store, session: dict) -> tuple[str | None, dict]:
    from pancli.app.archive import log_events
    from pancli.app.rescore import first_difference, replay
    from pancli.games import game as get_game

    g = get_game(session["game"])
    rows = store.session_log(session["id"])
    events = log_events(store, session, rows)
    stored = {ev.seq: {"payload": e["payload"], "payments": ev.payments, "tallies": e["tallies"]}
              for e, ev in zip(rows, events)}
    orphans = store.orphan_payments(session["id"])
    name = session["name"]
    figures = {"session": name, "events": len(events), "payments": sum(len(s["payments"]) for s in stored.values())}
    if orphans:
        return f"session '{name}': {orphans} payments belong to no event of the session", figures
    try:
        rules = g.rules_from_dict(session["rules"])
        replayed = replay(g, rules, session["players"], session["dealer"], events)
    except PanError as e:
        return f"session '{name}': cannot be replayed: {e}", figures
    diff = first_difference(replayed, stored)
    if diff:
        return f"session '{name}', {diff}", figures
    for seq, s in stored.items():
        bad = [p for p in s["payments"] if not isinstance(p[2], int) or p[2] <= 0]
        if bad:
            return f"session '{name}', event #{seq}: a payment of {bad[0][2]!r} chips", figures
    nets, tallies = store.recomputed_totals(session["id"])
    if (nets, tallies) != (store.balances(session["id"]), store.tallies(session["id"])) \
            or store.recomputed_hand_nets(session["id"]) != store.hand_nets(session["id"]):
        return f"session '{name}': the running totals differ from the sums of the log", figures
    total = sum(nets.values())
    figures["sum"] = total
    if g.zero_sum and total != 0:
        return f"session '{name}': the balances sum to {total}, not 0", figures
    return None, figures


def check(store, progress=None) -> tuple[str | None, dict]:
    """Integrity check, then every session replayed. Returns (first problem or None, figures)."""
    with store.snapshot():
        problem = store.integrity_problem()
        if problem:
            return problem, {}
        figures = {"sessions": 0, "events": 0, "payments": 0}
        for session in store.sessions():
            problem, f = check_session(store, session)
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
    from pancli.app.files import check_target, write_atomic

    dest = check_target(dest, force, store.path, "backup")
    if not dest.parent.exists():
        raise StoreError(f"the folder {dest.parent} does not exist", "create it first")
    found: dict = {}

    def copy(tmp: Path) -> None:
        found.update(store.copy_to(tmp))
        if found["check"] != "ok":
            raise StoreError(f"the copy failed its check ({found['check']})",
                             "try again; the database itself was not changed")

    write_atomic(dest, copy)
    return {"file": str(dest), "size": dest.stat().st_size, "sessions": found["sessions"], "events": found["events"]}
