"""The words of the pages' scripts (dealer.js, live.js), which the page hands them already
translated: a script calls ``t("…")`` or ``tn("…", "…", n)`` and finds the message here.

Every message a script shows is listed below (a test holds it to the scripts), so the catalog
has it like any other; the page embeds the translations of the language it speaks as JSON,
with the plural form of each count, so a script needs no catalog and no rules of its own.
"""

from __future__ import annotations

import json
import os
from functools import cache

from markupsafe import Markup

from pancli.core.i18n import N_, _, language, ngettext, pgettext
from pancli.storage import catalogs

WORDS = (
    # live.js: whether the page follows the table by itself
    N_("● live"),
    N_("not live · reconnecting…"),
    N_("updates by itself"),
    N_("not receiving updates: trying again; reload to be sure"),
    N_("The table has moved on to {name}."),
    # dealer.js
    N_("{session} · the dealer"),
    N_("Hand over: {result}."),
    # Translators: a player's chips tonight, then the money they make: "+12 chips (+PLN6.00)"
    N_("{chips} ({money})"),
    N_("The table has moved on to {current}; this page still records {session}."),
    N_("won the hand"),
    N_("{status} (stays)"),
    N_("for {player}"),
    N_("choose who"),
    N_("meld {number}: {cards}"),
    N_("take back {card}"),
    N_("{help} (optional)"),
    N_("a card"),
    # Translators: card codes (7S, QC) stay as they are
    N_("e.g. 7S 7H 7D / QC QD QS"),
    N_("e.g. KH"),
    N_("e.g. KH QH"),
    N_("a name"),
    N_("Recorded."),
    N_("The connection dropped: the last tap may not have arrived. Retry sends the same tap again, "
       "and it is recorded once."),
    N_("choose who first: tap a name above the cards"),
    N_("move {name} up"),
    N_("move {name} down"),
    N_("remove {name}"),
    N_("The connection dropped: tap New game again."),
    N_("Type the player's name, then tap Add."),
    N_("The connection dropped: tap Start the game again, and it is started once."),
    # dealer.js: the outbox of taps (a tap in its own words, e.g. "Meld for Ana: 7♠ 7♥ 7♦")
    N_("Undo"),
    N_("Redo"),
    # Translators: {action} is a button's label, such as Meld; {player} a player's name
    N_("{action} for {player}"),
    # Translators: {tap} is a tap in its own words, such as "Meld for Ana: 7♠ 7♥ 7♦"; {why} the refusal
    N_("{tap} was refused: {why}"),
    N_("Dropped: {tap}"),
)

# The counted messages of the scripts (singular, plural), found by the catalog tool in the
# scripts' own tn(…) calls.
COUNTED = (
    ("{chips} chip", "{chips} chips"),
    ("Tops: {n} chip.", "Tops: {n} chips."),
    ("{n} tap waiting", "{n} taps waiting"),
    ("{n} tap of that game dropped.", "{n} taps of that game dropped."),
)

PLURAL_TABLE = 200  # the plural form of 0..199 given; a larger n has the form of 100 + n % 100


def statuses() -> dict[str, str]:
    """A seat's status code as the dealer's page shows it."""
    return {"in": pgettext("seat", "in"), "dropped": pgettext("seat", "dropped"),
            "dead": pgettext("seat", "dead")}


def _plural_forms(singular: str, plural: str) -> list[str]:
    """Each plural form of a counted message in the language in force, from the catalog's own rule."""
    forms: dict[int, str] = {}
    for n in range(PLURAL_TABLE):
        forms.setdefault(_plural_index(n), ngettext(singular, plural, n))
    return [forms[i] for i in sorted(forms)]


def _plural_index(n: int) -> int:
    found = catalogs.catalog(language())
    rule = getattr(found, "plural", None)
    if rule is None:
        return 0 if n == 1 else 1
    return int(rule(n))


@cache
def _words_of(code: str, where: str) -> str:
    words = {m: _(m) for m in WORDS if _(m) != m}
    data = {"lang": code, "words": words, "statuses": statuses(),
            "counted": {s: _plural_forms(s, p) for s, p in COUNTED},
            "plural": [_plural_index(n) for n in range(PLURAL_TABLE)]}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def words_json() -> Markup:
    """The scripts' words in the language in force, as JSON safe inside a <script> element."""
    return Markup(_words_of(language(), os.environ.get("PANCLI_LOCALE_DIR", "")))  # the folder catalogs reads
