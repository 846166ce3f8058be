"""The typing gate: `mypy --strict pancli` once, its errors counted by package of pancli, held to
the checked-in list of packages that must be clean and the budgets of the others
(.ci/typing.toml). `.ci/run` runs it after `mypy pancli`.

    python scripts/typecheck.py                 # runs mypy --strict pancli
    python scripts/typecheck.py --output FILE   # reads a run's output instead (what mypy printed)

Prints each package's count beside what it may have; exits 1 when a clean package has an error,
a package goes over its budget, or a package the file does not name has one (a new package is
clean until given a budget), else 0.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMITS = ROOT / ".ci" / "typing.toml"
ERROR = re.compile(r"^pancli[/\\](?:(?P<package>[A-Za-z_][A-Za-z0-9_]*)[/\\])?[^:]*\.py:\d+(?::\d+)?: error:")
TOP = "pancli"  # a module at the top of the package (pancli/__main__.py)


def counts(lines: Iterable[str]) -> Counter[str]:
    """The errors of each package of pancli in mypy's output (``core`` for pancli/core/…)."""
    found: Counter[str] = Counter()
    for line in lines:
        m = ERROR.match(line)
        if m:
            found[m.group("package") or TOP] += 1
    return found


def limits(path: Path = LIMITS) -> dict[str, int]:
    """What each package may have: 0 for a clean one, its budget for the others."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    clean, budget = list(data.get("clean", [])), dict(data.get("budget", {}))
    both = set(clean) & set(budget)
    if both:
        raise SystemExit(f"{path.name}: {', '.join(sorted(both))} both clean and budgeted")
    return {**dict.fromkeys(clean, 0), **{k: int(v) for k, v in budget.items()}}


def verdict(found: Mapping[str, int], allowed: Mapping[str, int]) -> tuple[bool, list[str]]:
    """(whether the gate passes, its lines): each package's count and what it may have."""
    ok, lines = True, []
    for package in sorted(set(found) | set(allowed)):
        n, most = found.get(package, 0), allowed.get(package, 0)
        if n > most:
            ok = False
            said = "must be clean" if most == 0 else f"over its budget of {most}"
            lines.append(f"FAIL {package}: {n} errors, {said}")
        elif n < most:
            lines.append(f"ok   {package}: {n} errors (budget {most}: lower it to {n} in .ci/typing.toml)")
        else:
            lines.append(f"ok   {package}: {n} errors" + (f" (budget {most})" if most else ""))
    return ok, lines


def run_mypy() -> list[str]:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "pancli"], cwd=ROOT, capture_output=True,
                          text=True)
    lines = done.stdout.splitlines()
    summed = bool(lines) and lines[-1].startswith(("Success: no issues found", "Found "))
    if done.returncode not in (0, 1) or not summed:  # 2: a crash, bad options; 1 and no summary: no mypy at all
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"mypy --strict failed to run (exit status {done.returncode})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, help="mypy --strict's output, read instead of running it")
    parser.add_argument("--limits", type=Path, default=LIMITS, help="the clean packages and budgets")
    args = parser.parse_args(argv)
    lines = args.output.read_text(encoding="utf-8").splitlines() if args.output else run_mypy()
    found = counts(lines)
    ok, said = verdict(found, limits(args.limits))
    print(f"mypy --strict pancli: {sum(found.values())} errors")
    print("\n".join(said))
    if not ok:
        print("the typing gate failed: the errors of the packages above are listed by "
              "`python -m mypy --strict pancli`", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
