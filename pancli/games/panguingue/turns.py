"""Rulings on a turn: which discard may be taken, what becomes of a stock card, forcing,
protecting the flat player and going out (spec §4.1-§4.9; vectors §10.3 T1-T10, §10.4 Example 8).

The recorder does not model draws and discards; these functions rule on one situation the way
`pan check` rules on one meld. Cards are 2-character strings ("5S"); a player's melds are lists
of cards, each tagged with ``conditions.tag_of``. Every ruling honours the house-rule knobs
``discard_take_rule``, ``upcard_takeable``, ``drawn_card_first``, ``forcing_mode``,
``forcing_scope`` and ``protect_flat_player``.

Vector T11 (everyone but the dealer drops, the dealer wins the tops without play) belongs to the
hand recorder, not to a turn: see ``panguingue.py`` (``last_player_wins_if_all_drop``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pancli.core.errors import InputError
from pancli.core.i18n import N_, _
from pancli.games.panguingue.cards import format_card, format_cards
from pancli.games.panguingue.conditions import tag_of
from pancli.games.panguingue.melds import meld_order
from pancli.games.panguingue.rules import HouseRules
from pancli.games.panguingue.rulings import judge, judge_addition

STOCK, HAND, UPCARD = "stock", "hand", "upcard"
ORIGINS = (STOCK, HAND, UPCARD)
MELD, DISCARD = "meld", "discard"
OUT_CARDS = 11
FLAT_CARDS = 10

# How many hand cards may be added along with a card to extend one of the player's melds
# (a rope bridged with hand cards: 4♥ 5♥ 6♥ + J♥ needs 7♥ from the hand).
_MAX_BRIDGE = 3


@dataclass(frozen=True)
class TurnRuling:
    allowed: bool
    reason: str
    must: str | None = None  # what the player must do now, or None

    def to_json(self) -> dict[str, Any]:
        return {"allowed": self.allowed, "reason": self.reason, "must": self.must}


Melds = Sequence[Sequence[str]]


# -- taking the top discard (§4.2) ---------------------------------------------------------


def may_take(card: str, origin: str, hand: Sequence[str], melds: Melds, rules: HouseRules,
             first_turn: bool = False) -> TurnRuling:
    """May the player take the top discard ``card``?

    ``origin``: ``stock`` (the previous player's rejected stock card), ``hand`` (discarded from
    the previous player's hand) or ``upcard`` (the opening upcard, on top only at the eldest's
    first turn; ``first_turn`` alone also means the card is the upcard). A taken card must be
    melded at once: with two or more hand cards into a new meld, or added to one of their own
    melds (with hand cards bridging a rope if need be). T3, T4, T10.
    """
    origin = _origin(origin, first_turn)
    shown = format_card(card)
    refusal = _take_refusal(card, origin, rules)
    if refusal:
        return TurnRuling(False, refusal, _("draw from the stock"))
    how = meld_now(card, hand, melds, rules)
    if how is None:
        return TurnRuling(False, _("{card} cannot be melded at once: it fits none of their melds and makes "
                                   "no meld with two of their hand cards; a taken card must be melded this turn").format(
                                       card=shown), _("draw from the stock"))
    if _goes_out(card, hand, melds, rules):
        return TurnRuling(True, _(_MAY_TAKE[origin][1]).format(card=shown, how=how, n=OUT_CARDS),
                          _("meld it this turn: they go out and do not discard"))
    return TurnRuling(True, _(_MAY_TAKE[origin][0]).format(card=shown, how=how), _("meld it this turn"))


# May take the card, by where it came from: as a card that fits, and as the card that goes out.
# Translators: {how} is a clause such as "fits their meld 5♠ 5♥ 5♦"
_MAY_TAKE = {
    STOCK: (N_("may take the previous player's rejected stock card {card}: it {how}"),
            N_("may take the previous player's rejected stock card {card}: it {how}, their {n}th melded card")),
    HAND: (N_("may take the top discard {card}: it {how}"),
           N_("may take the top discard {card}: it {how}, their {n}th melded card")),
    UPCARD: (N_("may take the upcard {card}: it {how}"),
             N_("may take the upcard {card}: it {how}, their {n}th melded card")),
}
_FROM = {STOCK: N_("at the eldest's first turn the top card is the upcard, not a card from the stock"),
         HAND: N_("at the eldest's first turn the top card is the upcard, not a card from the hand")}


def _origin(origin: str, first_turn: bool) -> str:
    if origin not in ORIGINS:
        raise InputError(_("unknown origin '{origin}'").format(origin=origin),
                         _("the top discard came from the stock, a hand or is the upcard"))
    if first_turn and origin != UPCARD:
        raise InputError(_(_FROM[origin]), _("say it came from the upcard"))
    return origin


def _take_refusal(card: str, origin: str, rules: HouseRules) -> str | None:
    """Why this card may not be taken whatever the hand, or None (meldability aside)."""
    shown = format_card(card)
    if rules.discard_take_rule == "forbidden":
        return _("{card} may not be taken: no discard is ever taken (discard_take_rule = forbidden)").format(card=shown)
    if origin == UPCARD:
        if not rules.upcard_takeable:
            return _("{card} may not be taken: the upcard is not takeable (upcard_takeable = false)").format(card=shown)
        return None
    if origin == HAND and rules.discard_take_rule == "rejected_stock_card_meld_now":
        return _("{card} may not be taken: it was discarded from a hand, and only a rejected stock card "
                 "may be taken").format(card=shown)
    return None


# -- the card drawn from the stock (§4.1, §4.3, §4.8) --------------------------------------


def drawn_card(card: str, hand: Sequence[str], melds: Melds, rules: HouseRules,
               next_flat: Melds | None = None) -> TurnRuling:
    """What must the player do with ``card`` drawn from the stock?

    ``allowed`` answers whether they may keep it in their hand (discarding another card). They never
    may (T1, T2) unless the next player is flat (``next_flat``: their melds, ten cards) and the
    card fits them under ``protect_flat_player`` (T8, Example 8): then they keep it and discard
    another card, unless every card they could discard fits too (§11 row 16), when any discard
    is allowed. ``hand`` is their hand before the draw.
    """
    shown = format_card(card)
    how = meld_now(card, hand, melds, rules)
    out = how is not None and _goes_out(card, hand, melds, rules)
    if out:
        return TurnRuling(False, _("{card} {how}: their {n}th melded card").format(card=shown, how=how, n=OUT_CARDS),
                          _("meld it: they go out and do not discard"))
    protect = _protection(card, next_flat, rules)
    if protect:
        hand_left = list(hand)
        if not hand_left:
            return TurnRuling(False, _("{card} fits the flat next player's {meld}, but they have no other card "
                                       "to discard").format(card=shown, meld=protect),
                              _("meld it") if how else _("discard it"))
        assert next_flat is not None  # a protection is found only among the flat player's melds
        safe = [c for c in hand_left if not _fits_any(c, next_flat, rules)]
        if not safe:
            return TurnRuling(True, _("{card} fits the flat next player's {meld}, and so does every card "
                                      "in their hand: any discard is allowed").format(card=shown, meld=protect),
                              (_("meld it, or discard any card") if how else _("discard any card")))
        said = dict(card=shown, meld=protect, safe=format_cards(_unique(safe)), how=how)
        if how:
            return TurnRuling(True, _("{card} fits the flat next player's {meld}, so they may not discard it: they "
                                      "keep it and discard another card (safe: {safe}); or they meld it: it {how}").format(
                                          **said), _("meld it, or keep it and discard another card"))
        return TurnRuling(True, _("{card} fits the flat next player's {meld}, so they may not discard it: they keep it "
                                  "and discard another card (safe: {safe})").format(**said),
                          _("keep it and discard another card"))
    if how:
        if rules.drawn_card_first:
            return TurnRuling(False, _("{card} {how}; a stock card may not be kept, and it must be melded "
                                       "before any hand card (drawn_card_first)").format(card=shown, how=how),
                              _("meld it before any hand card, or discard it"))
        return TurnRuling(False, _("{card} {how}; a stock card may not be kept in the hand").format(card=shown, how=how),
                          _("meld it or discard it"))
    if not hand and sum(len(m) for m in melds) == FLAT_CARDS:
        return TurnRuling(False, _("{card} cannot be melded (it fits none of their melds and makes no meld with their "
                                   "hand cards); they discard it and stay flat: {n} melded is not out").format(
                                       card=shown, n=FLAT_CARDS), _("discard it"))
    if rules.drawn_card_first:
        return TurnRuling(False, _("{card} cannot be melded (it fits none of their melds and makes no meld with their "
                                   "hand cards); a stock card may not be kept, and unused it lets them meld nothing "
                                   "this turn (drawn_card_first)").format(card=shown), _("discard it"))
    return TurnRuling(False, _("{card} cannot be melded (it fits none of their melds and makes no meld with their "
                               "hand cards); a stock card may not be kept in the hand").format(card=shown),
                      _("discard it"))


# -- discarding before a flat player (§4.8) ------------------------------------------------


def may_discard(card: str, next_flat: Melds | None, rules: HouseRules,
                hand: Sequence[str] | None = None) -> TurnRuling:
    """May the player discard ``card`` when the next player is flat with melds ``next_flat``?

    Under ``protect_flat_player`` a card that could be added to one of the flat player's melds
    may not be discarded by the player before them, unless every card they could discard (``hand``,
    which includes ``card``; if given) fits too: then any discard is allowed (§11 row 16).
    """
    shown = format_card(card)
    if not next_flat:
        return TurnRuling(True, _("{card} may be discarded: the next player is not flat").format(card=shown))
    if not rules.protect_flat_player:
        return TurnRuling(True, _("{card} may be discarded: the flat player is not protected "
                                  "(protect_flat_player = false)").format(card=shown))
    fits = _protection(card, next_flat, rules)
    if not fits:
        return TurnRuling(True, _("{card} may be discarded: it fits none of the flat next player's melds").format(
            card=shown))
    choices = list(hand or ())
    if card not in choices:
        choices.append(card)
    safe = [c for c in choices if not _fits_any(c, next_flat, rules)]
    if hand is not None and not safe:
        return TurnRuling(True, _("{card} fits the flat next player's {meld}, but so does every card they "
                                  "could discard: any discard is allowed").format(card=shown, meld=fits))
    if safe:
        why = _("{card} may not be discarded: it fits the flat next player's {meld} (safe: {safe})").format(
            card=shown, meld=fits, safe=format_cards(_unique(safe)))
    else:
        why = _("{card} may not be discarded: it fits the flat next player's {meld}").format(card=shown, meld=fits)
    return TurnRuling(False, why, _("discard another card"))


def _protection(card: str, next_flat: Melds | None, rules: HouseRules) -> str | None:
    """The flat next player's meld the card fits, in words, when the protection applies."""
    if not next_flat or not rules.protect_flat_player:
        return None
    for meld in _tagged(next_flat, rules, N_("the flat player's melds must be legal: {reason}")):
        if judge_addition(meld[0], meld[1], (card,), rules).legal:
            return _("meld {cards}").format(cards=format_cards(meld_order(meld[0])))
    return None


