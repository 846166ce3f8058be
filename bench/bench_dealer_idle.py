"""Benchmark of the dealer's page at rest: the bytes it costs the Wi-Fi per hour with nothing happening.

    .venv/bin/python bench/bench_dealer_idle.py [--seconds 120]

A night with a hand in play; `pan serve --dealer` on it; the dealer's page opened in headless
Chromium (tests/cdp.py, Debian's chromium) at 390x844, asking for gzip as a phone does. Then
nothing is tapped for --seconds: every byte the page receives meanwhile (the stream's keep-alive
pings, the page's slow safety look at the table) is counted from the browser's own network
events (encoded bytes, headers included), and scaled to an hour. Printed beside it: the floor,
what the stream's keep-alive pings alone cost an hour, and what loading the page cost once.
Goal: under 1 MB an hour. (Before the page followed the stream it read its table every second:
about 34 MB an hour.) Asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_serve import start, stop  # noqa: E402

from pancli.web.live import KEEPALIVE_SECONDS  # noqa: E402

from cdp import Browser  # noqa: E402

PING = len("event: ping\ndata: {}\n\n") + len("17\r\n\r\n")  # one keep-alive, in its HTTP chunk


def pan(db: Path, line: str) -> None:
    subprocess.run([str(Path(sys.executable).with_name("pan")), "--db", str(db), *line.split()], check=True,
                   capture_output=True)


def received(b: Browser, wait: float) -> int:
    """The encoded bytes the page received within ``wait`` seconds, from the browser's network events:
    a finished request's whole size (headers included), and the open stream's bytes as they come."""
    per_request: dict[str, int] = {}
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        b.events.sort(key=lambda e: e["method"] != "Network.dataReceived")  # a request's data before its end
        event = b.events.pop(0) if b.events else None
        if event is None:
            try:  # reads the socket until an event comes (kept in b.events, or returned)
                params = b.wait_event("Network.dataReceived", timeout=max(0.05, deadline - time.monotonic()))
            except TimeoutError:
                break
            event = {"method": "Network.dataReceived", "params": params}
        p = event["params"]
        if event["method"] == "Network.dataReceived":
            per_request[p["requestId"]] = per_request.get(p["requestId"], 0) + int(p.get("encodedDataLength") or 0)
        else:  # loadingFinished: the request's whole size on the wire
            per_request[p["requestId"]] = int(p.get("encodedDataLength") or 0)
    return sum(per_request.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120.0, help="How long nothing is tapped.")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pan.db"
        pan(db, "session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
        for line in ("deal", "stay ana", "drop cruz", "meld ben 5S 5S 5S"):
            pan(db, line)
        proc, base, token = start(db, "--dealer")
        try:
            proc.stdout.readline()
            dealer_url = proc.stdout.readline().strip()
            with Browser(390, 844) as b:
                b.watch("Network.dataReceived", "Network.loadingFinished")
                b.call("Network.enable")
                b.goto(dealer_url)
                b.wait_for("document.querySelectorAll('#seats .seat').length === 4")
                loaded = received(b, 3.0)  # the page, its style and scripts, the stream's hello
                t0 = time.monotonic()
                idle = received(b, args.seconds)
                took = time.monotonic() - t0
                live = b.evaluate("document.getElementById('net').hidden")
        finally:
            stop(proc)
    per_hour = idle * 3600 / took
    floor = PING * 3600 / KEEPALIVE_SECONDS
    print(f"the dealer's page at rest for {took:.0f} s: {idle} bytes received; live throughout: {live}")
    print(f"idle bytes per hour: {per_hour / 1e6:.3f} MB (goal < 1 MB); floor, the stream's keep-alive "
          f"pings alone (one every {KEEPALIVE_SECONDS} s): {floor / 1e6:.3f} MB; the page loaded once: {loaded} bytes")


if __name__ == "__main__":
    main()
