"""Archives at the size of a club's night: export and import stream, a segment of events at a
time, and write and read the very archives pancli wrote before they streamed."""

import json
import shutil
from pathlib import Path

import pytest

from pancli.app import archive, archive_import, archive_write
from pancli.core.rows import LoggedEvent
from pancli.storage.store import Store

from helpers import pan_in_process as pan, peak_mb

EXPORTS = Path(__file__).parent / "fixtures" / "export_0_2"
EXPORTED_AT = "2026-12-01T12:00:00+00:00"  # make.py wrote the fixtures with this time
SESSIONS = sorted(p.stem for p in EXPORTS.glob("*.toml"))


@pytest.fixture
def old_store(tmp_path):
    shutil.copyfile(EXPORTS / "pancli.db", tmp_path / "p.db")
    store = Store(tmp_path / "p.db")
    yield store
    store.close()


@pytest.mark.parametrize("fmt", ["toml", "json"])
@pytest.mark.parametrize("segment", [1000, 7])
def test_export_writes_the_bytes_it_wrote_before_it_streamed(old_store, fmt, segment):
    for name in SESSIONS:
        session = old_store.session(name)
        out: list[str] = []
        archive_write.export(old_store, session, fmt, out.append, EXPORTED_AT if fmt == "toml" else None, segment)
        assert "".join(out) == (EXPORTS / f"{name}.{fmt}").read_text(encoding="utf-8"), (name, fmt)
        whole = archive.build(old_store, session)  # what `pan sync` writes, whole
        text = archive.to_toml(whole, EXPORTED_AT) if fmt == "toml" else archive.to_json(whole)
        assert text == "".join(out), (name, fmt)


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_pan_export_writes_the_same_bytes(tmp_path, fmt):
    shutil.copyfile(EXPORTS / "pancli.db", tmp_path / "p.db")
    path = tmp_path / f"tonight.{fmt}"
    pan(tmp_path / "p.db", ["export", "tonight", "--format", fmt, "-o", str(path)])
    want = untimed((EXPORTS / f"tonight.{fmt}").read_text(encoding="utf-8"))
    assert untimed(path.read_text(encoding="utf-8")) == want
    assert untimed(pan(tmp_path / "p.db", ["export", "tonight", "--format", fmt, "-o", "-"]).output) == want


def untimed(text: str) -> str:
    """An archive without its time of writing, the one line two exports of a session differ in."""
    return "".join(line for line in text.splitlines(True) if not line.startswith("exported_at = "))


def test_an_empty_session_and_a_nested_null_are_written_as_before(tmp_path):
    """The two shapes the fixtures lack: no events at all, and a payload holding a null inside a
    list (kept as JSON text in TOML)."""
    db = tmp_path / "p.db"
    pan(db, "session new empty --players Ana,Ben")
    store = Store(db)
    session = store.session("empty")
    for fmt, whole in (("toml", lambda d: archive.to_toml(d, EXPORTED_AT)), ("json", archive.to_json)):
        out: list[str] = []
        archive_write.export(store, session, fmt, out.append, EXPORTED_AT if fmt == "toml" else None)
        assert "".join(out) == whole(archive.build(store, session))
    text = "".join(out)
    assert json.loads(text)["events"] == [] and text.endswith('"events": []\n}\n')
    event = {"seq": 1, "hand": None, "kind": "x", "created_at": EXPORTED_AT, "undo_of": None,
             "payload": {"kind": "x", "melds": [["5S", None]]}, "payments": []}
    assert archive_write.toml_event(event, "m")["payload_json"] == '{"kind": "x", "melds": [["5S", null]]}'
    store.close()


# -- import, an event at a time ------------------------------------------------------------

def same_session(db1, db2, name=None):
    """Two databases hold the same session: its standings and its whole history."""
    args = ["--session", name] if name else []
    assert json.loads(pan(db2, ["standings", "--json", *args]).output) == \
        json.loads(pan(db1, ["standings", "--json", *args]).output)
    assert json.loads(pan(db2, "history --json").output) == json.loads(pan(db1, "history --json").output)


