"""Cards of the standard French-suited pack, shared by the contract game and Polish Pan
(Panguingue has its own pack in cards.py: no 8, 9 or 10, and string cards). Their house rules are
declared with the shared knob schema (pancli.core.knobs) in each game's rules.py.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pancli.core.errors import InputError
from pancli.core.i18n import _

SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_ALIASES = {**{s: s for s in SUITS}, **{v: k for k, v in SUIT_SYMBOLS.items()},
                "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
RANK_NAMES = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}


@dataclass(frozen=True, order=True)
class Card:
    rank: int  # 2..14, ace = 14
    suit: str  # one of S H D C

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def code(self) -> str:
        """ASCII notation used in stored events and states, e.g. ``TS``."""
        return ("T" if self.rank == 10 else RANK_NAMES[self.rank]) + self.suit


def card_candidates(word: str, ranks: Iterable[int]) -> list[str]:
    """Cards of a pack holding these ranks that complete the word, as typed so far: after a rank
    only its suits (`8` gives 8S 8H 8D 8C; `1` the tens), and the whole pack for no word."""
    ranks = sorted(ranks)
    typed = word.upper()
    names = [RANK_NAMES[r] for r in ranks] + (["T"] if 10 in ranks and typed.startswith("T") else [])
    return [word + code[len(word):] for code in (n + s for n in names for s in SUITS) if code.startswith(typed)]


def card_reader(ranks: Iterable[int], pack_name: str, pack_text: str) -> tuple[Callable[[str], Card], Callable[[str | Iterable[str]], list[Card]]]:
    """parse_card and parse_cards for a pack holding these ranks."""
    aliases = {RANK_NAMES[r]: r for r in ranks}
    if 10 in aliases.values():
        aliases["T"] = 10
    by_length = sorted(aliases.items(), key=lambda kv: -len(kv[0]))

    def parse_card(token: str) -> Card:
        text = token.strip().translate({0xFE0E: None, 0xFE0F: None}).upper()  # 5♠️: the emoji selector
        if not text.isascii():  # full-width ５Ｓ, as a Japanese keyboard types it
            text = unicodedata.normalize("NFKC", text)
        for rank_text, rank in by_length:
            if text.startswith(rank_text) and text[len(rank_text):] in SUIT_ALIASES:
                return Card(rank, SUIT_ALIASES[text[len(rank_text):]])
        # Translators: {pack} is a pack's name, e.g. "the Polish Pan pack"
        raise InputError(_("no card {token} in {pack}").format(token=repr(token.strip()), pack=_(pack_name)), _(pack_text))

    def parse_cards(cards: str | Iterable[str]) -> list[Card]:
        """Read cards separated by spaces or commas, or a list of card strings (from a stored event)."""
        tokens = re.split(r"[\s,;]+", cards) if isinstance(cards, str) else list(cards)
        for token in tokens:
            if not isinstance(token, str):
                raise InputError(_("cards must be written as text, not {token}").format(token=repr(token)), _(pack_text))
        return [parse_card(t) for t in tokens if t.strip()]

    return parse_card, parse_cards


def format_cards(cards: Iterable[Card], ascii: bool = False) -> str:
    return " ".join(c.code if ascii else str(c) for c in cards)


def shown_code(code: object) -> str:
    """A stored card code as the table writes it (``TS`` is 10♠); anything else as it is."""
    text = str(code)
    if len(text) >= 2 and text[-1].upper() in SUIT_SYMBOLS:
        rank = text[:-1].upper()
        return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[text[-1].upper()]
    return text


def shown_codes(codes: object) -> str:
    """Stored cards (a list of codes, or one text of them) as the table writes them."""
    if isinstance(codes, str):
        codes = re.split(r"[\s,;]+", codes)
    return " ".join(shown_code(c) for c in codes or () if str(c).strip()) if isinstance(codes, (list, tuple)) \
        else str(codes)


# -- did-you-mean ---------------------------------------------------------------------------

def suggest(word: str, choices: Iterable[str], what: str) -> str:
    by_lower = {choice.lower(): choice for choice in choices}
    close = difflib.get_close_matches(word.lower(), by_lower, n=1)
    listed = ", ".join(by_lower.values())
    # Translators: {what} names the choices, e.g. "players"
    if close:
        return _("did you mean {choice}? ({what}: {listed})").format(choice=repr(by_lower[close[0]]), what=_(what),
                                                                     listed=listed)
    return _("{what}: {listed}").format(what=_(what), listed=listed)
