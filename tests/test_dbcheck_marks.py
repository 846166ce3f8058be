"""`pan db check` remembers what it verified of each session (the check_marks table): a repeat
check replays only the events recorded since, reads every older row against the digest of the
check that verified it, and fails on any change to them; `--full` replays everything."""

from __future__ import annotations

import sqlite3

import pytest

from pancli.app.check import database as dbcare, session as session_check
from pancli.storage.store import Store

from helpers import CYCLE, PLAYERS, run_sql


@pytest.fixture
def night(pan):
    """Three hands of the worked example, one meld undone and laid again, then checked."""
    pan(f"session new night --players {PLAYERS} --dealer F")
    for _ in range(3):
        for line in CYCLE:
            pan(line)
            if line.startswith("meld a KH"):
                pan("undo")
                pan(line)
    first = pan.json("db check")
    assert first["replayed"] == first["events"] and first["remembered"] == 0
    return pan


def events(db) -> int:
    return sqlite3.connect(db).execute("SELECT count(*) FROM events").fetchone()[0]


def test_a_repeat_check_replays_only_what_was_recorded_since(night):
    before = events(night.db)
    again = night.json("db check")
    assert again["remembered"] == before and again["events"] == before
    assert again["replayed"] < len(CYCLE) + 3  # the last hand, from its deal: nothing older
    for line in CYCLE:
        night(line)
    later = night.json("db check")
    assert later["remembered"] == before and later["events"] == before + len(CYCLE)
    assert later["replayed"] <= 2 * len(CYCLE) + 2
    out = night("db check").output
    assert out.startswith("OK") and "unchanged since an earlier check" in out and "--full" in out
    full = night.json("db check --full")
    assert full["replayed"] == full["events"] == before + len(CYCLE) and full["remembered"] == 0


@pytest.mark.parametrize("sql", [
    # columns the replay does not compare: only the digest sees them changed
    "UPDATE payments SET reason = 'a gift' WHERE id = (SELECT min(id) FROM payments)",
    "UPDATE events SET created_at = '2001-01-01T00:00:00+00:00' WHERE seq = 2",
    "UPDATE events SET payload = replace(payload, ', ', ',') WHERE seq = 3",
    # and ones it does
    "UPDATE payments SET chips = chips + 1 WHERE id = (SELECT min(id) FROM payments)",
    "UPDATE tallies SET amount = amount + 1 WHERE id = (SELECT min(id) FROM tallies)",
    "UPDATE payments SET params = '{}' WHERE code = 'condition' AND id = (SELECT min(id) FROM payments "
    "WHERE code = 'condition')",
    "DELETE FROM tallies WHERE id = (SELECT max(id) FROM tallies WHERE event_id = "
    "(SELECT id FROM events WHERE seq = 1))",
    "INSERT INTO payments (event_id, session_id, hand, payer, payee, chips, reason, code, params) "
    "SELECT id, session_id, hand, 'B', 'A', 1, 'extra', NULL, NULL FROM events WHERE seq = 4",
    "UPDATE hand_totals SET net = net + 1 WHERE hand = 1 AND player = 'A'",
    "UPDATE sessions SET rules = json_set(rules, '$.ante', 9)",
])
def test_an_old_row_changed_after_a_check_fails_the_repeat_check(night, sql):
    run_sql(night.db, sql)
    bad = night("db check", code=1)
    assert "Traceback" not in bad.output and bad.output.startswith("Error")
    assert "session 'night'" in bad.output


def test_a_changed_reason_is_told_as_a_change_since_the_check_and_full_takes_it_anew(night):
    run_sql(night.db, "UPDATE payments SET reason = 'a gift' WHERE id = (SELECT min(id) FROM payments)")
    bad = night("db check", code=1)
    assert "have changed since they were checked on" in bad.output and "--full" in bad.output
    assert night("db check --full").output.startswith("OK")  # the replay agrees with the rules
    assert night("db check").output.startswith("OK")  # and the new mark holds the new row


def test_events_removed_after_a_check_fail_the_repeat_check(night):
    run_sql(night.db, "DELETE FROM payments WHERE event_id = (SELECT max(id) FROM events)",
            "DELETE FROM tallies WHERE event_id = (SELECT max(id) FROM events)",
            "DELETE FROM events WHERE id = (SELECT max(id) FROM events)")
    bad = night("db check", code=1)
    assert "is no longer the one stored" in bad.output or "running totals" in bad.output