# Three hands where everyone but one drops, then undos reaching back into the first hand: past
# the two hands the import holds, so the events before are read back from the session stored.
DEALS = ["deal", "drop b c d e f", "deal", "drop a c d e f", "deal", "drop a b d e f"]


@pytest.mark.parametrize("batch", [512, 1, 2, 5])
def test_undos_reaching_back_past_the_hands_held_import_the_same(tmp_path, monkeypatch, batch):
    # stored a batch at a time: an undo and the event it voids in one batch or in two
    monkeypatch.setattr(archive_import, "_BATCH", batch)
    db1 = tmp_path / "one.db"
    pan(db1, "session new long --players A,B,C,D,E,F --dealer F")
    for line in DEALS:
        pan(db1, line)
    for _ in range(14):  # every event of hands 3 and 2, and two drops of hand 1
        pan(db1, "undo")
    for line in ["drop e f", "deal", "drop a b c d f", "buyin a 10", "undo", "buyin a 12"]:
        pan(db1, line)
    for fmt in ("toml", "json"):
        path = tmp_path / f"long.{fmt}"
        pan(db1, ["export", "--format", fmt, "-o", str(path)])
        target = tmp_path / f"{fmt}.db"
        assert "Imported session long (43 events" in pan(target, ["import", str(path)]).output
        same_session(db1, target)
        pan(target, "db check")
    # the same archive into the database it came from is found there by its content
    assert "nothing imported" in pan(db1, ["import", str(tmp_path / "long.toml")]).output


def test_an_undo_that_voids_no_last_event_is_refused_in_its_words(tmp_path):
    db1, db2 = tmp_path / "one.db", tmp_path / "two.db"
    pan(db1, "session new u --players A,B,C,D,E,F --dealer F")
    for line in DEALS:
        pan(db1, line)
    pan(db1, "undo")  # 19 voids 18
    pan(db1, "undo")  # 20 voids 17
    path = tmp_path / "u.toml"
    pan(db1, ["export", "-o", str(path)])
    text = path.read_text(encoding="utf-8")
    assert text.count("undo_of = 17") == 1
    for undo_of, why in [("1", "#1 is not the last effective event"), ("18", "#18 was undone already"),
                         ("21", "#21, which is not an earlier event"), ("19", "#19, which is not an earlier event")]:
        path.write_text(text.replace("undo_of = 17", f"undo_of = {undo_of}"), encoding="utf-8")
        refused = pan(db2, ["import", str(path)], ok=False)
        assert refused.exit_code == 2 and why in refused.output, refused.output
        assert not db2.exists()


def test_an_archive_laid_out_by_hand_is_read_whole(tmp_path):
    """Other line endings, a compact JSON, an event table spelled otherwise: read whole, as before."""
    db1 = tmp_path / "one.db"
    shutil.copyfile(EXPORTS / "pancli.db", db1)
    text = (EXPORTS / "tonight.toml").read_text(encoding="utf-8")
    data = json.loads((EXPORTS / "tonight.json").read_text(encoding="utf-8"))
    variants = {"crlf.toml": text.replace("\n", "\r\n"),
                "spaced.toml": text.replace("[[events]]\n", "[[ events ]]\n", 3),
                "late-spaced.toml": "[[ events ]]\n".join(text.rsplit("[[events]]\n", 1)),
                "multiline.toml": text.replace("[[events]]\n", '[[events]]\nnote = """a\n[[events]]\nb"""\n', 1),
                "compact.json": json.dumps(data),
                "events-first.json": json.dumps({"events": data["events"], **data}, indent=1),
                "sync.toml": text + '\n[sync]\nfingerprint = "x"\n'}
    for name, body in variants.items():
        path = tmp_path / name
        path.write_bytes(body.encode("utf-8"))
        db = tmp_path / f"{name}.db"
        result = pan(db, ["import", str(path)])
        assert "Imported session tonight (96 events" in result.output, (name, result.output)
        assert json.loads(pan(db, "standings --json").output) == \
            json.loads(pan(db1, ["standings", "--json", "--session", "tonight"]).output), name


