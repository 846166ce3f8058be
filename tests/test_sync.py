"""`pan sync FOLDER`: one history across two and three databases sharing a folder, through a
simulated file-sync engine that delivers files late, out of order, half-written or as conflict
copies; idempotence, a kill during sync, links out of the folder."""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from helpers import HANG, PAN, Pan, check_consistent, child_env, history_digest, sql_value

NIGHT = ["deal", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH", "undo",
         "meld ana JH QH KH", "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C"]


def new(tmp_path, label) -> Pan:
    return Pan(tmp_path / f"{label}.db")


def record(pan: Pan, name: str, lines=NIGHT, players="Ana,Ben,Cruz,Dee"):
    pan(f"session new {name} --players {players}")
    for line in lines:
        pan(line)


def sync(pan: Pan, folder, *args, code=0):
    return json.loads(pan(f"sync {folder} --json " + " ".join(args), code=code).stdout)


def held(pan: Pan) -> dict:
    """Every session by global id: its name, device and events, and its standings."""
    from pancli.storage.store import Store

    store = Store(pan.db, create=False)
    try:
        out = {}
        for s in store.sessions():
            out[s.device, s.uid] = {"events": store.log.last_seq(s.id), "balances": store.log.balances(s.id),
                                          "closed": s.closed_at}
        return out
    finally:
        store.close()


def seed_of(pan: Pan) -> bytes:
    """A database's private signing key (what only its device holds)."""
    return bytes.fromhex(sql_value(pan.db, "SELECT value FROM settings WHERE key = 'device_key'"))


def device(pan: Pan) -> str:
    return json.loads(pan("sync --status --json").stdout)["device"]


# -- two and three databases, one folder -----------------------------------------------------

def test_two_databases_share_a_session_and_its_later_events(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "friday", NIGHT[:4])
    out = sync(ana, folder, "--device-name ana")
    assert [w["name"] for w in out["written"]] == ["friday"] and out["ok"]
    out = sync(ben, folder, "--device-name ben")
    assert [(i["name"], i["device_label"], i["events"]) for i in out["imported"]] == [("friday", "ana", 4)]
    assert held(ben) == held(ana)
    # read-only on ben: one line, nothing recorded
    ben("session use friday")
    refused = ben("meld ana 7S 7S 7S", code=1)
    assert "recorded on ana; here it is read-only" in refused.output and len(refused.output.strip().splitlines()) == 1
    ben("undo", code=1)
    ben("session close", code=1)
    # ana records more; the next sync extends ben's copy, payments recomputed and checked
    for line in NIGHT[4:]:
        ana(line)
    ana("session close")
    sync(ana, folder)
    out = sync(ben, folder)
    assert [(e["name"], e["events"]) for e in out["extended"]] == [("friday", len(NIGHT) - 4)]
    assert held(ben) == held(ana)
    assert ben.json("history") == ana.json("history")
    assert ben.nets() == ana.nets()
    check_consistent(ben.db)
    assert "OK" in ben("db check").output


def stored_rows(pan: Pan, name: str) -> dict:
    """What the database holds of one session's log, ids apart: its events (an undo naming the
    seq it voids), their payments and tallies in the order written, and its running totals
    (rows left at 0 included)."""
    import sqlite3

    con = sqlite3.connect(pan.db)
    try:
        sid = con.execute("SELECT id FROM sessions WHERE name = ?", [name]).fetchone()[0]
        q = lambda sql: con.execute(sql, [sid]).fetchall()  # noqa: E731
        return {
            "events": q("SELECT e.seq, e.hand, e.kind, e.payload, e.created_at, u.seq FROM events e "
                        "LEFT JOIN events u ON u.id = e.undo_of WHERE e.session_id = ? ORDER BY e.id"),
            "payments": q("SELECT e.seq, p.hand, p.payer, p.payee, p.chips, p.reason, p.code, p.params FROM payments p "
                          "JOIN events e ON e.id = p.event_id WHERE p.session_id = ? ORDER BY p.id"),
            "tallies": q("SELECT e.seq, t.hand, t.player, t.stat, t.amount FROM tallies t "
                         "JOIN events e ON e.id = t.event_id WHERE t.session_id = ? ORDER BY t.id"),
            "totals": q("SELECT player, stat, amount FROM totals WHERE session_id = ? ORDER BY 1, 2"),
            "hand_totals": q("SELECT hand, player, net FROM hand_totals WHERE session_id = ? ORDER BY 1, 2"),
        }
    finally:
        con.close()


