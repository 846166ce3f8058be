"""Rulings on one meld or one addition: legal or not, which condition, what it pays, and why.

This is what `pan check` prints and what the hand recorder applies before it moves a chip.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from pancli.games.panguingue import conditions
from pancli.games.panguingue.cards import NON_COMOQUERS, RANK_NAME, SUIT_NAME, format_card, format_cards, over_shoe
from pancli.games.panguingue.melds import check_meld, meld_order
from pancli.games.panguingue.rules import HouseRules


@dataclass(frozen=True)
class Ruling:
    """The dealer's answer about one meld: legal or not, its condition and what it pays."""

    cards: tuple[str, ...]
    valid: bool
    kind: str | None
    condition: str | None
    worth: int
    reason: str

    def to_json(self) -> dict:
        return {"cards": list(self.cards), "valid": self.valid, "kind": self.kind,
                "condition": self.condition, "worth": self.worth, "reason": self.reason}


def judge(cards: Sequence[str], rules: HouseRules) -> Ruling:
    """Judge cards laid as one new meld."""
    return _judge(tuple(cards), rules)


@functools.lru_cache(maxsize=4096)
def _judge(cards: tuple[str, ...], rules: HouseRules) -> Ruling:
    # Kept: a long night lays the same melds again and again, and a ruling depends on nothing else.
    check = check_meld(cards, rules.mixed_set_additions, rules.max_meld_size)
    if not check.valid:
        return Ruling(cards, False, None, None, 0, check.reason)
    extra = over_shoe(cards, rules.shoe())
    if extra:
        return Ruling(cards, False, None, None, 0,
                      f"{format_cards(meld_order(cards))} cannot be on the table: the shoe holds only "
                      f"{rules.shoe()[extra]} of {format_card(extra)}")
    tag = conditions.tag_of(cards, rules)
    worth = conditions.worth(tag, cards, rules)
    return Ruling(cards, True, check.kind, tag, worth, explain(tag, cards, rules, check.kind))


def explain(tag: str, cards: Sequence[str], rules: HouseRules, kind: str | None = None) -> str:
    shown = format_cards(meld_order(cards))
    if tag == conditions.NONE:
        kind = kind or ("set" if len({c[0] for c in cards}) == 1 else "rope")
        return f"{shown}: a legal {kind}, no condition"
    worth = conditions.worth(tag, cards, rules)
    return f"{shown}: {conditions.describe(tag, cards)}, {worth} from each payer"


@dataclass(frozen=True)
class AdditionRuling:
    """The dealer's answer about cards added to a meld."""

    legal: bool
    tag: str | None  # the meld's tag after the addition
    pays: int        # chips each payer owes for the addition
    reason: str

    def to_json(self, meld: Sequence[str], added: Sequence[str]) -> dict:
        return {"cards": list(meld) + list(added), "added": list(added), "valid": self.legal,
                "condition": self.tag, "pays": self.pays, "reason": self.reason}


def judge_addition(meld: Sequence[str], tag: str, added: Sequence[str], rules: HouseRules) -> AdditionRuling:
    """Judge adding cards to one's own meld that carries ``tag`` (spec §5.4, §6.10)."""
    return _judge_addition(tuple(meld), tag, tuple(added), rules)


@functools.lru_cache(maxsize=4096)
def _judge_addition(meld: tuple[str, ...], tag: str, added: tuple[str, ...], rules: HouseRules) -> AdditionRuling:
    # Kept, as _judge: the same additions come again and again, and a ruling depends on nothing else.
    grown = meld + added
    shown_add, shown_meld = format_cards(added), format_cards(meld_order(meld))
    if not added:
        return AdditionRuling(False, None, 0, "no cards to add")
    before = check_meld(meld, rules.mixed_set_additions, rules.max_meld_size)
    if not before.valid:
        return AdditionRuling(False, None, 0, before.reason)
    after = check_meld(grown, rules.mixed_set_additions, rules.max_meld_size)
    if _one_suit_comoquer_set(meld) and {c[1] for c in added} != {meld[0][1]}:
        # Cards are added one at a time: the first off-suit card would already break the set (§5.4).
        return AdditionRuling(False, None, 0, f"{shown_add} cannot be added to {shown_meld}: a one-suit set "
                                              f"of {RANK_NAME[meld[0][0]]} takes only {SUIT_NAME[meld[0][1]]}")
    if not after.valid or after.kind != before.kind:
        why = after.reason.split(": ", 1)[-1] if not after.valid else f"the meld would stop being a {before.kind}"
        return AdditionRuling(False, None, 0, f"{shown_add} cannot be added to {shown_meld}: {why}")
    extra = over_shoe(grown, rules.shoe())
    if extra:
        return AdditionRuling(False, None, 0, f"{shown_add} cannot be added: the shoe holds only "
                                              f"{rules.shoe()[extra]} of {format_card(extra)}")
    if tag == conditions.NONE:
        return AdditionRuling(True, tag, 0, f"{shown_add} added to {shown_meld}: no condition, pays nothing")
    if conditions.tag_of(grown, rules) != tag:
        return AdditionRuling(True, conditions.NONE, 0,
                              f"{shown_add} added to {shown_meld}: legal, but the meld is no longer a "
                              f"{conditions.describe(tag, meld)}; pays nothing, no refund")
    each = conditions.addition_value(tag, grown, rules)
    pays = each * len(added)
    return AdditionRuling(True, tag, pays,
                          f"{shown_add} added to {conditions.describe(tag, meld)}: {pays} from each payer")


def _one_suit_comoquer_set(meld: Sequence[str]) -> bool:
    return len({c[0] for c in meld}) == 1 and meld[0][0] not in NON_COMOQUERS and len({c[1] for c in meld}) == 1