def test_an_archive_larger_than_the_old_limit_imports_when_pancli_wrote_it(tmp_path, monkeypatch):
    from pancli.app import archive_check

    monkeypatch.setattr(archive_check, "MAX_BYTES", 5_000)  # the smallest of these is 8 kB
    db = tmp_path / "p.db"
    assert "Imported session tonight (96 events" in pan(db, ["import", str(EXPORTS / "tonight.toml")]).output
    assert "Imported session friday" in pan(db, ["import", str(EXPORTS / "friday.json")]).output
    path = tmp_path / "edited.toml"
    path.write_text((EXPORTS / "japan.toml").read_text(encoding="utf-8").replace("\n", "\r\n"), encoding="utf-8")
    before = db.read_bytes()
    refused = pan(db, ["import", str(path)], ok=False)
    assert refused.exit_code == 2 and "larger than" in refused.output and "Traceback" not in refused.output
    assert len(refused.output.strip().splitlines()) <= 3
    assert db.read_bytes() == before


def test_a_damaged_event_late_in_the_archive_leaves_the_database_as_it_was(tmp_path):
    from helpers import db_dump

    db = tmp_path / "p.db"
    pan(db, "session new other --players X,Y")
    before = db_dump(db)
    text = (EXPORTS / "tonight.toml").read_text(encoding="utf-8")
    last = text.rindex("[[events]]")
    for damage, words in [("seq = ", "seq = 9"), ("chips = ", "chips = -"), ("kind = ", "kind = 7 #")]:
        path = tmp_path / "bad.toml"
        path.write_text(text[:last] + text[last:].replace(damage, words, 1), encoding="utf-8")
        refused = pan(db, ["import", str(path)], ok=False)
        assert refused.exit_code == 2 and "Traceback" not in refused.output, refused.output
        assert db_dump(db) == before
    huge = tmp_path / "huge.toml"
    huge.write_text(text[:last] + '[[events]]\nnote = "' + "x" * (1 << 20) + '"\n', encoding="utf-8")
    refused = pan(db, ["import", str(huge)], ok=False)
    assert refused.exit_code == 2 and "Traceback" not in refused.output, refused.output
    assert db_dump(db) == before


def test_the_archive_of_a_session_held_here_extends_it_or_is_refused(tmp_path):
    db1, db2 = tmp_path / "one.db", tmp_path / "two.db"
    pan(db1, "session new night --players A,B,C,D,E,F --dealer F")
    for line in DEALS[:4]:
        pan(db1, line)
    early, late = tmp_path / "early.toml", tmp_path / "late.toml"
    pan(db1, ["export", "-o", str(early)])
    for line in DEALS[4:]:
        pan(db1, line)
    pan(db1, "session close")
    pan(db1, ["export", "-o", str(late)])
    pan(db2, ["import", str(early)])
    # only the device that records it extends it: by a file it signed (`pan sync` writes them)
    unsigned = pan(db2, ["import", str(late)], ok=False)
    assert unsigned.exit_code == 2 and "which did not sign it" in unsigned.output, unsigned.output
    pan(db1, ["sync", str(tmp_path / "folder"), "--create"])
    signed = str(next((tmp_path / "folder").glob("*/night--*.toml")))
    assert "Brought session night up to date: 6 new events" in pan(db2, ["import", signed]).output
    same_session(db1, db2)
    assert json.loads(pan(db2, "session list --json").output)[0]["closed"] is True
    assert "nothing imported" in pan(db2, ["import", str(early)]).output  # older: nothing to do
    assert "nothing imported" in pan(db2, ["import", str(late)]).output
    # a copy recorded apart: the same session with a different event
    apart = tmp_path / "apart.toml"
    apart.write_text(late.read_text(encoding="utf-8").replace('player = "B"', 'player = "E"', 1), encoding="utf-8")
    db3 = tmp_path / "three.db"
    pan(db3, ["import", str(early)])
    refused = pan(db3, ["import", str(apart)], ok=False)
    assert refused.exit_code == 2 and "contradicts session 'night'" in refused.output, refused.output
    assert " / " not in refused.output and "differs: here " in refused.output  # in words, not kinds


