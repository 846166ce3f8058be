"""The `pan serve` web application: read-only pages and JSON of one database, live over SSE.

* Every request needs the token (``?token=``); only GET and HEAD are answered (pancli.web.guard).
* Pages are rendered on the server (Jinja2, pancli.web.filters) and work with JavaScript off; a
  small script listens on ``/events`` (server-sent events) and swaps in the fresh page when the
  log changes (pancli.web.live).
* The pages, the JSON and the stream are pancli.web.site; this module wires them together.
"""

from __future__ import annotations

import asyncio
import secrets
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware

from pancli.web.data import Reader
from pancli.web.guard import Guard, token_given
from pancli.web.language import Speaking
from pancli.web.live import POLL_SECONDS, Hub, Poller
from pancli.web.site import Site
from pancli.web.views import seat_of, table_template


def new_token() -> str:
    return secrets.token_urlsafe(12)


class Compressed:
    """Pages, JSON and static files gzip-compressed for the phones that ask for it; never the live
    stream, whose few bytes must reach the page the moment they are sent."""

    def __init__(self, app):
        self.app, self.gzip = app, GZipMiddleware(app, minimum_size=500)
        self.state = getattr(app, "state", None)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope.get("path") != "/events":
            return await self.gzip(scope, receive, send)
        return await self.app(scope, receive, send)


def create_app(db_path, token: str, session: str | None = None, poll_interval: float = POLL_SECONDS,
               hub: Hub | None = None, dealer_token: str | None = None, dealer_secret: bytes | None = None,
               club: bool = False):
    """The `pan serve` application of one database: the site's routes behind the token guard,
    with the one poller started and stopped by the server's lifespan; with a dealer token, the
    dealer's page and write routes (pancli.web.dealer) in front of them; every answer in the
    language its request asks for (pancli.web.language). ``dealer_secret`` signs the dealer's
    page's CSRF values (pancli.web.serve_keys: kept with the database, so they survive a restart).
    With ``club``, the club's lobby too (pancli.web.lobby: /lobby, /tv/lobby, /api/lobby)."""
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

    routes = site.routes()
    if club:
        from pancli.web.lobby import Lobby  # noqa: PLC0415 only with --club

        routes = Lobby(site).routes() + routes
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=site.exception_handlers())
    app.state.reader, app.state.hub, app.state.poller, app.state.site = site.reader, site.hub, poller, site
    guard = Guard(app, token, site.error_response, dealer_token)
    if dealer_token is None:
        return Compressed(Speaking(guard))
    from pancli.web.dealer import with_dealer  # noqa: PLC0415 only with --dealer

    return Compressed(Speaking(with_dealer(guard, db_path, session, token, dealer_token, dealer_secret)))


__all__ = ["create_app", "new_token", "Hub", "Site", "seat_of", "table_template", "token_given"]
