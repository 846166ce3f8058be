"""The `pan serve` web application: read-only pages and JSON of one database, live over SSE.

* Every request needs the token (``?token=``); only GET and HEAD are answered.
* Pages are rendered on the server (Jinja2) and work with JavaScript off; a small script
  listens on ``/events`` (server-sent events) and swaps in the fresh page when the log changes.
* ONE poller thread watches the database (``PRAGMA data_version``, a few times a second, on its own
  read-only connection) and fans a message out to every connected page; an undo is an event
  too, so it shows the same way.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from contextlib import asynccontextmanager
from pathlib import Path
from typing import overload
from urllib.parse import parse_qs, quote, urlencode

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pancli.app.views import pick_events
from pancli.core.errors import PanError
from pancli.core.money import signed_money
from pancli.core.rows import Session
from pancli.core.settle import PARTY_NAMES
from pancli.core.text import json_text, one_line, payment_lines
from pancli.core.words import signed as signed_number
from pancli.games import DEFAULT_GAME, game
from pancli.games.protocol import Game
from pancli.storage.store import Store
from pancli.web import generic
from pancli.web.charts import running_chart
from pancli.web.data import NotFound, Reader, file_identity

HERE = Path(__file__).resolve().parent
GENERIC_TABLE = "table.html"  # the table page of a game without a template of its own
POLL_SECONDS = 0.2
PLAYER_WINDOW = 60  # the table's last events a player's own are picked from
KEEPALIVE_SECONDS = 15
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",  # the token is in the address: never pass it on
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
    "Cache-Control": "no-store",
}
ERROR_HEADERS = {**SECURITY_HEADERS, "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}


def new_token() -> str:
    return secrets.token_urlsafe(12)


# -- live updates ------------------------------------------------------------------------------

class Hub:
    """The connected pages: each has a queue; the poller's messages go to all of them."""

    def __init__(self):
        self.queues: set[asyncio.Queue] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    def subscribe(self) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue(maxsize=8)
        self.queues.add(q)
        return q

    def unsubscribe(self, q: asyncio.Queue) -> None:
        self.queues.discard(q)

    def publish(self, message: str | None) -> None:
        for q in list(self.queues):
            if q.full():  # a page that stopped reading: the newest message is all it needs
                q.get_nowait()
            q.put_nowait(message)

    def close(self) -> None:
        """Ends every stream (Ctrl-C), so the server stops at once instead of waiting on them."""
        self.closed = True
        self.publish(None)

    def close_threadsafe(self) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.close)


class Poller(threading.Thread):
    """Watches the database for commits by other connections, and for another file put in its
    place, and tells the hub what changed."""

    def __init__(self, reader: Reader, hub: Hub, interval: float = POLL_SECONDS):
        super().__init__(name="pan-serve-poller", daemon=True)
        self.reader, self.hub, self.interval = reader, hub, interval
        self.stopped = threading.Event()

    def run(self) -> None:
        reader = self.reader
        identity = file_identity(reader.path)  # before opening: a file swapped in meanwhile is seen next time
        store = Store(reader.path, readonly=True)
        try:
            version = store.data_version()
            last_id = store.last_event_id_of_all()
            reader.mark = reader.mark_of(store, reader.epoch)
            try:  # warm the hand index of the session shown by default, for the first history page
                reader.hand_index(store.session(reader.default_session).id)
            except PanError:
                pass
            while not self.stopped.wait(self.interval):
                try:
                    now_identity = file_identity(reader.path)
                    if now_identity is not None and now_identity != identity:
                        fresh = Store(reader.path, readonly=True)  # refused (half-written, foreign): tried again
                        store.close()
                        store, identity = fresh, now_identity
                        version, last_id = store.data_version(), store.last_event_id_of_all()
                        reader.reopen()
                        changed, whole = {}, True
                    else:
                        now = store.data_version()
                        if now == version:
                            continue
                        version = now
                        changed = store.sessions_changed_since(last_id)
                        newest = store.last_event_id_of_all()
                        whole = newest < last_id  # the log is shorter: restored in place, read afresh
                        last_id = newest
                        if whole:
                            reader.reopen()
                    reader.mark = reader.mark_of(store, reader.epoch)
                except Exception:  # a damaged or vanished file: keep serving what can be read
                    continue
                reader.generation += 1
                message = json.dumps({"generation": reader.generation,
                                      "sessions": [] if whole else sorted(changed), "any": whole or not changed})
                loop = self.hub.loop
                if loop is not None and not loop.is_closed():
                    loop.call_soon_threadsafe(self.hub.publish, message)
        finally:
            store.close()


