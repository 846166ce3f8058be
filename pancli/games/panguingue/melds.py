"""Which groups of cards are melds (spec §5, predicates §5.8), with reasons a dealer can read aloud."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from pancli.core.i18n import _
from pancli.games.panguingue.cards import NON_COMOQUERS, ORDINAL, RANKS, format_cards, rank_words

SET, ROPE = "set", "rope"


@dataclass(frozen=True)
class MeldCheck:
    """Whether cards make a legal set or rope, and why not."""

    valid: bool
    kind: str | None  # "set" | "rope" | None
    reason: str       # why not, or an empty string for a valid meld


def check_meld(cards: Sequence[str], mixed_set_additions: str = "any_suit", max_size: int = 11) -> MeldCheck:
    """Judge a group of cards as one meld, in any order of writing."""
    n = len(cards)
    if n < 3:
        if not cards:
            return MeldCheck(False, None, _("no cards is not a meld: a meld needs at least 3 cards"))
        return MeldCheck(False, None, _("{cards} is not a meld: a meld needs at least 3 cards").format(cards=format_cards(cards)))
    if n > max_size:
        return MeldCheck(False, None, _("{cards} is not a meld: a meld holds at most {n} cards").format(
            cards=format_cards(cards), n=max_size))
    ranks = {c[0] for c in cards}
    suits = {c[1] for c in cards}
    if len(ranks) == 1:
        return _check_set(cards, ranks.pop(), suits, mixed_set_additions)
    if len(suits) > 1:
        if len(ranks) < n:
            return MeldCheck(False, None, _("{cards} is not a meld: a set needs one rank and a rope one suit").format(
                cards=format_cards(cards)))
        return MeldCheck(False, None, _("{cards} is not a rope: a rope must be all one suit").format(cards=format_cards(cards)))
    return _check_rope(cards)


# The cards are written out only for a reason: a replay checks every meld of a long night.

def _check_set(cards: Sequence[str], rank: str, suits: set[str], mixed_set_additions: str) -> MeldCheck:
    if rank in NON_COMOQUERS or len(suits) == 1:
        return MeldCheck(True, SET, "")
    if mixed_set_additions == "new_suit_only":
        if len(suits) == len(cards) and len(cards) >= 3:
            return MeldCheck(True, SET, "")
        return MeldCheck(False, None, _("{cards} is not a set: {rank} must be all one suit or all different suits").format(
            cards=format_cards(cards), rank=rank_words(rank)))
    if len(suits) >= 3:
        return MeldCheck(True, SET, "")
    return MeldCheck(False, None, _("{cards} is not a set: {rank} must be all one suit or three different suits").format(
        cards=format_cards(cards), rank=rank_words(rank)))


def _check_rope(cards: Sequence[str]) -> MeldCheck:
    ords = sorted(ORDINAL[c[0]] for c in cards)
    for a, b in zip(ords, ords[1:]):
        if a == b:
            return MeldCheck(False, None, _("{cards} is not a rope: {rank} repeat in one rope").format(
                cards=format_cards(cards), rank=rank_words(RANKS[a - 1])))
        if b != a + 1:
            if ords[0] == 1 and ords[-1] == 10:
                why = _("the ace is low only, so K-A does not join")
            else:
                why = _("{low} and {high} are not neighbours (order A 2 3 4 5 6 7 J Q K)").format(
                    low=RANKS[a - 1], high=RANKS[b - 1])
            # One whole message per suit: Polish and Russian decline it ("w pikach", "в пиках").
            return MeldCheck(False, None, {
                "S": _("{cards} is not a rope in spades: {why}"), "H": _("{cards} is not a rope in hearts: {why}"),
                "D": _("{cards} is not a rope in diamonds: {why}"), "C": _("{cards} is not a rope in clubs: {why}"),
            }[cards[0][1]].format(cards=format_cards(cards), why=why))
    return MeldCheck(True, ROPE, "")


def rope_pieces(cards: Sequence[str]) -> list[list[str]]:
    """Split one-suit cards into maximal runs of neighbours (for a borrow from the middle of a rope)."""
    ordered = sorted(cards, key=lambda c: ORDINAL[c[0]])
    pieces: list[list[str]] = []
    for c in ordered:
        if pieces and ORDINAL[c[0]] == ORDINAL[pieces[-1][-1][0]] + 1:
            pieces[-1].append(c)
        else:
            pieces.append([c])
    return pieces


def meld_order(cards: Sequence[str]) -> list[str]:
    """Display order: ropes low to high; sets by suit (S H D C)."""
    return list(in_meld_order(tuple(cards)))


@functools.lru_cache(maxsize=4096)
def in_meld_order(cards: tuple[str, ...]) -> tuple[str, ...]:
    """meld_order of a tuple, as a tuple. Kept: a replay puts every meld in this order for its
    payments' particulars, and a long night lays the same melds again and again."""
    if len({c[0] for c in cards}) == 1:
        return tuple(sorted(cards, key=lambda c: "SHDC".index(c[1])))
    return tuple(sorted(cards, key=lambda c: ORDINAL[c[0]]))
