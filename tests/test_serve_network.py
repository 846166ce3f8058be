"""`pan serve` on an open network: anyone on the Wi-Fi can connect before the token is checked.

A connection that is slow to send its headers is cut off; one device cannot hold every
connection, nor can many devices without the token; at a low open-file limit the players with
the token are still served, and the host's terminal gets a line a minute at most, never a
traceback. The attackers connect from other loopback addresses (127.0.0.x, Linux), as other
devices on the network would.
"""

import errno
import os
import socket
import sys
import threading
import time
from types import SimpleNamespace

import httpx
import pytest

from pancli.web.server import Gate, Limits, Notices, limits_for

from helpers import HANG, Pan, limit_files, port_of, start_server, stop_server, token_of

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="other loopback addresses: Linux")

FILES = 1024  # the open-file limit the server is started with, so its bounds are known here


@pytest.fixture
def night(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new friday --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    return db


@pytest.fixture
def served(night):
    proc, url = start_server(night, "--no-qr", preexec_fn=limit_files(FILES))
    try:
        served = SimpleNamespace(url=url, pid=proc.pid)
        the_table_opens(url, 1)
        wait_until(lambda: held(served) == 0, "the server holds sockets of its own beyond its three")
        yield served
    finally:
        rc, out, err = stop_server(proc)
        assert rc == 0 and "Traceback" not in err and "Stopped serving." in out, err


def connect(url: str, source: str) -> socket.socket:
    """A connection from another device, not waited on (the server may not accept it yet)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.setblocking(False)
    err = s.connect_ex(("127.0.0.1", port_of(url)))
    assert err in (0, errno.EINPROGRESS), err
    return s


def cut_off(s: socket.socket) -> bool:
    """Whether the server closed this connection (reset or end of stream)."""
    try:
        return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError as e:
        return e.errno != errno.ENOTCONN  # not connected yet: still waiting to be accepted


def sockets_of(pid: int) -> int:
    """How many sockets a process holds open (its connections, the listening one, the loop's own)."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass  # closed meanwhile
    return n


def held(served) -> int:
    """How many connections the server holds: its sockets but the listening one and the event
    loop's own pair."""
    return sockets_of(served.pid) - 3


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + HANG  # a hang guard, not a bound
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def the_table_opens(url: str, times: int = 5) -> None:
    for _ in range(times):
        r = httpx.get(url, timeout=HANG)
        assert r.status_code == 200 and "Cruz deals" in r.text


def close_all(socks) -> None:
    for s in socks:
        s.close()


# -- the gate alone ------------------------------------------------------------------------------

class Conn:
    def __init__(self, address: str):
        self.address = address


def conn(address: str) -> Conn:
    return Conn(address)


def gate(**limits) -> Gate:
    shown: list[str] = []
    bounds = {"files": 64, "connections": 6, "per_address": 3, "untrusted": 4, "threads": 2, "backlog": 4} | limits
    g = Gate(Limits(**bounds), Notices(SimpleNamespace(write=shown.append, flush=lambda: None)))
    g.shown = shown  # type: ignore[attr-defined]
    return g


def test_the_gate_refuses_a_devices_connection_past_its_share():
    g = gate()
    mine = [conn("10.0.0.2") for _ in range(4)]
    assert [g.open(c) for c in mine[:3]] == [[], [], []]
    assert g.open(mine[3]) == [mine[3]] and len(g) == 3
    g.close(mine[0])
    assert g.open(conn("10.0.0.2")) == []


def test_the_gate_cuts_off_the_oldest_without_the_token_never_a_player():
    g = gate()
    old = [conn(f"10.0.0.{i}") for i in range(4)]
    for c in old:
        assert g.open(c) == []
    player = conn("10.0.0.9")
    assert g.open(player) == [old[0]]  # past the bound without the token: the oldest goes
    g.trust(player)
    assert g.open(conn("10.0.0.10")) == []  # four without the token, six in all: within both
    assert g.open(conn("10.0.0.11")) == [old[1]]
    assert player in g.trusted and not g.over()
    assert g.shown == ["Many connections at once from the network: those without the token are cut off.\n"]


def test_the_gate_spares_a_connection_whose_request_waits_until_it_is_read():
    """Accepted in one go: the player's request is waiting, the idle ones after it are not."""
    g = gate()
    player = conn("10.0.1.1")
    assert g.open(player, speaking=True) == []
    idle = [conn(f"10.0.1.{i}") for i in range(2, 9)]
    assert [c for i in idle for c in g.open(i)] == idle[:4]  # the oldest go, not the player
    g.trust(player)  # read: it showed the token
    assert g.read(player) == [] and not g.over()
    crowd = gate(untrusted=2)
    waiting = [conn(f"10.0.3.{i}") for i in range(3)]
    assert [c for w in waiting for c in crowd.open(w, speaking=True)] == [] and crowd.over()
    assert crowd.read(waiting[0]) == [waiting[0]]  # read, and no token: it goes for the others


def test_the_gate_refuses_a_newcomer_when_players_hold_every_connection():
    g = gate(connections=2)
    players = [conn(f"10.0.2.{i}") for i in range(2)]
    for p in players:
        g.open(p)
        g.trust(p)
    late = conn("10.0.2.9")
    assert g.open(late) == [late]


def test_a_phone_that_watches_can_always_load_a_page():
    """Live streams hold at most their share of the connections: past it the new stream is cut
    off (its page retries it), and a page request from a watching phone still gets in."""
    g = gate(connections=4, per_address=4)
    assert g.limits.streams == 3
    phones = [conn(f"10.0.4.{i}") for i in range(4)]
    for p in phones:
        assert g.open(p) == []
        g.trust(p)
    assert [g.stream(p) for p in phones] == [True, True, True, False]
    g.unstream(phones[3])  # its page request, on the connection whose stream was refused: served
    g.close(phones[3])
    page = conn("10.0.4.0")  # the first phone, which watches, loads a page
    assert g.open(page) == [] and (g.trust(page) or page in g.trusted)
    assert g.shown == ["Every live stream is taken: a newer phone's page loads, live once one closes.\n"]


def test_notices_are_one_a_minute_at_most():
    now = [0.0]
    lines: list[str] = []
    notices = Notices(SimpleNamespace(write=lines.append, flush=lambda: None), clock=lambda: now[0])
    for t in range(0, 180, 5):
        now[0] = float(t)
        notices.say(f"at {t}")
    assert lines == ["at 0\n", "at 60\n", "at 120\n"]
    notices.say("x" * 100 + "\x1b[2J")
    assert lines[-1] == "at 120\n"
    now[0] = 200
    notices.say("x" * 100 + "\x1b[2J")
    assert len(lines[-1]) == 81 and "\x1b" not in lines[-1]


def test_the_bounds_follow_the_open_file_limit():
    low, usual = limits_for(64), limits_for(1024)
    assert low.connections + 3 * low.threads + low.backlog <= 64 - 24
    assert low.per_address < low.untrusted < low.connections
    assert (usual.connections, usual.per_address, usual.untrusted, usual.threads) == (256, 16, 64, 40)


# -- the real server -------------------------------------------------------------------------------

def test_a_request_whose_headers_never_end_is_cut_off(served):
    s = socket.create_connection(("127.0.0.1", port_of(served.url)), timeout=0.5)
    s.sendall(f"GET /?token={token_of(served.url)} HTTP/1.1\r\nHost: pan\r\n".encode())
    deadline = time.monotonic() + HANG  # a hang guard, not a bound
    closed = False
    while not closed and time.monotonic() < deadline:
        try:
            closed = s.recv(1024) == b""
        except TimeoutError:
            try:
                s.sendall(b"X-Slow: y\r\n")  # one more header, never the blank line that ends them
            except OSError:
                closed = True
        except OSError:
            closed = True
    s.close()
    assert closed, "the half-sent request was never cut off"
    the_table_opens(served.url, 1)


def test_a_connection_that_sends_nothing_is_cut_off(served):
    s = socket.create_connection(("127.0.0.1", port_of(served.url)), timeout=HANG)
    try:
        assert s.recv(1024) == b""
    except ConnectionResetError:
        pass
    finally:
        s.close()


def test_one_device_cannot_hold_every_connection(served):
    limits, url = limits_for(FILES), served.url
    idle = [connect(url, "127.0.0.2") for _ in range(100)]
    try:
        the_table_opens(url)
        wait_until(lambda: held(served) <= limits.per_address, "one device held more than its share")
    finally:
        close_all(idle)
    wait_until(lambda: held(served) == 0, "the server kept connections closed by the device")
    streams = []
    for _ in range(40):  # and with the token: live streams, each held open by the server
        s = socket.create_connection(("127.0.0.1", port_of(url)), timeout=HANG, source_address=("127.0.0.3", 0))
        streams.append(s)
        try:
            s.sendall(f"GET /events?token={token_of(url)} HTTP/1.1\r\nHost: pan\r\n\r\n".encode())
        except OSError:
            pass  # refused already
    try:
        the_table_opens(url)
        wait_until(lambda: held(served) <= limits.per_address, "one device with the token held more")
        the_table_opens(url)
    finally:
        close_all(streams)


def test_devices_without_the_token_are_bounded_together(served):
    """Twenty devices each keep their share of connections alive with requests that lack the token."""
    limits, url = limits_for(FILES), served.url
    socks = [socket.create_connection(("127.0.0.1", port_of(url)), timeout=HANG, source_address=(f"127.0.1.{d}", 0))
             for d in range(1, 21) for _ in range(limits.per_address)]
    request = b"GET /?token=guess HTTP/1.1\r\nHost: pan\r\n\r\n"

    def keep_asking() -> bool:
        for s in socks:
            try:
                s.sendall(request)
                s.setblocking(False)
                while s.recv(65536):
                    pass
            except OSError:
                pass  # no answer yet, or cut off
            finally:
                s.setblocking(True)
        return held(served) <= limits.untrusted

    try:
        assert len(socks) > limits.untrusted
        wait_until(keep_asking, "more connections without the token were held than the bound")
        the_table_opens(url)
    finally:
        close_all(socks)


def test_the_dealers_phone_is_not_cut_off_for_idle_connections(night):
    """The dealer's requests carry his token in a header: the gate counts him as a player, so a
    crowd of idle connections from other addresses cuts them off, never him."""
    proc, url = start_server(night, "--no-qr", "--dealer", preexec_fn=limit_files(FILES))
    crowd: list[socket.socket] = []
    try:
        assert "dealer" in proc.stdout.readline()
        dealer_token = proc.stdout.readline().strip().split("dealer=")[1]
        limits = limits_for(FILES)
        phone = socket.create_connection(("127.0.0.1", port_of(url)), timeout=HANG, source_address=("127.0.4.1", 0))
        request = (f"GET /dealer/api/table HTTP/1.1\r\nHost: pan\r\nX-Pan-Dealer: {dealer_token}\r\n\r\n").encode()

        def tap() -> bytes:
            phone.sendall(request)
            got = b""
            while b"\r\n\r\n" not in got:
                got += phone.recv(65536)
            head, _, body = got.partition(b"\r\n\r\n")
            length = int(next(x for x in head.split(b"\r\n") if x.lower().startswith(b"content-length:")).split(b":")[1])
            while len(body) < length:
                body += phone.recv(65536)
            return head.split(b"\r\n")[0]

        assert b" 200 " in tap()
        for d in range(limits.untrusted // limits.per_address + 2):
            crowd += [connect(url, f"127.0.5.{d + 1}") for _ in range(limits.per_address)]
        wait_until(lambda: sum(cut_off(s) for s in crowd) >= len(crowd) - limits.untrusted,
                   "the idle crowd was not cut off")
        phone.settimeout(None)  # cut_off peeks without waiting
        assert not cut_off(phone)
        phone.settimeout(HANG)
        assert b" 200 " in tap()
        phone.close()
    finally:
        close_all(crowd)
        stop_server(proc)


class Attack(threading.Thread):
    """Ten devices, each keeping twenty connections open (idle or half-sent) for as long as it runs."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.stop, self.socks = url, threading.Event(), {}

    def run(self) -> None:
        while not self.stop.is_set():
            for d in range(10):
                mine = [s for s in self.socks.get(d, []) if not cut_off(s) or s.close()]
                while len(mine) < 20:
                    s = connect(self.url, f"127.0.2.{d + 1}")
                    if len(mine) % 2:
                        try:
                            s.send(b"GET / HTTP/1.1\r\nHost: pan\r\n")
                        except OSError:
                            pass
                    mine.append(s)
                self.socks[d] = mine
            self.stop.wait(0.25)
        close_all([s for mine in self.socks.values() for s in mine])


def test_a_full_house_of_live_streams_leaves_room_for_a_page(night):
    """Phones watching live up to the streams' bound, and more: the newer stream is cut off, and
    a watching phone's page request still gets in; the terminal says what happened."""
    proc, url = start_server(night, "--no-qr", preexec_fn=limit_files(64))
    limits = limits_for(64)
    request = f"GET /events?token={token_of(url)} HTTP/1.1\r\nHost: pan\r\n\r\n".encode()
    streams: list[socket.socket] = []
    try:
        for i in range(limits.streams + 1):
            s = socket.create_connection(("127.0.0.1", port_of(url)), timeout=HANG,
                                         source_address=(f"127.0.6.{i // 2 + 1}", 0))
            s.sendall(request)
            streams.append(s)
        for s in streams[:-1]:  # each of them follows live
            got = b""
            while b"retry:" not in got:
                chunk = s.recv(65536)
                assert chunk, got
                got += chunk
        try:
            assert streams[-1].recv(65536) == b""  # the one past the bound: cut off
        except ConnectionResetError:
            pass
        page = socket.create_connection(("127.0.0.1", port_of(url)), timeout=HANG, source_address=("127.0.6.1", 0))
        page.sendall(f"GET /?token={token_of(url)} HTTP/1.1\r\nHost: pan\r\nConnection: close\r\n\r\n".encode())
        got = b""
        while chunk := page.recv(65536):
            got += chunk
        assert got.startswith(b"HTTP/1.1 200") and b"Cruz deals" in got
        page.close()
    finally:
        close_all(streams)
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err
    assert "Every live stream is taken: a newer phone's page loads, live once one closes." in err, err


def test_at_a_low_file_limit_the_players_are_served_and_the_terminal_stays_quiet(night):
    proc, url = start_server(night, "--no-qr", preexec_fn=limit_files(64))
    attack = Attack(url)
    started = time.monotonic()
    try:
        attack.start()
        time.sleep(1)  # the connections are in place before the players come
        the_table_opens(url, 10)
        events = url.replace("/?", "/events?")
        with httpx.stream("GET", events, timeout=HANG) as r:
            lines = r.iter_lines()
            assert next(lines).startswith("retry:")
            Pan(night)("drop ana")
            assert any(line.startswith("event: change") for line in lines)
        the_table_opens(url, 5)
    finally:
        attack.stop.set()
        attack.join(HANG)
        rc, out, err = stop_server(proc)
    minutes = (time.monotonic() - started) / 60
    assert rc == 0 and "Stopped serving." in out
    assert "Traceback" not in err and "Traceback" not in out
    assert len(err.splitlines()) <= 1 + int(minutes), err
    print(f"the host's terminal showed: {err!r}")