# -- rendering helpers ------------------------------------------------------------------------

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_html(code: str) -> Markup:
    code = str(code)
    rank, suit = code[:-1], code[-1:].upper()
    red = suit in ("H", "D")
    return Markup('<span class="card{}">{}{}</span>').format(" red" if red else "", rank,
                                                            _SUITS.get(suit, suit))


def cards_html(cards) -> Markup:
    return Markup(" ").join(card_html(c) for c in cards)


def shown_html(text: str) -> Markup:
    """Cards already written with suit symbols (`7♥ 7♦`): hearts and diamonds in red."""
    out = []
    for word in str(text).split():
        red = word.endswith(("♥", "♦"))
        out.append(Markup('<span class="card{}">{}</span>').format(" red" if red else "", word))
    return Markup(" ").join(out)


def signed(n) -> str:
    if n is None:
        return "-"
    return signed_number(n)


def tone(n) -> str:
    return "up" if (n or 0) > 0 else ("down" if (n or 0) < 0 else "flat")


def money(x) -> str:
    if x is None:
        return ""
    return signed_money(x)


def event_lines(events: list[dict]) -> list[dict]:
    """History events as people read them: the one-line event and its payments' reasons."""
    return [{"seq": e["seq"], "hand": e["hand"], "kind": e["kind"], "text": e["text"],
             "payments": payment_lines(e["payments"]), "voided": e["voided"],
             "people": {e["payload"].get("player")} | {p["payer"] for p in e["payments"]}
             | {p["payee"] for p in e["payments"]}} for e in events]


def standing_words(standings: dict) -> list[str]:
    """A game scored in its own terms, player by player in their places: 'Ana 12 points',
    'Piotr PO' (the letters of the Polish word), 'Ola no letters'."""
    columns = standings.get("columns") or []
    out = []
    for r in standings["players"]:
        if "word" in columns:
            out.append(f"{r['name']} {r['word'] or 'no letters'}")
        elif "points" in columns:
            out.append(f"{r['name']} {signed(r['points'])} {'point' if r['points'] in (1, -1) else 'points'}")
        else:
            out.append(f"{r['name']} {signed(r['net'])}")
    return out


def night_points(nights: list[dict]) -> list[tuple[str, int]]:
    """The running net at the end of each date: two sessions on one date are one night's point."""
    by_date: dict[str, int] = {}
    running = 0
    for n in nights:
        running += n["net"]
        by_date[n["date"]] = running
    return list(by_date.items())


def party(name: str) -> str:
    return PARTY_NAMES.get(name, name)


@pass_context
def meld_words(context, m: dict) -> str:
    """The words for one meld of the board, from the game of the page's session."""
    return game(context["session"].game).meld_words(m)


def table_template(g: Game) -> str:
    """The table page's template: the game's own (``Game.board_template``), else the generic one."""
    return g.board_template or GENERIC_TABLE


def seat_of(board: dict, name: str | None) -> dict | None:
    """The player's place in the hand in play, if the board has a hand with players."""
    hand = board.get("hand")
    players = hand.get("players") if isinstance(hand, dict) else None
    if not name or not isinstance(players, list):
        return None
    return next((p for p in players if isinstance(p, dict) and p.get("name") == name), None)


