"""Conditions ("pays"): the condition-tag model of spec §6.10 and what every meld is worth.

A meld gets a tag when it is created (new meld, split product, borrow product or remainder).
The tag and the card count decide its worth; additions pay the addition value per card while
the meld still qualifies.
"""

from __future__ import annotations

from collections.abc import Sequence

from pancli.core.i18n import _
from pancli.games.panguingue.cards import ORDINAL, VALLE, rank_of
from pancli.games.panguingue.rules import HouseRules

NONE = "none"
VALLE_MIXED = "valle_mixed"
VALLE_SUITED = "valle_suited"
NONVALLE_SUITED = "nonvalle_suited"
ROPE_LOW = "rope_low"
ROPE_HIGH = "rope_high"
TAGS = (NONE, VALLE_MIXED, VALLE_SUITED, NONVALLE_SUITED, ROPE_LOW, ROPE_HIGH)


def tag_of(cards: Sequence[str], rules: HouseRules) -> str:
    """The condition a valid meld would carry if it were made now from these cards."""
    ranks = {c[0] for c in cards}
    suits = {c[1] for c in cards}
    if len(ranks) == 1:
        rank = next(iter(ranks))
        if len(suits) == 1:
            return VALLE_SUITED if rank in VALLE else NONVALLE_SUITED
        if rank in VALLE and len(suits) >= 3 and rules.valle_mixed_value > 0:
            return VALLE_MIXED
        return NONE
    ords = [ORDINAL[c[0]] for c in cards]
    if min(ords) == 1:
        return ROPE_LOW     # a rope holding A-2-3 starts at the ace
    if max(ords) == 10:
        return ROPE_HIGH    # a rope holding K-Q-J ends at the king
    return NONE


def _multiplier(tag: str, cards: Sequence[str], rules: HouseRules) -> int:
    if tag == VALLE_MIXED:
        return 1  # only all-spade conditions are doubled (§6.7)
    return rules.spade_multiplier if cards and all(c[1] == "S" for c in cards) else 1


def base_value(tag: str, cards: Sequence[str], rules: HouseRules) -> int:
    """What the tagged core (three cards) pays."""
    m = _multiplier(tag, cards, rules)
    return {
        NONE: 0,
        VALLE_MIXED: rules.valle_mixed_value,
        VALLE_SUITED: rules.valle_suited_value * m,
        NONVALLE_SUITED: rules.nonvalle_suited_value * m,
        ROPE_LOW: rules.rope_condition_value * m,
        ROPE_HIGH: rules.rope_condition_value * m,
    }[tag]


def addition_value(tag: str, cards: Sequence[str], rules: HouseRules) -> int:
    """What each card added to a meld with this tag pays."""
    if tag == NONE or not rules.additions_pay:
        return 0
    if tag in (ROPE_LOW, ROPE_HIGH) and rules.rope_condition_scope == "any_run_A_or_K_end_flat":
        return 0
    if tag == VALLE_SUITED and rules.valle_suited_addition == "reduced":
        # Hoyle's exception: 2 in spades, 1 otherwise (half the set's value)
        return max(1, rules.valle_suited_value // 2) * _multiplier(tag, cards, rules)
    return base_value(tag, cards, rules)


def worth(tag: str, cards: Sequence[str], rules: HouseRules) -> int:
    """Chips each payer owes for a meld of these cards carrying this tag."""
    if tag == NONE:
        return 0
    return base_value(tag, cards, rules) + addition_value(tag, cards, rules) * (len(cards) - 3)


def describe(tag: str, cards: Sequence[str]) -> str:
    """A tag in words: 'one-suit valle set in spades', 'rope A-2-3 in hearts'."""
    if tag == NONE:
        return _("no condition")
    rank, suit = cards[0][0], cards[0][1]
    if tag == VALLE_MIXED:
        return _("valle set of {rank} in mixed suits").format(rank=rank_of(rank))
    # One whole message per condition and suit: Polish and Russian decline the suit ("w pikach").
    if tag == VALLE_SUITED:
        return {"S": _("one-suit valle set in spades"), "H": _("one-suit valle set in hearts"),
                "D": _("one-suit valle set in diamonds"), "C": _("one-suit valle set in clubs")}[suit]
    if tag == NONVALLE_SUITED:
        return {"S": _("one-suit set of {rank} in spades"), "H": _("one-suit set of {rank} in hearts"),
                "D": _("one-suit set of {rank} in diamonds"),
                "C": _("one-suit set of {rank} in clubs")}[suit].format(rank=rank_of(rank))
    if tag == ROPE_LOW:
        return {"S": _("rope A-2-3 in spades"), "H": _("rope A-2-3 in hearts"),
                "D": _("rope A-2-3 in diamonds"), "C": _("rope A-2-3 in clubs")}[suit]
    return {"S": _("rope K-Q-J in spades"), "H": _("rope K-Q-J in hearts"),
            "D": _("rope K-Q-J in diamonds"), "C": _("rope K-Q-J in clubs")}[suit]