def test_a_new_event_that_differs_is_found_by_the_repeat_check(night):
    night("deal")
    night("drop f")
    run_sql(night.db, "UPDATE payments SET chips = 7 WHERE event_id = (SELECT max(id) FROM events)")
    seq = events(night.db)
    bad = night("db check", code=1)
    assert f"event #{seq} (drop)" in bad.output


def test_undos_after_a_check_may_reach_back_past_it(night):
    """Undo is an event: undoing the checked events (back past a deal) and recording others
    is new events like any, and the running totals of the hands they reopen are summed again."""
    for _ in range(len(CYCLE) + 1):  # the whole last hand and the end of the one before
        night("undo")
    night("out a 4H 4D 4C")  # the hand before goes out again
    night("deal")
    again = night.json("db check")
    assert again["remembered"] > 0 and again["replayed"] < again["events"]
    assert night.json("db check --full")["ok"]
    run_sql(night.db, "UPDATE hand_totals SET net = net + 1 WHERE hand = 1 AND player = 'A'")
    assert "running totals" in night("db check", code=1).output


@pytest.mark.parametrize("sql", [
    "UPDATE check_marks SET pieces = 'not json'",
    "UPDATE check_marks SET pieces = '[[1, 2]]'",
    "UPDATE check_marks SET pieces = '{\"a\": 1}'",
    "UPDATE check_marks SET pieces = '7'",
    "UPDATE check_marks SET last_seq = 'x'",
    "UPDATE check_marks SET digest = 5",
])
def test_a_malformed_mark_is_no_traceback_and_the_session_is_replayed(night, sql):
    run_sql(night.db, sql)
    again = night.json("db check")
    assert again["ok"] and again["remembered"] == 0 and again["replayed"] == again["events"]
    assert night.json("db check")["remembered"] > 0  # a sound mark again


def forge_marks(db) -> None:
    """What someone who can edit the file, but holds no key, can make: the mark of each session
    recomputed over what is stored now, every digest plain sha256."""
    import hashlib

    from pancli.app.check import database as care

    store = Store(db, create=False)
    try:
        rows = []
        for mark in store.care.check_marks().values():
            sha = lambda t: hashlib.sha256(t.encode()).hexdigest()  # noqa: E731
            pieces = [(a, b, sha(store.care.piece(mark.session_id, a, b, rows=False).text)) for a, b, _ in mark.pieces]
            hands = sha(store.care.hand_totals_text(mark.session_id, mark.hands_below))
            digest = sha("\n".join([store.care.session_basis(mark.session_id), *(d for _, _, d in pieces)]))
            rows.append(care.CheckMark(mark.session_id, mark.last_seq, mark.last_event, digest, tuple(pieces),
                                       mark.hands_below, hands, mark.pancli, mark.sqlite, mark.checked_at))
        with store.lock():
            store.care.save_check_marks(rows)
    finally:
        store.close()


def test_a_mark_recomputed_without_the_key_is_not_trusted(night):
    """An edit the replay catches, with every digest of the mark recomputed to match it: the
    repeat check replays the session in full, since only a key outside the database seals a mark."""
    first = "(SELECT min(id) FROM payments WHERE hand = 1)"
    run_sql(night.db, f"UPDATE payments SET chips = chips + 1 WHERE id = {first}",
            *(f"UPDATE {table} SET {col} = {col} {sign} 1 WHERE {where} AND player = (SELECT {who} FROM payments "
              f"WHERE id = {first})"
              for table, col, where in [("hand_totals", "net", "hand = 1"), ("totals", "amount", "stat = '(net)'")]
              for who, sign in [("payee", "+"), ("payer", "-")]))
    forge_marks(night.db)
    bad = night("db check", code=1)
    assert "session 'night'" in bad.output and "Traceback" not in bad.output