def test_a_synced_session_is_stored_as_its_device_recorded_it(tmp_path):
    """Imported and extended in one go per session, the log, its payments and tallies and the
    running totals are the rows the recording device wrote event by event: undos of events of
    this batch and of events held before it, bank events, totals that went back to 0."""
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "friday", ["buyin ana 20", "deal", "drop cruz", "meld ben 5S 5S 5S", "undo", "meld ben 5S 5S 5S",
                           "add ben 5S", "meld ana JH QH KH"])
    sync(ana, folder, "--device-name ana")
    sync(ben, folder, "--device-name ben")
    assert stored_rows(ben, "friday") == stored_rows(ana, "friday")
    for line in ["undo", "meld dee 2C 3C 4C", "undo", "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C", "deal",
                 "drop ana", "cashout ana 5"]:
        ana(line)  # the first undo voids an event ben holds already
    sync(ana, folder)
    out = sync(ben, folder)
    assert [(e["name"], e["events"]) for e in out["extended"]] == [("friday", 8)]
    rows = stored_rows(ben, "friday")
    assert rows == stored_rows(ana, "friday")
    assert any(amount == 0 for *_, amount in rows["totals"]) and any(t[3] == "buyin" for t in rows["tallies"])
    ben("db check")


def test_three_databases_reach_the_same_merged_history(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    pans = {label: new(tmp_path, label) for label in ("ana", "ben", "cruz")}
    record(pans["ana"], "friday")
    record(pans["ben"], "friday", NIGHT[:6])           # the same name on another device
    record(pans["cruz"], "saturday", NIGHT[:3], players="ana,Ben,Cruz,Dee")  # ana in lower case
    for _ in range(2):
        for label, pan in pans.items():
            assert sync(pan, folder, f"--device-name {label}")["ok"]
    histories = [held(p) for p in pans.values()]
    assert histories[0] == histories[1] == histories[2] and len(histories[0]) == 3
    names = {p: sorted(s["name"] for s in pan.json("sessions")) for p, pan in pans.items()}
    assert names["ana"] == ["friday", "friday@ben", "saturday"]
    assert names["ben"] == ["friday", "friday@ana", "saturday"]
    # the season: one table on every device, names compared case-insensitively
    seasons = [pan.json("standings --season all") for pan in pans.values()]
    assert seasons[0] == seasons[1] == seasons[2]
    assert seasons[0]["sessions"] == 3 and seasons[0]["devices"] == 3
    rows = {r["name"].lower(): r for r in seasons[0]["players"]}
    per_night = [{r["name"].lower(): r["net"] for r in pans["ana"].json(f"standings --session {n}")["players"]}
                 for n in ("friday", "friday@ben", "saturday")]
    assert rows["ana"]["nights"] == 3 and rows["ana"]["net"] == sum(n["ana"] for n in per_night)
    assert pans["cruz"].json("standings --season 1999")["players"] == []
    # a player's career and the sessions list hold every device's nights
    assert pans["cruz"].json("player ana")["sessions"] == 3
    status = json.loads(pans["cruz"]("sync --status --json").stdout)
    assert sorted(d["label"] for d in status["devices"]) == ["ana", "ben", "cruz"]
    assert all(d["last_sync"] for d in status["devices"])
    assert {d["label"]: d["events"] for d in status["devices"]} == {"ana": 9, "ben": 6, "cruz": 3}


def test_sync_is_idempotent(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "friday")
    record(ben, "monday", NIGHT[:2])
    for pan in (ana, ben, ana):
        sync(pan, folder)
    files = {p: p.read_bytes() for p in folder.rglob("*.toml")}
    digests = (history_digest(ana.db), history_digest(ben.db))
    for pan in (ana, ben, ana, ben):
        out = sync(pan, folder)
        assert not out["written"] and not out["imported"] and not out["extended"] and out["unchanged"] == 1
    assert (history_digest(ana.db), history_digest(ben.db)) == digests
    assert {p: p.read_bytes() for p in folder.rglob("*.toml")} == files
    assert "nothing changed" in ana(f"sync {folder}").output
    assert "nothing changed" in ana("sync").output  # the folder of last time


def test_a_database_from_before_sync_gets_a_device_and_session_ids(tmp_path):
    from pancli.storage.store import Store

    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).parent / "fixtures" / "v0_1" / "pancli.db", db)
    store = Store(db)
    try:
        me = store.sync.device_id()
        sessions = store.sessions()
        assert len(me) == 32 and sessions and all(s.device == me and len(s.uid) == 32 for s in sessions)
        assert len({s.uid for s in sessions}) == len(sessions)
    finally:
        store.close()
    folder = tmp_path / "shared"
    folder.mkdir()
    out = sync(Pan(db), folder)
    assert len(out["written"]) == len(sessions)


