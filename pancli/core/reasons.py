"""A payment's reason for a screen: stored and archived in English beside the payment, said again
in the language in force from its code and particulars by the game that made it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pancli.core.i18n import ENGLISH, language

# Each game's wording of a payment's reason in the language in force (``Game.payment_words``),
# added as pancli.games registers the game. The reason stored beside a payment stays English.
_reason_words: list[Callable[[str | None, Mapping[str, Any]], str | None]] = []


def add_reason_words(words: Callable[[str | None, Mapping[str, Any]], str | None]) -> None:
    _reason_words.append(words)


def shown_reason(code: str | None, params: Mapping[str, Any], stored: str) -> str:
    """A payment's reason for a screen: as stored in English, else in the language in force from
    its code and particulars (as stored when no game words that code)."""
    if code is None or language() == ENGLISH:
        return stored
    for words in _reason_words:
        said = words(code, params)
        if said is not None:
            return said
    return stored
