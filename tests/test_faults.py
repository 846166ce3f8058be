"""Disk and file trouble: each gives one clear line (exit 2, no traceback) and loses nothing stored.

Read-only and full disks are real: a tmpfs mounted for the test (remounted read-only, or filled
to the last byte). That needs root with CAP_SYS_ADMIN; elsewhere those tests skip and say why.
Note that chmod cannot make a file read-only for root, so permissions are not used.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pancli.app.recorder import Recorder
from pancli.cli import app
from pancli.core.errors import RuleError, StoreError
from pancli.storage.store import Store

from helpers import (
    CYCLE,
    PLAYERS,
    Pan,
    check_consistent,
    db_dump as dump,
    event_count,
    new_night,
    pan_process as run_pan,
    run_sql,
)

READ_LINES = ["standings --json", "board --json", "history", "session list"]
WRITE_LINES = ["meld b 2C 3C 4C", "undo", "session new other --players X,Y", "deal"]


def cli(db, line: str) -> subprocess.CompletedProcess:
    """`pan LINE` in this process (the same PanGroup error handling), as a finished process.

    Most cases run here, fast; each kind of trouble is also met by at least one whole `pan` process.
    """
    result = CliRunner().invoke(app, ["--db", str(db), *shlex.split(line)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(line, result.exit_code, result.stdout, result.stderr)


def one_line_error(result: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2, nothing on stdout, exactly one `Error: …` line on stderr naming the trouble."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert result.stdout == ""
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]




def night_with_a_hand(path) -> None:
    assert cli(path, f"session new night --players {PLAYERS} --dealer F").returncode == 0
    for line in CYCLE + CYCLE[:3]:
        assert cli(path, line).returncode == 0


# -- real mounts -----------------------------------------------------------------------------

@contextmanager
def tmpfs(path: Path, size: str = "512k"):
    path.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root and mount(8); chmod cannot stop root from writing")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                       capture_output=True, text=True)
    if r.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def remount(path: Path, mode: str) -> None:
    r = subprocess.run(["mount", "-o", f"remount,{mode}", str(path)], capture_output=True, text=True)
    if r.returncode:
        pytest.skip(f"cannot remount {mode}: {r.stderr.strip()}")


def free_space(mnt: Path, filler: Path) -> None:
    """Delete the filler and grow the disk: the WAL may have taken the space the filler left."""
    filler.unlink()
    remount(mnt, "size=4m")


def fill(folder: Path, leave: int = 0) -> Path:
    """Fill the disk to the last block, then give back `leave` bytes."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    if leave:
        os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


# -- read-only --------------------------------------------------------------------------------

def test_read_only_disk(tmp_path):
    with tmpfs(tmp_path / "mnt", "4m") as mnt:
        db = mnt / "pan.db"
        night_with_a_hand(db)
        before = dump(db)
        remount(mnt, "ro")
        try:
            for line in WRITE_LINES + READ_LINES:
                one_line_error(cli(db, line), str(db), "read-only")
            for line in (WRITE_LINES[0], READ_LINES[0]):
                one_line_error(run_pan(db, line), str(db), "read-only")
        finally:
            remount(mnt, "rw")
        assert dump(db) == before
        check_consistent(db)
        assert cli(db, CYCLE[event_count(db) % 6]).returncode == 0


# -- missing, foreign, damaged and future files ---------------------------------------------

def test_missing_folder_or_file(tmp_path):
    missing = tmp_path / "no" / "such" / "folder" / "pan.db"
    for line in READ_LINES + ["meld a 5S 5S 5S", "undo"]:
        one_line_error(cli(missing, line), "no database at", str(missing))
    one_line_error(run_pan(missing, "meld a 5S 5S 5S"), "no database at", str(missing))
    assert not missing.parent.exists(), "a read created folders"
    (tmp_path / "afile").write_text("x")
    one_line_error(cli(tmp_path / "afile" / "pan.db", "session new n --players A,B"), "cannot create the folder")
    one_line_error(cli(tmp_path, "standings"), "is a folder")
    # Recording a new session makes the folders it needs.
    assert cli(missing, "session new n --players A,B").returncode == 0


@pytest.mark.parametrize("content", [
    os.urandom(5000), b"SQLite format 3\0" + os.urandom(3000), b"players,chips\nAna,3\n" * 50,
], ids=["random-bytes", "sqlite-header-then-noise", "csv-text"])
def test_file_that_is_not_sqlite(tmp_path, content):
    db = tmp_path / "pan.db"
    db.write_bytes(content)
    for line in READ_LINES + WRITE_LINES:
        msg = one_line_error(cli(db, line), str(db))
        assert "not an SQLite database" in msg or "damaged" in msg
    one_line_error(run_pan(db, WRITE_LINES[0]), str(db))
    assert db.read_bytes() == content
    assert {p.name for p in tmp_path.iterdir()} == {"pan.db"}


def test_sqlite_database_of_another_program(tmp_path):
    db = tmp_path / "other.db"
    run_sql(db, "CREATE TABLE recipes (name TEXT)", "INSERT INTO recipes VALUES ('flan')")
    before = dump(db)
    for line in READ_LINES + WRITE_LINES:
        one_line_error(cli(db, line), "not a pancli one")
    assert dump(db) == before


