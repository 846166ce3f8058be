"""Rulings on one meld or one addition: legal or not, which condition, what it pays, and why.

This is what `pan check` prints and what the hand recorder applies before it moves a chip.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pancli.core.i18n import _, language
from pancli.games.panguingue import conditions
from pancli.games.panguingue.cards import NON_COMOQUERS, format_card, format_cards, over_shoe, rank_of
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

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "valid": self.valid, "kind": self.kind,
                "condition": self.condition, "worth": self.worth, "reason": self.reason}


def judge(cards: Sequence[str], rules: HouseRules) -> Ruling:
    """Judge cards laid as one new meld."""
    return _judge(tuple(cards), rules, language())


@functools.lru_cache(maxsize=4096)
def _judge(cards: tuple[str, ...], rules: HouseRules, lang: str) -> Ruling:
    # Kept: a long night lays the same melds again and again, and a ruling depends on nothing else
    # (but the language its reason is said in: each phone of `pan serve` may read its own).
    check = check_meld(cards, rules.mixed_set_additions, rules.max_meld_size)
    if not check.valid:
        return Ruling(cards, False, None, None, 0, check.reason)
    extra = over_shoe(cards, rules.shoe())
    if extra:
        return Ruling(cards, False, None, None, 0,
                      _("{cards} cannot be on the table: the shoe holds only {n} of {card}").format(
                          cards=format_cards(meld_order(cards)), n=rules.shoe()[extra], card=format_card(extra)))
    tag = conditions.tag_of(cards, rules)
    worth = conditions.worth(tag, cards, rules)
    return Ruling(cards, True, check.kind, tag, worth, explain(tag, cards, rules, check.kind))


def explain(tag: str, cards: Sequence[str], rules: HouseRules, kind: str | None = None) -> str:
    shown = format_cards(meld_order(cards))
    if tag == conditions.NONE:
        kind = kind or ("set" if len({c[0] for c in cards}) == 1 else "rope")
        if kind == "set":
            return _("{cards}: a legal set, no condition").format(cards=shown)
        return _("{cards}: a legal rope, no condition").format(cards=shown)
    worth = conditions.worth(tag, cards, rules)
    return _("{cards}: {condition}, {n} from each payer").format(cards=shown, condition=conditions.describe(tag, cards),
                                                                 n=worth)


@dataclass(frozen=True)
class AdditionRuling:
    """The dealer's answer about cards added to a meld."""

    legal: bool
    tag: str | None  # the meld's tag after the addition
    pays: int        # chips each payer owes for the addition
    reason: str

    def to_json(self, meld: Sequence[str], added: Sequence[str]) -> dict[str, Any]:
        return {"cards": list(meld) + list(added), "added": list(added), "valid": self.legal,
                "condition": self.tag, "pays": self.pays, "reason": self.reason}


def judge_addition(meld: Sequence[str], tag: str, added: Sequence[str], rules: HouseRules) -> AdditionRuling:
    """Judge adding cards to one's own meld that carries ``tag`` (spec §5.4, §6.10)."""
    return _judge_addition(tuple(meld), tag, tuple(added), rules, language())


@functools.lru_cache(maxsize=4096)
def _judge_addition(meld: tuple[str, ...], tag: str, added: tuple[str, ...], rules: HouseRules,
                    lang: str) -> AdditionRuling:
    # Kept, as _judge: the same additions come again and again, and a ruling depends on nothing else.
    grown = meld + added
    shown_add, shown_meld = format_cards(added), format_cards(meld_order(meld))
    if not added:
        return AdditionRuling(False, None, 0, _("no cards to add"))
    before = check_meld(meld, rules.mixed_set_additions, rules.max_meld_size)
    if not before.valid:
        return AdditionRuling(False, None, 0, before.reason)
    after = check_meld(grown, rules.mixed_set_additions, rules.max_meld_size)
    if _one_suit_comoquer_set(meld) and {c[1] for c in added} != {meld[0][1]}:
        # Cards are added one at a time: the first off-suit card would already break the set (§5.4).
        # One whole message per suit: Polish and Russian decline it.
        only = {"S": _("{added} cannot be added to {meld}: a one-suit set of {rank} takes only spades"),
                "H": _("{added} cannot be added to {meld}: a one-suit set of {rank} takes only hearts"),
                "D": _("{added} cannot be added to {meld}: a one-suit set of {rank} takes only diamonds"),
                "C": _("{added} cannot be added to {meld}: a one-suit set of {rank} takes only clubs")}
        return AdditionRuling(False, None, 0, only[meld[0][1]].format(added=shown_add, meld=shown_meld,
                                                                       rank=rank_of(meld[0][0])))
    if not after.valid or after.kind != before.kind:
        if not after.valid:
            why = after.reason.split(": ", 1)[-1]
        elif before.kind == "set":
            why = _("the meld would stop being a set")
        else:
            why = _("the meld would stop being a rope")
        return AdditionRuling(False, None, 0, _("{added} cannot be added to {meld}: {why}").format(
            added=shown_add, meld=shown_meld, why=why))
    extra = over_shoe(grown, rules.shoe())
    if extra:
        return AdditionRuling(False, None, 0, _("{added} cannot be added: the shoe holds only {n} of {card}").format(
            added=shown_add, n=rules.shoe()[extra], card=format_card(extra)))
    if tag == conditions.NONE:
        return AdditionRuling(True, tag, 0, _("{added} added to {meld}: no condition, pays nothing").format(
            added=shown_add, meld=shown_meld))
    if conditions.tag_of(grown, rules) != tag:
        return AdditionRuling(True, conditions.NONE, 0,
                              _("{added} added to {meld}: legal, but the meld is no longer a {condition}; "
                                "pays nothing, no refund").format(added=shown_add, meld=shown_meld,
                                                                  condition=conditions.describe(tag, meld)))
    each = conditions.addition_value(tag, grown, rules)
    pays = each * len(added)
    return AdditionRuling(True, tag, pays, _("{added} added to {condition}: {n} from each payer").format(
        added=shown_add, condition=conditions.describe(tag, meld), n=pays))


def _one_suit_comoquer_set(meld: Sequence[str]) -> bool:
    return len({c[0] for c in meld}) == 1 and meld[0][0] not in NON_COMOQUERS and len({c[1] for c in meld}) == 1