def _fits_any(card: str, melds: Melds, rules: HouseRules) -> bool:
    return any(judge_addition(m, t, (card,), rules).legal for m, t in _tagged(melds, rules))


# -- forcing (§4.6) ------------------------------------------------------------------------


def must_take(card: str, origin: str, melds: Melds, rules: HouseRules, demanded: bool = False,
              first_turn: bool = False) -> TurnRuling:
    """Must the player take the top discard ``card`` (T5)? ``allowed`` means they are forced.

    A discard that could be added to one of their melds forces them on demand by any player
    (``forcing_mode = on_demand_any_player``), always (``automatic``) or never (``off``). With
    ``forcing_scope = takeable_discard_only`` only a discard they would be allowed to take forces
    (never a hand discard by default, T3); ``any_top_discard`` lets any top discard force. A
    forced card that is their eleventh melded card means they have gone out.
    """
    origin = _origin(origin, first_turn)
    shown = format_card(card)
    if rules.forcing_mode == "off":
        return TurnRuling(False, _("{card} does not force: forcing is off (forcing_mode = off)").format(card=shown))
    if rules.forcing_scope == "takeable_discard_only":
        refusal = _take_refusal(card, origin, rules)
        if refusal:
            return TurnRuling(False, _("{card} is not a forcing card: {why}").format(
                card=shown, why=refusal.split(": ", 1)[-1]))
    fit = None
    for cards, tag in _tagged(melds, rules):
        if judge_addition(cards, tag, (card,), rules).legal:
            fit = cards
            break
    if fit is None:
        return TurnRuling(False, _("{card} does not force: it fits none of their melds").format(card=shown))
    said = dict(card=shown, meld=format_cards(meld_order(fit)), n=OUT_CARDS)
    if rules.forcing_mode == "on_demand_any_player" and not demanded:
        return TurnRuling(False, _("{card} fits their meld {meld}: they must take it only if a player demands it "
                                   "(any player may)").format(**said))
    out = sum(len(m) for m in melds) + 1 == OUT_CARDS
    hint = _("take it and meld it: they go out and do not discard") if out else _(
        "take it, meld it, then discard from their hand")
    if rules.forcing_mode == "on_demand_any_player":
        line = (_("{card} fits their meld {meld} and a player demanded it: it is their {n}th melded card") if out
                else _("{card} fits their meld {meld} and a player demanded it"))
    else:
        line = (_("{card} fits their meld {meld} and forcing is automatic: it is their {n}th melded card") if out
                else _("{card} fits their meld {meld} and forcing is automatic"))
    return TurnRuling(True, line.format(**said), hint)


