"""Whole-process start-up of `pan`, against `python -c pass` in the same run. Run by hand; asserts nothing.

    .venv/bin/python bench/bench_startup.py [--runs 25] [--importtime]

Times (median of --runs, interleaved so that machine noise hits every command alike):

* `python -c pass`, the floor;
* `pan check 5S 5S 5S` (no database);
* a recording command, `pan meld ben 2C 3C 4C`, each followed by an untimed `pan undo`;
* `pan undo` itself (also a write), and `pan standings --json` (a read).

The target is at most 4x the floor for `pan check`, `pan meld` and `pan standings --json`.
The child environment drops PYTHONDONTWRITEBYTECODE (so the project's own modules run from
bytecode, as they do for a user), and every command runs once untimed first. With --importtime, `python -X importtime` lists the slowest imports of the
recording command (cumulative, and by self time).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pan_executable() -> list[str]:
    script = Path(sys.executable).with_name("pan")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pancli"]


def child_env() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PANCLI_DB", None)
    return env


def run(cmd: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, env=env)
    elapsed = time.perf_counter() - t0
    if r.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed: {r.stderr.decode()}{r.stdout.decode()[-2000:]}")
    return elapsed


def importtime(cmd: list[str], env: dict, top: int = 15) -> None:
    r = subprocess.run([sys.executable, "-X", "importtime", *cmd], capture_output=True, text=True, env=env)
    rows = []
    for line in r.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if m:
            rows.append((int(m.group(1)), int(m.group(2)), len(m.group(3)) // 2, m.group(4)))
    print(f"\npython -X importtime {' '.join(cmd[-5:])}")
    print("  top-level imports by cumulative time:")
    for self_us, cum_us, depth, name in sorted((r for r in rows if r[2] == 0), key=lambda r: -r[1])[:top]:
        print(f"    {cum_us / 1000:7.1f} ms  {name}")
    print("  second-level imports (inside the ones above) by cumulative time:")
    for self_us, cum_us, depth, name in sorted((r for r in rows if r[2] == 1), key=lambda r: -r[1])[:top]:
        print(f"    {cum_us / 1000:7.1f} ms  {name}")
    print("  modules by self time:")
    for self_us, cum_us, depth, name in sorted(rows, key=lambda r: -r[0])[:top]:
        print(f"    {self_us / 1000:7.1f} ms  {name}")
    print(f"  total imported: {sum(r[0] for r in rows) / 1000:.1f} ms in {len(rows)} modules")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--importtime", action="store_true", help="also list the slowest imports")
    args = ap.parse_args()

    env = child_env()
    pan = pan_executable()
    folder = Path(tempfile.mkdtemp(prefix="bench_startup"))
    db = str(folder / "pan.db")
    try:
        for line in (["session", "new", "bench", "--players", "Ana,Ben,Cruz,Dee"], ["deal"]):
            subprocess.run([*pan, "--db", db, *line], check=True, capture_output=True, env=env)
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "pan check 5S 5S 5S": [*pan, "check", "5S", "5S", "5S"],
            "pan meld ben 2C 3C 4C": [*pan, "--db", db, "meld", "ben", "2C", "3C", "4C"],
            "pan undo": [*pan, "--db", db, "undo"],
            "pan standings --json": [*pan, "--db", db, "standings", "--json"],
        }
        for cmd in commands.values():  # warm up: bytecode written, files in the page cache
            run(cmd, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, cmd in commands.items():  # meld then undo: the session stays the same
                times[name].append(run(cmd, env))
        floor = statistics.median(times["python -c pass"])
        print(f"{'command':28} {'median':>9} {'min':>9} {'x floor':>8}   (runs: {args.runs}, {pan[0]})")
        for name, ts in times.items():
            med = statistics.median(ts)
            print(f"{name:28} {med * 1000:7.1f}ms {min(ts) * 1000:7.1f}ms {med / floor:7.1f}x")
        if args.importtime:
            importtime(["-m", "pancli", "--db", db, "meld", "ben", "2C", "3C", "4C"], env)
            subprocess.run([*pan, "--db", db, "undo"], capture_output=True, env=env)
            importtime(["-m", "pancli", "check", "5S", "5S", "5S"], env)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
