"""What a request asks for: the query parameters each route reads, as the key its answer is kept under."""

from __future__ import annotations

from typing import overload

from starlette.requests import Request

from pancli.core.errors import PanError
from pancli.core.i18n import _


class BadRequest(PanError):
    exit_code = 2


# The query parameters each route reads, so the only ones its cache key holds: anything else an
# address carries (?_=1, ?x=junk) changes nothing, and the answer is kept once.
PAGE = ("session", "fragment")
HISTORY = (*PAGE, "page")
SESSIONS = ("fragment",)
API = ("session",)
API_HISTORY = ("session", "all", "hand", "page")
FLAGS = ("fragment", "all")  # on when =1, whatever else they say
DEFAULTS = {"page": 1}


def query_key(request: Request, known: tuple[str, ...], session: str | None = None) -> tuple[object, ...]:
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
        raise BadRequest(_("the {name} asked for in the address, {raw}, is not a whole number").format(
            name=name, raw=repr(raw)), _("use a number, as in ?{name}=2").format(name=name)) from None
