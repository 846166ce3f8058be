"""Whole-process time of one recording command (`pan meld`, `pan add`) against `python -c pass`.

Run by hand: .venv/bin/python bench/bench_record.py [runs]
Target: a recording command at most 7x as slow as an empty Python start.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
PAN = [shutil.which("pan") or str(Path(sys.executable).with_name("pan"))]


def timed(cmd, env) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    tmp = tempfile.mkdtemp()
    # Measure as installed: bytecode cached (pip compiles on install; an editable checkout
    # writes it on the first run unless PYTHONDONTWRITEBYTECODE is set).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PANCLI_DB"] = os.path.join(tmp, "bench.db")
    subprocess.run(PAN + ["session", "new", "bench", "--players", "Ana,Ben,Cruz,Dee,Eve,Fay"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(PAN + ["deal"], env=env, check=True, stdout=subprocess.DEVNULL)
    base, meld, undo = [], [], []
    for _ in range(RUNS):
        base.append(timed([sys.executable, "-c", "pass"], env))
        meld.append(timed(PAN + ["meld", "ana", "5S", "5S", "5S"], env))
        undo.append(timed(PAN + ["undo"], env))
    b = statistics.median(base)
    for name, xs in (("python -c pass", base), ("pan meld ana 5S 5S 5S", meld), ("pan undo", undo)):
        m = statistics.median(xs)
        print(f"{name:<24} median {m * 1000:7.1f} ms   p90 {sorted(xs)[int(len(xs) * 0.9) - 1] * 1000:7.1f} ms"
              f"   {m / b:4.1f}x")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
