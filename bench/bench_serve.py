"""Benchmark of `pan serve` on a long history: page and API latency, and 50 live phones during recording.

    .venv/bin/python bench/bench_serve.py [--db FILE] [--requests 60] [--clients 50] [--rounds 15]

Uses bench_history.py's builder for a 10,000-hand night at a 15-seat table (--db FILE keeps the
database, and reuses it if it exists). Starts `pan serve --host 127.0.0.1 --port 0` on it, then:

1. p50/p95 of each page and API, fresh (nothing kept: what the first phone pays after each event;
   measured on the same application in this process, its kept answers dropped before each
   request, since the server keys its cache by what changes the answer and a junk parameter no
   longer gets past it) and cached (over HTTP: what the other phones pay); targets: p95 at most
   50 ms. Then the table again, cached, beside 300 idle connections from 20 other devices.
2. `pan meld` at table speed (a meld and its undo every --pause seconds), without live clients
   and then with --clients connected to /events that, like the page script, fetch the fresh page
   when told of a change; target: with them, at most 1.5x the time without. Also how long after
   each command the clients heard of it.

Only loopback addresses are used (127.0.x.y: one per live client, Linux). Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_history import build  # noqa: E402

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from pancli.web.app import create_app  # noqa: E402

PAGES = ["/", "/history", "/history?page=400", "/settle", "/player/P01", "/sessions"]
APIS = ["/api/board", "/api/standings", "/api/history", "/api/history?hand=5000", "/api/history?page=400",
        "/api/settle", "/api/player/P01", "/api/sessions"]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def start(db: Path, *flags: str) -> tuple[subprocess.Popen, str, str]:
    """`pan serve` on a free port of this machine (with ``flags``): the process, its address and token."""
    pan = str(Path(sys.executable).with_name("pan"))
    env = dict(os.environ, PANCLI_DB=str(db), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([pan, "serve", "--host", "127.0.0.1", "--port", "0", "--no-qr", *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    url = proc.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        proc.kill()
        sys.exit(f"pan serve did not start: {url} {proc.stderr.read()}")
    base, token = url.split("/?token=")
    return proc, base, token


def stop(proc: subprocess.Popen) -> None:
    """Ctrl-C, as the host stops it; killed if it has not ended 15 s later."""
    proc.send_signal(2)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


def with_token(path: str, token: str, **extra) -> str:
    sep = "&" if "?" in path else "?"
    tail = "".join(f"&{k}={v}" for k, v in extra.items())
    return f"{path}{sep}token={token}{tail}"


def latency(client, path: str, token: str, n: int, forget=None) -> list[float]:
    """Times of n requests; ``forget`` (the in-process application's) drops what is kept before each."""
    times = []
    url = with_token(path, token)
    for _ in range(n):
        if forget is not None:
            forget()
        t = time.perf_counter()
        r = client.get(url)
        times.append(time.perf_counter() - t)
        if r.status_code != 200:
            raise SystemExit(f"{path}: HTTP {r.status_code} {r.text[:200]}")
    return times


def idle_connections(base: str, devices: int, each: int) -> list[socket.socket]:
    """Connections that never send a byte, from other loopback addresses (other devices)."""
    port = int(base.rsplit(":", 1)[1])
    socks = []
    for d in range(devices):
        for _ in range(each):
            s = socket.socket()
            s.bind((f"127.0.3.{d + 1}", 0))
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            socks.append(s)
    time.sleep(0.5)  # let the server take them in
    return socks


def pan_cmd(db: Path, line: str) -> float:
    pan = str(Path(sys.executable).with_name("pan"))
    t = time.perf_counter()
    r = subprocess.run([pan, "--db", str(db), *line.split()], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"pan {line}: {r.stderr}")
    return time.perf_counter() - t


class Phones:
    """N live clients: each listens to /events and fetches the fresh page on each change."""

    def __init__(self, base: str, token: str, n: int):
        self.base, self.token, self.n = base, token, n
        self.heard: list[list[float]] = [[] for _ in range(n)]
        self.fetch_times: list[float] = []
        self.errors = 0
        self.stop = threading.Event()
        self.ready = threading.Barrier(n + 1, timeout=60)
        self.threads = [threading.Thread(target=self.run, args=(i,), daemon=True) for i in range(n)]
        self.lock = threading.Lock()

    def run(self, i: int) -> None:
        page = with_token("/", self.token, fragment="1")
        try:
            # each phone from an address of its own, as on the Wi-Fi (the server lets one
            # address hold only a few connections)
            transport = httpx.HTTPTransport(local_address=f"127.0.{1 + i // 250}.{1 + i % 250}")
            with httpx.Client(base_url=self.base, timeout=30, transport=transport) as client, \
                    client.stream("GET", with_token("/events", self.token)) as r:
                event = None
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        event = line[7:]
                        if event == "hello":
                            self.ready.wait()
                    elif line.startswith("data: ") and event == "change":
                        self.heard[i].append(time.perf_counter())
                        t = time.perf_counter()
                        client.get(page)
                        with self.lock:
                            self.fetch_times.append(time.perf_counter() - t)
                    if self.stop.is_set():
                        return
        except Exception:
            if not self.stop.is_set():
                with self.lock:
                    self.errors += 1

    def __enter__(self):
        for t in self.threads:
            t.start()
        self.ready.wait()
        return self

    def __exit__(self, *exc):
        self.stop.set()


def record_at_table_speed(db: Path, rounds: int, pause: float) -> tuple[list[float], list[float]]:
    """A meld and its undo, every `pause` seconds: (meld times, when each meld finished)."""
    melds, finished = [], []
    for _ in range(rounds):
        melds.append(pan_cmd(db, "meld P03 5S 5S 5S"))
        finished.append(time.perf_counter())
        time.sleep(pause / 2)
        pan_cmd(db, "undo")
        time.sleep(pause / 2)
    return melds, finished


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="Database of the long history (built if missing, kept).")
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--requests", type=int, default=60, help="Requests per page and mode.")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=15, help="Melds (each followed by its undo) per run.")
    ap.add_argument("--pause", type=float, default=1.0, help="Seconds between two recorded commands, times 2.")
    args = ap.parse_args()

    tmp = tempfile.TemporaryDirectory()
    if args.db and Path(args.db).exists():
        source = Path(args.db)
        print(f"Using {source}")
    else:
        source = Path(args.db) if args.db else Path(tmp.name) / "long.db"
        t = time.perf_counter()
        counts = build(source, args.hands, 15, 1, 1)
        print(f"Built {args.hands} hands, {counts['events']} events in {time.perf_counter() - t:.0f} s")
    db = Path(tmp.name) / "served.db"  # recording below adds events: work on a copy
    shutil.copy(source, db)
    pan_cmd(db, "deal")  # a hand in play for the melds

    proc, base, token = start(db)
    try:
        with httpx.Client(base_url=base, timeout=120) as client, TestClient(create_app(db, token)) as local:
            forget = local.app.state.reader.forget
            for c in (client, local):  # first requests open the worker threads' connections
                latency(c, "/", token, 3, forget)
                latency(c, "/history", token, 3, forget)
            print(f"\nLatency over {args.requests} requests each, in ms (target p95 <= 50):")
            print(f"{'path':<28}{'fresh p50':>10}{'fresh p95':>10}{'cached p50':>11}{'cached p95':>11}")
            for path in PAGES + APIS:
                fresh = latency(local, path, token, args.requests if "player" not in path and "sessions" not in path
                                else max(5, args.requests // 10), forget)
                cached = latency(client, path, token, args.requests)
                mark = "" if pct(fresh, 0.95) <= 0.05 else "  (over 50 fresh)"
                print(f"{path:<28}{pct(fresh, .5) * 1e3:>10.1f}{pct(fresh, .95) * 1e3:>10.1f}"
                      f"{pct(cached, .5) * 1e3:>11.1f}{pct(cached, .95) * 1e3:>11.1f}{mark}")
            idle = idle_connections(base, 20, 15)
            try:
                crowded = latency(client, "/", token, args.requests)
                print(f"{'/ beside 300 idle':<28}{'':>20}{pct(crowded, .5) * 1e3:>11.1f}{pct(crowded, .95) * 1e3:>11.1f}"
                      "  (15 connections each from 20 other devices, no token)")
            finally:
                for s in idle:
                    s.close()
            t = time.perf_counter()
            r = client.get(with_token("/api/history?all=1", token))
            print(f"{'/api/history?all=1':<28} one request: {(time.perf_counter() - t):.2f} s, "
                  f"{len(r.content) / 1e6:.1f} MB (the whole night, as `pan history --json`)")

        print(f"\nRecording at table speed: `pan meld` then `pan undo`, {args.rounds} rounds, "
              f"one command every {args.pause / 2:.1f} s")
        alone, _ = record_at_table_speed(db, args.rounds, args.pause)
        with Phones(base, token, args.clients) as phones:
            time.sleep(0.5)
            crowded, finished = record_at_table_speed(db, args.rounds, args.pause)
            time.sleep(1.5)
        lags = []
        for heard in phones.heard:
            for done in finished:
                after = [h for h in heard if h >= done - 0.05]
                if after:
                    lags.append(max(0.0, after[0] - done))
        a, c = statistics.median(alone), statistics.median(crowded)
        print(f"pan meld, no live clients:      median {a * 1e3:.0f} ms, p95 {pct(alone, .95) * 1e3:.0f} ms")
        print(f"pan meld, {args.clients} live clients:      median {c * 1e3:.0f} ms, p95 {pct(crowded, .95) * 1e3:.0f} ms"
              f"  -> {c / a:.2f}x (target <= 1.5x)")
        if lags:
            print(f"clients told of a meld after:   median {statistics.median(lags) * 1e3:.0f} ms, "
                  f"p95 {pct(lags, .95) * 1e3:.0f} ms, max {max(lags) * 1e3:.0f} ms "
                  f"({len(lags)} of {len(finished) * args.clients} notices)")
        if phones.fetch_times:
            print(f"their page refetches:           median {statistics.median(phones.fetch_times) * 1e3:.1f} ms, "
                  f"p95 {pct(phones.fetch_times, .95) * 1e3:.1f} ms ({len(phones.fetch_times)} fetches, "
                  f"{phones.errors} errors)")
    finally:
        stop(proc)
        tmp.cleanup()


if __name__ == "__main__":
    main()