# -- going out and flat (§4.7, §4.9) -------------------------------------------------------


def going_out(melded: int, move: str) -> TurnRuling:
    """Is the player out after ``move`` (``meld``: they melded the drawn card; ``discard``: they
    discarded their last hand card), with ``melded`` cards melded after it? ``allowed`` means out.

    Eleven melded is out, with no discard (T7); emptying the hand by discarding is not going out,
    and ten melded is flat (T6, T9).
    """
    if move not in (MELD, DISCARD):
        raise InputError(_("unknown move '{move}'").format(move=move), _("the move is meld or discard"))
    if not 0 <= melded <= OUT_CARDS:
        raise InputError(_("{n} cards melded is impossible").format(n=melded),
                         _("a player melds 0 to {n} cards").format(n=OUT_CARDS))
    if melded == OUT_CARDS:
        if move == DISCARD:
            return TurnRuling(False, _("with {n} cards melded they went out when they melded the last one; "
                                       "there is no discard").format(n=OUT_CARDS))
        return TurnRuling(True, _("{n} cards melded: they have gone out").format(n=OUT_CARDS),
                          _("stop: they do not discard"))
    if melded == FLAT_CARDS:
        if move == DISCARD:
            return TurnRuling(False, _("{n} melded and an empty hand is not out: emptying the hand by "
                                       "discarding is not going out; they are flat").format(n=FLAT_CARDS),
                              _("draw each turn until they can meld the card they draw"))
        return TurnRuling(False, _("{n} melded is not out: they need {out}").format(n=FLAT_CARDS, out=OUT_CARDS),
                          _("discard their last hand card; they are then flat"))
    if move == DISCARD:
        return TurnRuling(False, _("{n} melded is not out: they need {out}").format(n=melded, out=OUT_CARDS))
    return TurnRuling(False, _("{n} melded is not out: they need {out}").format(n=melded, out=OUT_CARDS),
                      _("discard a card"))


