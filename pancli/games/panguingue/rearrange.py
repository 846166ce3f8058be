"""Rearranging a player's melds: splits, borrows and whole restated layouts (spec §5.5, §5.6, §6.10).

One mechanism serves all three. The caller says where every card of the new melds came from
(an old meld, or the hand); the rules then decide which new meld carries on each old meld's
condition tag, which melds are judged as new, and what each pays.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pancli.core.errors import RuleError
from pancli.core.i18n import _
from pancli.games.panguingue import conditions
from pancli.games.panguingue.cards import format_cards
from pancli.games.panguingue.melds import check_meld, meld_order
from pancli.games.panguingue.rules import HouseRules

HAND = None  # source of a card that comes from the player's hand


@dataclass(frozen=True)
class Part:
    """A meld after the rearrangement: its cards and, card by card, where each came from."""

    cards: tuple[str, ...]
    sources: tuple[int | None, ...]  # index into the old melds, or HAND


@dataclass(frozen=True)
class Result:
    cards: tuple[str, ...]
    tag: str
    continues: int | None  # index of the old meld this one carries on (keeps its number)
    pays: int              # chips each payer owes for this meld now
    code: str              # why it pays, in the vocabulary of reasons.py (the meld number is added there)
    params: dict[str, object]
    grown: bool


def rearrange(olds: Sequence[tuple[tuple[str, ...], str, bool]], parts: Sequence[Part],
              rules: HouseRules, borrow: bool = False) -> list[Result]:
    """Judge a rearrangement. ``olds`` holds (cards, tag, grown) of each meld taking part.

    Raises RuleError when a new meld is invalid or the change is not one Pan allows.
    """
    for part in parts:
        check = check_meld(part.cards, rules.mixed_set_additions, rules.max_meld_size)
        if not check.valid:
            raise RuleError(check.reason, _("every meld must be legal after the change"))
    by_part = [Counter(p.sources) for p in parts]
    _check_moves(olds, parts, by_part, rules, borrow)
    keeper = _keepers(olds, parts, by_part, rules)
    continues = {j: i for i, j in keeper.items()}
    # Old melds that lent cards into a meld with other sources: what stays of them is a remainder.
    donors = {i for i in range(len(olds)) if any(src[i] and len(src) > 1 for src in by_part)}
    results = []
    for j, part in enumerate(parts):
        src = by_part[j]
        from_hand = src.get(HAND, 0)
        if j in continues:
            i = continues[j]
            _cards, tag, grown = olds[i]
            results.append(_carry_on(part, tag, from_hand, i, grown, rules))
            continue
        tag = conditions.tag_of(part.cards, rules)
        pure_remainder = borrow and not from_hand and len(src) == 1 and next(iter(src)) in donors
        if pure_remainder and not rules.remainder_conditions_pay:
            tag = conditions.NONE
        value = conditions.worth(tag, part.cards, rules)
        results.append(Result(part.cards, tag, None, value, "rearranged",
                              {"tag": tag, "cards": meld_order(part.cards)}, False))
    return results


def _carry_on(part: Part, tag: str, from_hand: int, i: int, grown: bool, rules: HouseRules) -> Result:
    shown = {"tag": tag, "cards": meld_order(part.cards)}
    if tag != conditions.NONE and conditions.tag_of(part.cards, rules) != tag:
        # no longer a condition: it pays nothing
        return Result(part.cards, conditions.NONE, i, 0, "carried", {**shown, "tag": conditions.NONE, "added": 0}, True)
    pays = conditions.addition_value(tag, part.cards, rules) * from_hand if tag != conditions.NONE else 0
    return Result(part.cards, tag, i, pays, "carried", {**shown, "added": from_hand}, grown or from_hand > 0)


def _keepers(olds: Sequence[tuple[tuple[str, ...], str, bool]], parts: Sequence[Part], by_part: list[Counter[int | None]],
             rules: HouseRules) -> dict[int, int]:
    """For each old meld, the new meld that carries it on (keeps its number and tag).

    A tagged meld is carried on by the largest piece of it that still qualifies for its tag
    by itself and takes no cards of other melds; an untagged one only when it stays whole
    (every piece of a divided untagged meld is judged as new, so a split can make a condition).
    """
    keeper: dict[int, int] = {}
    taken: set[int] = set()
    for i, (cards, tag, _grown) in enumerate(olds):
        best, best_len = None, 0
        for j, part in enumerate(parts):
            src = by_part[j]
            if j in taken or not src.get(i) or any(s not in (i, HAND) for s in src):
                continue
            piece = tuple(c for c, s in zip(part.cards, part.sources) if s == i)
            whole = len(piece) == len(cards)
            if tag != conditions.NONE:
                fits = whole or (check_meld(piece, rules.mixed_set_additions).valid
                                 and conditions.tag_of(piece, rules) == tag)
            else:
                fits = whole
            if fits and len(piece) > best_len:
                best, best_len = j, len(piece)
        if best is not None:
            keeper[i] = best
            taken.add(best)
    return keeper


def _check_moves(olds: Sequence[tuple[tuple[str, ...], str, bool]], parts: Sequence[Part], by_part: list[Counter[int | None]],
                 rules: HouseRules, borrow: bool) -> None:
    for j, src in enumerate(by_part):
        old_sources = [i for i in src if i is not HAND]
        whole = [i for i in old_sources if src[i] == len(olds[i][0])]
        if whole and len(old_sources) > 1:
            raise RuleError(_("{cards} joins cards of two melds").format(cards=format_cards(meld_order(parts[j].cards))),
                            _("cards taken from a meld may only start a new meld, not join another"))
    for i, (cards, _tag, grown) in enumerate(olds):
        holders = [j for j, src in enumerate(by_part) if src.get(i)]
        if len(holders) == 1 and by_part[holders[0]][i] == len(cards):
            continue  # kept whole, perhaps with cards added from the hand
        mixed = [j for j in holders if len(by_part[j]) > 1]
        pure = [j for j in holders if len(by_part[j]) == 1]
        if mixed or borrow:
            if not rules.borrow_allowed:
                raise RuleError(_("borrowing from a meld is not allowed at this table"),
                                _("house rule borrow_allowed = false"))
            lent = sum(by_part[j][i] for j in mixed)
            if lent > 1 and not rules.borrow_multiple_cards:
                raise RuleError(_("only one card may be borrowed at a time at this table"),
                                _("house rule borrow_multiple_cards = false"))
            if len(pure) > 1 and not rules.borrow_from_middle_if_pieces_valid:
                raise RuleError(_("borrowing from the middle of a rope is not allowed at this table"),
                                _("take an end card, or change borrow_from_middle_if_pieces_valid"))
        else:
            if not rules.split_allowed:
                raise RuleError(_("splitting a meld is not allowed at this table"), _("house rule split_allowed = false"))
            if rules.split_requires_prior_additions and not grown:
                raise RuleError(_("{cards} has had no cards added, so it cannot be split").format(
                    cards=format_cards(meld_order(cards))), _("house rule split_requires_prior_additions = true"))


def find_sources(olds: Sequence[tuple[str, ...]], layout: Sequence[Sequence[str]],
                 limit: int = 4000) -> list[list[Part]]:
    """Every way the cards of a restated layout could have come from the old melds and the hand.

    Duplicate cards make this ambiguous (two 5♠ in two melds); the caller judges each way.
    Raises RuleError when a melded card has left the table.
    """
    old_count = [Counter(m) for m in olds]
    new_count = [Counter(m) for m in layout]
    identities = sorted(set().union(*old_count, *new_count)) if (old_count or new_count) else []
    per_card = []
    for c in identities:
        have = [oc[c] for oc in old_count]
        want = [nc[c] for nc in new_count]
        if sum(have) > sum(want):
            raise RuleError(_("the new layout lacks {card} that is melded now").format(card=format_cards([c])),
                            _("melded cards stay on the table: restate every meld"))
        per_card.append(list(_distributions(have, want)))
    ways = []
    for combo in itertools.islice(itertools.product(*per_card), limit):
        parts = []
        for j in range(len(layout)):
            sources: list[int | None] = []
            cards: list[str] = []
            for k, c in enumerate(identities):
                n = new_count[j][c]
                if not n:
                    continue
                taken = combo[k][j]
                for i, cnt in enumerate(taken):
                    sources += [i] * cnt
                sources += [HAND] * (n - sum(taken))
                cards += [c] * n
            parts.append(Part(tuple(cards), tuple(sources)))
        ways.append(parts)
    return ways


def _distributions(have: list[int], want: list[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """All ways to place have[i] copies from each old meld into new melds with room want[j].

    Yields, per new meld j, a tuple of how many copies came from each old meld.
    """
    n_new = len(want)

    def place(i: int, room: list[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
        if i == len(have):
            yield ()
            return
        for split in _compositions(have[i], room):
            left = [r - s for r, s in zip(room, split)]
            for rest in place(i + 1, left):
                yield (split,) + rest

    for per_old in place(0, list(want)):
        yield tuple(tuple(per_old[i][j] for i in range(len(have))) for j in range(n_new))


def _compositions(total: int, room: list[int]) -> Iterator[tuple[int, ...]]:
    if not room:
        if total == 0:
            yield ()
        return
    for first in range(min(total, room[0]), -1, -1):
        for rest in _compositions(total - first, room[1:]):
            yield (first,) + rest