def test_pan_import_of_a_sync_archive_extends_rather_than_duplicates(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "friday", NIGHT[:3])
    sync(ana, folder)
    [first] = list(folder.rglob("*.toml"))
    copy = tmp_path / "early.toml"
    shutil.copy(first, copy)
    for line in NIGHT[3:]:
        ana(line)
    sync(ana, folder)
    ben(f"import {copy}")
    assert "up to date: 6 new events" in ben(f"import {first}").output
    assert "nothing imported" in ben(f"import {copy}").output
    assert held(ben) == held(ana)


# -- a simulated sync engine -------------------------------------------------------------------

class Engine:
    """Each device has its own copy of the shared folder; the engine carries files between them
    when the test says, as late, out of order, cut short or as conflict copies as it likes."""

    def __init__(self, root: Path, devices):
        self.folders = {d: root / f"{d}-folder" for d in devices}
        for f in self.folders.values():
            f.mkdir()
        self.seen: dict[str, dict[Path, bytes]] = {}

    def files(self, src) -> dict[Path, bytes]:
        """What the device has written in its folder now, relative to it."""
        base = self.folders[src]
        return {p.relative_to(base): p.read_bytes() for p in base.rglob("*") if p.is_file()
                and not p.name.startswith(".")}

    def deliver(self, src, dst, relative: Path, data: bytes, as_name: str | None = None):
        target = self.folders[dst] / relative
        if as_name:
            target = target.with_name(as_name)
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(data)
        return target

    def deliver_all(self, src, dst):
        for rel, data in self.files(src).items():
            self.deliver(src, dst, rel, data)


def archives(files: dict) -> dict:
    return {rel: data for rel, data in files.items() if rel.suffix == ".toml"}