# -- melding at once -----------------------------------------------------------------------


def meld_now(card: str, hand: Sequence[str], melds: Melds, rules: HouseRules) -> str | None:
    """How ``card`` can be melded this turn, in words, or None.

    Added to one of the player's own melds (alone, or with hand cards bridging the gap), or
    laid with two or more hand cards as a new legal meld. Splits and borrows are not searched.
    """
    for cards, tag in _tagged(melds, rules):
        if judge_addition(cards, tag, (card,), rules).legal:
            return _("fits their meld {meld}").format(meld=format_cards(meld_order(cards)))
    for cards, tag in _tagged(melds, rules):
        for n in range(1, min(_MAX_BRIDGE, len(hand)) + 1):
            for extra in _combos(hand, n):
                if judge_addition(cards, tag, (card, *extra), rules).legal:
                    return _("fits their meld {meld} with {cards} from their hand").format(
                        meld=format_cards(meld_order(cards)), cards=format_cards(extra))
    # Every legal meld holding the card holds a legal three-card meld holding it (§5.8), so
    # pairs of hand cards are enough.
    for pair in _combos(hand, 2):
        if judge((card, *pair), rules).valid:
            return _("makes {meld} with two of their hand cards").format(meld=format_cards(meld_order((card, *pair))))
    return None


def _goes_out(card: str, hand: Sequence[str], melds: Melds, rules: HouseRules) -> bool:
    """Melding ``card`` with every hand card makes eleven melded (the whole hand goes down)."""
    melded = sum(len(m) for m in melds)
    if melded + len(hand) + 1 != OUT_CARDS:
        return False
    cards = (card, *hand)
    if len(cards) >= 3 and judge(cards, rules).valid:
        return True
    return any(judge_addition(m, t, cards, rules).legal for m, t in _tagged(melds, rules))


_THEIR_MELDS = N_("their melds must be legal: {reason}")


def _tagged(melds: Melds, rules: HouseRules, whose: str = _THEIR_MELDS) -> list[tuple[tuple[str, ...], str]]:
    out = []
    for meld in melds:
        cards = tuple(meld)
        ruling = judge(cards, rules)
        if not ruling.valid:
            raise InputError(_(whose).format(reason=ruling.reason), _("give each meld as it lies on the table"))
        out.append((cards, tag_of(cards, rules)))
    return out


def _combos(cards: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """Distinct n-card combinations (duplicate cards give one combination)."""
    return sorted(set(itertools.combinations(sorted(cards), n)))


def _unique(cards: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(cards))
