"""`pan db check` runs a lean replay of its own (app/check/verify.py `LogVerifier`: raw rows, in
pieces, the state copied only before an event an undo names); the recorder, import and sync run
the one `Replay` (app/replay.py). This differential test holds the two to the same verdict and
the same figures: the stored sessions of three games, and the same logs damaged the ways a
hand-edited or broken file is (an event taken out, two events stored out of order, a payment
changed, an undo that names the last event, an earlier one, an undo, another session's event
or none), each alone or two at once; and a session with a long run of bank events.

The replay's side is the verdict the log gets from `Replay` and what is stored: every event
numbered 1, 2, 3... in the order stored, none refused, each payload, payment and tally as the
replay makes it, no payment or tally of no event, and the running totals (per player, per hand,
per tally) the sums of the effective events."""

from __future__ import annotations

import shutil
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st
from test_many_undos import cashier_archive

from pancli.app import archive, archive_import
from pancli.app.check.session import check_session
from pancli.app.replay import first_difference, moves, replay
from pancli.games import game
from pancli.storage.store import Store

MAIN = Path(__file__).parent / "fixtures" / "main_9347d07" / "pancli.db"
SESSIONS = ("tonight", "tuesday", "warsaw")


def replay_verdict(store: Store, name: str) -> tuple[bool, dict[str, Any]]:
    """Whether the session's log passes by the replay's rules, and the figures it sums."""
    s = next(s for s in store.sessions() if s.name == name)
    events = store.log.session_log(s.id)  # in the order stored
    if [e.seq for e in events] != list(range(1, len(events) + 1)):
        return False, {}
    if any(store.log.stray_rows(s.id)):
        return False, {}
    g = game(s.game)
    done = replay(g, g.rules_from_dict(s.rules), s.players, s.dealer, events, strict=False, worded=False)
    if any(r.error for r in done):
        return False, {}
    stored = {e.seq: {"payload": e.payload, "payments": e.payments, "tallies": e.tallies} for e in events}
    if first_difference(done, stored) is not None:
        return False, {}
    nets: dict[str, int] = defaultdict(int)
    hands: dict[tuple[int, str], int] = defaultdict(int)
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r, e in zip(done, events):
        if not r.applied or r.voided or r.kind == "undo":
            continue
        for payer, payee, chips in moves(r.payments):
            for player, d in ((payee, chips), (payer, -chips)):
                nets[player] += d
                hands[e.hand or 0, player] += d
        for t in r.tallies:
            counts[t.player][t.stat] += t.amount
    figures = {"nets": {p: n for p, n in nets.items() if n},
               "hands": {k: n for k, n in hands.items() if n},
               "tallies": {p: {k: v for k, v in c.items() if v} for p, c in counts.items() if any(c.values())}}
    held = {"nets": store.log.balances(s.id), "hands": store.log.hand_nets(s.id), "tallies": store.log.tallies(s.id)}
    return figures == held, figures


def check_verdict(store: Store, name: str) -> tuple[bool, dict[str, Any], str | None]:
    s = next(s for s in store.sessions() if s.name == name)
    with store.snapshot():
        problem, _figures = check_session(store, s, workers=1)
    figures: dict[str, Any] = {}
    if problem is None:
        hands = store.log.hand_nets(s.id)
        figures = {"nets": store.log.balances(s.id), "hands": hands, "tallies": store.log.tallies(s.id)}
    return problem is None, figures, problem