def test_damaged_pages(tmp_path):
    """A pancli database with one page overwritten: reads and writes say it is damaged, never a traceback."""
    good = tmp_path / "good.db"
    night_with_a_hand(good)
    con = sqlite3.connect(good)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = good.read_bytes()
    pages = len(data) // page_size
    for page in range(2, pages + 1):
        bad = tmp_path / f"bad{page}.db"
        damaged = bytearray(data)
        damaged[(page - 1) * page_size:page * page_size] = b"\x55" * page_size
        bad.write_bytes(damaged)
        for line in ["standings --json", "history", "board --json", "meld b 2C 3C 4C", "undo"]:
            r = cli(bad, line)
            assert "Traceback" not in r.stderr, (page, line, r.stderr)
            assert r.returncode in (0, 1, 2), (page, line, r.stderr)
            if r.returncode == 2:
                one_line_error(r)
    one_line_error(run_pan(tmp_path / "bad6.db", "history"), "damaged")


def test_database_from_a_newer_pancli(tmp_path):
    db = tmp_path / "pan.db"
    night_with_a_hand(db)
    run_sql(db, "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                "VALUES ('pancli', 'm999_side_pots', '2031-01-01')")
    before = dump(db)
    for line in READ_LINES + WRITE_LINES:
        one_line_error(cli(db, line), "newer pancli", "nothing was changed")
    one_line_error(run_pan(db, WRITE_LINES[0]), "newer pancli", "nothing was changed")
    assert dump(db) == before


# -- a full disk ------------------------------------------------------------------------------

@pytest.mark.parametrize("leave", [0, 4096, 24 * 1024, 64 * 1024, 160 * 1024])
def test_full_disk_in_process(tmp_path, leave):
    """Record the cycle through the CLI (one open database, as `pan table` keeps it) until the disk is full."""
    with tmpfs(tmp_path / "mnt") as mnt:
        db = mnt / "pan.db"
        pan = Pan(db)
        pan(f"session new night --players {PLAYERS} --dealer F")
        for line in CYCLE:
            pan(line)
        done = event_count(db)
        filler = fill(mnt, leave)
        for _ in range(400):
            r = pan(CYCLE[done % 6], ok=False)
            if r.exit_code:
                break
            done += 1
        assert r.exit_code == 2 and "Traceback" not in r.output
        assert r.output.strip().splitlines() == [f"Error: the disk holding {db} is full: free some space; "
                                                 "nothing was recorded"]
        assert pan("standings --json", ok=False).exit_code in (0, 2)
        free_space(mnt, filler)
        assert event_count(db) == done, "an event that failed was stored, or a success was lost"
        check_consistent(db)
        pan(CYCLE[done % 6])


@pytest.mark.parametrize("leave", [0, 48 * 1024])
def test_full_disk_whole_processes(tmp_path, leave):
    with tmpfs(tmp_path / "mnt") as mnt:
        db = mnt / "pan.db"
        new_night(db)
        done = event_count(db)
        filler = fill(mnt, leave)
        for _ in range(12):
            r = run_pan(db, CYCLE[done % 6])
            if r.returncode:
                break
            done += 1
        one_line_error(r, "is full")
        free_space(mnt, filler)
        assert event_count(db) == done
        check_consistent(db)
        assert run_pan(db, CYCLE[done % 6]).returncode == 0


def test_full_disk_inside_a_transaction_names_the_full_disk(tmp_path):
    """SQLite rolls back by itself on SQLITE_FULL; the error must still say the disk is full."""
    with tmpfs(tmp_path / "mnt") as mnt:
        store = Store(mnt / "pan.db")
        try:
            fill(mnt, 64 * 1024)
            store.conn.execute("PRAGMA cache_size = 10")  # spill to the WAL mid-transaction
            with pytest.raises(StoreError, match="is full"):
                with store.lock() as c:
                    for i in range(200):
                        c.execute("INSERT INTO settings VALUES (?, ?)", [f"k{i}", "x" * 4000])
            assert not store.conn.in_transaction
        finally:
            store.close()


def test_failed_commit_leaves_no_ghost_in_the_cache(tmp_path):
    """A commit that fails frees its event id; an event another process then stores under that id
    must not be mistaken for the failed one by the recorder that tried it."""
    with tmpfs(tmp_path / "mnt") as mnt:
        db = mnt / "pan.db"
        new_night(db, "A,B,C", "C")
        mine = Store(db)
        rec = Recorder(mine, mine.session("night"))
        rec.record({"kind": "deal"})
        filler = fill(mnt)
        with pytest.raises(StoreError, match="is full"):
            rec.record({"kind": "meld", "player": "A", "cards": ["5S", "5S", "5S"]})
        free_space(mnt, filler)
        assert run_pan(db, "meld b 2C 3C 4C").returncode == 0  # another process takes the freed id
        with pytest.raises(RuleError):  # A has no meld: the failed one must not count
            rec.record({"kind": "add", "player": "A", "cards": ["5S"]})
        mine.close()
        check_consistent(db)
