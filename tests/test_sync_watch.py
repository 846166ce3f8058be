"""`pan sync --watch` as a real process: a hand recorded on its host reaches the folder, another
host's archive dropped in the folder reaches its database, Ctrl-C ends it cleanly."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from helpers import HANG, Pan, child_env

ROOT = Path(__file__).resolve().parent.parent


def until(what, check, deadline: float = HANG):
    """Polls ``check`` until it is true; the deadline only fails a build that never gets there."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"never happened: {what}")


def device_of(pan: Pan) -> str:
    return pan.json("sync --status")["device"]


def sessions_in(db: Path) -> list[str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [r[0] for r in con.execute("SELECT name FROM sessions")]
    finally:
        con.close()


def test_watch_sends_a_hand_recorded_here_and_takes_in_an_archive_dropped_in_the_folder(tmp_path):
    shared, elsewhere = tmp_path / "shared", tmp_path / "elsewhere"
    shared.mkdir()
    elsewhere.mkdir()
    kasia, ben = Pan(tmp_path / "kasia.db"), Pan(tmp_path / "ben.db")
    kasia("session new k1 --players Ana,Ben,Dee")
    kasia(f"sync {shared} --device-name kasia")
    ben("session new b1 --players Eve,Fay,Gus")
    for line in ("deal", "drop gus", "meld eve 5S 5S 5S"):
        ben(line)
    ben(f"sync {elsewhere} --device-name ben")  # Ben's archive, not in the shared folder yet
    me, them = device_of(kasia), device_of(ben)

    proc = subprocess.Popen([sys.executable, "-m", "pancli", "--db", kasia.db, "sync", str(shared), "--watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(), cwd=ROOT)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        until("the watch started", lambda: any(line.startswith("Watching") for line in lines))
        archive = next((shared / me).glob("k1--*.toml"))
        before = archive.read_text(encoding="utf-8")
        for line in ("deal", "drop dee", "meld ana 5S 5S 5S"):
            kasia(line)
        until("the hand recorded here in the folder", lambda: "5S" in archive.read_text(encoding="utf-8"))
        assert archive.read_text(encoding="utf-8") != before

        shutil.copytree(elsewhere / them, shared / them)
        until("Ben's night taken in", lambda: any(n.startswith("b1") for n in sessions_in(Path(kasia.db))))
        assert kasia.json("standings --session b1")["players"], "the night is readable here"
        until("a line said so", lambda: any("b1" in line and "ben" in line for line in lines))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=HANG)
    reader.join(timeout=HANG)
    err = proc.stderr.read()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and not err.strip(), err
    assert lines[-1].strip() == "Stopped watching."
    assert sum("sent k1" in line for line in lines) >= 1, lines
    assert len(lines) <= 6, lines  # no sync of its own writes, over and over
    assert os.listdir(shared / me)


def test_where_it_cannot_watch_it_looks_and_syncs_only_for_news(tmp_path, monkeypatch):
    """The fallback poll (no notifications): its own writes wake nothing; another device's new file
    and an event recorded here each bring exactly one sync more."""
    from pancli.app import sync_watch
    from pancli.app.club import sync_host
    from pancli.storage.store import Store

    monkeypatch.setattr(sync_watch, "POLL_SECONDS", 0.02)
    shared = tmp_path / "shared"
    shared.mkdir()
    kasia = Pan(tmp_path / "kasia.db")
    kasia("session new k1 --players Ana,Ben,Dee")
    kasia(f"sync {shared} --device-name kasia")
    runs: list[int] = []
    looks: list[int] = []
    real_state = sync_watch.folder_state

    def counted_state(root, device):
        looks.append(1)
        return real_state(root, device)

    monkeypatch.setattr(sync_watch, "folder_state", counted_state)

    stop = threading.Event()

    def watching() -> None:  # the store opened in the thread that uses it
        store = Store(Path(kasia.db))

        def run() -> None:
            sync_host(store, str(shared))
            runs.append(len(looks))

        try:
            sync_watch.watch(store, shared, store.sync.device_id(), run, stop, force_polling=True)
        finally:
            store.close()

    watcher = threading.Thread(target=watching)
    watcher.start()
    try:
        until("the first sync", lambda: runs)
        settled = len(looks)
        until("ten looks with nothing new", lambda: len(looks) >= settled + 10)
        assert len(runs) == 1, "its own device.json, rewritten by each sync, woke it"
        other = shared / ("0" * 32)
        other.mkdir()
        (other / "device.json").write_text("{}", encoding="utf-8")
        until("a sync for another device's file", lambda: len(runs) == 2)
        Pan(kasia.db)("deal")
        until("a sync for the event recorded here", lambda: len(runs) == 3)
        settled = len(looks)
        until("ten looks more", lambda: len(looks) >= settled + 10)
        assert len(runs) == 3
    finally:
        stop.set()
        watcher.join(timeout=HANG)
    assert not watcher.is_alive()


def test_watch_json_prints_one_json_object_a_sync_and_nothing_else(tmp_path):
    import json

    shared = tmp_path / "shared"
    shared.mkdir()
    kasia = Pan(tmp_path / "kasia.db")
    kasia("session new k1 --players Ana,Ben,Dee")
    proc = subprocess.Popen([sys.executable, "-m", "pancli", "--db", kasia.db, "sync", str(shared), "--watch",
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(),
                            cwd=ROOT)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        until("the first sync", lambda: lines)
        kasia("deal")
        until("the deal sent", lambda: any(w["events"] == 1 for line in lines for w in json.loads(line)["written"]))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=HANG)
    reader.join(timeout=HANG)
    err = proc.stderr.read()
    assert proc.returncode == 0, err
    assert all(json.loads(line)["device"] for line in lines)
    assert err.splitlines()[0].startswith("Watching") and err.splitlines()[-1] == "Stopped watching."


def test_an_event_recorded_during_a_sync_is_sent_by_the_next(tmp_path, monkeypatch):
    from pancli.app import sync_watch
    from pancli.app.club import sync_host
    from pancli.storage.store import Store

    monkeypatch.setattr(sync_watch, "POLL_SECONDS", 0.02)
    shared = tmp_path / "shared"
    shared.mkdir()
    kasia = Pan(tmp_path / "kasia.db")
    kasia("session new k1 --players Ana,Ben,Dee")
    written: list[int] = []
    stop = threading.Event()

    def watching() -> None:
        store = Store(Path(kasia.db))

        def run() -> None:
            out = sync_host(store, str(shared))
            written.append(sum(w["events"] for w in out.written))
            if len(written) == 1:
                Pan(kasia.db)("deal")  # recorded after this sync read the database, before it ended

        try:
            sync_watch.watch(store, shared, store.sync.device_id(), run, stop, force_polling=True)
        finally:
            store.close()

    watcher = threading.Thread(target=watching)
    watcher.start()
    try:
        until("the deal sent by a second sync", lambda: len(written) >= 2)
    finally:
        stop.set()
        watcher.join(timeout=HANG)
    assert written[:2] == [0, 1]
