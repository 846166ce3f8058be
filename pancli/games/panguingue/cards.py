"""Cards of the Panguingue pack: notation, ordering, and how many copies the shoe holds.

A card is its canonical two-character code, rank then suit: ``"5S"``, ``"JH"``, ``"AC"``.
Plain strings keep events JSON-friendly and make multisets cheap (spec §1).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from pancli.core.errors import InputError
from pancli.core.i18n import _, pgettext

RANKS = "A234567JQK"  # low to high; 7 and J are neighbours, the ace is low only (§1.2)
SUITS = "SHDC"
ORDINAL = {rank: i + 1 for i, rank in enumerate(RANKS)}
VALLE = frozenset("357")
NON_COMOQUERS = frozenset("AK")  # ranks whose sets may mix suits freely

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAME = {
    "A": "aces", "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
    "7": "sevens", "J": "jacks", "Q": "queens", "K": "kings",
}
RED_SUITS = frozenset("HD")


def rank_words(rank: str) -> str:
    """A rank's cards named as the subject of a sentence: "fives must be all one suit"."""
    return {
        "A": pgettext("ranks", "aces"), "2": pgettext("ranks", "twos"), "3": pgettext("ranks", "threes"),
        "4": pgettext("ranks", "fours"), "5": pgettext("ranks", "fives"), "6": pgettext("ranks", "sixes"),
        "7": pgettext("ranks", "sevens"), "J": pgettext("ranks", "jacks"), "Q": pgettext("ranks", "queens"),
        "K": pgettext("ranks", "kings"),
    }.get(rank, rank)


def rank_of(rank: str) -> str:
    """A rank's cards after "a set of": "a set of fives" (the genitive in Polish and Russian)."""
    return {
        "A": pgettext("set of", "aces"), "2": pgettext("set of", "twos"), "3": pgettext("set of", "threes"),
        "4": pgettext("set of", "fours"), "5": pgettext("set of", "fives"), "6": pgettext("set of", "sixes"),
        "7": pgettext("set of", "sevens"), "J": pgettext("set of", "jacks"), "Q": pgettext("set of", "queens"),
        "K": pgettext("set of", "kings"),
    }.get(rank, rank)

_SUIT_ALIASES = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
# Ranks that exist in a 52-card pack but not in Pan's: named in the error.
_MISSING_RANKS = {"8", "9", "10", "T"}
# With rank_set = no_JQK the pack keeps 8-9-10 and drops the court cards; the engine
# reads them as J, Q, K so one set of rules serves both packs (§1.1).
_RELABEL = {"8": "J", "9": "Q", "10": "K", "T": "K"}

_CARD_RE = re.compile(r"(10|[A-Z0-9])([SHDC♠♥♦♣♤♡♢♧])", re.IGNORECASE)
_SPLIT_RE = re.compile(r"[\s,;]+")


def parse_card(token: str, rank_set: str = "no_8_9_10") -> str:
    """Read one card such as ``5s``, ``J♥``, ``qd``."""
    cards = _parse_token(token, rank_set)
    if len(cards) != 1:
        raise InputError(_("'{token}' is not one card").format(token=token), _("write a rank and a suit, e.g. 5S or J♥"))
    return cards[0]


def parse_cards(text: str | Iterable[str], rank_set: str = "no_8_9_10") -> tuple[str, ...]:
    """Read cards separated by spaces or commas; compact runs like ``5s5s5s`` are fine."""
    if type(text) in (list, tuple) and rank_set == "no_8_9_10" and _CANONICAL.issuperset(text):
        return tuple(text)  # as the log stores them: nothing to read
    parts = [text] if isinstance(text, str) else list(text)
    cards: list[str] = []
    for part in parts:
        for token in _SPLIT_RE.split(part.strip()):
            if token:
                cards.extend(_parse_token(token, rank_set))
    return tuple(cards)


# Emoji and text presentation selectors: a phone keyboard types 5♠️ as 5, ♠ and U+FE0F.
_VARIATION_SELECTORS = {0xFE0E: None, 0xFE0F: None}


