"""Benchmark of the dealer's page on a slow phone: how long after its first paint it is ready to tap.

    .venv/bin/python bench/bench_dealer_ready.py [--runs 5] [--cpu 4] [--latency 150]

A night with a hand in play; `pan serve --dealer` on it; the dealer's page opened in headless
Chromium (tests/cdp.py, Debian's chromium) at 390x844 with its CPU slowed --cpu times and every
request --latency ms late (DevTools' throttling, as a cheap phone on a crowded Wi-Fi), a new tab
each run so nothing is cached. Measured in the page's own clock (performance.now(), from the start
of the navigation): the first paint, the floor (nothing can be tapped before the page is drawn),
and "ready", when the seats' buttons of the table that came with the page are laid out. Printed:
the median of each and their ratio. Goal: ready within 1.5x of the first paint. Asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_serve import start, stop  # noqa: E402

from cdp import Browser  # noqa: E402

# Installed before the page's own scripts: the moment its seats' buttons first exist.
READY_PROBE = """new MutationObserver((m, o) => {
  if (document.querySelectorAll('#seats .seat button').length) { window.__ready = performance.now(); o.disconnect(); }
}).observe(document, {childList: true, subtree: true});"""


def pan(db: Path, line: str) -> None:
    subprocess.run([str(Path(sys.executable).with_name("pan")), "--db", str(db), *line.split()], check=True,
                   capture_output=True)


def one_run(dealer_url: str, cpu: float, latency: float) -> tuple[float, float]:
    with Browser(390, 844) as b:
        b.call("Network.enable")
        b.call("Network.setCacheDisabled", cacheDisabled=True)
        b.call("Network.emulateNetworkConditions", offline=False, latency=latency,
               downloadThroughput=1_500_000 / 8, uploadThroughput=750_000 / 8)  # a slow Wi-Fi: 1.5 Mbit/s down
        b.call("Emulation.setCPUThrottlingRate", rate=cpu)
        b.call("Page.addScriptToEvaluateOnNewDocument", source=READY_PROBE)
        b.goto(dealer_url)
        b.wait_for("window.__ready !== undefined")
        paint = b.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || "
                           "performance.getEntriesByName('first-paint')[0]).startTime")
        return float(paint), float(b.evaluate("window.__ready"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=float, default=4.0, help="How many times slower the phone's CPU is.")
    ap.add_argument("--latency", type=float, default=150.0, help="Milliseconds added to every request.")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pan.db"
        pan(db, "session new friday --players Ana,Ben,Cruz,Dee,Eve,Fay --dealer Fay")
        for line in ("deal", "stay ana", "drop cruz", "meld ben 5S 5S 5S"):
            pan(db, line)
        proc, base, token = start(db, "--dealer")
        try:
            proc.stdout.readline()
            dealer_url = proc.stdout.readline().strip()
            runs = [one_run(dealer_url, args.cpu, args.latency) for _ in range(args.runs)]
        finally:
            stop(proc)
    paint = statistics.median(p for p, _ in runs)
    ready = statistics.median(r for _, r in runs)
    print(f"the dealer's page, CPU {args.cpu:g}x slower, {args.latency:g} ms a request, {args.runs} runs (medians):")
    print(f"ready to tap {ready:.0f} ms; floor, its first paint: {paint:.0f} ms; "
          f"ratio {ready / paint:.2f} (goal <= 1.5)")


if __name__ == "__main__":
    main()
