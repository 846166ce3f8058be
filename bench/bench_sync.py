"""`pan sync` of a folder of 200 sessions: a fresh device's first sync and a sync where nothing
changed, each beside its floor measured in the same run. Run by hand; asserts nothing.

    .venv/bin/python bench/bench_sync.py [--sessions 200] [--runs 5]

One device records a night (nine events), imports it 199 times more under other names (new
sessions of its own) and syncs: 200 signed archives in its subfolder. Then, as processes:

* a fresh device's first sync (every archive parsed, checked, its signature verified, its
  events replayed and stored) beside the floor: tomllib parsing the 200 files once;
* a second sync of that device, nothing changed, beside the floors: `python -c pass` plus
  reading each file's end (its `[sync]` table and signature), and `pan --version`;
* the first device's own no-change sync (200 sessions of its own, each compared with its file).

Goals (issue 20): the no-change sync under 1 s; the first sync within 2x the parse floor.
The median of --runs is shown; a first sync starts from a fresh database each run.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_startup import child_env, pan_executable, run  # the same process timing as the start-up bench

ROOT = Path(__file__).resolve().parent.parent

NIGHT = ["deal", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH", "undo",
         "meld ana JH QH KH", "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C"]


def make_folder(tmp: Path, pan: list[str], env: dict, n: int) -> tuple[Path, Path]:
    """A device's database of n sessions and the folder it synced them to."""
    db = tmp / "host.db"
    record = lambda *a: subprocess.run([*pan, "--db", str(db), *a], check=True, capture_output=True, env=env)  # noqa: E731
    record("session", "new", "night0", "--players", "Ana,Ben,Cruz,Dee")
    script = tmp / "night.pan"
    script.write_text("\n".join(NIGHT) + "\n")
    record("table", "--script", str(script), "--quiet")
    record("session", "close")
    text = subprocess.run([*pan, "--db", str(db), "export", "night0", "--format", "toml", "-o", "-"],
                          check=True, capture_output=True, text=True, env=env).stdout
    plain = "\n".join(line for line in text.splitlines() if not line.startswith(("device =", "uid =")))
    sys.path.insert(0, str(ROOT))
    from pancli.app import archive, archive_import  # noqa: PLC0415, E402 the checkout's pancli, after the path is set
    from pancli.storage.store import Store  # noqa: PLC0415, E402

    store = Store(db)
    try:
        for i in range(1, n):
            copy = archive.parse(plain.replace('name = "night0"', f'name = "night{i}"'))
            archive_import.import_document(store, copy, make_current=False)
    finally:
        store.close()
    folder = tmp / "shared"
    folder.mkdir()
    run([*pan, "--db", str(db), "sync", str(folder), "--device-name", "host"], env)
    return db, folder


def parse_floor(files: list[Path]) -> float:
    import tomllib  # noqa: PLC0415

    t0 = time.perf_counter()
    for f in files:
        tomllib.loads(f.read_text(encoding="utf-8"))
    return time.perf_counter() - t0


def tail_floor(files: list[Path]) -> float:
    t0 = time.perf_counter()
    for f in files:
        with open(f, "rb") as fh:
            fh.seek(max(0, f.stat().st_size - 4096))
            fh.read()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    env, pan = child_env(), pan_executable()
    tmp = Path(tempfile.mkdtemp(prefix="bench_sync"))
    try:
        host, folder = make_folder(tmp, pan, env, args.sessions)
        files = sorted(folder.glob("*/*.toml"))
        times: dict[str, list[float]] = {k: [] for k in (
            "first", "parse floor", "again", "own again", "tail floor", "python -c pass", "pan --version")}
        for round_ in range(args.runs + 1):  # the first round warms the page cache and bytecode, untimed
            fresh = tmp / f"fresh{round_}.db"
            got = {
                "first": run([*pan, "--db", str(fresh), "sync", str(folder)], env),
                "parse floor": parse_floor(files),
                "again": run([*pan, "--db", str(fresh), "sync", str(folder)], env),
                "own again": run([*pan, "--db", str(host), "sync", str(folder)], env),
                "tail floor": tail_floor(files),
                "python -c pass": run([sys.executable, "-c", "pass"], env),
                "pan --version": run([*pan, "--version"], env),
            }
            if round_:
                for k, v in got.items():
                    times[k].append(v)
        med = {k: statistics.median(v) for k, v in times.items()}
        n = args.sessions
        print(f"pan sync of {n} sessions ({len(files)} files, {sum(f.stat().st_size for f in files) / 2**20:.1f} MB), "
              f"median of {args.runs} runs, {pan[0]}")
        print(f"  first sync of a fresh device   {med['first']:6.2f} s   floor, tomllib parsing every file once: "
              f"{med['parse floor']:.2f} s ({med['first'] / med['parse floor']:.1f}x)")
        start = med["python -c pass"] + med["tail floor"]
        print(f"  again, nothing changed         {med['again']:6.2f} s   floor, python -c pass + reading each "
              f"file's end: {start:.2f} s; pan --version {med['pan --version']:.2f} s")
        print(f"  the writer's own, unchanged    {med['own again']:6.2f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
