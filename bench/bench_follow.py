"""Benchmark of pages following the table: from a session change to every open page showing it.

    .venv/bin/python bench/bench_follow.py [--clients 50] [--rounds 5]

A night of a few hands and a second session; `pan serve` on it; --clients phones (each from a
loopback address of its own, 127.0.x.y, Linux) listen to /events as the page script does and,
when told the current session is another, fetch the whole page as it does. Then `pan session use`
switches back and forth --rounds times; for each switch, the time from the command's start to
each phone holding a page with the new session's name. Goal: every phone within 2 s. Prints
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_serve import pct, start, stop, with_token  # noqa: E402


def pan(db: Path, line: str) -> None:
    subprocess.run([str(Path(sys.executable).with_name("pan")), "--db", str(db), *line.split()], check=True,
                   capture_output=True)


class Phones:
    def __init__(self, base: str, token: str, n: int):
        self.base, self.token = base, token
        self.seen: list[dict[str, float]] = [{} for _ in range(n)]  # session name -> when its page came
        self.ready = threading.Barrier(n + 1, timeout=120)
        self.stop = threading.Event()
        self.errors = 0
        self.threads = [threading.Thread(target=self.run, args=(i,), daemon=True) for i in range(n)]

    def run(self, i: int) -> None:
        try:
            transport = httpx.HTTPTransport(local_address=f"127.0.{1 + i // 250}.{1 + i % 250}")
            with httpx.Client(base_url=self.base, timeout=30, transport=transport) as client, \
                    client.stream("GET", with_token("/events", self.token)) as r:
                event, shown = None, None
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event in ("hello", "change"):
                        current = json.loads(line[6:]).get("current") or {}
                        if event == "hello":
                            shown = current.get("id")
                            self.ready.wait()
                        elif current.get("id") != shown:
                            page = client.get(with_token("/", self.token)).text
                            if f"<b>{current['name']}</b>" in page:
                                self.seen[i][current["name"]] = time.perf_counter()
                                shown = current["id"]
                    if self.stop.is_set():
                        return
        except Exception:
            if not self.stop.is_set():
                self.errors += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pan.db"
        pan(db, "session new rummy --game contract --players Ana,Ben,Cruz")
        pan(db, "session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
        for line in ("deal", "drop cruz", "meld ben 5S 5S 5S"):
            pan(db, line)
        proc, base, token = start(db)
        try:
            phones = Phones(base, token, args.clients)
            for t in phones.threads:
                t.start()
            phones.ready.wait()
            delays: list[float] = []
            for r in range(args.rounds):
                name = "rummy" if r % 2 == 0 else "friday"
                t0 = time.perf_counter()
                pan(db, f"session use {name}")
                deadline = time.perf_counter() + 30
                while time.perf_counter() < deadline and sum(name in s and s[name] >= t0 for s in phones.seen) < args.clients:
                    time.sleep(0.01)
                got = [s[name] - t0 for s in phones.seen if name in s and s[name] >= t0]
                delays += got
                print(f"switch {r + 1} to {name}: {len(got)}/{args.clients} phones, "
                      f"slowest {max(got, default=float('nan')):.2f} s")
                for s in phones.seen:
                    s.pop(name, None)
                time.sleep(0.5)
            phones.stop.set()
            print(f"session change to page shown, {args.clients} phones: p50 {statistics.median(delays):.2f} s, "
                  f"p95 {pct(delays, 0.95):.2f} s, max {max(delays):.2f} s (goal: under 2 s); errors {phones.errors}")
        finally:
            stop(proc)


if __name__ == "__main__":
    main()
