"""Pages that say whether they are live, in headless Chromium: a players' page opened before the
first event follows a restarted `pan serve` (both count their changes from 0, so only the
server's start, named in the stream's hello, tells them apart); past the live streams' bound,
the players' page and the dealer's page say they are not live, never a silent "live", and go
live once a stream is free."""

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pancli.web.server import limits_for

from cdp import Browser, chromium_path
from helpers import HANG, Pan, free_port, limit_files, port_of, token_of

ROOT = Path(__file__).resolve().parent.parent

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)


def serve(db: Path, port: int, *args: str, **popen) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, PANCLI_DB=str(db), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "pancli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--no-qr", *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env, cwd=ROOT, **popen)
    url = proc.stdout.readline().strip()
    assert url.startswith(f"http://127.0.0.1:{port}/"), url
    return proc, url


def gone(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=HANG)
    proc.stdout.close()


LIVE = "document.getElementById('live-status').textContent.includes('live') && " \
       "!document.getElementById('live-status').classList.contains('stale')"


def test_a_page_opened_before_the_first_event_follows_a_restarted_server(tmp_path):
    db, port = tmp_path / "pan.db", free_port()
    pan = Pan(db)
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    proc, url = serve(db, port)
    try:
        with Browser(390, 844) as b:
            b.goto(url)
            b.wait_for(LIVE)
            assert "Hand 1" not in b.text("#live")
            gone(proc)
            b.wait_for("document.getElementById('live-status').classList.contains('stale')")
            pan("deal")  # at the keyboard while the server is down: the new server's count starts at 0 too
            proc, again = serve(db, port)
            assert again == url  # the token is kept with the database
            b.wait_for("document.getElementById('live').innerText.includes('Hand 1')")
            b.wait_for(LIVE)
    finally:
        if proc.poll() is None:
            gone(proc)


def test_past_the_live_streams_bound_pages_say_they_are_not_live(tmp_path):
    db, port = tmp_path / "pan.db", free_port()
    Pan(db)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    proc, url = serve(db, port, "--dealer", preexec_fn=limit_files(64))
    proc.stdout.readline()
    dealer_url = proc.stdout.readline().strip()
    request = f"GET /events?token={token_of(url)} HTTP/1.1\r\nHost: pan\r\n\r\n".encode()
    house: list[socket.socket] = []
    try:
        for i in range(limits_for(64).streams):  # a full house of phones, each following live
            s = socket.create_connection(("127.0.0.1", port_of(url)), timeout=HANG,
                                         source_address=(f"127.0.7.{i // 2 + 1}", 0))
            s.sendall(request)
            got = b""
            while b"retry:" not in got:
                chunk = s.recv(65536)
                assert chunk, got
                got += chunk
            house.append(s)
        with Browser(390, 844) as players, Browser(390, 844) as dealer:
            players.goto(url)
            players.wait_for("document.getElementById('live-status').classList.contains('stale')")
            assert "not live" in players.text("#live-status")
            dealer.goto(dealer_url)
            dealer.wait_for("!document.getElementById('net').hidden")
            assert "not live" in dealer.text("#net") and "Hand" not in dealer.text("#net")
            for s in house[:2]:  # two phones leave: the newer pages go live by themselves
                s.close()
            house = house[2:]
            players.wait_for(LIVE)
            dealer.wait_for("document.getElementById('net').hidden")
    finally:
        for s in house:
            s.close()
        gone(proc)
