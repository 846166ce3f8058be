"""Who has a database open (pancli/storage/dblock.py): every process with a Store open holds a
claim; taking the database whole is refused while any does, naming each holder; a killed
holder holds nothing; one process keeps one claim however many Stores it opens. Each test runs
on the locks POSIX uses and, through a stand-in for msvcrt made of POSIX locks, on the path
Windows takes, against real other processes."""

from __future__ import annotations

import os
import select
import subprocess
import sys

import pytest

from pancli.core.errors import StoreError
from pancli.storage import dblock
from pancli.storage.store import Store

from helpers import HANG, Pan, as_on_windows, child_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the stand-in for msvcrt is made of POSIX locks")

# A process that opens the database with a Store and keeps it open until its standard input closes.
HOLDER = """
import sys
from pancli.storage.dblock import name_this_process
from pancli.storage.store import Store
name_this_process(sys.argv[2])
store = Store(sys.argv[1], readonly=sys.argv[3] == "ro")
print("open", flush=True)
sys.stdin.read()
store.close()
print("closed", flush=True)
"""

# A process that asks to have the database whole, once, and says what it was told.
TAKER = """
import sys
from pancli.storage import dblock
try:
    with dblock.exclusive(sys.argv[1]):
        print("free", flush=True)
except Exception as e:
    print(e, flush=True)
"""


@pytest.fixture(params=["posix", "windows"])
def platform(request, monkeypatch):
    if request.param == "windows":
        as_on_windows(monkeypatch)
    return request.param


def night(tmp_path):
    db = tmp_path / "friday.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz")
    return db


def holder(db, name: str, mode: str = "rw") -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), name, mode], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=child_env())
    assert proc.stdout.readline() == "open\n"
    return proc


def let_go(proc: subprocess.Popen) -> None:
    proc.stdin.close()
    assert proc.stdout.readline() == "closed\n"
    proc.wait(timeout=HANG)


def taken(db) -> str:
    """What another process is told when it asks for the database whole."""
    return subprocess.run([sys.executable, "-c", TAKER, str(db)], capture_output=True, text=True,
                          env=child_env(), timeout=HANG).stdout.strip()


def refusal(db) -> str:
    with pytest.raises(StoreError) as e:
        with dblock.exclusive(db):
            pass
    return str(e.value)


def test_the_database_is_had_whole_only_when_nobody_has_it_open(tmp_path, platform):
    db = night(tmp_path)
    table = holder(db, "pan table")
    serve = holder(db, "pan serve", "ro")  # a reader holds it as well
    try:
        msg = refusal(db)
        assert f"pan table (pid {table.pid}) and pan serve (pid {serve.pid}) have {db} open" in msg
        assert "close them first" in msg
        let_go(table)
        msg = refusal(db)
        assert msg.startswith(f"pan serve (pid {serve.pid}) has {db} open: close it first")
        let_go(serve)
    finally:
        for p in (table, serve):
            if p.poll() is None:
                p.kill()
    with dblock.exclusive(db):
        pass
    assert (tmp_path / "friday.db.lock").exists()


def test_a_killed_holder_holds_nothing(tmp_path, platform):
    db = night(tmp_path)
    proc = holder(db, "pan table")
    assert "pan table" in refusal(db)
    proc.kill()
    proc.wait(timeout=HANG)
    with dblock.exclusive(db):
        pass


def test_one_process_keeps_one_claim_for_all_its_stores(tmp_path, platform):
    """POSIX drops every lock a process has on a file when it closes any descriptor of it: a
    second Store closing must not leave the first one unclaimed."""
    db = night(tmp_path)
    first, second = Store(db), Store(db, readonly=True)
    second.close()
    assert "has" in taken(db) and str(os.getpid()) in taken(db)
    first.close()
    assert taken(db) == "free"
    # and in the process itself: a restore here is refused while a Store of its own is open
    store = Store(db)
    try:
        assert f"(pid {os.getpid()}) has {db} open" in refusal(db)
    finally:
        store.close()


def test_a_symbolic_link_to_the_database_shares_its_claim(tmp_path, platform):
    db = night(tmp_path)
    link = tmp_path / "link.db"
    link.symlink_to(db)
    proc = holder(link, "pan table")
    try:
        assert f"pan table (pid {proc.pid})" in refusal(db)
    finally:
        let_go(proc)


def test_an_opener_waits_while_the_database_is_replaced(tmp_path, platform):
    db = night(tmp_path)
    with dblock.exclusive(db):
        proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), "pan meld", "rw"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, env=child_env())
        # not a bound: half a second's chance to open too early, which it must not take
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        assert not ready and proc.poll() is None, "opened while the database was being replaced"
    assert proc.stdout.readline() == "open\n"
    let_go(proc)


def test_a_file_that_is_not_a_database_gets_no_lock_file(tmp_path, platform):
    other = tmp_path / "notes.txt"
    other.write_text("not a database")
    with pytest.raises(StoreError):
        Store(other)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_file_system_without_byte_range_locks_still_records_and_a_restore_says_why_not(tmp_path, monkeypatch):
    """Some network and FUSE file systems refuse byte-range locks (ENOLCK): pancli records there as
    before, without claims, and a restore, which cannot know who has the file open, is refused."""
    import errno
    import fcntl

    def no_locks(*args):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "lockf", no_locks)
    db = night(tmp_path)
    pan = Pan(db)
    pan("deal")
    pan(f"export -o {tmp_path / 'friday.toml'}")
    pan(f"export -o {tmp_path / 'friday.toml'} --force")
    assert "hand 1" in pan("board").output
    msg = refusal(db)
    assert msg.startswith(f"cannot lock {db}: No locks available"), msg
