"""Which language a page speaks, request by request: each phone at one table reads its own.

The language asked for is, in order: the page's language switch (``?lang=pl``, then remembered
in the ``pan_lang`` cookie), the cookie, the browser's ``Accept-Language``; with none of them a
language pancli speaks, the session's house language (``session.language``), else English.
A value from outside is only ever one of the codes pancli has a catalog for: anything else is
ignored, never echoed.

A browser's list is matched as the Unicode CLDR matches languages (its languageMatching data,
through ``langcodes``): each language it lists, in its order, against the closest catalog there
is, a language pancli has at distance 0 (``es-MX`` is Spanish), a related one at CLDR's distance
(Ukrainian to Russian 24, Catalan, Galician and Basque to Spanish 20), and nothing further than
``CLOSE`` (Portuguese to Spanish and Serbian to Bulgarian are 84: a reader of the one does not read
the other). Each later language of the list counts ``DEMOTION`` further, as ICU's LocaleMatcher
demotes it, so ``uk, en;q=0.5`` is English and ``uk`` alone Russian. A page in the closest
language says so in one line (``closest_note``), under the language switch.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from http.cookies import CookieError, SimpleCookie
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from pancli.core.hints import TV, speaking_face
from pancli.core.i18n import ENGLISH, _, accepted_tags, language, language_code
from pancli.storage import catalogs

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "pan_lang"
COOKIE_DAYS = 365
MAX_HEADER = 4096  # a cookie or Accept-Language header longer than this is not read

# How far a language may be from the one a browser asks for and still be offered in its place
# (langcodes' own bound: under 25 a reader of the one is expected to read the other), and how much
# further each later language of the browser's list counts.
CLOSE = 25
DEMOTION = 5

# What the request asked for (None: nothing pancli speaks; the session's house language decides).
_asked: ContextVar[str | None] = ContextVar("pan_page_language", default=None)
# The tag of the browser's language that the page's language stands in for (None: the page is in
# the language asked for, or in the house language).
_instead_of: ContextVar[str | None] = ContextVar("pan_page_instead_of", default=None)


def asked() -> str | None:
    """The language this request asked for, or None when the session's house language decides."""
    return _asked.get()


def page_key() -> tuple[str | None, str | None]:
    """What a page kept for this request depends on: the language asked for, and the browser's
    language it stands in for (the closest's line)."""
    return _asked.get(), _instead_of.get()


def known(value: str | None) -> str | None:
    """``value`` when it is exactly the code of a language pancli speaks, else None."""
    if not value or len(value) > 16:
        return None
    return value if value in catalogs.available() else None


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name and len(value) <= MAX_HEADER:
            text: str = value.decode("latin-1")
            return text
    return ""


def switched(scope: Scope) -> str | None:
    """The language the page's switch chose (``?lang=``), if it is one pancli speaks."""
    query = scope.get("query_string", b"")[:MAX_HEADER]
    if b"lang=" not in query:  # the usual request: nothing to parse
        return None
    return known(parse_qs(query.decode("latin-1")).get("lang", [""])[0])


def remembered(scope: Scope) -> str | None:
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


def _distance(tag: str, known: list[str]) -> tuple[str, int] | None:
    """The catalog closest to a language tag that is not exactly one pancli speaks, with its CLDR
    distance, when it is within ``CLOSE``."""
    import langcodes  # noqa: PLC0415  (only for a browser that asks for a language pancli lacks)

    try:
        code, distance = langcodes.closest_match(tag, known, max_distance=CLOSE)
    except (ValueError, LookupError):  # not a language tag (langcodes' errors are ValueErrors)
        return None
    return (code, distance) if code in known else None