def test_files_late_out_of_order_and_half_written(tmp_path):
    eng = Engine(tmp_path, ["ana", "ben"])
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "friday", NIGHT[:3])
    sync(ana, eng.folders["ana"])
    [(rel, v1)] = archives(eng.files("ana")).items()
    for line in NIGHT[3:6]:
        ana(line)
    sync(ana, eng.folders["ana"])
    v2 = eng.files("ana")[rel]
    # nothing delivered yet: nothing to bring in
    assert sync(ben, eng.folders["ben"])["imported"] == []
    # half of the newest version arrives first
    eng.deliver("ana", "ben", rel, v2[: len(v2) // 2])
    out = sync(ben, eng.folders["ben"])
    assert out["ok"] and not out["imported"] and len(out["incomplete"]) == 1
    # cut at a line end, past the events: valid TOML, but no [sync] end yet
    cut = v2[: v2.rindex(b"[sync]")]
    eng.deliver("ana", "ben", rel, cut)
    out = sync(ben, eng.folders["ben"])
    assert not out["imported"] and "no [sync] end" in out["incomplete"][0]["why"]
    # the whole newest version: imported
    eng.deliver("ana", "ben", rel, v2)
    out = sync(ben, eng.folders["ben"])
    assert [i["events"] for i in out["imported"]] == [6] and not out["incomplete"]
    # the older version arrives late and overwrites it: older than what ben holds, nothing changes
    eng.deliver("ana", "ben", rel, v1)
    digest = history_digest(ben.db)
    out = sync(ben, eng.folders["ben"])
    assert out["ok"] and not out["extended"] and not out["conflicts"]
    assert history_digest(ben.db) == digest
    # then the rest of the night
    for line in NIGHT[6:]:
        ana(line)
    sync(ana, eng.folders["ana"])
    eng.deliver_all("ana", "ben")
    out = sync(ben, eng.folders["ben"])
    assert [e["events"] for e in out["extended"]] == [len(NIGHT) - 6]
    assert held(ben) == held(ana)


def test_a_device_folder_arriving_before_its_manifest_and_three_devices_out_of_order(tmp_path):
    eng = Engine(tmp_path, ["ana", "ben", "cruz"])
    pans = {d: new(tmp_path, d) for d in eng.folders}
    for d, pan in pans.items():
        record(pan, d, NIGHT[:random.Random(d).randint(2, 8)])
        sync(pan, eng.folders[d], f"--device-name {d}")
    rng = random.Random(7)
    for _ in range(4):  # each round, every device's files reach every other in a random order
        moves = [(s, d, rel, data) for s in eng.folders for d in eng.folders if s != d
                 for rel, data in eng.files(s).items() if rel.parts[0] == device(pans[s])]
        rng.shuffle(moves)
        for s, d, rel, data in moves:
            eng.deliver(s, d, rel, data)
            if rng.random() < 0.3:
                assert sync(pans[d], eng.folders[d])["ok"]
        for d, pan in pans.items():
            assert sync(pan, eng.folders[d])["ok"]
    histories = [held(p) for p in pans.values()]
    assert histories[0] == histories[1] == histories[2] and len(histories[0]) == 3
    for pan in pans.values():
        check_consistent(pan.db)


def test_conflict_copies_and_a_session_recorded_on_two_devices_are_reported(tmp_path):
    eng = Engine(tmp_path, ["ana", "ben"])
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "friday", NIGHT[:4])
    sync(ana, eng.folders["ana"])
    [early] = archives(eng.files("ana")).values()
    # the database copied to another laptop: the same device, the same session, recorded apart
    clone = Pan(tmp_path / "clone.db")
    shutil.copy(ana.db, clone.db)
    ana("meld ana JH QH KH")
    clone("meld dee 4H 4D 4C")
    clone_folder = tmp_path / "clone-folder"
    clone_folder.mkdir()
    sync(clone, clone_folder)
    sync(ana, eng.folders["ana"])
    [(rel, mine)] = archives(eng.files("ana")).items()
    theirs = (clone_folder / rel).read_bytes()
    # ben gets ana's file, then the engine keeps the clone's as a Syncthing conflict copy
    eng.deliver("ana", "ben", rel, mine)
    got = sync(ben, eng.folders["ben"])
    assert got["imported"]
    # first seen through its archive alone (no device.json yet): named as the archive names it
    [first] = got["pinned"]
    assert first["label"] == got["imported"][0]["device_label"] != first["device"][:8]
    digest = history_digest(ben.db)
    conflict_name = rel.stem + ".sync-conflict-20261127-210000-ABCDEFG" + rel.suffix
    eng.deliver("ana", "ben", rel, theirs, as_name=conflict_name)
    out = sync(ben, eng.folders["ben"], code=1)
    [c] = out["conflicts"]
    assert c["session"] == "friday" and c["seq"] == 5
    assert [s["events"] for s in c["sides"]] == [5, 5] and c["sides"][0]["where"] == "this database"
    assert c["sides"][1]["where"].endswith(conflict_name)
    assert history_digest(ben.db) == digest
    # in words: each copy's event #5 as the table says it, where the copy is, what the host can do
    assert [s["event"] for s in c["sides"]] == ["Ana melds J♥ Q♥ K♥", "Dee melds 4♥ 4♦ 4♣"]
    text = ben(f"sync {eng.folders['ben']}", code=1).output
    said = " ".join(text.split())
    assert "Conflict in session friday, recorded on" in said and "the copies differ from event #5 on." in said
    assert "#5 here: Ana melds J♥ Q♥ K♥ (5 events in all). #5 in the folder's copy: Dee melds 4♥ 4♦ 4♣" in said
    assert f"The folder's copy is {eng.folders['ben'] / rel.parent / conflict_name} " in said
    assert "no new event of friday is brought in while the copies disagree" in said
    assert "ask its host which copy is the one recorded there" in said and "`pan export friday -o -`" in said
    assert "A conflict copy the sync engine kept can be removed from the folder" in said
    assert "(meld / meld)" not in said and "differs (" not in said
    assert all(len(line) <= 80 for line in text.splitlines() if str(tmp_path) not in line)  # a path is not broken
    # the same copy in ana's own folder: reported, and ana's file is not overwritten by it
    eng.deliver("ana", "ana", rel, theirs)
    out = sync(ana, eng.folders["ana"], code=1)
    assert out["conflicts"] and not out["written"]
    said = " ".join(" ".join(out["conflicts"][0]["text"]).split())
    assert "recorded on this device" in said and "This device records friday: keep recording here." in said
    assert "signed with this device's key: another copy of this database" in said
    assert (eng.folders["ana"] / rel).read_bytes() == theirs
    # a conflict copy that is only an older version is no conflict
    (eng.folders["ben"] / rel.parent / conflict_name).unlink()
    eng.deliver("ana", "ben", rel, early, as_name=conflict_name)
    assert sync(ben, eng.folders["ben"])["ok"]


def test_the_folder_is_shown_as_the_host_typed_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ana = new(tmp_path, "ana")
    record(ana, "friday", NIGHT[:2])
    assert "it has not synced yet." in ana("sync --status").output
    out = ana("sync shared --create --device-name ana-laptop").output
    assert out.splitlines()[-1] == "Synced ana-laptop with shared: 1 session changed."
    assert ana("sync").output == "Synced ana-laptop with shared: nothing changed.\n"  # remembered as typed
    assert ana("sync --status").output.startswith("This device is ana-laptop; it syncs with shared.\n")
    data = sync(ana, "shared")
    assert data["folder"] == str((tmp_path / "shared").resolve()) and data["folder_shown"] == "shared"
    # from another working folder `shared` names another folder: the remembered one by its whole path
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    whole = str((tmp_path / "shared").resolve())
    assert ana("sync").output == f"Synced ana-laptop with {whole}: nothing changed.\n"
    assert f"it syncs with\n  {whole}." in ana("sync --status").output  # broken between words
    assert ana("sync ../shared").output == "Synced ana-laptop with ../shared: nothing changed.\n"
    assert json.loads(ana("sync --status --json").stdout)["folder_shown"] == "../shared"


def test_a_conflict_of_two_newer_copies_and_of_a_database_behind_its_folder_in_words(tmp_path):
    folder, other = tmp_path / "shared", tmp_path / "other"
    folder.mkdir()
    other.mkdir()
    ana = new(tmp_path, "ana")
    record(ana, "friday", NIGHT[:3])
    sync(ana, folder, "--device-name ana-laptop")
    older = Pan(tmp_path / "older.db")  # a backup of ana's database, taken now
    shutil.copy(ana.db, older.db)
    ana("add ben 5S")
    sync(ana, folder)
    # restored from the backup: the folder holds more of this device's session than the database
    out = sync(older, folder, code=1)
    [c] = out["conflicts"]
    assert c["ahead"] and c["seq"] == 4 and [s["event"] for s in c["sides"]] == [None, "Ben adds 5♠"]
    said = " ".join(" ".join(c["text"]).split())
    assert said.startswith("Conflict in session friday, recorded on this device")
    assert "the folder holds more of it than this database. Here, it ends at #3. #4 in the folder's copy: " \
           "Ben adds 5♠ (4 events in all)." in said and "restore a newer one (`pan restore`)" in said
    # two copies of ana's session, both newer than what ben holds, disagreeing from event #4 on
    ben = new(tmp_path, "ben")
    shutil.copy(older.db, tmp_path / "apart.db")
    apart = Pan(tmp_path / "apart.db")
    apart("meld dee 4H 4D 4C")
    sync(apart, other)
    [(rel, theirs)] = archives({p.relative_to(other): p.read_bytes() for p in other.rglob("*.toml")}).items()
    ben_folder = tmp_path / "ben-folder"
    shutil.copytree(folder, ben_folder)
    (ben_folder / rel).with_name("friday.sync-conflict-20261127-210000-ABCDEFG.toml").write_bytes(theirs)
    out = sync(ben, ben_folder, "--device-name ben-laptop", code=1)
    [c] = out["conflicts"]
    assert not out["imported"] and [s["event"] for s in c["sides"]] == ["Ben adds 5♠", "Dee melds 4♥ 4♦ 4♣"]
    said = " ".join(ben(f"sync {ben_folder}", code=1).output.split())
    assert "Conflict in session friday, recorded on ana-laptop" in said
    assert "#4 in the folder's first copy: Ben adds 5♠ (4 events in all). #4 in the folder's second copy: " \
           "Dee melds 4♥ 4♦ 4♣ (4 events in all). The first copy is " in said
    assert "the session is not brought in while the copies disagree" in said
    assert "Only ana-laptop records this session: ask its host which copy is the one recorded there." in said


def test_an_edited_file_is_refused(tmp_path):
    eng = Engine(tmp_path, ["ana", "ben"])
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "friday", NIGHT[:4])
    sync(ana, eng.folders["ana"])
    [(rel, data)] = archives(eng.files("ana")).items()
    edited = data.replace(b"chips = 4", b"chips = 40", 1)
    assert edited != data
    eng.deliver("ana", "ben", rel, edited)
    out = sync(ben, eng.folders["ben"], code=1)
    assert not out["imported"] and "fingerprint" in out["refused"][0]["why"]
    # edited with its fingerprint made again: the replay refuses it
    from pancli.app import archive as arc
    from pancli.app.sync.publish import sync_text

    parsed = arc.parse(edited.decode(), "x")
    eng.deliver("ana", "ben", rel, sync_text(parsed, "ana", "2026-11-27T21:00:00+00:00", seed_of(ana)).encode())
    out = sync(ben, eng.folders["ben"], code=1)
    assert not out["imported"] and "does not match what pancli computes" in out["refused"][0]["why"]
    assert ben.json("sessions") == []


