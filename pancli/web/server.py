"""`pan serve`'s HTTP server on an open network: uvicorn's h11 protocol with a gate in front.

Anyone on the Wi-Fi can open connections before the token is checked. uvicorn (0.54) alone does
not bound them: its keep-alive timer starts only after a first response, so a connection that
sends nothing, or sends its headers a byte at a time, is held forever; ``limit_concurrency``
counts every connection and then answers 503 to everyone, the players with the token too; and
when the open-file limit is reached, asyncio logs a traceback for each failed accept. So each
connection goes through a ``Gate``:

* its request's headers must be complete within HEADER_SECONDS of its first byte (of the
  connection's opening, for the first request), or it is cut off;
* one device (one address) holds at most ``per_address`` connections: its newer ones are refused;
* connections that have not yet shown the token are at most ``untrusted``, and together with
  the others at most ``connections``: past either bound the oldest of them is cut off, never
  one that showed the token (the players' ``token=``, or the dealer's, in the address or in the
  ``X-Pan-Dealer`` header his page sends), nor one whose request is waiting to be read;
* live streams (``/events``, one a watching phone) are at most ``streams``, fewer than the
  connections, so a phone that watches can always load a page: past it, the new stream is cut
  off (its page retries it by itself and follows live again once another closes);
* the bounds and the worker threads (each holds the database open) are sized from the process's
  open-file limit (``limits_for``), so accepting never runs out of files in the first place;
* what the server would log (a refused flood, a failed accept, a request it could not answer)
  reaches the host's terminal as one sentence, at most one a minute (``Notices``), never a
  traceback.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import select
import sys
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass

import anyio.to_thread
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from pancli.core.i18n import N_, _
from pancli.core.names import inert
from pancli.web.app import token_given

HEADER_SECONDS = 5.0     # a phone sends its few hundred bytes of headers in milliseconds
NOTICE_SECONDS = 60.0    # at most one line a minute on the host's terminal
RESERVED_FILES = 24      # besides connections: stdio, the loop, the poller's database (16 to 20 measured)
MAX_CONNECTIONS = 256
PER_ADDRESS = 16         # a phone's browser opens at most 6 to one site
UNTRUSTED = 64
MAX_THREADS = 40         # anyio's own default
MAX_BACKLOG = 128
FILES_PER_THREAD = 3     # each worker thread keeps the database, its -wal and its -shm open
WANTED_FILES = 4096      # the soft open-file limit is raised towards the hard one, up to this


@dataclass(frozen=True)
class Limits:
    files: int
    connections: int
    per_address: int
    untrusted: int
    threads: int
    backlog: int  # connections accepted in one go (each holds a file until it is let in or cut off)
    streams: int = 0  # live streams at once; 0: three quarters of the connections

    def __post_init__(self):
        if not self.streams:
            object.__setattr__(self, "streams", max(1, self.connections * 3 // 4))


def limits_for(files: int) -> Limits:
    """How many connections and worker threads fit in ``files`` open files, leaving room for what
    the server itself holds and for one round of accepting."""
    spare = max(16, files - RESERVED_FILES)
    threads = max(2, min(MAX_THREADS, spare // (4 * FILES_PER_THREAD)))
    backlog = max(4, min(MAX_BACKLOG, spare // 8))
    connections = max(8, min(MAX_CONNECTIONS, spare - FILES_PER_THREAD * threads - backlog))
    return Limits(files=files, connections=connections, per_address=max(2, min(PER_ADDRESS, connections // 4)),
                  untrusted=max(4, min(UNTRUSTED, connections // 2)), threads=threads, backlog=backlog)


def file_limit() -> int:
    """The process's open-file limit, first raised as far as the hard limit allows (up to
    WANTED_FILES); 512 where there is no such limit to read (Windows' own sockets bound)."""
    try:
        import resource  # noqa: PLC0415 not on Windows
    except ImportError:
        return 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = WANTED_FILES if hard == resource.RLIM_INFINITY else min(hard, WANTED_FILES)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (OSError, ValueError):
            pass  # some systems cap it lower than they say: keep the one there is
    return WANTED_FILES if soft == resource.RLIM_INFINITY else soft


class Notices:
    """Lines for the host's terminal about trouble from the network: at most one every
    NOTICE_SECONDS, the others dropped (the next minute's line says it goes on)."""

    def __init__(self, out=None, clock=time.monotonic, every: float = NOTICE_SECONDS):
        self.out, self.clock, self.every = out, clock, every
        self.last: float | None = None
        self.lock = threading.Lock()

    def say(self, text: str) -> bool:
        with self.lock:
            now = self.clock()
            if self.last is not None and now - self.last < self.every:
                return False
            self.last = now
        out = self.out or sys.stderr
        line = inert(text)
        out.write((line if len(line) <= 80 else line[:79] + "…") + "\n")
        out.flush()
        return True


FLOOD = N_("Many connections at once from the network: those without the token are cut off.")
ONE_DEVICE = N_("One device opened too many connections at once: its newest are refused.")
FULL = N_("Every connection is taken by a player: a new one is refused until one closes.")
STREAMS = N_("Every live stream is taken: a newer phone's page loads, live once one closes.")


class Gate:
    """The open connections, by age, address and whether they showed the token; decides which to
    cut off. Connections are any objects with an ``address``.

    Connections accepted together are all let in before any of them is read, so one whose request
    is already waiting when it arrives (``speaking``) is spared until it has been read: a player's
    among a crowd of idle ones is never the one cut off for them."""

    def __init__(self, limits: Limits, notices: Notices):
        self.limits, self.notices = limits, notices
        self.untrusted: OrderedDict[object, None] = OrderedDict()  # oldest first
        self.speaking: set[object] = set()  # of those, the ones not read yet whose request is waiting
        self.trusted: set[object] = set()
        self.streams: set[object] = set()  # of the trusted, those holding a live stream
        self.by_address: Counter = Counter()

    def __len__(self) -> int:
        return len(self.untrusted) + len(self.trusted)

    def open(self, conn, speaking: bool = False) -> list:
        """Lets ``conn`` in; returns the connections to cut off now: ``conn`` itself when its device
        holds too many already or players hold every connection, else the oldest without the token
        beyond the bounds (``conn`` too, if it is the only one that may go)."""
        if self.by_address[conn.address] >= self.limits.per_address:
            self.notices.say(_(ONE_DEVICE))
            return [conn]
        if len(self.trusted) >= self.limits.connections:
            self.notices.say(_(FULL))
            return [conn]
        self.untrusted[conn] = None
        if speaking:
            self.speaking.add(conn)
        self.by_address[conn.address] += 1
        return self.enforce()

    def read(self, conn) -> list:
        """``conn``'s first bytes were read: it is spared no longer. Returns whom to cut off now."""
        self.speaking.discard(conn)
        return self.enforce() if self.over() else []

    def over(self) -> bool:
        return len(self.untrusted) > self.limits.untrusted or len(self) > self.limits.connections

    def enforce(self) -> list:
        """Forgets and returns the oldest connections without the token (not spared) until both
        bounds hold."""
        cut: list = []
        while self.over():
            oldest = next((c for c in self.untrusted if c not in self.speaking), None)
            if oldest is None:
                break  # only connections about to be read: they are, in a moment
            cut.append(oldest)
            self.close(oldest)
        if cut:
            self.notices.say(_(FLOOD))
        return cut

    def trust(self, conn) -> None:
        """``conn`` showed the token: it is never cut off to make room."""
        if conn in self.untrusted:
            del self.untrusted[conn]
            self.speaking.discard(conn)
            self.trusted.add(conn)

    def stream(self, conn) -> bool:
        """``conn`` (trusted) asks for a live stream: whether it may hold one. Past ``streams``
        it may not, so that page requests always find a connection."""
        if conn in self.streams:
            return True
        if len(self.streams) >= self.limits.streams:
            self.notices.say(_(STREAMS))
            return False
        self.streams.add(conn)
        return True

    def unstream(self, conn) -> None:
        self.streams.discard(conn)

    def close(self, conn) -> None:
        """``conn`` is gone (or going); forgetting it twice is harmless."""
        if conn in self.untrusted:
            del self.untrusted[conn]
            self.speaking.discard(conn)
        elif conn in self.trusted:
            self.trusted.discard(conn)
            self.streams.discard(conn)
        else:
            return
        self.by_address[conn.address] -= 1
        if not self.by_address[conn.address]:
            del self.by_address[conn.address]


def request_waiting(transport) -> bool:
    """Whether bytes already wait on the connection's socket (a poll, nothing read)."""
    sock = transport.get_extra_info("socket")
    if sock is None or not hasattr(select, "poll"):  # Windows: none is spared
        return False
    poll = select.poll()
    poll.register(sock.fileno(), select.POLLIN)
    return bool(poll.poll(0))


class GatedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, each connection let in by the gate and cut off if its request's
    headers are not complete in time. ``gate``, ``token`` and ``dealer_token`` (None without
    --dealer) are set on a subclass per server."""

    gate: Gate
    token: str
    dealer_token: str | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.address: str | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.trusted = False
        self.read_once = False
        self.asgi_app = self.app
        self.app = self.checked_app  # every request's token is seen before the application runs

    # -- the gate ----------------------------------------------------------------------------

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self.address = self.client[0] if self.client else None
        for conn in self.gate.open(self, request_waiting(transport)):
            conn.cut_off()
        if not transport.is_closing():
            self.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.close(self)
        self.disarm()
        super().connection_lost(exc)

    def cut_off(self) -> None:
        """Closes at once, unsent data dropped: a client that does not read cannot hold it open."""
        self.gate.close(self)
        self.disarm()
        if not self.transport.is_closing():
            self.transport.abort()

    def note(self, scope) -> bool:
        """Sees a request's token, before the application runs; whether it may go on (False: a
        live stream past the bound, cut off)."""
        if not self.trusted and self.shows_token(scope):
            self.trusted = True
            self.gate.trust(self)
        if self.trusted and scope.get("path") == "/events":
            if not self.gate.stream(self):
                self.cut_off()
                return False
        else:
            self.gate.unstream(self)  # a keep-alive connection that held a stream now asks for a page
        return True

    def shows_token(self, scope) -> bool:
        query = scope.get("query_string", b"")
        if token_given(query, self.token):
            return True
        if self.dealer_token is None:
            return False
        header = next((v for k, v in scope.get("headers", []) if k.lower() == b"x-pan-dealer"), b"")
        return token_given(query, self.dealer_token, "dealer") or \
            secrets.compare_digest(header, self.dealer_token.encode())

    async def checked_app(self, scope, receive, send):
        if self.note(scope):
            return await self.asgi_app(scope, receive, send)
        # a stream past the bound, cut off already: an answer nobody reads, so that uvicorn has
        # one and logs nothing
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return None

    # -- the header deadline -------------------------------------------------------------------

    def waiting(self) -> bool:
        """No request being answered: the client owes the next one's headers."""
        return self.cycle is None or self.cycle.response_complete

    def arm(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(HEADER_SECONDS, self.expire)

    def disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def expire(self) -> None:
        self.deadline = None
        if self.waiting():
            self.cut_off()

    def data_received(self, data: bytes) -> None:
        if self.waiting():
            self.arm()  # from a request's first byte: its headers have HEADER_SECONDS
        super().data_received(data)
        if not self.waiting():
            self.disarm()
            self.note(self.scope)  # trusted from the moment its headers are read
        if not self.read_once:
            self.read_once = True
            for conn in self.gate.read(self):
                conn.cut_off()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.waiting() and not self.transport.is_closing() and self.conn.trailing_data[0]:
            self.arm()  # part of a next request came with this one


def protocol_for(gate: Gate, token: str, dealer_token: str | None = None) -> type[GatedH11Protocol]:
    return type("ServeProtocol", (GatedH11Protocol,), {"gate": gate, "token": token, "dealer_token": dealer_token})


class NoticeHandler(logging.Handler):
    """uvicorn's and asyncio's log records as the host's notices: a sentence, never a traceback."""

    def __init__(self, notices: Notices, limits: Limits):
        super().__init__(logging.WARNING)
        self.notices, self.limits = notices, limits

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.notices.say(self.sentence(record))
        except (OSError, ValueError, TypeError):  # a closed terminal, a record that cannot be formatted:
            pass  # a notice must never stop the server

    def sentence(self, record: logging.LogRecord) -> str:
        text = record.getMessage().splitlines()[0] if record.getMessage() else ""
        if "out of system resource" in text:
            return _("Out of open files (at most {files}): new connections wait their turn.").format(
                files=self.limits.files)
        if text.startswith("Invalid HTTP request"):
            return _("A device on the network sent something that is not a web request: refused.")
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            return _("A request could not be answered: {error}").format(error=f"{type(exc).__name__}: {exc}").strip()
        return f"pan serve: {text}"


def quiet_logs(notices: Notices, limits: Limits) -> None:
    """Sends what uvicorn and asyncio would log to the notices instead of the terminal."""
    handler = NoticeHandler(notices, limits)
    for name in ("uvicorn", "asyncio"):
        log = logging.getLogger(name)
        log.handlers = [handler]
        log.propagate = False


def make_server(app, token: str, hub, limits: Limits | None = None, notices: Notices | None = None):
    """The uvicorn server of ``app``: gated, sized to the open-file limit, its Ctrl-C ending the
    live streams first so that shutdown does not wait on them."""
    sized = limits or limits_for(file_limit())
    notices = notices or Notices()
    quiet_logs(notices, sized)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            hub.close_threadsafe()  # ends the live streams, so shutdown does not wait on them
            super().handle_exit(sig, frame)

        async def startup(self, sockets=None):
            anyio.to_thread.current_default_thread_limiter().total_tokens = sized.threads
            await super().startup(sockets=sockets)

    dealer = getattr(app.state, "dealer", None)  # with --dealer (pancli.web.dealer.DealerGate)
    gated = protocol_for(Gate(sized, notices), token, dealer.token if dealer is not None else None)
    config = uvicorn.Config(app, http=gated, ws="none", backlog=sized.backlog,
                            log_config=None, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=2, timeout_keep_alive=5, server_header=False)
    return Server(config)