def damage(conn: sqlite3.Connection, name: str, how: tuple[Any, ...]) -> None:
    sid = conn.execute("SELECT id FROM sessions WHERE name = ?", [name]).fetchone()[0]
    ids = [r[0] for r in conn.execute("SELECT id FROM events WHERE session_id = ? ORDER BY seq", [sid])]
    kind, pick = how[0], how[1]
    target = ids[pick % len(ids)]
    if kind == "gap":
        for table in ("payments", "tallies"):
            conn.execute(f"DELETE FROM {table} WHERE event_id = ?", [target])
        conn.execute("DELETE FROM events WHERE id = ?", [target])
    elif kind == "swap":  # two neighbours' numbers exchanged: stored out of order
        a = ids[pick % (len(ids) - 1)]
        b = ids[pick % (len(ids) - 1) + 1]
        sa, sb = (conn.execute("SELECT seq FROM events WHERE id = ?", [i]).fetchone()[0] for i in (a, b))
        conn.execute("UPDATE events SET seq = -1 WHERE id = ?", [a])
        conn.execute("UPDATE events SET seq = ? WHERE id = ?", [sa, b])
        conn.execute("UPDATE events SET seq = ? WHERE id = ?", [sb, a])
    elif kind == "chips":
        row = conn.execute("SELECT id FROM payments WHERE session_id = ? ORDER BY id LIMIT 1 OFFSET ?",
                           [sid, pick % max(1, conn.execute("SELECT count(*) FROM payments WHERE session_id = ?",
                                                            [sid]).fetchone()[0])]).fetchone()
        if row:
            conn.execute("UPDATE payments SET chips = chips + ? WHERE id = ?", [how[2], row[0]])
    else:  # an undo appended, naming: the last event, an earlier one, another session's, none at all
        last_seq, last_hand, created = conn.execute(
            "SELECT seq, hand, created_at FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT 1", [sid]).fetchone()
        names = {"undo_last": ids[-1], "undo_earlier": target,
                 "undo_other": conn.execute("SELECT id FROM events WHERE session_id != ? ORDER BY id LIMIT 1 OFFSET ?",
                                            [sid, pick % 5]).fetchone()[0],
                 "undo_none": 10 ** 6}[kind]
        conn.execute("INSERT INTO events (session_id, seq, hand, kind, payload, created_at, undo_of) "
                     "VALUES (?, ?, ?, 'undo', '{\"kind\": \"undo\"}', ?, ?)", [sid, last_seq + 1, last_hand, created, names])


DAMAGE = st.one_of(
    st.tuples(st.sampled_from(["gap", "swap", "undo_last", "undo_earlier", "undo_other", "undo_none"]),
              st.integers(0, 200)),
    st.tuples(st.just("chips"), st.integers(0, 200), st.sampled_from([-1, 1, 5])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(SESSIONS), damages=st.lists(DAMAGE, max_size=2))
@example(name="tuesday", damages=[("swap", 4)])  # two deals that replay alike in either order
@example(name="tonight", damages=[("swap", 4)])  # once said "0 payments and 0 tallies belong to no event"
def test_db_check_and_the_replay_agree(tmp_path_factory, name, damages):
    path = tmp_path_factory.mktemp("check") / "pancli.db"
    shutil.copyfile(MAIN, path)
    conn = sqlite3.connect(path)
    with conn:
        for how in damages:
            damage(conn, name, how)
    conn.close()
    store = Store(path, create=False)
    try:
        passes, figures = replay_verdict(store, name)
        checked, held, problem = check_verdict(store, name)
    finally:
        store.close()
    assert checked == passes, f"db check says {problem!r}, the replay {'passes' if passes else 'refuses'} it"
    if passes:
        assert held == figures
    else:
        assert problem and "None" not in problem and " 0 payments and 0 tallies" not in problem  # for people


@pytest.fixture(scope="module")
def with_a_long_bank_run(tmp_path_factory):
    """The stored sessions and a fourth: buy-ins undone and bought again, then 1,100 buy-ins in a
    row (more than a bounded replay holds of a run of bank events)."""
    path = tmp_path_factory.mktemp("bank") / "pancli.db"
    shutil.copyfile(MAIN, path)
    doc = cashier_archive(100, "panguingue")  # 300 events: buy-ins, each undone and bought again
    buys = [e for e in cashier_archive(1100, "panguingue")["events"] if e["kind"] == "buyin"][::2]
    doc["events"] += [{**e, "seq": 301 + k} for k, e in enumerate(buys)]
    store = Store(path, create=False)
    try:
        archive_import.import_document(store, archive.parse(archive.to_json(doc)))
    finally:
        store.close()
    return path


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damages=st.lists(DAMAGE, max_size=2))
@example(damages=[])
def test_db_check_and_the_replay_agree_on_a_long_bank_run(with_a_long_bank_run, tmp_path_factory, damages):
    path = tmp_path_factory.mktemp("check") / "pancli.db"
    shutil.copyfile(with_a_long_bank_run, path)
    conn = sqlite3.connect(path)
    with conn:
        for how in damages:
            damage(conn, "cashier", how)
    conn.close()
    store = Store(path, create=False)
    try:
        passes, figures = replay_verdict(store, "cashier")
        checked, held, problem = check_verdict(store, "cashier")
    finally:
        store.close()
    assert checked == passes, f"db check says {problem!r}, the replay {'passes' if passes else 'refuses'} it"
    if passes:
        assert held == figures
