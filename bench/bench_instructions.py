"""Instructions executed by whole `pan` processes, counted by valgrind (callgrind), for one pancli
or two side by side. Run by hand; asserts nothing.

    python bench/bench_instructions.py [--vs OTHER_PAN] [--hands 300] [PAN]

PAN (default: the `pan` beside this python) and OTHER_PAN are `pan` executables of plain
installs (`pip install .` into two venvs, e.g. of two commits). An instruction count does not
move with the machine's load, as a time does: on a shared machine it tells a 1% change where
timings cannot tell 10%. What it leaves out (waiting on the disk, the caches) the timing benches
measure. Each command runs once unrecorded first (bytecode written), then once under callgrind,
children included; the floor is `python -c pass` of PAN's interpreter.

Commands: `pan check 5S 5S 5S` (no database), `pan standings --json` (a read), `pan undo` (a
write), `pan db check --full` and `pan import` of a night of --hands hands (built with bench_scale's
night through PAN), and `pan demo` (the sample evening through the table shell's script mode).
Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def count(cmd: list[str], env: dict[str, str]) -> int:
    """Instructions of ``cmd`` and every process it starts."""
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes", "--callgrind-out-file=/dev/null",
                           *cmd], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = [int(n) for n in re.findall(r"Collected : (\d+)", done.stderr)]
    if not found:
        raise SystemExit(f"valgrind counted nothing for {' '.join(cmd)}:\n{done.stderr[-2000:]}")
    return sum(found)


def night(pan: str, hands: int, folder: Path, env: dict[str, str]) -> tuple[Path, Path]:
    """A database of one night of ``hands`` hands and its TOML archive, recorded by ``pan``'s pancli."""
    db, archive = folder / "night.db", folder / "night.toml"
    python = str(Path(pan).with_name("python"))
    subprocess.run([python, str(ROOT / "bench" / "bench_dbcheck.py"), "--hands", str(hands), "--runs", "1",
                    "--db", str(db)], env=env, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([pan, "--db", str(db), "export", "-o", str(archive)], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return db, archive


def counts(pan: str, db: Path, archive: Path, folder: Path, env: dict[str, str]) -> dict[str, int]:
    def copy(name: str) -> str:
        target = folder / name
        shutil.copyfile(db, target)
        return str(target)

    def fresh(name: str) -> str:
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(f"{folder / name}{suffix}").unlink(missing_ok=True)
        return str(folder / name)

    python = str(Path(pan).with_name("python"))
    return {
        "python -c pass (floor)": count([python, "-c", "pass"], env),
        "pan check 5S 5S 5S": count([pan, "check", "5S", "5S", "5S"], env),
        "pan standings --json": count([pan, "--db", copy("read.db"), "standings", "--json"], env),
        "pan undo": count(["sh", "-c", f'cp "{db}" "{folder}/undo.db" && exec "{pan}" --db "{folder}/undo.db" undo'], env),
        "pan db check --full": count(["sh", "-c", f'cp "{db}" "{folder}/full.db" && exec "{pan}" --db "{folder}/full.db" db check --full'], env),
        "pan import": count(["sh", "-c", f'rm -f "{fresh("import.db")}" && exec "{pan}" --db "{folder}/import.db" import "{archive}"'], env),
        "pan demo": count([pan, "demo"], env),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pan", nargs="?", default=str(Path(sys.executable).with_name("pan")))
    ap.add_argument("--vs", help="another pan executable, counted on the same data")
    ap.add_argument("--hands", type=int, default=300)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PANCLI_DB")}
        env |= {"HOME": str(folder), "PYTHONHASHSEED": "0", "XDG_DATA_HOME": str(folder / "data")}
        db, archive = night(args.pan, args.hands, folder, env)
        if args.vs and subprocess.run([args.vs, "--db", str(db), "db", "check"], env=env,
                                      capture_output=True).returncode != 0:
            # The night is recorded by this checkout's code: an older pancli refuses a newer schema,
            # and would be counted refusing it. Count each with its own checkout's bench instead.
            raise SystemExit(f"{args.vs} cannot read a night of this checkout's schema: run each pan with "
                             "the bench of its own checkout, without --vs")
        mine = counts(args.pan, db, archive, folder, env)
        other = counts(args.vs, db, archive, folder, env) if args.vs else None
    print(f"{args.hands} hands; instructions, in millions" + (f"; B = {args.vs}" if other else ""))
    floor = mine["python -c pass (floor)"]
    for name, n in mine.items():
        line = f"{name:26} {n / 1e6:10.1f}  {n / floor:6.2f}x floor"
        if other:
            line += f"   B {other[name] / 1e6:10.1f}   A/B {n / other[name]:.3f}"
        print(line)


if __name__ == "__main__":
    main()