def test_the_toml_reader_reads_every_archive_as_tomllib_does():
    import tomllib

    from pancli.app import toml_reader

    assert toml_reader.NAME == "rtoml"  # a dependency: installed with pancli
    for path in sorted(EXPORTS.glob("*.toml")) + sorted((EXPORTS.parent / "v0_1" / "archives").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert toml_reader.loads(text) == tomllib.loads(text), path.name


# -- a night of 30,000 hands ---------------------------------------------------------------

def long_night(db, hands: int) -> int:
    """A session of ``hands`` hands of three players (two drop, the third wins), a buy-in undone
    and bought again every 500 hands, built through the game core as the recorder builds each
    event, many to a transaction. Returns its number of events."""
    from pancli.core.bank import apply_event
    from pancli.games import game
    from pancli.games.panguingue.rules import preset

    store = Store(db)
    players = ["Ana", "Ben", "Cruz"]
    g = game("panguingue")
    rules = preset("hoyle")
    with store.lock():
        sid = store.create_session("marathon", g.name, players, "Cruz", g.rules_to_dict(rules), 0.25)
        store.set_setting("current_session", str(sid))
    state, count, seq = g.new_state(rules, players, "Cruz"), 0, 0
    undone = state  # the state before the last event applied: what an undo of it goes back to
    for start in range(0, hands, 1000):
        with store.lock():
            for h in range(start, min(start + 1000, hands)):
                winner = h % 3
                lines = [{"kind": "deal"}] + [{"kind": "drop", "player": players[(winner + k) % 3]} for k in (1, 2)]
                if h % 500 == 499:
                    lines += [{"kind": "buyin", "player": "Ana", "chips": 20}, "undo",
                              {"kind": "buyin", "player": "Ana", "chips": 25}]
                for event in lines:
                    if event == "undo":  # the buy-in before: its payments come off the totals
                        last = store.log.last_effective(sid)
                        undo = {"kind": "undo", "undid": last.kind, "seq": last.seq}
                        seq += 1
                        store.log.append(sid, LoggedEvent(seq, "undo", undo, last.hand, undo_of=last.seq))
                        state = undone
                    else:
                        step = apply_event(g, state, event)
                        undone = state
                        seq += 1
                        store.log.append(sid, LoggedEvent(seq, event["kind"], g.enrich(state, event, step),
                                                          g.hand_number(step.state), payments=tuple(step.payments),
                                                          tallies=tuple(step.tallies)))
                        state = step.state
                    count += 1
    store.close()
    return count


@pytest.mark.slow
def test_a_night_of_30000_hands_exports_and_imports_in_bounded_memory(tmp_path):
    """Every archive pancli writes, pancli imports: 30,000 hands out and back, TOML and JSON, each
    way in the memory of a segment of events (the goal: under 200 MB), not of the night."""
    from helpers import sql_value

    db = tmp_path / "night.db"
    events = long_night(db, 30_000)
    toml, json_path = tmp_path / "marathon.toml", tmp_path / "marathon.json"
    peaks = {"export toml": peak_mb(db, "export", "-o", str(toml)),
             "export json": peak_mb(db, "export", "--format", "json", "-o", str(json_path))}
    assert toml.stat().st_size > 0 and json_path.stat().st_size > 0
    for path, target in ((toml, tmp_path / "from-toml.db"), (json_path, tmp_path / "from-json.db")):
        peaks[f"import {path.suffix[1:]}"] = peak_mb(target, "import", str(path))
        assert sql_value(target, "SELECT count(*) FROM events") == events
        again = tmp_path / f"again{path.suffix}"
        pan(target, ["export", "--format", path.suffix[1:], "-o", str(again)])
        assert untimed(again.read_text(encoding="utf-8")) == untimed(path.read_text(encoding="utf-8"))
        assert json.loads(pan(target, "standings --json").output) == json.loads(pan(db, "standings --json").output)
    assert all(mb < 200 for mb in peaks.values()), peaks