# -- the application ---------------------------------------------------------------------------

def templates() -> Environment:
    """The pages' Jinja2 environment, with the filters the templates use."""
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(cards=cards_html, card=card_html, shown=shown_html, signed=signed, tone=tone,
                       money=money, meld_words=meld_words, party=party, urlpart=lambda s: quote(str(s), safe=""))
    env.globals.update(chart=running_chart)
    return env


# The query parameters each route reads, so the only ones its cache key holds: anything else an
# address carries (?_=1, ?x=junk) changes nothing, and the answer is kept once.
PAGE = ("session", "fragment")
HISTORY = (*PAGE, "page")
SESSIONS = ("fragment",)
API = ("session",)
API_HISTORY = ("session", "all", "hand", "page")
FLAGS = ("fragment", "all")  # on when =1, whatever else they say
DEFAULTS = {"page": 1}


def query_key(request: Request, known: tuple[str, ...], session: str | None = None) -> tuple:
    """What a request asks for, as a cache key: the parameters its route reads (``known``), each as
    the route reads it (fragment=1 or not, page=01 as 1); the session by its full name
    (``session``) once it is known. A history asked for whole or by hand ignores the page."""
    params = request.query_params
    got: dict[str, object] = {}
    for name in known:
        raw = params.get(name)
        if name == "session":
            got[name] = (session or raw) if raw else None
        elif name in FLAGS:
            got[name] = raw == "1"
        else:
            got[name] = _number(raw, DEFAULTS.get(name))
    if got.get("all"):
        got.pop("hand", None)
        got.pop("page", None)
    elif got.get("hand") is not None:
        got.pop("page", None)
    return tuple(got.items())


def _number(raw: str | None, default: int | None) -> object:
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        return raw  # answered 400, never kept


