"""One row type for a logged event: what the log stores is what it reads back, events name each
other by seq (row ids stay inside storage), and a replay hands the event on with every column
it did not make as it came."""

import sqlite3

from hypothesis import HealthCheck, given, settings, strategies as st

from pancli.app.replay import Replayed
from pancli.core.ledger import Params, Payment, Tally
from pancli.core.rows import LoggedEvent
from pancli.storage.store import Store

PLAYERS = ["Ana", "Ben", "Cruz"]


def test_a_replay_hands_on_every_column_it_did_not_make():
    """A column added to the log flows from the archive or the database through the replay to
    the writer with no edit of the replay: every field but those the core makes is kept."""
    made = {"payload", "hand", "payments", "tallies"}
    event = LoggedEvent(*(f"value of {name}" for name in LoggedEvent._fields))._replace(kind="undo")
    r = Replayed(event, {"kind": "undo", "made": True}, 7, [Payment("Ana", "Ben", 3, "x", Params({}))],
                 [Tally("Ana", "won")])
    stored = r.logged()
    assert type(stored) is LoggedEvent
    for name in LoggedEvent._fields:
        if name not in made:
            assert getattr(stored, name) == getattr(event, name), name
    assert stored.payload == {"kind": "undo", "made": True} and stored.hand == 7
    assert stored.payments == (Payment("Ana", "Ben", 3, "x", Params({})),) and stored.tallies == (Tally("Ana", "won"),)
    # only an undo names the event it voids
    assert r.logged().undo_of == "value of undo_of"
    assert Replayed(event._replace(kind="drop"), {}, None).logged().undo_of is None


# A session's log as random events: each either pays some chips and counts a tally, or undoes
# an earlier effective event of its session; sessions interleave, so row ids are not seqs.
step = st.one_of(
    st.tuples(st.just("pay"), st.integers(0, 1), st.integers(1, 9), st.sampled_from(PLAYERS), st.sampled_from(PLAYERS)),
    st.tuples(st.just("undo"), st.integers(0, 1), st.integers(0, 30)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, max_size=40), batch=st.integers(1, 6))
def test_the_log_reads_back_what_it_stored_by_seq(tmp_path_factory, steps, batch):
    db = tmp_path_factory.mktemp("log") / "pan.db"
    store = Store(db)
    with store.lock():
        sids = [store.create_session(name, "panguingue", PLAYERS, None, {}, None) for name in ("one", "two")]
    logs: list[list[LoggedEvent]] = [[], []]
    voided: list[dict[int, int]] = [{}, {}]
    pending: list[tuple[int, LoggedEvent]] = []
    for i, s in enumerate(steps):
        which = s[1]
        log, seq = logs[which], len(logs[which]) + 1
        hand = 1 + i // 5
        if s[0] == "pay":
            _, _, chips, payer, payee = s
            ev = LoggedEvent(seq, "drop", {"kind": "drop", "player": payer, "n": i}, hand,
                             f"2026-01-01T00:00:{i % 60:02d}+00:00", None, None,
                             (Payment(payer, payee, chips, "drop", Params({"n": i})),), (Tally(payer, "dropped"),))
        else:
            effective = [e for e in log if e.kind != "undo" and e.seq not in voided[which]]
            if not effective:
                continue
            target = effective[s[2] % len(effective)]
            voided[which][target.seq] = seq
            ev = LoggedEvent(seq, "undo", {"kind": "undo", "undid": target.kind, "seq": target.seq}, target.hand,
                             f"2026-01-01T00:01:{i % 60:02d}+00:00", target.seq, None, (), ())
        log.append(ev)
        pending.append((which, ev))
        if len(pending) >= batch:
            _store(store, sids, pending)
    _store(store, sids, pending)
    for which, sid in enumerate(sids):
        back = store.log.session_log(sid)
        want = [e._replace(voided_by=voided[which].get(e.seq)) for e in logs[which]]
        assert [e._replace(id=None) for e in back] == want
        assert all(isinstance(e.id, int) for e in back)
        # the running totals are those of the effective events
        nets: dict[str, int] = {}
        for e in back:
            if e.effective:
                for p in e.payments or ():
                    nets[p.payee] = nets.get(p.payee, 0) + p.chips
                    nets[p.payer] = nets.get(p.payer, 0) - p.chips
        assert store.log.balances(sid) == {k: v for k, v in sorted(nets.items()) if v}
    store.close()
    # in the database an undo names its event's row, of its own session
    con = sqlite3.connect(db)
    rows = con.execute("SELECT u.session_id, t.session_id, json_extract(u.payload, '$.seq'), t.seq FROM events u "
                       "JOIN events t ON t.id = u.undo_of").fetchall()
    con.close()
    assert all(a == b and c == d for a, b, c, d in rows)
    assert len(rows) == sum(len(v) for v in voided)


def _store(store: Store, sids: list[int], pending: list[tuple[int, LoggedEvent]]) -> None:
    """The pending events, a session's run of them to a call of append_many."""
    with store.lock():
        while pending:
            which = pending[0][0]
            run = []
            while pending and pending[0][0] == which:
                run.append(pending.pop(0)[1])
            ids = store.log.append_many(sids[which], run)
            assert len(ids) == len(run)


def test_history_names_an_undone_event_by_its_row_as_before(pan, tmp_path):
    """`pan history --json` says which event an undo voids by its row id, as it always has, also
    where row ids and seqs part (a second session)."""
    pan("session new first --players Ana,Ben,Cruz")
    pan("deal")
    pan("drop ana")
    pan("session new second --players Ana,Ben,Cruz")
    pan("deal")
    pan("drop ben")
    pan("undo")
    data = pan.json("history")
    undo = data["events"][-1]
    con = sqlite3.connect(tmp_path / "pan.db")
    target, seq = con.execute("SELECT t.id, t.seq FROM events u JOIN events t ON t.id = u.undo_of "
                              "WHERE u.kind = 'undo'").fetchone()
    con.close()
    assert undo["kind"] == "undo" and undo["undo_of"] == target != seq == 2
    assert data["events"][1]["voided"] is True and data["events"][1]["seq"] == 2
