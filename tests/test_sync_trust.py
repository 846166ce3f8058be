"""`pan sync` trusts only what each device signed: a hostile member of the folder who forges,
replays, re-signs or relays archives changes nothing on the host; keys are pinned on first
sight and a change of key is refused; 0.2 databases and folders keep working; whatever the
folder holds is bounded, and an error of the file system is one line that stops nothing else."""

from __future__ import annotations

import json
import os
import shutil
import threading
import uuid
from pathlib import Path

import pytest

from helpers import HANG, Pan, history_digest, sql_value

NIGHT = ["deal", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH", "undo"]
FIXTURES = Path(__file__).parent / "fixtures" / "v0_2"


def record(pan: Pan, name: str, lines=NIGHT, players="Ana,Ben,Cruz,Dee"):
    pan(f"session new {name} --players {players}")
    for line in lines:
        pan(line)


def sync(pan: Pan, folder, *args, code=0) -> dict:
    return json.loads(pan(f"sync {folder} --json " + " ".join(str(a) for a in args), code=code).stdout)


def device(pan: Pan) -> str:
    return json.loads(pan("sync --status --json").stdout)["device"]


def seed_of(pan: Pan) -> bytes:
    return bytes.fromhex(sql_value(pan.db, "SELECT value FROM settings WHERE key = 'device_key'"))


def pins(pan: Pan) -> list:
    import sqlite3

    con = sqlite3.connect(pan.db)
    try:
        return con.execute("SELECT id, public_key FROM devices ORDER BY id").fetchall()
    finally:
        con.close()


def built(pan: Pan, name: str) -> dict:
    """A session's archive as its database holds it."""
    from pancli.app import archive as arc
    from pancli.storage.store import Store

    store = Store(pan.db, create=False)
    try:
        return arc.build(store, store.session_named(name))
    finally:
        store.close()


def signed_by(archive: dict, seed: bytes, label: str = "hal") -> bytes:
    from pancli.app.sync.publish import sync_text

    return sync_text(archive, label, "2026-11-27T21:00:00+00:00", seed).encode()


def unsigned(archive: dict, label: str = "hal") -> bytes:
    """An archive as pancli 0.2 wrote it into the folder: a [sync] end, no signature."""
    import tomli_w

    from pancli.app import archive as arc

    tail = tomli_w.dumps({"sync": {"fingerprint": arc.fingerprint(archive), "events": len(archive["events"]),
                                   "device_label": label, "written_at": "2026-11-27T21:00:00+00:00"}})
    return (arc.to_toml(archive) + "\n" + tail).encode()


def db_check(pan: Pan) -> str:
    return pan("db check --full").output  # the same words every time: a repeat check says what it reread


# -- the hostile member of the folder -------------------------------------------------------------

def test_forged_replayed_resigned_and_relayed_archives_change_nothing_on_the_host(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, ben, hal = Pan(tmp_path / "ana.db"), Pan(tmp_path / "ben.db"), Pan(tmp_path / "hal.db")
    record(ana, "friday", NIGHT[:3])
    sync(ana, folder, "--device-name ana")
    me = device(ana)
    [early] = (folder / me).glob("friday--*.toml")
    early_bytes = early.read_bytes()
    for line in NIGHT[3:]:
        ana(line)
    sync(ana, folder)
    [real] = (folder / me).glob("friday--*.toml")
    sync(ben, folder, "--device-name ben")
    sync(hal, folder, "--device-name hal")
    sync(ana, folder)
    sync(ben, folder)  # both have met hal now (it has no session of its own)
    hal_dir = folder / device(hal)
    hal_seed = seed_of(hal)
    # what hal can make: ana's night with a meld more (recorded on a copy of ana's database),
    # and a brand-new session claiming to be ana's
    clone = Pan(tmp_path / "clone.db")
    shutil.copy(ana.db, clone.db)
    clone("meld dee 4H 4D 4C")
    longer = built(clone, "friday")
    fresh = json.loads(json.dumps(longer))
    fresh["session"].update(uid=uuid.uuid4().hex, name="saturday")
    tampered = bytearray(real.read_bytes())
    at = tampered.index(b'device_label = "ana"')
    tampered[at:at + 20] = b'device_label = "bob"'
    forgeries = {
        hal_dir / "friday--resigned.toml": signed_by(longer, hal_seed),       # ana's session, hal's key
        folder / me / real.name: signed_by(longer, hal_seed, "ana"),         # over ana's own file
        hal_dir / "saturday--new.toml": signed_by(fresh, hal_seed),          # a new "session of ana's"
        hal_dir / "friday--unsigned.toml": unsigned(longer),                 # as 0.2 would have written it
        hal_dir / "friday--tampered.toml": bytes(tampered),                  # a signature that no longer holds
        hal_dir / "friday--replayed.toml": early_bytes,                      # ana's own, older
        hal_dir / "friday--relayed.toml": real.read_bytes(),                 # ana's own, as it is
    }
    from pancli.app.sync import folder as sync_folder

    manifest = json.loads((folder / me / "device.json").read_text())  # ana's device.json, hal's key
    forgeries[folder / me / "device.json"] = sync_folder.manifest_text(
        {k: v for k, v in manifest.items() if k not in ("public_key", "signature")}, hal_seed).encode()
    for pan in (ana, ben):
        for path, data in forgeries.items():
            path.write_bytes(data)
        before, checked, pinned = history_digest(pan.db), db_check(pan), pins(pan)
        out = sync(pan, folder, code=1)
        assert history_digest(pan.db) == before and db_check(pan) == checked and pins(pan) == pinned
        assert not out["imported"] and not out["extended"]
        refused = {Path(r["file"]).name: r for r in out["refused"]}
        for name in ("friday--resigned.toml", "saturday--new.toml", "friday--unsigned.toml",
                     "friday--tampered.toml", "device.json"):
            assert name in refused, (name, out["refused"])
            assert refused[name]["device"] == me
        assert "another key signed it" in refused["friday--resigned.toml"]["why"]
        assert "not signed" in refused["friday--unsigned.toml"]["why"]
        assert "does not hold" in refused["friday--tampered.toml"]["why"]
        assert "replayed" not in " ".join(refused) and "relayed" not in " ".join(refused)
        if pan is ana:  # she wrote her own file back over the forgery
            assert (folder / me / real.name).read_bytes() != forgeries[folder / me / real.name]
        for path, data in forgeries.items():
            path.write_bytes(data)
        text = pan(f"sync {folder}", code=1).output
        assert "Refused" in text and "(it claims ana" in text
    # ben's night is ana's, event for event
    ben("session use friday")
    assert ben.json("history") == ana.json("history")


def test_an_impostor_first_for_a_new_device_never_holds_its_id(tmp_path):
    """A member of the folder who learnt a new device's id writes a device.json and a session for
    it, signed with its own key, before the real device ever syncs: no host pins that key; each
    says so in one line, then takes the real device's sessions when they come."""
    from pancli.app.sync import folder as sync_folder

    folder = tmp_path / "shared"
    folder.mkdir()
    real, eve, host, late = (Pan(tmp_path / f"{n}.db") for n in ("real", "eve", "host", "late"))
    record(real, "friday", NIGHT[:3])
    record(eve, "forged", NIGHT[:2])
    victim = device(real)
    forged = built(eve, "forged")
    forged["session"]["device"] = victim
    (folder / victim).mkdir()
    (folder / victim / "forged--x.toml").write_bytes(signed_by(forged, seed_of(eve), "real"))
    (folder / victim / "device.json").write_text(sync_folder.manifest_text(
        {"format": sync_folder.DEVICE_FORMAT, "version": 2, "device": victim, "label": "real",
         "last_sync": "2026-11-27T21:00:00+00:00"}, seed_of(eve)))
    out = sync(host, folder, code=1)
    assert not out["imported"] and not out["pinned"] and not [k for _, k in pins(host) if k]
    [line] = out["refused"]
    assert line["device"] == victim and "not the key its id comes from" in line["why"]
    assert len([x for x in host(f"sync {folder}", code=1).output.splitlines() if x.startswith("Refused")]) == 1
    sync(real, folder, "--device-name real", code=1)  # it reports eve's files; its device.json over eve's
    for pan in (host, late):  # late sees both at once
        out = sync(pan, folder, code=1)
        assert [(i["name"], i["device"]) for i in out["imported"]] == [("friday", victim)]
        assert victim in [p["device"] for p in out["pinned"]] and dict(pins(pan))[victim]
        [line] = out["refused"]
        assert "impostor" in line["why"] and "forged" not in " ".join(s["name"] for s in pan.json("sessions"))
    # a key pinned at first sight by an older pancli gives way to the key the id comes from
    from helpers import run_sql

    run_sql(late.db, f"UPDATE devices SET public_key = '{json.loads(eve('sync --status --json').stdout)['key']}' "
                     f"WHERE id = '{victim}'")
    out = sync(late, folder, code=1)
    assert [p["device"] for p in out["pinned"]] == [victim] and "impostor" in out["refused"][0]["why"]
    assert dict(pins(late))[victim] == json.loads(real("sync --status --json").stdout)["key"]


def test_a_session_of_this_device_is_never_extended_from_the_folder(tmp_path):
    """A copy of the database (the same key) records more: the folder's longer copy is reported,
    never taken, and the file is not written over."""
    folder = tmp_path / "shared"
    folder.mkdir()
    ana = Pan(tmp_path / "ana.db")
    record(ana, "friday", NIGHT[:3])
    sync(ana, folder)
    clone = Pan(tmp_path / "clone.db")
    shutil.copy(ana.db, clone.db)
    clone("add ben 5S")
    sync(clone, folder)
    before = history_digest(ana.db)
    [file] = (folder / device(ana)).glob("*.toml")
    theirs = file.read_bytes()
    out = sync(ana, folder, code=1)
    assert history_digest(ana.db) == before and not out["extended"] and not out["written"]
    assert "never taken from the folder" in out["conflicts"][0]["why"]
    assert file.read_bytes() == theirs


# -- identity and keys ------------------------------------------------------------------------------

def test_a_new_device_id_is_derived_from_its_key(tmp_path):
    from pancli.core import signing

    pan = Pan(tmp_path / "new.db")
    pan("session new x --players A,B")
    status = json.loads(pan("sync --status --json").stdout)
    assert status["device"] == signing.device_id_of(status["key"])
    assert len(status["fingerprint"]) == 19 and status["fingerprint"].count("-") == 3
    assert sql_value(pan.db, "SELECT device FROM sessions") == status["device"]


def test_a_file_relayed_by_another_device_is_taken_when_its_device_signed_it(tmp_path):
    ana, bob, cruz = (Pan(tmp_path / f"{n}.db") for n in ("ana", "bob", "cruz"))
    bob("session new bobs --players A,B")
    shared = tmp_path / "shared"
    shared.mkdir()
    record(ana, "friday", NIGHT[:3])
    sync(ana, shared, "--device-name ana")
    [real] = (shared / device(ana)).glob("*.toml")
    # cruz's folder holds only bob's subfolder, with ana's file that bob copied there
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / device(bob)).mkdir(parents=True)
    shutil.copy(real, elsewhere / device(bob) / real.name)
    out = sync(cruz, elsewhere)
    assert [(i["name"], i["device"]) for i in out["imported"]] == [("friday", device(ana))]
    # bob's own key over a session claiming ana: refused, even though bob's folder holds it
    (elsewhere / device(bob) / real.name).write_bytes(signed_by(built(ana, "friday"), seed_of(bob)))
    out = sync(cruz, elsewhere, code=1)  # cruz knows ana's key now
    assert not out["imported"] and not out["extended"] and "another key signed it" in out["refused"][0]["why"]
    dave = Pan(tmp_path / "dave.db")  # dave has never met ana: bob's key is no proof of her id
    out = sync(dave, elsewhere, code=1)
    assert not out["imported"] and "not known here yet" in out["refused"][0]["why"]


def test_a_changed_key_is_refused_until_the_device_is_forgotten(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    ben, host = Pan(tmp_path / "ben.db"), Pan(tmp_path / "host.db")
    shutil.copy(FIXTURES / "ben.db", ben.db)  # a 0.2 device: a random id, bound to its key by hand
    sync(ben, folder, "--device-name ben")
    out = sync(host, folder, "--device-name host", code=1)  # a new host cannot tell it from an impostor
    assert not out["imported"] and "pan sync trust" in out["refused"][0]["why"]
    ben_id = sql_value(ben.db, "SELECT value FROM settings WHERE key = 'device_id'")
    assert "Pinned the key of" in host(f"sync trust {ben_id}").output  # the key its device.json offers
    assert sync(host, folder)["imported"]
    old = json.loads(host("sync --status --json").stdout)["devices"]
    [ben_row] = [d for d in old if d["label"] == "ben"]
    assert ben_row["fingerprint"] and ben_row["first_seen"] and ben_row["last_seen"]
    # ben's database is lost; a new one is given the old id by hand, with a new key
    from helpers import run_sql

    run_sql(ben.db, f"UPDATE settings SET value = '{os.urandom(32).hex()}' WHERE key = 'device_key'")
    ben("drop cruz")
    sync(ben, folder, code=1)  # its files signed by the old key are reported, and written anew
    before = history_digest(host.db)
    out = sync(host, folder, code=1)
    assert history_digest(host.db) == before
    warnings = [r for r in out["refused"] if "key of ben changed" in r["why"]]
    assert len(warnings) == 1 and "pan sync forget" in warnings[0]["why"]
    line = [x for x in host(f"sync {folder}", code=1).output.splitlines() if "key of ben changed" in x]
    assert len(line) == 1
    assert "its 1 session stays here" in host("sync forget ben").output
    out = sync(host, folder)
    assert out["pinned"] and [e["events"] for e in out["extended"]] == [1]


def test_a_key_pinned_ahead_is_the_only_one_taken(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, host = Pan(tmp_path / "ana.db"), Pan(tmp_path / "host.db")
    shutil.copy(FIXTURES / "ana.db", ana.db)
    host("session new mine --players A,B")
    ana_id = sql_value(ana.db, "SELECT value FROM settings WHERE key = 'device_id'")
    host(f"sync trust {ana_id} --key {'ab' * 32}")
    sync(ana, folder)
    out = sync(host, folder, code=1)
    assert not out["imported"] and all("another key signed it" in r["why"] or "changed" in r["why"]
                                       for r in out["refused"])
    real = json.loads(ana("sync --status --json").stdout)["key"]
    assert "in place of" in host(f"sync trust {ana_id} --key {real}").output
    assert sync(host, folder)["imported"]
    assert "is not a public key" in host(f"sync trust {ana_id} --key nope", code=2).output
    assert "this device" in host(f"sync trust {device(host)}", code=2).output


# -- 0.2 databases and folders ------------------------------------------------------------------------

def test_a_0_2_folder_keeps_working(tmp_path):
    folder = tmp_path / "shared"
    shutil.copytree(FIXTURES / "folder", folder)
    ana, ben = Pan(tmp_path / "ana.db"), Pan(tmp_path / "ben.db")
    shutil.copy(FIXTURES / "ana.db", ana.db)
    shutil.copy(FIXTURES / "ben.db", ben.db)
    ana_id = sql_value(ana.db, "SELECT value FROM settings WHERE key = 'device_id'")
    ids = sorted(sql_value(ana.db, "SELECT group_concat(device || uid) FROM sessions").split(","))
    before = history_digest(ana.db)
    [own] = (folder / ana_id).glob("friday--*.toml")
    assert b"# signature" not in own.read_bytes()
    # ana's first signed sync: her id and sessions' ids kept, her own file signed, ben's unsigned
    # copy (held here already, unchanged) taken as it is
    out = sync(ana, folder)
    assert out["ok"] and [w["name"] for w in out["written"]] == ["friday"] and not out["refused"]
    assert history_digest(ana.db) == before
    assert sorted(sql_value(ana.db, "SELECT group_concat(device || uid) FROM sessions").split(",")) == ids
    assert sql_value(ana.db, "SELECT value FROM settings WHERE key = 'device_id'") == ana_id
    assert own.read_bytes().count(b"# signature: ed25519 ") == 1
    assert "OK" in ana("db check").output
    # a new device: ana's key, pinned once its owner said it is hers, is the one taken; ben's
    # unsigned monday is reported
    cruz = Pan(tmp_path / "cruz.db")
    cruz("session new mine --players A,B")
    cruz(f"sync trust {ana_id} --key {json.loads(ana('sync --status --json').stdout)['key']}")
    out = sync(cruz, folder, code=1)
    assert [i["name"] for i in out["imported"]] == ["friday"]
    assert [Path(r["file"]).name.split("--")[0] for r in out["refused"]] == ["monday"]
    # an unsigned 0.2 copy that holds more than ana has is reported, not taken
    monday = next(folder.glob("*/monday--*.toml"))
    ben("drop cruz")
    grown = built(ben, "monday")
    monday.write_bytes(unsigned(grown, "ben"))
    out = sync(ana, folder, code=1)
    assert not out["extended"] and "not signed" in out["refused"][0]["why"]
    # the 0.2 archives of pancli export still import (the signature line is a comment)
    shutil.copy(own, tmp_path / "signed.toml")
    dee = Pan(tmp_path / "dee.db")
    assert "Imported" in dee(f"import {tmp_path / 'signed.toml'}").output


# -- bounded, and one line for each error of the file system -----------------------------------------

def test_every_text_of_an_archive_is_bounded(tmp_path):
    pan = Pan(tmp_path / "p.db")
    record(pan, "friday", NIGHT[:2])
    text = pan("export friday -o -").stdout
    for old, new in (('created_at = "', 'created_at = "' + "9" * 100_000), ('kind = "deal"', 'kind = "' + "d" * 500 + '"')):
        target = tmp_path / "long.toml"
        target.write_text(text.replace(old, new, 1))
        other = Pan(tmp_path / f"other{len(new)}.db")
        r = other(f"import {target}", code=2)
        assert "longer than" in r.output and len(r.output.strip().splitlines()) == 1


def test_a_last_sync_from_a_far_future_clock_is_not_kept(tmp_path):
    folder = tmp_path / "shared"
    sub = folder / ("c" * 32)
    sub.mkdir(parents=True)
    (sub / "device.json").write_text(json.dumps({"format": "pancli-device", "version": 1, "device": "c" * 32,
                                                 "label": "clock", "last_sync": "2999-01-01T00:00:00+00:00"}))
    host = Pan(tmp_path / "host.db")
    sync(host, folder)
    [row] = [d for d in json.loads(host("sync --status --json").stdout)["devices"] if d["label"] == "clock"]
    assert row["last_sync"] is None


def test_a_fifo_swapped_in_after_the_listing_does_not_block(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, host = Pan(tmp_path / "ana.db"), Pan(tmp_path / "host.db")
    record(ana, "friday", NIGHT[:2])
    sync(ana, folder)
    sub = str(folder / device(ana))
    [file] = Path(sub).glob("*.toml")
    real = os.scandir

    class Listed:
        def __init__(self, path):
            self.entries = list(real(path))
            if path == sub:  # the engine swaps a FIFO in right after pancli listed the subfolder
                file.unlink()
                os.mkfifo(file)

        def __iter__(self):
            return iter(self.entries)

        def __enter__(self):
            return iter(self.entries)

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(os, "scandir", Listed)
    result = {}
    worker = threading.Thread(target=lambda: result.update(out=host(f"sync {folder} --json", code=1)))
    worker.start()
    worker.join(HANG)
    assert not worker.is_alive(), "sync blocked on a FIFO"
    out = json.loads(result["out"].stdout)
    assert any("not a regular file" in e["why"] for e in out["errors"])


def test_an_unreadable_subfolder_or_a_file_in_place_of_this_devices_folder_stops_nothing_else(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    ana, ben, host = Pan(tmp_path / "ana.db"), Pan(tmp_path / "ben.db"), Pan(tmp_path / "host.db")
    record(ana, "friday", NIGHT[:2])
    record(ben, "monday", NIGHT[:1])
    record(host, "mine", NIGHT[:1])
    sync(ana, folder)
    sync(ben, folder)
    locked = str(folder / device(ben))
    real = os.scandir

    def scandir(path=".", *a):
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a)

    monkeypatch.setattr(os, "scandir", scandir)
    out = sync(host, folder, code=1)
    assert [e["path"] for e in out["errors"]] == [locked] and "Permission denied" in out["errors"][0]["why"]
    assert [i["name"] for i in out["imported"]] == ["friday"] and [w["name"] for w in out["written"]] == ["mine"]
    text = host(f"sync {folder}", code=1).output
    assert f"Could not use {locked}: Permission denied." in text
    monkeypatch.undo()
    # this device's folder is a file: one line, the others' sessions are still read
    shutil.rmtree(folder / device(host))
    (folder / device(host)).write_text("not a folder")
    out = sync(host, folder, code=1)
    assert [i["name"] for i in out["imported"]] == ["monday"]
    assert [e["path"] for e in out["errors"]] == [str(folder / device(host))]
    # a file of this device's that cannot be written: one line, the other sessions still written
    (folder / device(host)).unlink()
    host("session new second --players A,B")
    sync(host, folder)
    host("deal")
    [second] = (folder / device(host)).glob("second--*.toml")
    second.unlink()
    second.mkdir()
    host("session use mine")
    host("drop cruz")
    out = sync(host, folder, code=1)
    assert [w["name"] for w in out["written"]] == ["mine"] and [e["path"] for e in out["errors"]] == [str(second)]


# -- unchanged files are not parsed again (issue 20) -------------------------------------------------

def test_an_unchanged_file_is_not_parsed_and_a_file_is_parsed_once(tmp_path, monkeypatch):
    from pancli.app import archive_check

    folder = tmp_path / "shared"
    folder.mkdir()
    ana, host = Pan(tmp_path / "ana.db"), Pan(tmp_path / "host.db")
    for name in ("one", "two", "three"):
        record(ana, name, NIGHT[:2])
    sync(ana, folder)
    parsed: list[str] = []
    real = archive_check.parse

    def counted(text, where):
        parsed.append(where)
        return real(text, where)

    monkeypatch.setattr(archive_check, "parse", counted)
    out = sync(host, folder)
    assert len(out["imported"]) == 3 and sorted(parsed) == sorted(set(parsed)) and len(parsed) == 3
    parsed.clear()
    out = sync(host, folder)
    assert parsed == [] and out["skipped"] == 3 and out["ok"]
    # a file that changes is read again, once
    ana("session use two")
    ana("drop ben")
    sync(ana, folder)
    out = sync(host, folder)
    assert len(parsed) == 1 and [e["name"] for e in out["extended"]] == ["two"]
    # this device's own files, unchanged, are neither parsed nor built again
    parsed.clear()
    out = sync(ana, folder)
    assert parsed == [] and out["unchanged"] == 3 and not out["written"]


def test_an_os_error_that_reaches_the_top_is_one_line_not_a_silent_exit(monkeypatch, capsys):
    import pancli.cli as cli

    def app():
        raise PermissionError(13, "Permission denied", "/club/shared/ab12")

    monkeypatch.setattr(cli, "app", app)
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("Error: ")
    assert "/club/shared/ab12" in err and "Permission denied" in err