@functools.lru_cache(maxsize=4096)
def _parse_token(token: str, rank_set: str) -> tuple[str, ...]:
    token = token.translate(_VARIATION_SELECTORS)
    if not token.isascii():  # a Japanese keyboard types ５Ｓ: compatibility forms read as 5S
        token = unicodedata.normalize("NFKC", token)
    if token.upper() in {"JOKER", "JOKERS", "JK", "JKR"}:
        raise InputError(_("'{token}' is a joker").format(token=token), _("the Pan pack has no jokers"))
    cards: list[str] = []
    pos = 0
    for m in _CARD_RE.finditer(token):
        if m.start() != pos:
            break
        cards.append(_make_card(m.group(1).upper(), _SUIT_ALIASES[m.group(2).upper()], token, rank_set))
        pos = m.end()
    if pos != len(token) or not cards:
        raise InputError(
            _("'{token}' is not a card").format(token=token),
            _("write rank then suit: ranks A 2 3 4 5 6 7 J Q K, suits S H D C (or ♠ ♥ ♦ ♣), e.g. 5S"),
        )
    return tuple(cards)


def _make_card(rank: str, suit: str, token: str, rank_set: str) -> str:
    if rank_set == "no_JQK":
        if rank in "JQK":
            raise InputError(_("'{token}' is not in this pack").format(token=token),
                             _("this table plays with 8-9-10 in place of J-Q-K"))
        rank = _RELABEL.get(rank, rank)
    if rank == "1":
        rank = "A"
    if rank in _MISSING_RANKS:
        raise InputError(
            _("'{token}' is not in the Pan pack").format(token=token),
            _("the Pan pack has no 8, 9 or 10 (7 and J are neighbours)"),
        )
    if rank not in ORDINAL:
        raise InputError(_("'{token}' has no rank {rank}").format(token=token, rank=rank), _("ranks are A 2 3 4 5 6 7 J Q K"))
    return rank + suit


def format_card(c: str) -> str:
    return c[0] + SUIT_SYMBOL[c[1]]


def format_cards(cards: Iterable[str]) -> str:
    return " ".join(format_card(c) for c in cards)


def markup_card(c: str) -> str:
    """Rich markup: hearts and diamonds in red."""
    text = format_card(c)
    return f"[red]{text}[/red]" if c[1] in RED_SUITS else text


def markup_cards(cards: Iterable[str]) -> str:
    return " ".join(markup_card(c) for c in cards)


def display_order(cards: Iterable[str]) -> list[str]:
    """Cards in the order a dealer reads them: by rank, then suit."""
    return sorted(cards, key=lambda c: (ORDINAL[c[0]], SUITS.index(c[1])))


def all_cards() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


_CANONICAL = frozenset(all_cards())


def shoe_counts(packs: int = 8, spade_sets_removed: int = 0,
                removed: Iterable[str] = (), added: Iterable[str] = ()) -> Counter[str]:
    """Copies of every card in the shoe (§1.5)."""
    counts = Counter({c: packs for c in all_cards()})
    for c in all_cards():
        if c[1] == "S":
            counts[c] -= spade_sets_removed
    counts.subtract(Counter(removed))
    counts.update(Counter(added))
    return counts


def over_shoe(cards: Iterable[str], shoe: Counter[str]) -> str | None:
    """The first card that appears more often than the shoe holds, or None."""
    for c, n in Counter(cards).items():
        if n > shoe[c]:
            return c
    return None


_CARDS_PREFIX = re.compile(r"((?:(?:10|[A-Za-z0-9])[SHDCshdc♠♥♦♣])*)(.*)$")


def card_candidates(word: str) -> list[str]:
    """Cards that complete the word: a rank gets its suits; a finished card offers itself again
    (sets) and the next card of its suit (ropes)."""
    m = _CARDS_PREFIX.match(word)
    assert m is not None  # every word matches: both groups may be empty
    done, rest = m.group(1), m.group(2)
    if rest:
        rank = rest.upper()
        if len(rank) != 1 or rank not in RANKS:
            return []
        return [done + rest + s for s in SUITS]
    if not done:
        return [r + s for r in RANKS for s in SUITS]
    last = done[-2:] if not done[-3:-1].startswith("10") else done[-3:]
    rank, suit = last[:-1].upper(), last[-1].upper()
    out = [done + last]
    if rank in RANKS and RANKS.index(rank) + 1 < len(RANKS):
        out.append(done + RANKS[RANKS.index(rank) + 1] + suit)
    return out
