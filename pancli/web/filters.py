"""The pages' one Jinja2 environment and the filters its templates use (cards, signed chips, money).

Every page of `pan serve` (the players', the TV board, the dealer's) renders from this one
environment, built once, so the templates and filters are the same everywhere.
"""

from __future__ import annotations

import hashlib
import re
from decimal import Decimal
from functools import cache
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from markupsafe import Markup

from pancli.core.errors import InputError
from pancli.core.i18n import _, language, ngettext, pgettext
from pancli.core.numbers import chip_price as price, money_text
from pancli.core.settle import PARTY_NAMES
from pancli.core.words import signed as signed_number, signed_money
from pancli.games import game
from pancli.storage.catalogs import language_names
from pancli.web.charts import running_chart
from pancli.web.language import closest_note
from pancli.web.script_words import statuses

HERE = Path(__file__).resolve().parent

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_html(code: str) -> Markup:
    code = str(code)
    rank, suit = code[:-1], code[-1:].upper()
    red = suit in ("H", "D")
    return Markup('<span class="card{}">{}{}</span>').format(" red" if red else "", rank,
                                                            _SUITS.get(suit, suit))


def cards_html(cards) -> Markup:
    return Markup(" ").join(card_html(c) for c in cards)


def shown_html(text: str) -> Markup:
    """Cards already written with suit symbols (`7♥ 7♦`): hearts and diamonds in red."""
    out = []
    for word in str(text).split():
        red = word.endswith(("♥", "♦"))
        out.append(Markup('<span class="card{}">{}</span>').format(" red" if red else "", word))
    return Markup(" ").join(out)


def signed(n) -> str:
    if n is None:
        return "-"
    return signed_number(n)


def tone(n) -> str:
    return "up" if (n or 0) > 0 else ("down" if (n or 0) < 0 else "flat")


def _currency(currency) -> str | None:
    return currency if isinstance(currency, str) and currency else None  # undefined in a template: none


def money(x, currency=None) -> str:
    """Money won or lost, signed, as the language writes it (core/numbers), in the session's currency."""
    if x is None:
        return ""
    return signed_money(x, currency=_currency(currency))


def amount(x, currency=None) -> str:
    """Money paid, as every face writes it (core/numbers.money_text): ``$1,234.50``, ``12,50 zł``."""
    if x is None:
        return ""
    return money_text(Decimal(str(x)), _currency(currency))


def chip_price(x, currency=None) -> str:
    """What a chip is worth, with every digit it has (core/numbers.chip_price): ``$0.125``, ``0,50 zł``."""
    return price(Decimal(str(x)), _currency(currency))


def day(stored) -> str:
    """A stored date (``2026-12-02``) as the language writes it; English as stored."""
    if not stored or language() == "en":
        return str(stored or "")
    from pancli.core.numbers import date_text  # noqa: PLC0415 CLDR's data only for another language

    return date_text(str(stored))


def party(name: str) -> str:
    return _(PARTY_NAMES[name]) if name in PARTY_NAMES else name


def column(key) -> str:
    """A count's key (``deals_lost``) as the head of its column, in the page's language."""
    words = {"hands": pgettext("column", "hands"), "won": pgettext("column", "won"),
             "dropped": pgettext("column", "dropped"), "conditions": pgettext("column", "conditions"),
             "points": pgettext("column", "points"), "word": pgettext("column", "word"),
             "letters": pgettext("column", "letters"), "deals_played": pgettext("column", "deals played"),
             "deals_lost": pgettext("column", "deals lost"), "deals_won": pgettext("column", "deals won"),
             "games_lost": pgettext("column", "games lost"), "place": pgettext("column", "place"),
             "loser": pgettext("column", "loser"), "contract": pgettext("column", "contract")}
    return words.get(str(key), str(key).replace("_", " "))


def seat_status(code) -> str:
    """A seat's status code (``in``, ``dropped``) as the page says it."""
    return statuses().get(str(code), str(code))


_CHOPPED = re.compile(r"tops chopped by (.+) and (.+)")


def hand_result(hand) -> str:
    """How a Panguingue hand stands, in the page's language: the board's JSON says it in English
    (``in play``, ``won by Ana``, ``void``, ``tops chopped by Ana and Ben``), as --json does."""
    result = str(hand.get("result") or "")
    if not hand.get("over"):
        return pgettext("hand", "in play")
    if hand.get("winner") and result.startswith("won by "):
        return _("won by {player}").format(player=hand["winner"])
    if result == "void":
        return pgettext("hand", "void")
    chopped = _CHOPPED.fullmatch(result)
    if chopped:
        return _("tops chopped by {first} and {second}").format(first=chopped[1], second=chopped[2])
    return result


def round_words(round_name) -> dict[str, str]:
    """The score sheet's words for its rounds: hands, or deals (each a whole message)."""
    if round_name == "deal":
        return {"by": _("Deal by deal"), "one": pgettext("column", "deal"), "none": _("No deal played yet.")}
    if round_name == "hand":
        return {"by": _("Hand by hand"), "one": pgettext("column", "hand"), "none": _("No hand played yet.")}
    text = str(round_name)
    return {"by": f"{text.capitalize()} by {text}", "one": text, "none": f"No {text} played yet."}


@pass_context
def meld_words(context, m: dict) -> str:
    """The words for one meld of the board, from the game of the page's session."""
    return game(context["session"].game).meld_words(m)


def game_title(code: str) -> str:
    """A game's name for people, in the page's language (its code when pancli has no such game)."""
    try:
        return _(game(code).title)
    except InputError:
        return code


def round_of(code: str) -> str:
    """What a game calls a round of its play (``Game.round_word``): "hand", or "deal"."""
    try:
        return game(code).round_word
    except InputError:
        return "hand"


@cache
def static_version() -> str:
    """The static files' version, for their addresses (``?v=``): a phone keeps a style sheet or a
    script as long as it likes, and a new pancli's files have new addresses, fetched at once."""
    digest = hashlib.sha256()
    for path in sorted((HERE / "static").iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def templates() -> Environment:
    """The pages' Jinja2 environment, with the filters the templates use: one for every page."""
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    # the words of every page, in the language the request's context speaks (pancli.web.language)
    env.install_gettext_callables(gettext=_, ngettext=ngettext, newstyle=True, pgettext=pgettext)  # type: ignore[attr-defined]
    env.filters.update(cards=cards_html, card=card_html, shown=shown_html, signed=signed, tone=tone,
                       money=money, amount=amount, chip_price=chip_price, day=day, meld_words=meld_words, party=party, column=column, seat_status=seat_status,
                       round_words=round_words, hand_result=hand_result, game_title=game_title, round_of=round_of, urlpart=lambda s: quote(str(s), safe=""))
    env.globals.update(chart=running_chart, language=language, languages=language_names,
                       static_version=static_version,  # read at each page: the catalogs found
                       closest_note=closest_note)  # the line of a page in the closest language
    return env
