"""The one translation layer: every line a person reads goes through ``_``, ``ngettext`` or
``pgettext`` here, and a message written at import time is marked with ``N_`` and translated
where it is shown.

English is the messages themselves: no catalog is read, and a call costs one context lookup.
Another language's gettext catalog is read by ``pancli.storage.catalogs`` the first time it is
chosen (this module does no I/O). The language in force lives in a context variable, so each request
of ``pan serve`` can speak its own phone's language while the terminal speaks the host's.

Messages are whole sentences with named placeholders (``_("{name} stays").format(name=n)``):
Polish and Russian inflect, so a sentence is never glued from translated words.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

ENGLISH = "en"
DOMAIN = "pancli"


class Catalog(Protocol):
    def gettext(self, message: str, /) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...
    def pgettext(self, context: str, message: str, /) -> str: ...
    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str: ...


class _English:
    """The messages as written: English needs no catalog."""

    code = ENGLISH

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


_ENGLISH = _English()
# The language in force and its catalog.
_current: ContextVar[tuple[str, Catalog]] = ContextVar("pancli_language", default=(ENGLISH, _ENGLISH))


def _(message: str) -> str:
    """``message`` in the language in force."""
    return _current.get()[1].gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for ``n`` (Polish and Russian have three)."""
    return _current.get()[1].ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` gives it (a word that translates two ways)."""
    return _current.get()[1].pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _current.get()[1].npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for the catalog where it is written; ``_`` translates it where it is shown."""
    return message


def language() -> str:
    """The code of the language in force (``en``, ``pl``, ``ru``)."""
    return _current.get()[0]


def use_catalog(code: str, found: Catalog | None) -> None:
    """Speak ``code`` from now on, in this context (the process, or one request); None is English."""
    _current.set((code, found) if found is not None else (ENGLISH, _ENGLISH))


@contextmanager
def speaking_catalog(code: str, found: Catalog | None) -> Iterator[None]:
    """Speak ``code`` inside the block, then the language before it."""
    token = _current.set((code, found) if found is not None else (ENGLISH, _ENGLISH))
    try:
        yield
    finally:
        _current.reset(token)


def language_code(tag: str | None, known: Collection[str]) -> str | None:
    """``pl_PL.UTF-8``, ``pl-PL``, ``ru`` -> the code pancli knows it by; None for ``C``,
    ``POSIX``, an empty value or a language pancli does not speak."""
    if not tag:
        return None
    base = tag.split(".", 1)[0].split("@", 1)[0].replace("-", "_").strip().lower()
    if base in ("c", "posix", ""):
        return None
    code = base.split("_", 1)[0]
    return code if code in known else None


def chosen_language(flag: str | None, environ: Mapping[str, str], known: Collection[str]) -> str:
    """``--lang``, then ``PANCLI_LANG``, then ``LANGUAGE`` (a list: ``pl:en``), ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG``, as gettext reads them; else English. ``C`` and ``POSIX`` are
    English."""
    for tag in (flag, environ.get("PANCLI_LANG")):
        if tag:
            return language_code(tag, known) or ENGLISH
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if not value:
            continue
        if name == "LANGUAGE":
            for part in value.split(":"):
                if code := language_code(part, known):
                    return code
            continue
        return language_code(value, known) or ENGLISH  # the first one set decides, as for gettext
    return ENGLISH


def accepted_tags(header: str | None) -> list[str]:
    """A browser's ``Accept-Language`` as its tags, most wanted first (by weight, then order); no
    ``*`` and nothing weighted 0. At most 20 tags of the first 500 characters are read."""
    if not header:
        return []
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header[:500].split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:6])
            except ValueError:
                continue
        if not tag or tag == "*" or weight <= 0:
            continue
        ranked.append((-weight, i, tag))
    return [tag for _w, _i, tag in sorted(ranked)]


def accepted_language(header: str | None, known: Collection[str]) -> str | None:
    """The first language of a browser's ``Accept-Language`` that pancli speaks, by weight."""
    for tag in accepted_tags(header):
        if code := language_code(tag, known):
            return code
    return None


def sentence(template: str, **params: object) -> str:
    """``template.format(**params)``, where a name that ends a sentence with a point of its own
    ("Anna K.") lends it to the sentence: "… Anna K." rather than "… Anna K..". Decided on the
    translated template, so a language that ends its sentences otherwise is left as it is."""
    for key, value in params.items():
        if isinstance(value, str) and value.endswith(".") and "{" + key + "}." in template:
            template = template.replace("{" + key + "}.", "{" + key + "}")
    return template.format(**params)