# -- links, kills -------------------------------------------------------------------------------

def test_links_out_of_the_folder_are_refused(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "friday", NIGHT[:3])
    sync(ana, outside)
    [dev_dir] = [p for p in outside.iterdir() if p.is_dir()]
    [file] = list(dev_dir.glob("*.toml"))
    # a device folder that is a link out, and a file that is a link out
    (folder / dev_dir.name).symlink_to(dev_dir, target_is_directory=True)
    other = folder / ("f" * 32)
    other.mkdir()
    (other / "friday--x.toml").symlink_to(file)
    out = sync(ben, folder, code=1)
    assert len(out["refused"]) == 2 and all("link" in r["why"] for r in out["refused"])
    assert ben.json("sessions") == [] and not out["imported"]
    # this device's own folder as a link: refused, nothing written through it
    cruz = new(tmp_path, "cruz")
    cruz("session new x --players A,B")
    own = folder / device(cruz)
    own.symlink_to(outside, target_is_directory=True)
    assert "is a link" in cruz(f"sync {folder}", code=2).output
    assert sorted(p.name for p in outside.iterdir()) == [dev_dir.name]


def test_the_database_is_never_inside_the_folder(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new x --players A,B")
    assert "inside the synced folder" in pan(f"sync {tmp_path}", code=2).output


def test_a_missing_folder_is_refused_unless_created(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    assert "--create" in pan(f"sync {tmp_path / 'nowhere'}", code=2).output
    pan(f"sync {tmp_path / 'nowhere'} --create")
    assert (tmp_path / "nowhere").is_dir()


def _sync_process(db, folder) -> subprocess.Popen:
    return subprocess.Popen([*PAN, "--db", str(db), "sync", str(folder)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=child_env())


@pytest.mark.slow
def test_a_kill_during_sync_loses_nothing(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, ben = new(tmp_path, "ana"), new(tmp_path, "ben")
    record(ana, "night0", NIGHT)
    ana("session close")
    text = ana("export night0 --format toml -o -").stdout
    plain = "\n".join(line for line in text.splitlines() if not line.startswith(("device =", "uid =")))
    for i in range(1, 30):  # the same night under other names, without its global id: new sessions
        copy = tmp_path / f"night{i}.toml"
        copy.write_text(plain.replace('name = "night0"', f'name = "night{i}"'))
        ana(f"import {copy}")
    record(ben, "own", NIGHT)
    sync(ana, folder)
    pristine = tmp_path / "pristine.db"
    shutil.copy(ben.db, pristine)
    # how long a whole sync takes here, start-up included, on a copy: the kills fall inside it
    probe = tmp_path / "probe.db"
    shutil.copy(ben.db, probe)
    started = time.monotonic()
    assert _sync_process(probe, tmp_path / "probe-folder").wait() == 2  # no such folder: start-up only
    startup = time.monotonic() - started
    shutil.copytree(folder, tmp_path / "probe-folder")
    started = time.monotonic()
    assert _sync_process(probe, tmp_path / "probe-folder").wait() == 0
    whole = time.monotonic() - started
    rng = random.Random(3)
    kills = 0
    seen = set()
    for attempt in range(10):
        if attempt % 2 == 0:  # from the start again, or on from where the last kill left it
            shutil.copy(pristine, ben.db)
            for suffix in ("-wal", "-shm"):
                Path(ben.db + suffix).unlink(missing_ok=True)
        proc = _sync_process(ben.db, folder)
        time.sleep(rng.uniform(startup * 0.9, whole))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        else:  # the machine got faster than when it was timed (other work stopped): aim earlier
            startup, whole = startup * 0.7, whole * 0.7
        proc.wait()
        seen.add(len(check_consistent(ben.db)))  # whole sessions or none, every event replayable
    assert kills, "no sync was killed: the machine is too fast for these delays"
    print(f"sessions held after each kill: {sorted(seen)}")
    out = sync(ben, folder)
    assert out["ok"]
    assert {k: v for k, v in held(ben).items() if k[0] == device(ana)} == held(ana)
    assert not [p for p in folder.rglob(".*") if p.is_file()], "a temporary file was left behind"
    # the folder holds ben's session whole too
    fresh = new(tmp_path, "fresh")
    sync(fresh, folder)
    assert len(held(fresh)) == 31


def test_a_conflict_in_the_header_or_in_an_events_payments_or_hand_says_so():
    from pancli.app.sync import conflicts as words
    from pancli.core.ledger import Payment
    from pancli.core.rows import LoggedEvent

    header = {"name": "friday", "game": "panguingue", "seats": ["Ana", "Ben", "Cruz"], "dealer": "Cruz"}
    buyin = {"kind": "buyin", "player": "Ana", "chips": 20}

    def conflict(mine, theirs, seq, field=None):
        sides = [words.side(words.HERE, mine[0], mine[1], seq, field),
                 words.side("/f/shared/dev/friday.toml", theirs[0], theirs[1], seq, field, "ana-laptop")]
        c = {"session": "friday", "device": "d" * 32, "device_label": "ana-laptop", "this_device": False,
             "seq": seq, "field": field, "why": "", "sides": sides}
        return " ".join(words.conflict_text(c, "ben-laptop", ("/f/shared", "shared")))

    said = conflict((header, []), (dict(header, seats=["Ana", "Ben"]), []), None, "seats")
    assert "the copies differ in the players. Here, the players: Ana, Ben and Cruz. In ana-laptop's copy, " \
           "the players: Ana and Ben. The folder's copy is shared/dev/friday.toml " in said
    one = [LoggedEvent(seq=1, kind="buyin", payload=buyin, hand=None, payments=[])]
    other = [LoggedEvent(seq=1, kind="buyin", payload=buyin, hand=2, payments=[])]
    assert "#1 here: Ana buys 20 chips between hands (1 event in all). #1 in ana-laptop's copy: Ana buys 20 " \
           "chips in hand 2 (1 event in all)." in conflict((header, one), (header, other), 1)
    paid = [LoggedEvent(seq=1, kind="buyin", payload=buyin, payments=[Payment("Ben", "Ana", 4, None, said="a set")])]
    said = conflict((header, one), (header, paid), 1)
    assert "#1 here: Ana buys 20 chips; no one pays (1 event in all). #1 in ana-laptop's copy: Ana buys " \
           "20 chips; Ben pays Ana 4: a set (1 event in all)." in said
    undo = [*one, LoggedEvent(seq=2, kind="undo", payload={"kind": "undo", "undid": "buyin", "seq": 1}, undo_of=1)]
    assert words.event_said("panguingue", undo, 2) == "Undid #1: Ana buys 20 chips"
    assert words.event_said("no-such-game", undo, 2) == "undo" and words.event_said("panguingue", undo, 3) is None


def test_a_sync_in_a_terminal_loads_no_table_layout_when_nothing_is_in_conflict(tmp_path):
    """What a sync says without a conflict is plain lines: rich (the tables' layout, a tenth of
    a second to load) is not loaded even when the output is a terminal."""
    import sys

    folder = tmp_path / "shared"
    folder.mkdir()
    ana = new(tmp_path, "ana")
    record(ana, "friday", NIGHT[:4])
    sync(ana, folder, "--device-name ana")
    code = ("import sys; sys.stdout.isatty = lambda: True; sys.argv = ['pan', '--db', sys.argv[1], 'sync', sys.argv[2]]\n"
            "from pancli.cli import main\n"
            "try:\n    main()\nfinally:\n    print('rich' in sys.modules, file=sys.stderr)")
    got = subprocess.run([sys.executable, "-c", code, str(tmp_path / "ben.db"), str(folder)], capture_output=True,
                         text=True, env=child_env(), timeout=HANG)
    assert "Imported friday from ana" in got.stdout
    assert got.stderr.strip().splitlines()[-1] == "False"