@overload
def int_param(request: Request, name: str, default: int) -> int: ...
@overload
def int_param(request: Request, name: str, default: None = None) -> int | None: ...
def int_param(request: Request, name: str, default: int | None = None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise BadRequest(f"the {name} asked for in the address, {raw!r}, is not a whole number", f"use a number, as in ?{name}=2") from None


class Static(StaticFiles):
    """The style sheet and the live script, with the pages' headers: never sniffed as another
    type, never kept by the phone (a new pancli's script is fetched at once)."""

    async def get_response(self, path: str, scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(SECURITY_HEADERS)
        return response


class Site:
    """The pages, the JSON and the live stream of one database. Each endpoint is a method that
    takes a Starlette request and returns a response, so each can be called alone."""

    def __init__(self, reader: Reader, token: str, hub: Hub | None = None):
        self.reader, self.token = reader, token
        self.hub = hub or Hub()
        self.env = templates()

    # -- plumbing --------------------------------------------------------------------------

    def link(self, named: str | None, path: str, keep_session: bool = True, **params) -> str:
        """An address on this site with the token, keeping the session the page was asked for
        (by its full name, so every way of asking for it gives the same page)."""
        query = {"token": self.token}
        if keep_session and named and "session" not in params:
            query["session"] = named
        query.update({k: v for k, v in params.items() if v is not None})
        return f"{path}?{urlencode(query)}"

    def fast(self, endpoint, kind: str, known: tuple[str, ...]):
        """Answers from what is kept on the event loop itself; only a miss goes to a worker thread."""
        reader = self.reader

        async def handler(request):
            # A page loaded afresh (a reload, or a phone with scripts off) is always checked
            # against the database; what the live script fetches on the poller's word is not.
            reload = kind == "page" and request.query_params.get("fragment") != "1"
            kept = None if reload else reader.peek((kind, request.scope["path"], query_key(request, known)))
            if kept is not None:
                if kind == "page":
                    return HTMLResponse(kept, headers=SECURITY_HEADERS)
                return Response(kept, media_type="application/json", headers=SECURITY_HEADERS)
            return await run_in_threadpool(endpoint, request)

        return handler

    def page(self, request: Request, template: str, title: str, build, session: Session | None,
             known: tuple[str, ...] = PAGE, live: str = "session", path: str | None = None) -> Response:
        """A page: its context built (and kept until the database changes), rendered, or only its
        <main> when the live script asks for the fresh content (?fragment=1). ``path`` is the
        page's own address when the request's spells it otherwise (/player/ana for Ana)."""
        fragment = request.query_params.get("fragment") == "1"
        named = session.name if session is not None and request.query_params.get("session") else None
        path = path or request.scope["path"]
        key = ("page", path, query_key(request, known, named))

        def render() -> str:
            generation = self.reader.generation
            context = build()
            sessions = self.reader.session_names()
            return self.env.get_template(template).render(
                title=title, fragment=fragment, live=live, generation=generation, sessions=sessions,
                url=lambda to, **kw: self.link(named, to, **kw), token=self.token, path=path, **context)

        return HTMLResponse(self.reader.cached(key, render), headers=SECURITY_HEADERS)

    def json(self, request: Request, build, session: Session | None = None, known: tuple[str, ...] = API,
             path: str | None = None) -> Response:
        """JSON, kept until the database changes; money as exact decimal strings."""
        named = session.name if session is not None and request.query_params.get("session") else None
        key = ("api", path or request.scope["path"], query_key(request, known, named))
        body = self.reader.cached(key, lambda: json_text(build()))
        return Response(body, media_type="application/json", headers=SECURITY_HEADERS)

    def session_of(self, request: Request) -> Session:
        return self.reader.session(request.query_params.get("session") or None)

    # -- pages ---------------------------------------------------------------------------

    def table(self, request: Request) -> Response:
        reader, s = self.reader, self.session_of(request)

        g = game(s.game)
        template = table_template(g)

        def build():
            board = reader.board(s)
            standings = reader.standings(s)
            recent = reader.recent(s)
            context = {"session": s, "board": board, "standings": standings,
                       "recent": list(reversed(event_lines(recent["events"])))}
            if template == GENERIC_TABLE:
                context.update(game_title=g.title, sections=generic.sections(board),
                               columns=generic.standing_columns(standings))
            return context

        return self.page(request, template, f"{s.name} · the table", build, s)

    def history(self, request: Request) -> Response:
        reader, s = self.reader, self.session_of(request)
        number = int_param(request, "page", 1)

        def build():
            data = reader.history(s, page=number)
            by_hand: dict = {}
            for e in event_lines(data["events"]):
                by_hand.setdefault(e["hand"], []).append(e)
            hands = [(h, by_hand.get(h, [])) for h in reversed(data["hands"])]
            return {"session": s, "hands": hands, "page_no": data["page"], "pages": data["pages"]}

        return self.page(request, "history.html", f"{s.name} · history", build, s, HISTORY)

    def settle(self, request: Request) -> Response:
        reader, s = self.reader, self.session_of(request)

        def build():
            _, data = reader.settle(s)
            return {"session": s, "settle": data, "standings": reader.standings(s)}

        return self.page(request, "settle.html", f"{s.name} · settle-up", build, s)

    def player(self, request: Request) -> Response:
        reader, s = self.reader, self.session_of(request)
        name = reader.player_name(request.path_params["name"])

        def build():
            career = reader.player(name)
            standings = reader.standings(s)
            tonight = next((r for r in standings["players"] if r["name"].lower() == career["player"].lower()), None)
            board = reader.board(s)
            seat = seat_of(board, tonight["name"] if tonight else None)
            who = tonight["name"] if tonight else career["player"]
            recent = event_lines(pick_events(reader.recent(s, PLAYER_WINDOW)["events"], who))
            nights = [n for n in career["nights"] if n.get("game", DEFAULT_GAME) == DEFAULT_GAME]
            others = [{**n, "game_title": game(n["game"]).title} for n in career["nights"]
                      if n.get("game", DEFAULT_GAME) != DEFAULT_GAME]
            return {"session": s, "career": career, "tonight": tonight, "standings": standings, "seat": seat,
                    "board": board, "recent": list(reversed(recent))[:6], "nights": nights, "others": others,
                    "points": night_points(nights)}

        return self.page(request, "player.html", f"{name} · player", build, s, live="any", path=f"/player/{name}")

    def sessions(self, request: Request) -> Response:
        reader = self.reader

        def build():
            rows = []
            for r in reader.sessions():
                g = game(r["game"])
                result = None if g is game(DEFAULT_GAME) else standing_words(reader.standings(reader.session(r["name"])))
                rows.append({**r, "game_title": g.title, "result": result})
            return {"session": None, "rows": rows}

        return self.page(request, "sessions.html", "sessions", build, None, SESSIONS, live="any")

    # -- JSON: the same objects as the CLI's --json -----------------------------------------

    def api_board(self, request: Request) -> Response:
        s = self.session_of(request)
        return self.json(request, lambda: self.reader.board(s), s)

    def api_standings(self, request: Request) -> Response:
        s = self.session_of(request)
        return self.json(request, lambda: self.reader.standings(s), s)

    def api_history(self, request: Request) -> Response:
        s = self.session_of(request)

        def build():
            if request.query_params.get("all") == "1":
                return self.reader.history(s, everything=True)
            hand = int_param(request, "hand")
            if hand is not None:
                return self.reader.history(s, hand=hand)
            return self.reader.history(s, page=int_param(request, "page", 1))

        return self.json(request, build, s, API_HISTORY)

    def api_settle(self, request: Request) -> Response:
        s = self.session_of(request)
        return self.json(request, lambda: self.reader.settle(s)[1], s)

    def api_player(self, request: Request) -> Response:
        name = self.reader.player_name(request.path_params["name"])
        return self.json(request, lambda: self.reader.player(name), None, (), f"/api/player/{name}")

    def api_sessions(self, request: Request) -> Response:
        return self.json(request, self.reader.sessions, None, ())

    # -- live ------------------------------------------------------------------------------

    async def events(self, request: Request) -> Response:
        hub, reader = self.hub, self.reader
        queue = hub.subscribe()

        async def stream():
            try:
                hello = json.dumps({"generation": reader.generation})
                yield f"retry: 1000\nevent: hello\ndata: {hello}\n\n"
                while not hub.closed:
                    try:
                        message = await asyncio.wait_for(queue.get(), timeout=KEEPALIVE_SECONDS)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if message is None:
                        break
                    yield f"event: change\ndata: {message}\n\n"
            finally:
                hub.unsubscribe(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**SECURITY_HEADERS, "X-Accel-Buffering": "no"})

    # -- errors ----------------------------------------------------------------------------

    def error_response(self, request_path: str, status: int, message: str, hint: str = "") -> Response:
        if request_path.startswith("/api/") or request_path == "/events":
            return JSONResponse({"error": message, "hint": hint, "status": status}, status_code=status,
                                headers=ERROR_HEADERS)
        html = self.env.get_template("error.html").render(status=status, message=message, hint=hint,
                                                          title=f"{status}", token=None)
        return HTMLResponse(html, status_code=status, headers=ERROR_HEADERS)

    async def on_pan_error(self, request: Request, exc: PanError) -> Response:
        status = 404 if isinstance(exc, NotFound) else 400
        return self.error_response(request.url.path, status, one_line(exc.message), one_line(exc.hint or ""))

    async def on_http_error(self, request: Request, exc: HTTPException) -> Response:
        words = {404: ("Not found", "check the address; the table is at /"),
                 405: ("Only GET and HEAD are answered", "this server is read-only")}
        message, hint = words.get(exc.status_code, (str(exc.detail), ""))
        response = self.error_response(request.url.path, exc.status_code, message, hint)
        if exc.status_code == 405:
            response.headers["Allow"] = "GET, HEAD"
        return response

    async def on_error(self, request: Request, exc: Exception) -> Response:
        return self.error_response(request.url.path, 500, "Something went wrong reading the table",
                                   "try again; the recorder is not affected")

    # -- the routes ------------------------------------------------------------------------

    def routes(self) -> list:
        fast = self.fast
        return [
            Route("/", fast(self.table, "page", PAGE)),
            Route("/history", fast(self.history, "page", HISTORY)),
            Route("/settle", fast(self.settle, "page", PAGE)),
            Route("/player/{name:path}", fast(self.player, "page", PAGE)),  # a name may hold a / (Ana/2)
            Route("/sessions", fast(self.sessions, "page", SESSIONS)),
            Route("/api/board", fast(self.api_board, "api", API)),
            Route("/api/standings", fast(self.api_standings, "api", API)),
            Route("/api/history", fast(self.api_history, "api", API_HISTORY)),
            Route("/api/settle", fast(self.api_settle, "api", API)),
            Route("/api/player/{name:path}", fast(self.api_player, "api", ())),
            Route("/api/sessions", fast(self.api_sessions, "api", ())),
            Route("/events", self.events),
            Mount("/static", app=Static(directory=str(HERE / "static")), name="static"),
        ]

    def exception_handlers(self) -> dict:
        return {PanError: self.on_pan_error, HTTPException: self.on_http_error, Exception: self.on_error}


def create_app(db_path, token: str, session: str | None = None, poll_interval: float = POLL_SECONDS,
               hub: Hub | None = None, dealer_token: str | None = None):
    """The `pan serve` application of one database: the site's routes behind the token guard,
    with the one poller started and stopped by the server's lifespan; with a dealer token, the
    dealer's page and write routes (pancli.web.dealer) in front of them."""
    if dealer_token is not None:
        from pancli.web.dealer import prepare  # noqa: PLC0415 only with --dealer

        poll_interval = prepare(db_path, poll_interval)
    site = Site(Reader(db_path, session), token, hub)
    poller = Poller(site.reader, site.hub, poll_interval)

    @asynccontextmanager
    async def lifespan(app):
        site.hub.loop = asyncio.get_running_loop()
        poller.start()
        try:
            yield
        finally:
            site.hub.close()
            poller.stopped.set()

    app = Starlette(routes=site.routes(), lifespan=lifespan, exception_handlers=site.exception_handlers())
    app.state.reader, app.state.hub, app.state.poller, app.state.site = site.reader, site.hub, poller, site
    guard = Guard(app, token, site.error_response)
    if dealer_token is None:
        return guard
    from pancli.web.dealer import with_dealer  # noqa: PLC0415 only with --dealer

    return with_dealer(guard, db_path, session, token, dealer_token)


class BadRequest(PanError):
    exit_code = 2


def token_given(query_string: bytes, token: str) -> bool:
    """Whether a request's query string holds the token (compared in constant time)."""
    given = parse_qs(query_string.decode("latin-1")).get("token", [""])[0]
    return secrets.compare_digest(given.encode(), token.encode())


class Guard:
    """Before anything else: only GET and HEAD, and only with the token."""

    def __init__(self, app, token: str, error_response):
        self.app, self.token, self.error_response = app, token, error_response
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope.get("path", "/")
        if scope["method"] not in ("GET", "HEAD"):
            response = self.error_response(path, 405, "Only GET and HEAD are answered", "this server is read-only")
            response.headers["Allow"] = "GET, HEAD"
            return await response(scope, receive, send)
        if not token_given(scope.get("query_string", b""), self.token):
            response = self.error_response(path, 403, "Forbidden: this address needs its token",
                                           "open the address `pan serve` printed (or scan its QR code)")
            return await response(scope, receive, send)
        return await self.app(scope, receive, send)


__all__ = ["create_app", "new_token", "Hub", "Site", "escape"]
