"""The invariant: `pan db check` gives a session's log the verdict the one replay gives it, and
the same figures.

`pan db check` runs a lean twin of the replay (app/check/verify.py `LogVerifier`: raw rows, in
pieces, the state copied only before an event an undo names; run on `Replay` itself a check costs
about 1.4 times as much), sharing its rules (undo_refused, payment_matches, same_tallies,
add_nets); the recorder, import and sync run the one `Replay` (app/replay.py). This differential
test holds the two to the same verdict and the same figures on: random nights recorded as the
stateful test records them (tests/test_stateful.py), each also damaged in a copy; the stored
sessions of three games; and a session with a long run of bank events. The damage is what a
hand-edited or broken file holds: an event taken out (a gap), two events stored out of order, an
event renumbered past the end, a payment changed, and illegal undos (of the last event, an
earlier one, one undone already, an undo, another session's event, none at all), each alone or
two at once. Two events with one number cannot be stored (UNIQUE (session_id, seq) in every
schema since 0.1), which the last test holds.

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
from hypothesis.stateful import initialize, rule

from pancli.app import archive, archive_import
from pancli.app.check.session import check_session
from pancli.app.recorder import Recorder
from pancli.app.replay import first_difference, moves, replay
from pancli.games import game
from pancli.storage.store import Store

from archive_examples import cashier_archive
from random_night import Night

FIXTURES = Path(__file__).parent / "fixtures"
MAIN = FIXTURES / "main_9347d07" / "pancli.db"
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


def agree(path: Path, name: str, damages: list[tuple[Any, ...]]) -> None:
    """The session ``name`` of the database at ``path``, damaged so, gets one verdict from db check
    and from the replay, and, passing, the same figures; refused, in a sentence for people."""
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
    if not ids or kind == "swap" and len(ids) < 2:
        return
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
    elif kind == "renumber":  # an event's number moved past the end: a gap, and stored out of order
        conn.execute("UPDATE events SET seq = (SELECT max(seq) FROM events WHERE session_id = ?) + 1 + ? WHERE id = ?",
                     [sid, pick % 3, target])
    elif kind == "chips":
        row = conn.execute("SELECT id FROM payments WHERE session_id = ? ORDER BY id LIMIT 1 OFFSET ?",
                           [sid, pick % max(1, conn.execute("SELECT count(*) FROM payments WHERE session_id = ?",
                                                            [sid]).fetchone()[0])]).fetchone()
        if row:
            conn.execute("UPDATE payments SET chips = chips + ? WHERE id = ?", [how[2], row[0]])
    else:  # an undo appended, naming: the last event, an earlier one, one undone already, an undo,
        # another session's, none at all (the target where the log has no such event)
        last_seq, last_hand, created = conn.execute(
            "SELECT seq, hand, created_at FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT 1", [sid]).fetchone()

        def one(sql: str) -> int:
            found = conn.execute(sql, [sid, pick % 5]).fetchone() or conn.execute(sql, [sid, 0]).fetchone()
            return found[0] if found else target

        names = {"undo_last": ids[-1], "undo_earlier": target,
                 "undo_undone": one("SELECT undo_of FROM events WHERE session_id = ? AND undo_of IS NOT NULL "
                                    "ORDER BY id LIMIT 1 OFFSET ?"),
                 "undo_an_undo": one("SELECT id FROM events WHERE session_id = ? AND kind = 'undo' "
                                     "ORDER BY id LIMIT 1 OFFSET ?"),
                 "undo_other": one("SELECT id FROM events WHERE session_id != ? ORDER BY id LIMIT 1 OFFSET ?"),
                 "undo_none": 10 ** 6}[kind]
        conn.execute("INSERT INTO events (session_id, seq, hand, kind, payload, created_at, undo_of) "
                     "VALUES (?, ?, ?, 'undo', '{\"kind\": \"undo\"}', ?, ?)", [sid, last_seq + 1, last_hand, created, names])


DAMAGE = st.one_of(
    st.tuples(st.sampled_from(["gap", "swap", "renumber", "undo_last", "undo_earlier", "undo_undone", "undo_an_undo",
                               "undo_other", "undo_none"]),
              st.integers(0, 200)),
    st.tuples(st.just("chips"), st.integers(0, 200), st.sampled_from([-1, 1, 5])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(SESSIONS), damages=st.lists(DAMAGE, max_size=2))
@example(name="tuesday", damages=[("swap", 4)])  # two deals that replay alike in either order
@example(name="tonight", damages=[("swap", 4)])  # once said "0 payments and 0 tallies belong to no event"
def test_db_check_gives_the_replays_verdict_on_stored_sessions(tmp_path_factory, name, damages):
    path = tmp_path_factory.mktemp("check") / "pancli.db"
    shutil.copyfile(MAIN, path)
    agree(path, name, damages)


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
def test_db_check_gives_the_replays_verdict_on_a_long_bank_run(with_a_long_bank_run, tmp_path_factory, damages):
    path = tmp_path_factory.mktemp("check") / "pancli.db"
    shutil.copyfile(with_a_long_bank_run, path)
    agree(path, "cashier", damages)


class CheckedNight(Night):
    """A random night as the stateful test records it (legal and illegal events, undos), beside a
    second session; at any point, db check gives it the replay's verdict, as recorded and with
    its copy damaged."""

    @initialize(preset_name=st.sampled_from(["hoyle", "cardroom-ca", "japanese-wp"]))
    def start(self, preset_name):
        Night.start(self, preset_name)
        with self.store.lock():  # another session, for an undo that names one of its events
            self.store.create_session("other", "panguingue", ["Ana", "Ben"], None, self.session.rules, None)
        other = Recorder(self.store, self.store.session("other"))
        other.record({"kind": "deal"})
        other.record({"kind": "drop", "player": "Ana"})

    def replay_equals_live(self):  # tests/test_stateful.py holds it; not an invariant here
        pass

    @rule(damages=st.lists(DAMAGE, max_size=2))
    def db_check_gives_the_replays_verdict(self, damages):
        copy = Path(self.dir.name) / "copy.db"
        copy.unlink(missing_ok=True)
        self.store.care.copy_to(copy)
        agree(copy, "night", [])
        if damages:
            copy.unlink()
            self.store.care.copy_to(copy)
            agree(copy, "night", damages)


CheckedNight.TestCase.settings = settings(max_examples=25, stateful_step_count=30, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestDbCheckGivesTheReplaysVerdictOnRandomNights = CheckedNight.TestCase


@pytest.mark.parametrize("fixture", ["v0_1/pancli.db", "export_0_2/pancli.db", "v0_2/ana.db", "main_9347d07/pancli.db"])
def test_two_events_with_one_number_cannot_be_stored(fixture, tmp_path):
    path = tmp_path / "pancli.db"
    shutil.copyfile(FIXTURES / fixture, path)
    conn = sqlite3.connect(path)
    try:
        sid, seq, created = conn.execute("SELECT session_id, seq, created_at FROM events LIMIT 1").fetchone()
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            conn.execute("INSERT INTO events (session_id, seq, hand, kind, payload, created_at) "
                         "VALUES (?, ?, 1, 'deal', '{\"kind\": \"deal\"}', ?)", [sid, seq, created])
    finally:
        conn.close()
