"""SIGKILL recording processes at random moments: the database stays whole and keeps every success.

Three kinds of victims, each killed over and over against one database:

* an in-process writer looping on Recorder.record (the write path with the least around it);
* whole `pan` processes, one command each (`python -m pancli --db … meld a 5S 5S 5S`);
* a long-running `pan table --script FILE` process recording line after line, and one reading
  its lines from a pipe (`--script -`), which commits them in groups.

After every kill the database must pass `check_consistent`: PRAGMA integrity_check is ok, the
event log has no gap or duplicate, every event is recorded whole (its stored payments and tallies
are exactly what a replay of the log computes for it), chips sum to zero, and a fresh recorder
(restoring from the last deal checkpoint) shows the same board as a replay from the first event.
What the killed process printed tells which commands reported success; each of them must be there.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
import tomllib
from collections import Counter

import pytest

from helpers import (
    CYCLE,
    HANG,
    PAN,
    PLAYERS,
    Pan,
    check_consistent,
    child_env,
    event_count,
    last_kind,
    new_night,
    pan_process as run_pan,
)


def kill_at(proc: subprocess.Popen, delay: float, after: str | None = None) -> tuple[str, str, int]:
    """SIGKILL the process `delay` seconds from now, or from the first line of output that starts
    with `after` ("" for any line): a loaded machine may take longer than the delay just to start
    Python, and a kill before the first write tests nothing. Every outcome of the kill is judged by
    what the process printed, never by how long it took."""
    first = ""
    if after is not None:
        while line := proc.stdout.readline():  # blocks until the line comes or the process ends
            first += line
            if line.startswith(after):
                break
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # The process is gone: read its pipes to the end through the same file objects, never
    # communicate(), which reads the descriptors and would drop what readline() buffered.
    out = proc.stdout.read()
    err = proc.stderr.read() if proc.stderr else ""
    return first + out, err, proc.returncode


# -- 1. an in-process writer ---------------------------------------------------------------

WRITER = textwrap.dedent("""
    import sys
    from pancli.app.recorder import Recorder
    from pancli.storage.store import Store
    from pancli.core.errors import PanError

    store = Store(sys.argv[1])
    rec = Recorder(store, store.session("night"))
    lines = [("deal", {}), ("meld", {"player": "A", "cards": ["5S", "5S", "5S"]}),
             ("add", {"player": "A", "cards": ["5S"]}), ("meld", {"player": "B", "cards": ["AH", "2H", "3H"]}),
             ("meld", {"player": "A", "cards": ["KH", "KD", "KS"]}), ("out", {"player": "A", "cards": ["4H", "4D", "4C"]}),
             ("undo", {})]
    while True:
        for kind, payload in lines:
            try:
                if kind == "undo":
                    rec.undo()
                else:
                    rec.record({"kind": kind, **payload})
            except PanError:
                continue
            print(store.log.last_event_id(rec.session.id), flush=True)