def test_full_finds_an_event_taken_out_of_the_middle(night):
    """The meld undone and its undo, taken out with their rows: what is left replays and sums
    the same, but the events' numbers have a gap."""
    run_sql(night.db, "CREATE TEMP TABLE gone AS SELECT id FROM events WHERE kind = 'undo' AND seq < 10 "
                      "UNION SELECT undo_of FROM events WHERE kind = 'undo' AND seq < 10",
            "DELETE FROM payments WHERE event_id IN gone", "DELETE FROM tallies WHERE event_id IN gone",
            "DELETE FROM events WHERE id IN gone", "DELETE FROM check_marks")
    bad = night("db check --full", code=1)
    assert "missing: event #" in bad.output and "Traceback" not in bad.output


def test_a_mark_of_another_pancli_is_not_used(night):
    run_sql(night.db, "UPDATE check_marks SET pancli = '0.0.1'")
    again = night.json("db check")
    assert again["remembered"] == 0 and again["replayed"] == again["events"]


def test_no_mark_is_kept_while_a_session_fails(night):
    night("deal")
    night("drop f")
    run_sql(night.db, "UPDATE payments SET chips = 7 WHERE event_id = (SELECT max(id) FROM events)")
    night("db check", code=1)
    marks = sqlite3.connect(night.db).execute("SELECT last_seq FROM check_marks").fetchall()
    assert marks == [(events(night.db) - 2,)]  # the one the fixture's check left


def test_a_long_session_checked_in_parts_remembers_each_part(night, monkeypatch):
    """Worker processes each digest their part; the repeat check reads all of them."""
    monkeypatch.setattr(session_check, "PARALLEL_FROM", 10)
    monkeypatch.setattr(session_check, "PIECE", 7)
    for _ in range(4):
        for line in CYCLE:
            night(line)
    store = Store(night.db, create=False)
    try:
        problem, figures = dbcare.check(store, full=True)
        assert problem is None and figures["replayed"] == figures["events"]
        problem, figures = dbcare.check(store)
        assert problem is None and figures["remembered"] == figures["events"]
    finally:
        store.close()
    run_sql(night.db, "UPDATE payments SET chips = chips + 1 WHERE id = (SELECT max(id) FROM payments)")
    store = Store(night.db, create=False)
    try:
        problem, _ = dbcare.check(store)
    finally:
        store.close()
    assert problem is not None and "event #" in problem


def test_the_check_words_no_reason_and_no_line(night, monkeypatch):
    """The verify-only replay: the same state, payments and tallies as `apply`, and nothing put
    in words (a line or a payment's reason) unless a difference is found."""
    from pancli.games import game
    from pancli.games.panguingue import engine, reasons

    g = game("panguingue")
    state = g.new_state(g.rules_from_dict({}), PLAYERS.split(","), "F")
    for line in CYCLE:
        kind, *words = line.split()
        event = {"kind": kind}
        if words:
            event["player"] = words[0].upper()
        if len(words) > 1:
            event["cards"] = words[1:]
        worded, quiet = g.apply(state, event), g.apply_unworded(state, event)
        assert worded.lines and not quiet.lines
        assert (quiet.payments, quiet.tallies) == (worded.payments, worded.tallies)
        state = worded.state

    def no_words(*_):
        raise AssertionError("worded during a check")

    monkeypatch.setattr(reasons, "render", no_words)
    monkeypatch.setattr(engine, "format_cards", no_words)
    assert night.json("db check --full")["ok"]


def test_a_database_that_cannot_be_written_is_checked_all_the_same(night):
    run_sql(night.db, "DELETE FROM check_marks")
    store = Store(night.db, readonly=True)
    try:
        problem, figures = dbcare.check(store)
    finally:
        store.close()
    assert problem is None and figures["replayed"] == figures["events"]
    assert sqlite3.connect(night.db).execute("SELECT count(*) FROM check_marks").fetchone() == (0,)


def test_a_session_without_events_is_checked_again_and_again(pan):
    pan(f"session new empty --players {PLAYERS}")
    for _ in range(2):
        assert pan("db check").output.startswith("OK")
    pan("deal")
    assert pan.json("db check")["ok"]


def test_help_says_what_a_repeat_check_trusts(pan):
    text = " ".join(pan("db check --help").output.split())
    assert "A repeat check trusts what an earlier check on this computer verified" in text
    assert "sealed with this user's key" in text and "outside the database" in text
