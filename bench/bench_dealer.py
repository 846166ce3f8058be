"""Benchmark of `pan serve --dealer`: from the dealer's tap (its POST) to every page showing it.

    .venv/bin/python bench/bench_dealer.py [--hands 2000] [--clients 50] [--rounds 15]

Builds a night with bench_history.py's builder, starts `pan serve --dealer` on it, connects
--clients phones to /events (each fetches the fresh page when told of a change, as the page
scripts do: the players' table pages, one in ten the TV board, and the dealer's own page, which
reads /dealer/api/table), then taps a meld and its undo on the dealer's routes --rounds times,
each tap naming its session as the page does. For each tap: the time from sending the request
until each phone has the fresh page that shows it. Goal: p95 under 300 ms. The tap's own answer
time is printed beside it. Compressed as a phone asks (gzip). Each phone from a loopback address of
its own (127.0.x.y, Linux), as the server allows a few connections per address; asserts nothing.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_history import build  # noqa: E402
from bench_serve import pan_cmd, pct, start, stop, with_token  # noqa: E402


class Phones:
    """N live players' pages: each listens to /events and fetches the fresh table on each change."""

    def __init__(self, base: str, token: str, n: int, dealer: dict[str, str] | None = None, encoding: str = "gzip"):
        self.base, self.token, self.n, self.dealer, self.encoding = base, token, n, dealer, encoding
        self.shown: list[list[float]] = [[] for _ in range(n)]  # when each fresh page had arrived
        self.stop = threading.Event()
        self.ready = threading.Barrier(n + 1, timeout=120)
        self.threads = [threading.Thread(target=self.run, args=(i,), daemon=True) for i in range(n)]

    def run(self, i: int) -> None:
        headers = {"Accept-Encoding": self.encoding}
        if i == 0 and self.dealer:  # the dealer's page: the table as JSON, with the dealer's headers
            page, headers = "/dealer/api/table", {**headers, **self.dealer}
        else:
            page = with_token("/tv" if i % 10 == 9 else "/", self.token, fragment="1")
        transport = httpx.HTTPTransport(local_address=f"127.0.{1 + i // 250}.{1 + i % 250}")  # a phone each
        with httpx.Client(base_url=self.base, timeout=60, headers=headers, transport=transport) as client, \
                client.stream("GET", with_token("/events", self.token)) as r:
            event = None
            for line in r.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                    if event == "hello":
                        self.ready.wait()
                elif line.startswith("data: ") and event == "change":
                    client.get(page)
                    self.shown[i].append(time.perf_counter())
                if self.stop.is_set():
                    return

    def __enter__(self):
        for t in self.threads:
            t.start()
        self.ready.wait()
        return self

    def __exit__(self, *exc):
        self.stop.set()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--pause", type=float, default=1.0, help="Seconds between two taps.")
    ap.add_argument("--encoding", default="gzip", help="What the phones accept: gzip, or identity for none.")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = Path(tmp.name) / "night.db"
    build(db, args.hands, 15, 1, 1)
    pan_cmd(db, "deal")
    proc, base, token = start(db, "--dealer")
    try:
        proc.stdout.readline()
        dealer_url = proc.stdout.readline().strip()
        dealer = dealer_url.split("dealer=")[1]
        with httpx.Client(base_url=base, timeout=60) as tapper:
            page = tapper.get(dealer_url).text
            csrf = re.search(r'name="pan-csrf" content="([^"]+)"', page).group(1)
            session = re.search(r'"session_uid":"([^"]+)"', page).group(1)  # the table comes with the page
            headers = {"X-Pan-Dealer": dealer, "X-Pan-CSRF": csrf, "Origin": base}
            taps, answers = [], []
            with Phones(base, token, args.clients, {"X-Pan-Dealer": dealer}, args.encoding) as phones:
                for n in range(args.rounds * 2):
                    body = {"action": "meld", "player": "P03", "cards": "5S 5S 5S"} if n % 2 == 0 else {"action": "undo"}
                    body["session"] = session
                    t = time.perf_counter()
                    r = tapper.post("/dealer/api/action", json={"key": f"bench-{n:08d}", **body}, headers=headers)
                    answers.append(time.perf_counter() - t)
                    if r.status_code != 200:
                        raise SystemExit(f"the tap was refused: {r.text}")
                    taps.append(t)
                    time.sleep(args.pause)
                time.sleep(1.5)
        lags, missing = [], 0
        for shown in phones.shown:
            for t in taps:
                after = [s for s in shown if s >= t]
                if after:
                    lags.append(after[0] - t)
                else:
                    missing += 1
        print(f"{args.hands} hands, {args.clients} phones watching (the dealer's page, "
              f"{len(range(9, args.clients, 10))} TV boards, the rest players' tables), {len(taps)} taps (a meld, then its undo)")
        print(f"the tap's answer:                    median {statistics.median(answers) * 1e3:.0f} ms, "
              f"p95 {pct(answers, .95) * 1e3:.0f} ms")
        print(f"tap to every page showing ({args.encoding}): median {statistics.median(lags) * 1e3:.0f} ms, "
              f"p95 {pct(lags, .95) * 1e3:.0f} ms, max {max(lags) * 1e3:.0f} ms (goal p95 < 300 ms; "
              f"{len(lags)} pages, {missing} missed)")
    finally:
        stop(proc)
        tmp.cleanup()


if __name__ == "__main__":
    main()
