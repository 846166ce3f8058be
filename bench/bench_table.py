"""Benchmark for `pan table`: about 2,000 recorded events through one shell, beside the disk's floor.

    .venv/bin/python bench/bench_table.py [--events 2000] [--runs 3] [--profile [script|interactive]]

Writes a script of whole hands on a six-player table (deal, two drops, melds, additions,
going out: 12 events a hand) and measures, in one run:

* script mode: the script piped into `pan table --quiet` in a fresh process on a fresh
  database, start-up included: wall time, durable events per second, CPU per event (the
  child's user + system time over its events). Goals: at least 1,500 durable events/s, at
  most 0.35 ms of CPU an event;
* interactive mode: the same lines through ``TableShell.execute`` in this process, one commit
  per line as at the prompt, the board worked out after each change as the prompt shows it:
  time per line against the floor per commit. Goal: within 1.5x of the floor;
* pages written per commit, in both modes: the frames SQLite appends to the write-ahead log,
  counted in the log itself (checkpoints held off meanwhile), over the commits in it;
* the floor: bare one-row transactions committed as pancli commits them (WAL,
  synchronous=FULL), timed before and after the runs and averaged. On a shared disk fsync
  latency varies tenfold, so only figures from the same run are compared.

Run it with the python of a plain install (`pip install .`, not `-e`): the child runs
`python -m pancli` from a temporary folder, so it imports the installed pancli, and an
editable install adds to start-up. --profile [script|interactive] runs one mode in this
process under cProfile and prints the top functions (SORT, TOP in the environment).
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# One hand: the names are fixed, so any dealer and eldest will do (drops come before melds).
HAND = [
    "deal",
    "d eli fay",          # 2 events
    "m ana ah2h3h",
    "m ben kc kc kc",
    "a ana 4h",
    "m cruz 6d6d6d",
    "a ana 5h 6h",
    "m dee qs qh qd",
    "m ana 7c7c7c",
    "a ben kc",
    "o ana 7c 7c",        # Ana reaches 11 cards and goes out
]
EVENTS_PER_HAND = 12
NEW_SESSION = "session new bench --players Ana,Ben,Cruz,Dee,Eli,Fay --preset hoyle"


def script_lines(events: int) -> list[str]:
    hands = -(-events // EVENTS_PER_HAND)
    return [NEW_SESSION] + HAND * hands


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_script_mode(text: str) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and events of one `pan table --quiet` process fed by a pipe."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        env = {**os.environ, "PANCLI_DB": str(db)}
        cpu, start = child_cpu(), time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "pancli", "table", "--quiet"], input=text, text=True,
                              capture_output=True, env=env, cwd=tmp)
        wall, cpu = time.perf_counter() - start, child_cpu() - cpu
        if proc.returncode != 0:
            sys.exit(f"pan table failed ({proc.returncode}):\n{proc.stderr}")
        with sqlite3.connect(db) as conn:
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    return wall, cpu, events


def wal_frames(wal: Path) -> tuple[int, int]:
    """Frames in a write-ahead log, and how many of them end a commit (their header gives the
    database size after the commit; other frames give 0)."""
    data = wal.read_bytes()
    if len(data) < 32:
        return 0, 0
    page_size = int.from_bytes(data[8:12], "big")
    salt = data[16:24]
    frames = commits = 0
    at = 32
    while at + 24 + page_size <= len(data):
        header = data[at:at + 24]
        if header[8:16] != salt:
            break
        frames += 1
        commits += int.from_bytes(header[4:8], "big") != 0
        at += 24 + page_size
    return frames, commits


def run_in_process(lines: list[str], interactive: bool) -> tuple[float, int, int, int, float]:
    """Seconds, events, WAL frames, commits and CPU seconds for the lines after the first, run
    in this process: as at the prompt (one line at a time, the board followed), or as a script."""
    from pancli.cli.shell.script import run_script
    from pancli.cli.shell.table_shell import TableShell

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        shell = TableShell(db=str(db), board=interactive)
        shell.terminal = interactive
        assert shell.execute(lines[0]).ok
        conn = shell.context.open_store().conn
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA wal_autocheckpoint = 0")  # every frame stays in the log, to be counted
        start, cpu = time.perf_counter(), time.process_time()
        if interactive:
            for line in lines[1:]:
                result = shell.execute(line)
                assert result.ok, result.err
        else:
            with open(os.devnull, "w") as null:
                assert run_script(shell, lines[1:], quiet=True, out=null) == 0
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        frames, commits = wal_frames(Path(str(db) + "-wal"))
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        shell.close()
    return took, events, frames, commits, cpu


def disk_floor(commits: int) -> float:
    """Seconds for bare one-row transactions committed as pancli commits them: the fsync floor."""
    with tempfile.TemporaryDirectory() as tmp:
        conn = sqlite3.connect(Path(tmp) / "floor.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE t (x)")
        start = time.perf_counter()
        for i in range(commits):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t VALUES (?)", [i])
            conn.execute("COMMIT")
        took = time.perf_counter() - start
        conn.close()
    return took


def profile(lines: list[str], mode: str) -> None:
    """Script mode as run_script runs it, or interactive mode line by line as at the prompt
    (the session's first line outside the profile)."""
    import cProfile
    import pstats

    from pancli.cli.shell.script import run_script
    from pancli.cli.shell.table_shell import TableShell

    interactive = mode == "interactive"
    with tempfile.TemporaryDirectory() as tmp:
        shell = TableShell(db=str(Path(tmp) / "bench.db"), board=interactive)
        shell.terminal = interactive
        assert shell.execute(lines[0]).ok
        prof = cProfile.Profile()
        prof.enable()
        if interactive:
            for line in lines[1:]:
                shell.execute(line)
        else:
            with open(os.devnull, "w") as null:
                run_script(shell, lines[1:], quiet=True, out=null)
        prof.disable()
        pstats.Stats(prof).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(int(os.environ.get("TOP", "30")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", nargs="?", const="script", choices=("script", "interactive"),
                    help="profile one mode in this process instead (script if not named)")
    args = ap.parse_args()
    lines = script_lines(args.events)
    if args.profile:
        profile(lines, args.profile)
        return
    text = "\n".join(lines) + "\n"
    floor = disk_floor(args.events)
    script = [run_script_mode(text) for _ in range(args.runs)]
    prompt = [run_in_process(lines, interactive=True) for _ in range(args.runs)]
    grouped = run_in_process(lines, interactive=False)
    floor = (floor + disk_floor(args.events)) / 2
    per_commit = floor / args.events

    wall = statistics.median(w for w, _, _ in script)
    cpu = statistics.median(c for _, c, _ in script)
    events = script[0][2]
    print(f"{len(lines)} lines, {events} events; {args.runs} runs of each mode (medians)")
    print(f"floor: {args.events} bare one-row commits (WAL, synchronous=FULL), averaged before and after: "
          f"{floor:.2f} s, {1000 * per_commit:.2f} ms a commit, {1 / per_commit:,.0f} commits/s")
    print(f"script mode (`pan table --quiet`, piped, whole process): {wall:.2f} s, "
          f"{events / wall:,.0f} durable events/s (goal >= 1,500), "
          f"CPU {1000 * cpu / events:.2f} ms an event (goal <= 0.35)")
    _, g_events, g_frames, g_commits, _ = grouped
    print(f"  {g_commits} commits for {g_events} events, "
          f"{g_frames / max(g_commits, 1):.1f} pages a commit, {g_frames / max(g_events, 1):.2f} pages an event")
    took = statistics.median(t for t, _, _, _, _ in prompt)
    cpu_line = statistics.median(c for _, _, _, _, c in prompt) / (len(lines) - 1)
    _, p_events, p_frames, p_commits, _ = prompt[0]
    per_line = took / (len(lines) - 1)
    print(f"interactive mode (one commit a line, board followed, in-process): {1000 * per_line:.2f} ms a line, "
          f"{per_line / per_commit:.2f}x the floor per commit (goal <= 1.5x); CPU {1000 * cpu_line:.2f} ms a line")
    print(f"  {p_commits} commits for {p_events} events, {p_frames / max(p_commits, 1):.1f} pages a commit")


if __name__ == "__main__":
    main()
