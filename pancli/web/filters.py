"""The pages' one Jinja2 environment and the filters its templates use (cards, signed chips, money).

Every page of `pan serve` (the players', the TV board, the dealer's) renders from this one
environment, built once, so the templates and filters are the same everywhere.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from markupsafe import Markup

from pancli.core.settle import PARTY_NAMES
from pancli.core.words import signed as signed_number, signed_money
from pancli.games import game
from pancli.web.charts import running_chart

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


def money(x) -> str:
    if x is None:
        return ""
    return signed_money(x)


def party(name: str) -> str:
    return PARTY_NAMES.get(name, name)


@pass_context
def meld_words(context, m: dict) -> str:
    """The words for one meld of the board, from the game of the page's session."""
    return game(context["session"].game).meld_words(m)


@cache
def templates() -> Environment:
    """The pages' Jinja2 environment, with the filters the templates use: one for every page."""
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(cards=cards_html, card=card_html, shown=shown_html, signed=signed, tone=tone,
                       money=money, meld_words=meld_words, party=party, urlpart=lambda s: quote(str(s), safe=""))
    env.globals.update(chart=running_chart)
    return env
