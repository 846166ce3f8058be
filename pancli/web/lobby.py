"""The club's lobby (`pan serve --club`): every live table this database holds, one card each, and
the TV panel that turns through them.

A table is *live* when its session is not closed and its latest event is less than
``LIVE_HOURS`` old (the page says so). Every table held here counts: this host's own and every
other host's that `pan sync` (or `pan sync --watch`) brought in from the club's folder. Each card:
the game, the host (the device that records it), the hand, the standings (name: net), the last
event in the words the players' page uses, how long ago; and a link to that table's own page.

The pages are not kept between requests as the others are: "how long ago" and the live window
move with the clock, not only with the database. They refresh as the other pages do (live.js, on
every change of the database) and once a minute besides (lobby.js).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from pancli.app.views import standing_words
from pancli.core.i18n import _, ngettext
from pancli.core.text import json_text
from pancli.games import game
from pancli.web import language
from pancli.web.data import Reader
from pancli.web.live import KEEPALIVE_SECONDS
from pancli.web.script_words import words_json
from pancli.web.views import event_lines

if TYPE_CHECKING:
    from pancli.web.site import Site

LIVE_HOURS = 6        # a table with no event for longer is not live (nor is a closed one)
TURN_SECONDS = 10     # the TV panel shows each table this long
RECENT = 8            # the last events a card's last event is picked from (an undo voids the one before)


def refuse_without_club(db_path: str | Path) -> None:
    """`pan serve --club` on a database that belongs to no club: refused in one line, with the fix."""
    from pancli.app.club_held import held_roster  # noqa: PLC0415
    from pancli.core.errors import InputError  # noqa: PLC0415
    from pancli.storage.store import Store  # noqa: PLC0415

    store = Store(db_path, readonly=True)
    try:
        roster = held_roster(store)
    finally:
        store.close()
    if roster is None:
        raise InputError(_("this database belongs to no club, so there is no lobby to show"),
                         _("sync with the club's folder first (`pan sync FOLDER`), or start a club with "
                           "`pan club init NAME`; or leave out --club"))


def ago_words(minutes: int) -> str:
    if minutes < 1:
        return _("just now")
    if minutes < 60:
        return ngettext("{n} minute ago", "{n} minutes ago", minutes).format(n=minutes)
    hours = minutes // 60
    return ngettext("{n} hour ago", "{n} hours ago", hours).format(n=hours)


def live_tables(reader: Reader, now: datetime | None = None) -> list[dict[str, Any]]:
    """The live tables, the latest event first, as the lobby's JSON (``/api/lobby``)."""
    now = now or datetime.now(UTC)
    store = reader.store()
    with store.snapshot():
        last = store.queries.last_event_of_open_sessions()
    overview = {r["name"]: r for r in reader.sessions()}
    out = []
    for named in reader.session_names():
        at = last.get(named["id"])
        row = overview.get(named["name"])
        if at is None or row is None or row["closed"]:
            continue
        when = datetime.fromisoformat(at)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        if now - when > timedelta(hours=LIVE_HOURS):
            continue
        s = reader.session(named["name"])
        g = game(s.game)
        standings = reader.standings(s)
        players = [r for r in standings["players"]]
        events = [e for e in event_lines(reader.recent(s, RECENT)["events"]) if not e["voided"]
                  and e["kind"] != "undo"]
        minutes = max(0, int((now - when).total_seconds() // 60))
        out.append({
            "session": s.name, "game": s.game, "game_title": _(g.title), "in_chips": g.in_chips,
            "device": s.device, "device_label": row.get("device_label") or (s.device or "")[:8],
            "recorded_here": row["recorded_here"], "hand": row["hands"],
            "standings": [{"name": r["name"], "net": r["net"]} for r in players] if g.in_chips else [],
            "standing_words": [] if g.in_chips else standing_words(standings),
            "last_event": events[-1]["text"] if events else None,
            "last_at": when.isoformat(timespec="seconds"), "minutes_ago": minutes, "ago": ago_words(minutes)})
    out.sort(key=lambda t: t["last_at"], reverse=True)
    return out


class Lobby:
    """The lobby's pages and JSON, on the site of `pan serve --club`."""

    def __init__(self, site: Site) -> None:
        self.site = site

    def render(self, request: Request, template: str, title: str, path: str) -> Response:
        site = self.site
        fragment = request.query_params.get("fragment") == "1"
        with language.speaking_for(None):
            reader = site.reader
            generation = reader.generation
            tables = live_tables(reader)
            html = site.env.get_template(template).render(
                title=title, fragment=fragment, live="any", generation=generation,
                sessions=reader.session_names(), follow=False, keepalive=KEEPALIVE_SECONDS, current=reader.current,
                url=lambda to, **kw: site.link(None, to, **kw), token=site.token, instance=site.instance, path=path,
                words=words_json(), session=None, tables=tables, live_hours=LIVE_HOURS, turn_seconds=TURN_SECONDS)
        from pancli.web.site import SECURITY_HEADERS  # noqa: PLC0415 the site imports nothing of the lobby

        return HTMLResponse(html, headers=SECURITY_HEADERS)

    def page(self, request: Request) -> Response:
        return self.render(request, "lobby.html", _("the club's tables"), "/lobby")

    def tv(self, request: Request) -> Response:
        return self.render(request, "tv_lobby.html", _("the club's tables"), "/tv/lobby")

    def api(self, request: Request) -> Response:
        from pancli.web.site import SECURITY_HEADERS  # noqa: PLC0415

        with language.speaking_for(None):
            body = json_text({"live_hours": LIVE_HOURS, "tables": live_tables(self.site.reader)})
        return Response(body, media_type="application/json", headers=SECURITY_HEADERS)

    def routes(self) -> list[Route]:
        def threaded(endpoint: Callable[[Request], Response]) -> Callable[[Request], Awaitable[Response]]:
            async def handler(request: Request) -> Response:
                return await run_in_threadpool(endpoint, request)
            return handler

        return [Route("/lobby", threaded(self.page)), Route("/tv/lobby", threaded(self.tv)),
                Route("/api/lobby", threaded(self.api))]
