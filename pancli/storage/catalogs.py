"""Reading the gettext catalogs (``pancli/locale/<lang>/LC_MESSAGES/pancli.mo``) and putting a
language in force; the translation layer itself is ``pancli.core.i18n``."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from pancli.core import i18n

_loaded: dict[tuple[str, str], i18n.Catalog | None] = {}


def locale_dir() -> Path:
    """Where the catalogs are: pancli's own, or ``PANCLI_LOCALE_DIR`` (a translator trying a
    catalog without installing it)."""
    override = os.environ.get("PANCLI_LOCALE_DIR")
    return Path(override) if override else Path(__file__).resolve().parent.parent / "locale"


_available: dict[str, list[str]] = {}


def available() -> list[str]:
    """English and every language with a compiled catalog (looked for once a folder)."""
    root = locale_dir()
    if str(root) in _available:
        return _available[str(root)]
    found = {i18n.ENGLISH}
    if root.is_dir():
        for entry in root.iterdir():
            if (entry / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo").is_file():
                found.add(entry.name)
    _available[str(root)] = sorted(found)
    return _available[str(root)]


def catalog(code: str) -> i18n.Catalog | None:
    """The catalog of a language, read once; None (English) for English or a language without one."""
    if code == i18n.ENGLISH:
        return None
    key = (str(locale_dir()), code)
    if key not in _loaded:
        from pancli.storage.mofile import read_catalog  # noqa: PLC0415  (only when a language other than English is chosen)

        path = locale_dir() / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
        try:
            _loaded[key] = read_catalog(path.read_bytes())  # each message looked up when first asked for
        except OSError:
            _loaded[key] = None
    return _loaded[key]


def use_language(code: str) -> None:
    """Speak ``code`` from now on, in this context (the process, or one request)."""
    i18n.use_catalog(code, catalog(code))


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak ``code`` inside the block, then the language before it."""
    with i18n.speaking_catalog(code, catalog(code)):
        yield


def language_names() -> dict[str, str]:
    """Every language pancli speaks, by the name it calls itself: its own catalog's word for
    this language, so a new language is its catalog alone."""
    names = {}
    for code in available():
        with speaking(code):
            # Translators: the name of the language you translate into, as it calls itself ("Polski")
            names[code] = i18n.pgettext("the name of this language", "English")
    return names


def chosen_language(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language a command speaks: ``--lang``, ``PANCLI_LANG``, then the locale's variables."""
    return i18n.chosen_language(flag, os.environ if environ is None else environ, available())
