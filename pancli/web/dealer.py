"""`pan serve --dealer`: the dealer's page and the write routes, in front of the players' site.

The players' token stays read-only: every route under /dealer wants the dealer's token, which
the players' pages, their QR code and their answers never carry. A write is a POST that carries
it in the ``X-Pan-Dealer`` header (never only in the address), comes from this server's own page
(``Origin`` equal to ``Host``), with the CSRF value of the page that sent it, within a size and
a rate; its action is recorded once (pancli.app.actions), through the same recorder as `pan`.
Anything refused changes nothing. The players' pages learn of the events as of any other writer's:
the poller sees the commit.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode, urlsplit

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import Receive, Scope, Send

from pancli.app import actions, sessions
from pancli.core.errors import InputError, MovedOn, PanError
from pancli.core.hints import PHONE, speaking_face
from pancli.core.i18n import _
from pancli.core.text import one_line
from pancli.storage.store import Store
from pancli.web import language, taps  # noqa: F401 taps: the phone's words for the games' hints
from pancli.web.filters import templates
from pancli.web.live import KEEPALIVE_SECONDS
from pancli.web.script_words import words_json
from pancli.web.site import Static

if TYPE_CHECKING:
    from pancli.core.rows import Session
    from pancli.web.data import Reader

HERE = Path(__file__).resolve().parent
POLL_SECONDS = 0.05         # the poller's look at the database: a tap shows on the players' pages sooner
MAX_BODY = 8 * 1024          # bytes: an action is a few hundred
RATE = 10.0                  # writes per second, sustained, from one address
BURST = 30                   # writes at once (a quick run of stays and drops)
HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; form-action 'none'; base-uri 'none'",
    "Cache-Control": "no-store",
}


def prepare(db_path: str | Path, poll_interval: float) -> float:
    """Before the players' site opens the database: bring its schema up to date (the dealer's action
    keys), and the poller's interval for the dealer's taps to show on the players' pages sooner."""
    Store(db_path, create=False).close()
    return min(poll_interval, POLL_SECONDS)


class Refused(PanError):
    def __init__(self, status: int, message: str, hint: str):
        super().__init__(message, hint)
        self.status = status


