"""Importing and checking cost the same per event however many undos a session has: the replay goes
back to the state before an undone event instead of replaying the session from its start."""

import json

import pytest

from pancli.app import archive, archive_import
from pancli.app.check import database as dbcare
from pancli.app.replay import replay
from pancli.core.rows import LoggedEvent
from pancli.games import game
from pancli.storage.store import Store

from archive_examples import PLAYERS, cashier_archive
from helpers import pan_in_process as pan


@pytest.mark.parametrize("game_name", ["panguingue", "contract"])
def test_thousands_of_buyins_and_undos_import_and_check(tmp_path, game_name):
    n = 1500
    data = archive.parse(archive.to_json(cashier_archive(n, game_name)))
    store = Store(tmp_path / "cashier.db")
    result = archive_import.import_document(store, data)
    assert result == {"status": "imported", "name": "cashier", "fingerprint": result["fingerprint"], "events": 3 * n}
    sid = store.session("cashier").id
    bought = {p: sum(1 + i % 9 for i in range(n) if i % 4 == k) for k, p in enumerate(PLAYERS)}
    assert {p: t["buyin"] for p, t in store.log.tallies(sid).items()} == bought
    problem, figures = dbcare.check(store)
    assert problem is None and figures["events"] == 3 * n
    store.close()


def test_undo_back_across_deals_replays_as_recorded(tmp_path):
    """Undos that reach back past a deal go back to the hand before, as the recorder does."""
    db = tmp_path / "p.db"
    lines = ["session new back --players Ana,Ben,Cruz,Dee --preset hoyle", "buyin ana 20",
             "deal", "drop dee", "meld ana 5s5s5s", "meld ben kc kh ks", "meld ana ah2h3h", "add ana 5s",
             "meld ana 6h6d6c", "out ana 4h",
             "deal", "drop ben", "undo", "undo", "undo", "undo",  # the drop, the deal, the out, the meld
             "meld ana 6s6h6d", "out ana 4h", "deal", "drop cruz", "meld ben 7d7d7d"]
    for line in lines:
        pan(db, line)
    assert pan(db, "db check").output.startswith("OK")
    nets = {r["name"]: r["net"] for r in json.loads(pan(db, "standings --json").output)["players"]}
    out = tmp_path / "back.json"
    pan(db, ["export", "--format", "json", "-o", str(out)])
    fresh = tmp_path / "fresh.db"
    pan(fresh, ["import", str(out)])
    assert {r["name"]: r["net"] for r in json.loads(pan(fresh, "standings --json").output)["players"]} == nets

    # The replay matches the stored payments event by event, the undone ones included.
    data = archive.load(out)
    g = game("panguingue")
    events = [LoggedEvent(e["seq"], e["kind"], e["payload"], e["hand"], undo_of=e["undo_of"]) for e in data["events"]]
    replayed = replay(g, g.rules_from_dict(data["rules"]), data["session"]["seats"], None, events, strict=True)
    for r, e in zip(replayed, data["events"]):
        assert [(p.payer, p.payee, p.chips, p.code, p.params.plain()) for p in r.payments] == \
            [(p["payer"], p["payee"], p["chips"], p["code"], p["params"]) for p in e["payments"]]


def test_the_recorder_loads_a_session_by_the_same_undo_rule(tmp_path):
    """The table's state comes from the one replay: an undo stored against the rule (not of the
    last effective event: a log edited by hand) stops recording with one line, as db check and
    import refuse it, instead of leaving the table a state no check agrees with."""
    db = tmp_path / "pan.db"
    for line in ["session new fri --players Ana,Ben,Cruz,Dee", "deal", "drop ana", "drop ben", "undo", "drop ben"]:
        pan(db, line)
    store = Store(db)
    sid = store.sessions()[0].id
    log = store.log.session_log(sid)
    assert [e.kind for e in log] == ["deal", "drop", "drop", "undo", "drop"]
    with store.lock():
        store.log.append(sid, LoggedEvent(6, "undo", {"kind": "undo", "undid": "drop", "seq": 2}, 1, undo_of=log[1].seq))
    store.close()
    refused = pan(db, "drop cruz", ok=False)
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "event #6 (undo) cannot be replayed: #2 is not the last effective event" in refused.output
    assert len(Store(db).log.session_log(sid)) == 6  # nothing recorded


def test_the_undo_rule_is_stated_once():
    """Every replay (re-scoring, import, sync, db check's fast one, the recorder's) refuses an undo
    by rescore.undo_refused: its sentences are used nowhere else."""
    from pathlib import Path

    import pancli

    root = Path(pancli.__file__).parent
    users = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                   if any(f"{name}(" in p.read_text(encoding="utf-8")
                          for name in ("not_last", "undone_already", "not_earlier")))
    assert users == ["app/replay.py"]
