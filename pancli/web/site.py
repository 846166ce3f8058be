"""The players' site: the pages, the JSON and the live stream of one database, one method each."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from urllib.parse import quote, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pancli.app.reports import career_columns
from pancli.app.views import chips_to_settle, no_chips_words, pick_events, standing_words
from pancli.core.errors import PanError
from pancli.core.i18n import N_, _
from pancli.core.rows import Session
from pancli.core.text import json_text, one_line
from pancli.games import game
from pancli.web import generic, language
from pancli.web.data import NotFound, Reader
from pancli.web.filters import templates
from pancli.web.keys import API, API_HISTORY, HISTORY, PAGE, SESSIONS, int_param, query_key
from pancli.web.live import KEEPALIVE_SECONDS, Hub
from pancli.web.script_words import words_json
from pancli.web.views import (
    GENERIC_HAND,
    GENERIC_TABLE,
    event_lines,
    hand_template,
    night_points,
    seat_of,
    table_template,
)

HERE = Path(__file__).resolve().parent
PLAYER_WINDOW = 60  # the table's last events a player's own are picked from
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",  # the token is in the address: never pass it on
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
    "Cache-Control": "no-store",
}
ERROR_HEADERS = {**SECURITY_HEADERS, "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}


STATIC_SECONDS = 7 * 86400  # a phone keeps a style sheet or a script a week: its address has its version


class Static(StaticFiles):
    """The style sheets and scripts, with the pages' headers: never sniffed as another type, kept
    by the phone (their addresses carry their version, ``?v=``: a new pancli's are new addresses)."""

    async def get_response(self, path: str, scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(SECURITY_HEADERS)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = f"private, max-age={STATIC_SECONDS}"
        return response


class Site:
    """The pages, the JSON and the live stream of one database. Each endpoint is a method that
    takes a Starlette request and returns a response, so each can be called alone."""

    def __init__(self, reader: Reader, token: str, hub: Hub | None = None):
        self.reader, self.token = reader, token
        self.hub = hub or Hub()
        self.env = templates()
        # This server's start: a page that hears another in the stream's hello reads the table afresh
        # (a restarted server counts its changes from 0 again, so the count alone cannot tell).
        self.instance = secrets.token_hex(8)

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
            kept = None if reload else reader.peek((kind, request.scope["path"], query_key(request, known),
                                                    language.page_key() if kind == "page" else language.asked()))
            if kept is not None:
                if kind == "page":
                    return HTMLResponse(kept, headers=SECURITY_HEADERS)
                return Response(kept, media_type="application/json", headers=SECURITY_HEADERS)
            return await run_in_threadpool(endpoint, request)

        return handler

    def page(self, request: Request, template: str, title: str, build, session: Session | None,
             known: tuple[str, ...] = PAGE, live: str = "session", path: str | None = None,
             title_names: dict | None = None) -> Response:
        """A page: its context built (and kept until the database changes), rendered, or only its
        <main> when the live script asks for the fresh content (?fragment=1). ``path`` is the
        page's own address when the request's spells it otherwise (/player/ana for Ana)."""
        fragment = request.query_params.get("fragment") == "1"
        named = session.name if session is not None and request.query_params.get("session") else None
        path = path or request.scope["path"]
        # the language asked for is part of the key: each phone reads its own
        key = ("page", path, query_key(request, known, named), language.page_key())

        def render() -> str:
            with language.speaking_for(session):
                generation = self.reader.generation
                context = build()
                sessions = self.reader.session_names()
                return self.env.get_template(template).render(
                    title=_(title).format(**(title_names or {})), fragment=fragment, live=live,
                    generation=generation, sessions=sessions, follow=named is None, keepalive=KEEPALIVE_SECONDS,
                    current=self.reader.current, url=lambda to, **kw: self.link(named, to, **kw), token=self.token,
                    instance=self.instance,
                    path=path, words=words_json(), **context)

        return HTMLResponse(self.reader.cached(key, render), headers=SECURITY_HEADERS)

    def json(self, request: Request, build, session: Session | None = None, known: tuple[str, ...] = API,
             path: str | None = None) -> Response:
        """JSON, kept until the database changes; money as exact decimal strings."""
        named = session.name if session is not None and request.query_params.get("session") else None
        key = ("api", path or request.scope["path"], query_key(request, known, named), language.asked())

        def render() -> str:
            with language.speaking_for(session):
                return json_text(build())

        body = self.reader.cached(key, render)
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
                context.update(game_title=_(g.title), sections=generic.sections(board),
                               columns=generic.standing_columns(standings))
            return context

        return self.page(request, template, N_("{session} · the table"), build, s, title_names={"session": s.name})

    def tv(self, request: Request) -> Response:
        """The board for the living-room TV: the hand in play (the game's own partial), the
        standings and the last event with what it paid, in type read from across the room."""
        reader, s = self.reader, self.session_of(request)
        g = game(s.game)
        hand = hand_template(g)

        def build():
            board = reader.board(s)
            standings = reader.standings(s)
            events = [e for e in event_lines(reader.recent(s)["events"]) if not e["voided"]]
            context = {"session": s, "board": board, "standings": standings, "hand_template": hand,
                       "last": events[-1] if events else None, "before": list(reversed(events[-4:-1])),
                       "in_chips": g.in_chips}  # a game in points or letters never says "no chips"
            if hand == GENERIC_HAND:
                context.update(game_title=_(g.title), sections=generic.sections(board),
                               columns=generic.standing_columns(standings))
            return context

        return self.page(request, "tv.html", N_("{session} · the board"), build, s, title_names={"session": s.name})

    def history(self, request: Request) -> Response:
        reader, s = self.reader, self.session_of(request)
        number = int_param(request, "page", 1)

        def build():
            data = reader.history_page(s, number)
            by_hand: dict = {}
            for e in event_lines(data["events"]):
                by_hand.setdefault(e["hand"], []).append(e)
            hands = [(h, by_hand.get(h, [])) for h in reversed(data["hands"])]
            return {"session": s, "hands": hands, "page_no": data["page"], "pages": data["pages"]}

        return self.page(request, "history.html", N_("{session} · history"), build, s, HISTORY,
                         title_names={"session": s.name})

    def settle(self, request: Request) -> Response:
        reader, s = self.reader, self.session_of(request)

        def build():
            from pancli.app.summary import summary_lines  # noqa: PLC0415 start-up: only this page shares the night

            settled, data = reader.settle(s)
            standings, sheet = reader.standings(s), reader.sheet(s)
            chips = chips_to_settle(s, settled)  # a game in points or letters: no empty settle-up
            g = game(s.game)
            over = None if g.in_chips else reader.board(s).get("over")
            summary = summary_lines(s, standings, data, (sheet or {}).get("result") if not g.in_chips else None,
                                    over=None if over is None else bool(over))
            return {"session": s, "settle": data, "standings": standings, "sheet": sheet, "chips": chips,
                    "no_chips": [] if chips else no_chips_words(s, standings, None),  # the sheet says who won
                    "summary": "\n".join(summary)}

        return self.page(request, "settle.html", N_("{session} · settle-up"), build, s,
                         title_names={"session": s.name})

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
            nights = [n for n in career["nights"] if game(n["game"]).in_chips]
            others = [{"title": _(game(g["game"]).title), "columns": g["columns"], "nights": g["nights"]}
                      for g in career["games"] if not g["in_chips"]]  # each in its own columns
            columns = career_columns(nights)  # the counts of the chip games the player played
            return {"session": s, "career": career, "tonight": tonight, "standings": standings, "seat": seat,
                    "board": board, "recent": list(reversed(recent))[:6], "nights": nights, "other_games": others,
                    "points": night_points(nights), "counts": game(s.game).tallies, "columns": columns,
                    "per_hand": "hands" in columns and "won" in columns,
                    "chip_games": ", ".join(dict.fromkeys(_(game(n["game"]).title) for n in nights))}

        return self.page(request, "player.html", N_("{player} · player"), build, s, live="any",
                         path="/player/" + quote(name, safe=""), title_names={"player": name})  # links: #, ? and % quoted

    def sessions(self, request: Request) -> Response:
        reader = self.reader

        def build():
            rows = []
            for r in reader.sessions():
                g = game(r["game"])
                result = None if g.in_chips else standing_words(reader.standings(reader.session(r["name"])))
                rows.append({**r, "game_title": _(g.title), "result": result})
            return {"session": None, "rows": rows}

        return self.page(request, "sessions.html", N_("sessions"), build, None, SESSIONS, live="any")

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
                hello = json.dumps({"generation": reader.generation, "current": reader.current,
                                    "instance": self.instance})
                yield f"retry: 1000\nevent: hello\ndata: {hello}\n\n"
                while not hub.closed:
                    try:
                        message = await asyncio.wait_for(queue.get(), timeout=KEEPALIVE_SECONDS)
                    except TimeoutError:
                        yield "event: ping\ndata: {}\n\n"  # the page knows it is still connected
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
        html = self.env.get_template("error.html").render(
            status=status, message=message, hint=hint, title=f"{status}", token=None, fragment=False, live="none",
            session=None, generation=0, follow=False, keepalive=0, url=lambda to, **kw: "", words=None)
        return HTMLResponse(html, status_code=status, headers=ERROR_HEADERS)

    async def on_pan_error(self, request: Request, exc: PanError) -> Response:
        status = 404 if isinstance(exc, NotFound) else 400
        return self.error_response(request.url.path, status, one_line(exc.message), one_line(exc.hint or ""))

    async def on_http_error(self, request: Request, exc: HTTPException) -> Response:
        words = {404: (_("Not found"), _("check the address; the table is at /")),
                 405: (_("Only GET and HEAD are answered"), _("this server is read-only"))}
        message, hint = words.get(exc.status_code, (str(exc.detail), ""))
        response = self.error_response(request.url.path, exc.status_code, message, hint)
        if exc.status_code == 405:
            response.headers["Allow"] = "GET, HEAD"
        return response

    async def on_error(self, request: Request, exc: Exception) -> Response:
        return self.error_response(request.url.path, 500, _("Something went wrong reading the table"),
                                   _("try again; the recorder is not affected"))

    # -- the routes ------------------------------------------------------------------------

    def routes(self) -> list:
        fast = self.fast
        return [
            Route("/", fast(self.table, "page", PAGE)),
            Route("/tv", fast(self.tv, "page", PAGE)),
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