def closest(header: str | None, known: list[str]) -> tuple[str | None, str | None]:
    """(the catalog for a browser's ``Accept-Language``, or None; the browser's tag it stands in
    for when it is only the closest, else None)."""
    tags = accepted_tags(header)
    best: tuple[int, str, str | None] | None = None
    others = [code for code in known if code != "qps"]  # the pseudo-language is nobody's closest
    for index, tag in enumerate(tags):
        if best is not None and best[0] <= index * DEMOTION:
            break  # nothing later in the list can be closer
        exact = language_code(tag, known)
        found: tuple[int, str, str | None] | None = (index * DEMOTION, exact, None) if exact else None
        if found is None and len(tag) <= 35:
            near = _distance(tag, others)
            if near is not None:
                found = (near[1] + index * DEMOTION, near[0], tag)
        if found is not None and (best is None or found[0] < best[0]):
            best = found
    return (best[1], best[2]) if best is not None else (None, None)


def choice(scope: Scope) -> tuple[str | None, str | None, str | None]:
    """(the language asked for or None, the code to remember in the cookie or None, the browser's
    language tag the page stands in for when its list chose a catalog only as the closest)."""
    picked = switched(scope)
    if picked is not None:
        return picked, picked, None
    here = remembered(scope)
    if here is not None:
        return here, None, None
    code, instead = closest(_header(scope, b"accept-language"), catalogs.available())
    return code, None, instead


def chosen(scope: Scope) -> tuple[str | None, str | None]:
    """(the language asked for or None, the code to remember in the cookie or None)."""
    return choice(scope)[:2]


def language_name(tag: str, in_language: str) -> str:
    """A language's name as CLDR writes it in another language (``украинский`` in Russian): the
    tag itself when CLDR has no name for it."""
    from babel import Locale, UnknownLocaleError  # noqa: PLC0415  (only for the closest's line)

    base = tag.replace("_", "-").split("-", 1)[0].lower()
    for code in (in_language, ENGLISH):
        try:
            name = Locale.parse(code).languages.get(base)
        except (UnknownLocaleError, ValueError):
            continue
        if name:
            return str(name)
    return base


def closest_note() -> str | None:
    """The line a page in the closest language says, in that language, or None."""
    tag = _instead_of.get()
    if tag is None or asked() is None or asked() != language():
        return None
    # Translators: said on a page in your language when a reader's browser asked for a language
    # pancli has no catalog for and yours is the closest one it has (a Ukrainian reader, say, reading
    # Russian). Name your own language where this says English; {language} is the reader's language
    # as the Unicode CLDR names it in yours ("украинский", "ukraiński"), so keep it where it needs
    # no case ending.
    return _("This page is in English, the closest we have to your language ({language}).").format(
        language=language_name(tag, language()))


def house(session: Any) -> str:
    """The page's language once its session is known: the one asked for, else the session's
    house language (a column a newer database holds), else English."""
    code = asked()
    if code is not None:
        return code
    code = language_code(getattr(session, "language", None), catalogs.available()) if session is not None else None
    return code or ENGLISH


@contextmanager
def speaking_for(session: Any) -> Iterator[None]:
    """Speak the page's language inside the block (the session's, when nothing was asked)."""
    with catalogs.speaking(house(session)):
        yield


class Speaking:
    """ASGI middleware in front of every route: puts the request's language in force around the
    whole of its answer (worker threads and live streams copy the context), and remembers a
    language chosen with the switch in the ``pan_lang`` cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.state = getattr(app, "state", None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        code, remember, instead = choice(scope)
        if instead is not None:  # only its language is said: one kept page for uk and uk-UA
            instead = instead.replace("_", "-").split("-", 1)[0].lower()

        async def sending(message: Message) -> None:
            if remember is not None and message["type"] == "http.response.start":
                cookie = f"{COOKIE}={remember}; Path=/; Max-Age={COOKIE_DAYS * 86400}; SameSite=Strict; HttpOnly"
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"set-cookie", cookie.encode("latin-1"))]}
            await send(message)

        token, instead_token = _asked.set(code), _instead_of.set(instead)
        try:
            with catalogs.speaking(code or ENGLISH), speaking_face(TV):  # a page names no command
                return await self.app(scope, receive, sending)
        finally:
            _instead_of.reset(instead_token)
            _asked.reset(token)