class RateLimit:
    """A token bucket per client address."""

    def __init__(self, rate: float = RATE, burst: int = BURST):
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def allow(self, who: str) -> bool:
        now = time.monotonic()
        with self.lock:
            tokens, then = self.buckets.get(who, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens < 1:
                self.buckets[who] = (tokens, now)
                return False
            self.buckets[who] = (tokens - 1, now)
            if len(self.buckets) > 1024:  # forget the oldest addresses
                for key in sorted(self.buckets, key=lambda k: self.buckets[k][1])[:512]:
                    del self.buckets[key]
            return True


class Dealer:
    """The dealer's routes of one database and session."""

    def __init__(self, db_path: str | Path, session: str | None, players_token: str, dealer_token: str,
                 rate: RateLimit | None = None, secret: bytes | None = None):
        self.path, self.session = db_path, session
        self.players_token, self.token = players_token, dealer_token
        # CSRF values are good as long as the secret: the dealer's kept key's (pancli.web.serve_keys)
        # survives a restart; without one, until the server stops
        self.secret = secret or secrets.token_bytes(32)
        self.rate = rate or RateLimit()
        self.env = templates()  # the one environment of every page
        self.static = Static(directory=str(HERE / "static"))
        self.instance = ""  # the server's start (Site.instance), told to the page as the stream tells it
        self.reader: Reader | None = None  # the players' site's reader: its count of changes, which the stream tells too

    # -- checks -------------------------------------------------------------------------------

    def csrf_value(self) -> str:
        nonce = secrets.token_urlsafe(12)
        return f"{nonce}.{self._sign(nonce)}"

    def _sign(self, nonce: str) -> str:
        return hmac.new(self.secret, nonce.encode(), hashlib.sha256).hexdigest()[:32]

    def csrf_ok(self, value: str) -> bool:
        nonce, _, mac = value.partition(".")
        return bool(nonce) and hmac.compare_digest(mac.encode(), self._sign(nonce).encode())

    def check_token(self, given: str) -> None:
        if given and secrets.compare_digest(given.encode(), self.players_token.encode()):
            raise Refused(403, _("the players' address is read-only"),
                          _("record from the dealer's address the host's computer shows"))
        if not given or not secrets.compare_digest(given.encode(), self.token.encode()):
            raise Refused(403, _("Forbidden: this needs the dealer's token"),
                          _("open the dealer's address the host's computer shows (or scan its QR code)"))

    def check_write(self, scope: Scope, headers: dict[str, str]) -> None:
        """Everything a write needs before its body is read: token, same origin, CSRF value, rate."""
        self.check_token(headers.get("x-pan-dealer", ""))
        origin, host = headers.get("origin", ""), headers.get("host", "")
        if not origin or not host or urlsplit(origin).netloc.lower() != host.lower() \
                or headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            raise Refused(403, _("a write must come from the dealer's own page"),
                          _("open the dealer's address and tap there"))
        if not self.csrf_ok(headers.get("x-pan-csrf", "")):
            raise Refused(403, _("the page's check value is missing or stale"),
                          _("reload the dealer page and tap again"))
        client = scope.get("client") or ("?", 0)
        if not self.rate.allow(str(client[0])):
            raise Refused(429, _("too many taps at once"), _("wait a moment and tap again"))

    # -- the ASGI side ------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path, method = scope.get("path", "/"), scope["method"]
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        try:
            if path.startswith("/dealer/static/"):
                if method not in ("GET", "HEAD"):
                    raise Refused(405, _("static files are only read"), _("open the dealer page"))
                return await self.static_file(scope, receive, send)
            if path == "/dealer" and method in ("GET", "HEAD"):
                query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
                self.check_token(query.get("dealer", [""])[0])
                response = await run_in_threadpool(self.page, query.get("follow", [""])[0] == "1",
                                                   query.get("dealer", [""])[0])
            elif path.startswith("/dealer/api/") and method in ("GET", "HEAD"):
                self.check_token(headers.get("x-pan-dealer", ""))
                response = await self.read(path, self.session_of(headers), headers.get("if-none-match", ""))
            elif path.startswith("/dealer/api/") and method == "POST":
                self.check_write(scope, headers)
                body = await self.body(headers, receive)
                response = await self.write(path, body, self.session_of(headers))
            else:
                raise Refused(404 if method in ("GET", "HEAD") else 405, _("Not found"),
                              _("the dealer's page is at /dealer"))
        except Refused as e:
            response = self.refusal(e.status, e.message, e.hint or "")
        except PanError as e:
            conflict = isinstance(e, (actions.KeyReused, MovedOn))
            response = self.refusal(409 if conflict else 400, e.message, e.hint or "", getattr(e, "code", None))
        except Exception:  # a bug: its transaction was rolled back, so the phone may simply retry
            # one line to the phone; the traceback to the terminal `pan serve` logs to
            logging.getLogger("uvicorn.error").exception("a bug answering the dealer's %s %s", method, path)
            response = self.refusal(500, _("something went wrong; nothing was recorded"), _("tap again"))
        await response(scope, receive, send)

    async def static_file(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A file of the page (its script, its style): one that is not there, or a path that leads
        out of the folder (``..``, ``%2e%2e``, ``%2f``, a NUL, a name too long), is a client's 404,
        never a bug."""
        inner = {**scope, "path": scope["path"][len("/dealer/static"):], "root_path": ""}
        try:
            response = await self.static.get_response(self.static.get_path(inner), inner)
        except (HTTPException, OSError, ValueError):
            raise Refused(404, _("Not found"), _("the dealer's page is at /dealer")) from None
        await response(inner, receive, send)

    async def body(self, headers: dict[str, str], receive: Receive) -> dict[str, Any]:
        length = headers.get("content-length", "")
        if length and (not length.isdigit() or int(length) > MAX_BODY):
            raise Refused(413, _("the action is too large"),
                          _("an action is at most {size} bytes").format(size=MAX_BODY))
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise Refused(400, _("the phone went away before the action arrived"), _("tap again"))
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                raise Refused(413, _("the action is too large"),
                              _("an action is at most {size} bytes").format(size=MAX_BODY))
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        try:
            data = json.loads(b"".join(chunks) or b"{}")
        except ValueError:
            raise Refused(400, _("the action is not JSON"), _("send it from the dealer page")) from None
        except RecursionError:  # thousands of brackets deep: no action is
            raise Refused(400, _("the action is nested too deep"), _("send it from the dealer page")) from None
        if not isinstance(data, dict):
            raise Refused(400, _("the action is not a JSON object"), _("send it from the dealer page"))
        return data

    def refusal(self, status: int, message: str, hint: str, code: str | None = None) -> Response:
        """One line and its hint; ``code`` says what kind of refusal it is ("moved_on") for the page."""
        return JSONResponse({"error": one_line(message), "hint": one_line(hint), "status": status,
                             **({"code": code} if code else {})},
                            status_code=status, headers=HEADERS)

    # -- the routes ---------------------------------------------------------------------------

    def session_of(self, headers: dict[str, str]) -> str | None:
        """The session a request is for: the one `pan serve --session` named, or, from a page
        that follows the table (the link a page of a named session offers), the current one."""
        return None if headers.get("x-pan-follow") == "1" else self.session

    def _with_store(self, session: str | None, fn: Callable[..., Any], *args: Any) -> Any:
        store = Store(self.path, create=False)
        try:
            with language.speaking_for(self._house(store, session)), speaking_face(PHONE):
                return fn(store, session, *args)
        finally:
            store.close()

    @staticmethod
    def _house(store: Store, session: str | None) -> Session | None:
        """The session whose house language the answer speaks when the phone asked for none."""
        if language.asked() is not None:
            return None
        try:
            return store.session(session)
        except PanError:
            return None

    def page(self, follow: bool = False, given: str = "") -> Response:
        def build(store: Store, session: str | None) -> str:
            generation = self.reader.generation if self.reader is not None else 0  # before the table: never newer
            table = actions.dealer_table(store, session)
            switch = {"dealer": given, **({"follow": "1"} if follow else {})}
            return self.env.get_template("dealer.html").render(
                table=table, table_json=script_json(table), instance=self.instance, keepalive=KEEPALIVE_SECONDS,
                generation=generation,
                token=self.token, csrf=self.csrf_value(), suits=SUIT_SYMBOLS,
                follow=follow or self.session is None, named=not follow and self.session is not None,
                title=_("{session} · the dealer").format(session=table["session"]), words=words_json(),
                url=lambda path, keep_session=True: path,
                lang_url=lambda code: "/dealer?" + urlencode({**switch, "lang": code}))

        return HTMLResponse(self._with_store(None if follow else self.session, build), headers=HEADERS)

    async def read(self, path: str, session: str | None, seen: str = "") -> Response:
        if path == "/dealer/api/table":
            data = await run_in_threadpool(self._with_store, session, actions.dealer_table)
            # The page's slow safety look: the same table again is a few bytes, not the whole of it.
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
            if seen == tag:
                return Response(status_code=304, headers={**HEADERS, "ETag": tag})
            return Response(body, media_type="application/json", headers={**HEADERS, "ETag": tag})
        elif path == "/dealer/api/undo":
            data = await run_in_threadpool(self._with_store, session, actions.undo_preview)
        elif path == "/dealer/api/new-game":
            data = await run_in_threadpool(self._with_store, session, sessions.new_game_choices,
                                           datetime.date.today().isoformat())
        else:
            raise Refused(404, _("Not found"), _("the dealer's routes are /dealer/api/table and /dealer/api/undo"))
        return JSONResponse(data, headers=HEADERS)

    async def write(self, path: str, body: dict[str, Any], session: str | None) -> Response:
        if path == "/dealer/api/action":
            data = await run_in_threadpool(self._with_store, session, actions.perform, body)
        elif path == "/dealer/api/check":
            data = await run_in_threadpool(self._with_store, session, actions.judge_cards, body)
        elif path == "/dealer/api/new-game":
            data = await run_in_threadpool(self._with_store, session, sessions.start_from_phone, body)
        else:
            raise InputError(_("no such dealer route"),
                             _("the writes are /dealer/api/action, /dealer/api/check and /dealer/api/new-game"))
        return JSONResponse(data, headers=HEADERS)


def script_json(data: object) -> Markup:
    """JSON safe inside a <script type="application/json"> element: no "</script>", no "<!--"."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                          ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escaped)
    return Markup(text)


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}  # the picker lays out the game's own pack (Game.pack)


class DealerGate:
    """In front of the players' app: /dealer… goes to the dealer, the rest to the players' guard."""

    def __init__(self, players_app: Any, dealer: Dealer) -> None:
        self.app, self.dealer = players_app, dealer
        self.state = players_app.state
        self.state.dealer = dealer
        site = getattr(self.state, "site", None)
        dealer.instance = site.instance if site is not None else ""
        dealer.reader = site.reader if site is not None else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = scope.get("path", "/")
            if path == "/dealer" or path.startswith("/dealer/"):
                return await self.dealer(scope, receive, send)
        return await self.app(scope, receive, send)


def with_dealer(players_app: Any, db_path: str | Path, session: str | None, players_token: str, dealer_token: str,
                secret: bytes | None = None) -> DealerGate:
    if secrets.compare_digest(players_token.encode(), dealer_token.encode()):
        raise InputError(_("the dealer's token must differ from the players' token"),
                         _("leave --token out, or change it"))
    return DealerGate(players_app, Dealer(db_path, session, players_token, dealer_token, secret=secret))