""")


def run_writer_kills(tmp_path, runs: int, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / "crash.db"
    new_night(path, "A,B,C", "C")
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    for _ in range(runs):
        proc = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True)
        out, _, _ = kill_at(proc, rng.uniform(0.0, 0.4), after="")
        check_consistent(path, [int(x) for x in out.split()])
    # each run printed at least one id (the kill waits for it), so each wrote at least once
    assert event_count(path) >= runs, "the writer never got to write"


def test_sigkill_in_process_writer(tmp_path):
    run_writer_kills(tmp_path, runs=4, seed=1)


# -- 2. whole `pan` processes, one command each --------------------------------------------

def run_pan_kills(tmp_path, runs: int, seed: int) -> Counter:
    """Kill `pan CMD` at a random moment of its life; what it printed must be stored, nothing half.

    The kill time is drawn over the whole run of an uninterrupted command (start-up, the write,
    printing), measured first, so some kills land before, during and after the transaction. The
    machine's speed may change while the kills go on (other work starts or stops), so the span
    follows what the kills find: it grows a little after a kill that came before the command
    printed, and shrinks after one that came too late, so that about a third of the runs print.
    """
    rng = random.Random(seed)
    path = tmp_path / "pan.db"
    new_night(path)
    times = []
    for line in CYCLE:  # one uninterrupted hand, to time a recording command
        t0 = time.perf_counter()
        assert run_pan(path, line).returncode == 0
        times.append(time.perf_counter() - t0)
    span = sorted(times)[len(times) // 2]
    outcomes: Counter = Counter()
    for _ in range(runs):
        before = event_count(path)
        line = CYCLE[before % len(CYCLE)]
        proc = subprocess.Popen([*PAN, "--db", str(path), *line.split()], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=child_env())
        out, err, code = kill_at(proc, rng.uniform(0.3, 1.3) * span)
        assert code in (0, -signal.SIGKILL), f"`pan {line}` failed: {err}"
        assert "Traceback" not in err
        after = event_count(path)
        assert after - before in (0, 1), "one command recorded more or less than one event"
        if out.strip() or code == 0:  # it reported success
            assert after == before + 1, f"`pan {line}` printed success but its event is missing"
        if after == before + 1:
            assert last_kind(path) == line.split()[0]
        outcomes["printed" if out.strip() else "stored, unreported" if after > before else "nothing"] += 1
        span *= 0.9 if out.strip() else 1.05  # steady when a third of the runs print
        check_consistent(path)
    return outcomes


def test_sigkill_pan_commands(tmp_path):
    outcomes = run_pan_kills(tmp_path, runs=8, seed=3)
    assert sum(outcomes.values()) == 8


# -- 3. a long-running `pan table --script` process ----------------------------------------

MARK = "db path"  # prints the database path: a recorded line is committed once the next mark shows


def run_table_kills(tmp_path, runs: int, seed: int) -> int:
    rng = random.Random(seed)
    path = tmp_path / "table.db"
    new_night(path)
    script = tmp_path / "tonight.pan"
    total_marks = 0
    for _ in range(runs):
        before = event_count(path)
        lines = [CYCLE[(before + i) % len(CYCLE)] for i in range(240)]
        script.write_text("".join(f"{line}\n{MARK}\n" for line in lines))
        proc = subprocess.Popen([*PAN, "--db", str(path), "table", "--script", str(script)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
        # killed at a random moment after the first line reported done: each run acknowledges one
        out, err, code = kill_at(proc, rng.uniform(0.0, 1.2), after=str(path))
        assert code in (0, -signal.SIGKILL), err
        assert "Traceback" not in err and "Error" not in err, err
        marks = out.splitlines().count(str(path))
        kinds = kinds_after(path, before)
        # Nothing acknowledged is lost, and what is stored is the script's lines in order, each once.
        # More may be stored than was acknowledged: a line can commit and the process die before its
        # mark is printed, or before the printed output leaves the process.
        assert len(kinds) >= marks, f"{marks} lines reported done, only {len(kinds)} events stored"
        assert kinds == [line.split()[0] for line in lines[:len(kinds)]], "the stored events are not the script's lines in order"
        total_marks += marks
        check_consistent(path)
    return total_marks


def kinds_after(path, n: int) -> list[str]:
    """The kinds of the events after the first n, in the order they were stored."""
    con = sqlite3.connect(path, timeout=30)
    try:
        return [r[0] for r in con.execute("SELECT kind FROM events ORDER BY id LIMIT -1 OFFSET ?", [n])]
    finally:
        con.close()


def test_sigkill_table_script(tmp_path):
    assert run_table_kills(tmp_path, runs=3, seed=4) > 0


def feed(pipe, lines: list[str], seed: int) -> None:
    """Write the lines with a mark after each, in bursts of 1 to 100 with pauses of up to 80 ms
    between them: a group ends at 64 lines, and at 50 ms when the next line is late."""
    rng = random.Random(seed)
    at = 0
    try:
        while at < len(lines):
            burst = rng.randint(1, 100)
            pipe.write("".join(f"{line}\n{MARK}\n" for line in lines[at:at + burst]))
            pipe.flush()
            at += burst
            time.sleep(rng.uniform(0, 0.08))
        pipe.close()
    except (BrokenPipeError, OSError, ValueError):
        pass  # killed: the pipe has no reader any more


def run_piped_table_kills(tmp_path, runs: int, seed: int) -> int:
    """`pan table --script -` reading a pipe this test feeds, SIGKILLed once it has acknowledged
    a random number of lines: each acknowledged line is stored. The acknowledgments are read
    before the kill and only those are counted, so the kill cannot race with reading them."""
    rng = random.Random(seed)
    path = tmp_path / "piped.db"
    new_night(path)
    total_marks = 0
    for _ in range(runs):
        before = event_count(path)
        lines = [CYCLE[(before + i) % len(CYCLE)] for i in range(600)]
        proc = subprocess.Popen([*PAN, "--db", str(path), "table", "--script", "-"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
        feeder = threading.Thread(target=feed, args=(proc.stdin, lines, rng.randrange(2 ** 32)), daemon=True)
        feeder.start()
        wanted, marks = rng.randint(1, 300), 0
        while marks < wanted and (line := proc.stdout.readline()):
            marks += line.rstrip("\n") == str(path)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        feeder.join(timeout=HANG)
        err = proc.stderr.read()
        assert "Traceback" not in err and "Error" not in err, err
        kinds = kinds_after(path, before)
        assert len(kinds) >= marks, f"{marks} lines reported done, only {len(kinds)} events stored"
        assert kinds == [line.split()[0] for line in lines[:len(kinds)]], "the stored events are not the lines in order"
        total_marks += marks
        check_consistent(path)
    return total_marks


def test_sigkill_piped_table_loses_nothing_acknowledged(tmp_path):
    assert run_piped_table_kills(tmp_path, runs=4, seed=11) > 0


# -- 4. killed while creating the database ------------------------------------------------

def run_create_kills(tmp_path, runs: int, seed: int) -> None:
    """`pan session new` on a new file, killed at random: afterwards the file is usable, never half made."""
    rng = random.Random(seed)
    for i in range(runs):
        path = tmp_path / f"new{i}.db"
        proc = subprocess.Popen([*PAN, "--db", str(path), "session", "new", "night", "--players", PLAYERS],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
        out, err, code = kill_at(proc, rng.uniform(0.05, 0.5))
        assert "Traceback" not in err
        again = run_pan(path, ["session", "new", "night", "--players", PLAYERS])
        if out.strip():
            assert again.returncode == 2 and "exists already" in again.stderr
        else:
            assert again.returncode in (0, 2), again.stderr
            assert again.returncode == 0 or "exists already" in again.stderr, again.stderr
        assert run_pan(path, "deal").returncode == 0
        check_consistent(path)


def test_sigkill_while_creating_database(tmp_path):
    run_create_kills(tmp_path, runs=2, seed=5)


def run_archive_kills(tmp_path, runs: int, seed: int) -> None:
    """Kill `pan export`, `pan import` and `pan db backup` at random moments.

    An archive or a backup is either absent or whole; an import is all of a session or none of it.
    """
    rng = random.Random(seed)
    source = tmp_path / "source.db"
    pan = Pan(source)  # the night itself is recorded in this process: only the archive commands are killed
    pan(f"session new night --players {PLAYERS} --dealer F")
    for line in CYCLE * 6:
        pan(line)
    archive = tmp_path / "night.toml"
    pan(f"export --format toml -o {archive}")
    whole = event_count(source)
    span = measure(lambda: run_pan(tmp_path / "probe.db", ["import", str(archive)]))
    target = tmp_path / "target.db"
    for i in range(runs):
        what = ["export", "import", "backup"][i % 3]
        out = tmp_path / f"{what}-{i}"
        args = {"export": ["export", "--format", "toml", "-o", str(out)],
                "import": ["import", str(archive)],
                "backup": ["db", "backup", str(out)]}[what]
        db = target if what == "import" else source
        proc = subprocess.Popen([*PAN, "--db", str(db), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=child_env())
        time.sleep(rng.uniform(0, span))
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        if what == "import":
            if has_schema(target):  # killed before the schema was made: an empty file, nothing half-done
                counts = check_consistent(target)
                assert counts.get("night", whole) == whole, "half a session was imported"
        elif out.exists():
            if what == "export":
                assert without_time(out) == without_time(archive), "half an archive was written"
            else:
                assert check_consistent(out) == {"night": whole}
    # After all the kills, the import finishes and gives the same night.
    result = run_pan(target, ["import", str(archive)])
    assert result.returncode == 0, result.stderr
    assert check_consistent(target) == {"night": whole}


def without_time(path) -> dict:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data.pop("exported_at", None)
    return data


def has_schema(path) -> bool:
    if not path.exists():
        return False
    con = sqlite3.connect(path, timeout=30)
    try:
        return con.execute("SELECT count(*) FROM sqlite_master WHERE name = 'events'").fetchone()[0] == 1
    finally:
        con.close()


def measure(command) -> float:
    t = time.perf_counter()
    command()
    return time.perf_counter() - t


def test_sigkill_export_import_backup(tmp_path):
    run_archive_kills(tmp_path, runs=6, seed=9)


# -- the long runs -------------------------------------------------------------------------

@pytest.mark.slow
def test_sigkill_many_times(tmp_path):
    for sub in "wptc":
        (tmp_path / sub).mkdir()
    run_writer_kills(tmp_path / "w", runs=60, seed=2)
    outcomes = run_pan_kills(tmp_path / "p", runs=100, seed=6)
    # The kills must have hit every phase, or the test proves little.
    assert outcomes["printed"] and outcomes["nothing"], outcomes
    assert run_table_kills(tmp_path / "t", runs=30, seed=7) >= 30
    (tmp_path / "pipe").mkdir()
    assert run_piped_table_kills(tmp_path / "pipe", runs=20, seed=12) >= 20
    run_create_kills(tmp_path / "c", runs=15, seed=8)
    (tmp_path / "a").mkdir()
    run_archive_kills(tmp_path / "a", runs=30, seed=10)
