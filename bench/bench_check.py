"""Benchmarks for `pan check` and the arrangement solver. Run by hand; prints figures, asserts nothing.

    .venv/bin/python bench/bench_check.py [--runs 20] [--bags 10000] [--seed 1]

1. Start-up: whole-process wall time of `pan check 5S 5S 5S` against `python -c pass` in the same
   run (median of --runs each, and the ratio; the target is at most 4x, as in bench_startup.py).
2. The solver over --bags random 11-card bags drawn from the Hoyle shoe (p50, p99, max), and
   over --bags random 11-card going-out layouts built from melds (where the search runs in full).
3. The solver on worst cases: many duplicates, long ropes, 11 to 20 cards (p50, p99 per case).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pancli.games.panguingue.cards import over_shoe, parse_cards  # noqa: E402
from pancli.games.panguingue.rules import preset  # noqa: E402
from pancli.games.panguingue.solver import solve  # noqa: E402

WORST_CASES = {
    "20 fives, 5 of each suit": "5S " * 5 + "5H " * 5 + "5D " * 5 + "5C " * 5,
    "11 fives, 3 suits + 2": "5S 5S 5S 5H 5H 5H 5D 5D 5D 5C 5C",
    "11 kings, mixed": "KS KS KS KH KH KH KD KD KC KC KC",
    "11 queens, new suits only": "QS QH QD QC QS QH QD QC QS QH QD",
    "two spade ropes A-K (20)": "AS 2S 3S 4S 5S 6S 7S JS QS KS " * 2,
    "rope A-K, spades and hearts (20)": " ".join(f"{r}S {r}H" for r in "A234567JQK"),
    "three copies A-7 spades (20)": "AS AS AS 2S 2S 2S 3S 3S 3S 4S 4S 4S 5S 5S 5S 6S 6S 6S 7S 7S",
    "ropes + sets, 4 suits (20)": "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C",
    "3 copies of A-3 in 2 suits + (20)": "AS AS AS 2S 2S 2S 3S 3S 3S AH AH AH 2H 2H 2H 3H 3H 3H 4H 4S",
    "no arrangement, 20 cards": "AS AS AS 2S 2S 2S 3S 3S 3S AH AH AH 2H 2H 2H 3H 3H 3H 4H JC",
    "long rope + set (11)": "AS 2S 3S 4S 5S 6S 7S JS QH QH QH",
}


def _run(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def startup(runs: int) -> None:
    python = sys.executable
    pan = shutil.which("pan", path=str(Path(python).parent)) or ""
    check = [pan, "check", "5S", "5S", "5S"] if pan else [python, "-m", "pancli", "check", "5S", "5S", "5S"]
    env_note = "" if pan else " (via python -m pancli)"
    # Measure what an installed pan does: with byte-code on disk (PYTHONDONTWRITEBYTECODE
    # would otherwise make every run compile the modules edited since the last write).
    subprocess.run([python, "-m", "compileall", "-q", str(ROOT / "pancli")], check=False)
    for _ in range(3):  # warm the file cache
        _run([python, "-c", "pass"])
        _run(check)
    base, ours = [], []
    for _ in range(runs):  # interleaved so both see the same machine load
        base.append(_run([python, "-c", "pass"]))
        ours.append(_run(check))
    b, o = statistics.median(base), statistics.median(ours)
    print(f"start-up (median of {runs}){env_note}")
    print(f"  python -c pass          {b * 1e3:8.1f} ms")
    print(f"  pan check 5S 5S 5S      {o * 1e3:8.1f} ms")
    print(f"  ratio                   {o / b:8.1f} x   (target <= 4x)")


def _percentiles(times: list[float]) -> tuple[float, float, float]:
    times = sorted(times)
    n = len(times)
    return times[n // 2], times[min(n - 1, int(n * 0.99))], times[-1]


def random_bags(count: int, seed: int) -> None:
    rules = preset("hoyle")
    shoe = [c for c, n in sorted(rules.shoe().items()) for _ in range(n)]
    rng = random.Random(seed)
    bags = [rng.sample(shoe, 11) for _ in range(count)]
    times, found = [], 0
    for bag in bags:
        t = time.perf_counter()
        got = solve(bag, rules)
        times.append(time.perf_counter() - t)
        found += got is not None
    p50, p99, worst = _percentiles(times)
    print(f"solver, {count} random 11-card bags (Hoyle shoe, seed {seed}); {found} have an arrangement")
    print(f"  p50 {p50 * 1e3:.3f} ms   p99 {p99 * 1e3:.3f} ms   max {worst * 1e3:.3f} ms   (target p99 < 5 ms)")


def meldable_bags(count: int, seed: int) -> None:
    """Bags that do have an arrangement (built from random melds), so the search runs in full."""
    rules = preset("hoyle")
    rng = random.Random(seed)
    ranks, suits = "A234567JQK", "SHDC"

    def meld() -> list[str]:
        suit = rng.choice(suits)
        if rng.random() < 0.5:
            start = rng.randrange(0, 8)
            return [ranks[start + k] + suit for k in range(rng.randint(3, min(8, 10 - start)))]
        rank = rng.choice(ranks)
        if rng.random() < 0.5:
            return [rank + suit] * rng.randint(3, 5)
        return [rank + s for s in rng.sample(suits, 3)] + [rank + rng.choice(suits) for _ in range(rng.randint(0, 2))]

    bags = []
    while len(bags) < count:
        bag: list[str] = []
        while len(bag) < 11:
            bag += meld()
        if len(bag) == 11:
            rng.shuffle(bag)
            bags.append(bag)
    times, found = [], 0
    for bag in bags:
        t = time.perf_counter()
        got = solve(bag, rules)
        times.append(time.perf_counter() - t)
        found += got is not None
    p50, p99, worst = _percentiles(times)
    over = sum(1 for bag in bags if over_shoe(bag, rules.shoe()))
    print(f"solver, {count} random 11-card going-out layouts (built from melds, seed {seed}); "
          f"{found} solved, {over} hold more copies of a card than the shoe")
    print(f"  p50 {p50 * 1e3:.3f} ms   p99 {p99 * 1e3:.3f} ms   max {worst * 1e3:.3f} ms   (target p99 < 5 ms)")


def worst_cases(repeats: int) -> None:
    print(f"solver, worst cases ({repeats} runs each; the first run of each case is cold)")
    all_times = []
    for name, text in WORST_CASES.items():
        cards = parse_cards(text)
        rules = preset("hoyle") if "new suits" not in name else preset("hoyle").replace(mixed_set_additions="new_suit_only")
        times = []
        got = None
        for _ in range(repeats):
            t = time.perf_counter()
            got = solve(cards, rules)
            times.append(time.perf_counter() - t)
        all_times += times
        p50, p99, worst = _percentiles(times)
        result = f"worth {got.worth} in {len(got)} melds" if got else "no arrangement"
        print(f"  {name:36s} {len(cards):2d} cards  p50 {p50 * 1e3:6.3f} ms  p99 {p99 * 1e3:6.3f} ms  "
              f"first {times[0] * 1e3:6.3f} ms  {result}")
    p50, p99, worst = _percentiles(all_times)
    print(f"  all worst cases together: p50 {p50 * 1e3:.3f} ms   p99 {p99 * 1e3:.3f} ms   max {worst * 1e3:.3f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--bags", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-startup", action="store_true")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} CPUs")
    if not args.skip_startup:
        startup(args.runs)
    random_bags(args.bags, args.seed)
    meldable_bags(args.bags, args.seed)
    worst_cases(200)


if __name__ == "__main__":
    main()
