"""Which language a page speaks, request by request: each phone at one table reads its own.

The language asked for is, in order: the page's language switch (``?lang=pl``, then remembered
in the ``pan_lang`` cookie), the cookie, the browser's ``Accept-Language``; with none of them a
language pancli speaks, the session's house language (``session.language``), else English.
A value from outside is only ever one of the codes pancli has a catalog for: anything else is
ignored, never echoed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

from pancli.core.hints import TV, speaking_face
from pancli.core.i18n import ENGLISH, accepted_language, language_code
from pancli.storage import catalogs

COOKIE = "pan_lang"
COOKIE_DAYS = 365
MAX_HEADER = 4096  # a cookie or Accept-Language header longer than this is not read

# What the request asked for (None: nothing pancli speaks; the session's house language decides).
_asked: ContextVar[str | None] = ContextVar("pan_page_language", default=None)


def asked() -> str | None:
    """The language this request asked for, or None when the session's house language decides."""
    return _asked.get()


def known(value: str | None) -> str | None:
    """``value`` when it is exactly the code of a language pancli speaks, else None."""
    if not value or len(value) > 16:
        return None
    return value if value in catalogs.available() else None


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name and len(value) <= MAX_HEADER:
            return value.decode("latin-1")
    return ""


def switched(scope) -> str | None:
    """The language the page's switch chose (``?lang=``), if it is one pancli speaks."""
    query = scope.get("query_string", b"")[:MAX_HEADER]
    if b"lang=" not in query:  # the usual request: nothing to parse
        return None
    return known(parse_qs(query.decode("latin-1")).get("lang", [""])[0])


def remembered(scope) -> str | None:
    """The language the ``pan_lang`` cookie remembers, if it is one pancli speaks."""
    raw = _header(scope, b"cookie")
    if COOKIE not in raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except CookieError:  # a malformed cookie header: as if there were none
        return None
    morsel = jar.get(COOKIE)
    return known(morsel.value) if morsel is not None else None


def chosen(scope) -> tuple[str | None, str | None]:
    """(the language asked for or None, the code to remember in the cookie or None)."""
    picked = switched(scope)
    if picked is not None:
        return picked, picked
    here = remembered(scope)
    if here is not None:
        return here, None
    return accepted_language(_header(scope, b"accept-language"), catalogs.available()), None


def house(session) -> str:
    """The page's language once its session is known: the one asked for, else the session's
    house language (a column a newer database holds), else English."""
    code = asked()
    if code is not None:
        return code
    code = language_code(getattr(session, "language", None), catalogs.available()) if session is not None else None
    return code or ENGLISH


@contextmanager
def speaking_for(session) -> Iterator[None]:
    """Speak the page's language inside the block (the session's, when nothing was asked)."""
    with catalogs.speaking(house(session)):
        yield


class Speaking:
    """ASGI middleware in front of every route: puts the request's language in force around the
    whole of its answer (worker threads and live streams copy the context), and remembers a
    language chosen with the switch in the ``pan_lang`` cookie."""

    def __init__(self, app):
        self.app = app
        self.state = getattr(app, "state", None)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        code, remember = chosen(scope)

        async def sending(message):
            if remember is not None and message["type"] == "http.response.start":
                cookie = f"{COOKIE}={remember}; Path=/; Max-Age={COOKIE_DAYS * 86400}; SameSite=Strict; HttpOnly"
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"set-cookie", cookie.encode("latin-1"))]}
            await send(message)

        token = _asked.set(code)
        try:
            with catalogs.speaking(code or ENGLISH), speaking_face(TV):  # a page names no command
                return await self.app(scope, receive, sending)
        finally:
            _asked.reset(token)
