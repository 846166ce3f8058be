"""House rules: every Panguingue rule that varies from table to table, as one immutable model.

Each knob of spec §9 is a field with its default, allowed values and a line of help (declared with
the shared schema of pancli.core.knobs). Presets are the four named profiles of §9; a rules file may
name a preset and override knobs (read by pancli.app.rulesfile).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any

from pancli.core.errors import InputError
from pancli.core.i18n import N_, _
from pancli.core.knobs import BOOL, CARDS, ENUM, INT, MONEY, KnobRules, Schema, knob
from pancli.games.panguingue.cards import parse_card, shoe_counts

__all__ = ["BOOL", "CARDS", "ENUM", "INT", "MONEY", "HouseRules", "SCHEMA", "KNOBS", "DEFAULTS", "PRESETS",
           "PRESET_NOTES", "preset", "from_dict", "to_dict", "diff_from"]


def _card(text: str) -> str:
    return parse_card(text)


def _spade(text: str) -> str:
    card = _card(text)
    if card[1] != "S":
        raise InputError(_("{card} is not a spade").format(card=card), _("only spades are taken out"))
    return card


@dataclass(frozen=True, eq=False, repr=False)  # eq, hash, repr: KnobRules
class HouseRules(KnobRules):
    """Every Panguingue rule that varies, with the spec's defaults."""

    # The pack (§1)
    packs: int = knob(8, INT, (5, 11), N_("40-card packs in the shoe"))
    spade_sets_removed: int = knob(0, INT, (0, 1), N_("full spade sets taken out (1 leaves 310 cards)"))
    extra_spade_cards_removed: tuple[str, ...] = knob((), CARDS, "spades", N_("further spades taken out, e.g. [\"3S\", \"5S\", \"7S\"]"),
                                           convert=_spade)
    extra_pay_cards_added: tuple[str, ...] = knob((), CARDS, "any", N_("extra pay cards put in, e.g. [\"3S\", \"5S\", \"7S\"]"),
                                       convert=_card)
    rank_set: str = knob("no_8_9_10", ENUM, ("no_8_9_10", "no_JQK"), N_("which ranks the pack lacks (no_JQK reads 8-9-10 as J-Q-K)"))
    suit_style: str = knob("french", ENUM, ("french", "spanish"), N_("suit names on the cards (spanish: swords are spades)"), recorded_only=True)
    # Seating and rotation (§2)
    max_players: int = knob(15, INT, (2, 15), N_("most players at the table"))
    direction: str = knob("counterclockwise", ENUM, ("counterclockwise", "clockwise"), N_("direction of deal and play; seats are listed in this order"), recorded_only=True)
    next_deal: str = knob("winner_is_eldest", ENUM, ("winner_is_eldest", "rotate"), N_("who deals next: the winner's left-hand neighbour, or the next seat"))
    first_dealer: str = knob("lowest_card", ENUM, ("lowest_card", "house"), N_("how the first dealer is chosen"), recorded_only=True)
    deal_pattern: str = knob("5+5", ENUM, ("5+5", "2x5", "1x10"), N_("how the ten cards are dealt"), recorded_only=True)
    # Antes, drops and tops (§3)
    ante: int = knob(0, INT, (0, 2), N_("chips each player puts on the tops to be dealt in"))
    drop_cost: int = knob(2, INT, (0, 10), N_("chips a player pays to the tops to drop (go on top)"))
    house_collection: int = knob(0, INT, (0, 10), N_("chips each player pays the house before the deal"))
    tops_chop_allowed: bool = knob(False, BOOL, None, N_("the last two players may split the tops by agreement without playing"))
    last_player_wins_if_all_drop: bool = knob(True, BOOL, None, N_("when all others drop, the last player wins the tops without play"))
    # The turn (§4); the recorder does not model draws and discards
    discard_take_rule: str = knob("rejected_stock_card_meld_now", ENUM, ("rejected_stock_card_meld_now", "any_top_meld_now", "forbidden"), N_("which discard may be taken"), recorded_only=True)
    upcard_takeable: bool = knob(True, BOOL, None, N_("the eldest may take the opening upcard if they meld it"), recorded_only=True)
    drawn_card_first: bool = knob(False, BOOL, None, N_("the drawn card must be melded before any hand card"), recorded_only=True)
    forcing_mode: str = knob("on_demand_any_player", ENUM, ("on_demand_any_player", "automatic", "off"), N_("when a discard that fits a meld must be taken"), recorded_only=True)
    forcing_scope: str = knob("takeable_discard_only", ENUM, ("takeable_discard_only", "any_top_discard"), N_("which discards can force"), recorded_only=True)
    protect_flat_player: bool = knob(True, BOOL, None, N_("the player before a flat player may not feed them the winning card"), recorded_only=True)
    layoff_on_others: bool = knob(False, BOOL, (False,), N_("adding to another player's melds (never allowed in Pan)"))
    # Melds (§5)
    mixed_set_additions: str = knob("any_suit", ENUM, ("any_suit", "new_suit_only"), N_("what a mixed-suit set may take"))
    split_allowed: bool = knob(True, BOOL, None, N_("a meld may be split into valid melds"))
    split_requires_prior_additions: bool = knob(False, BOOL, None, N_("only a meld that has had cards added may be split"))
    borrow_allowed: bool = knob(True, BOOL, None, N_("cards may be borrowed from a meld to make a new one"))
    borrow_multiple_cards: bool = knob(True, BOOL, None, N_("several cards may be borrowed at once"))
    borrow_from_middle_if_pieces_valid: bool = knob(True, BOOL, None, N_("borrow from the middle of a rope when every piece left is valid"))
    max_meld_size: int = knob(11, INT, (11, 11), N_("most cards in one meld"))
    # Conditions (§6)
    spade_multiplier: int = knob(2, INT, (1, 2), N_("what spade conditions pay, times the value in other suits"))
    valle_mixed_value: int = knob(1, INT, (0, 1), N_("three valle cards of different suits (0: no condition)"))
    valle_suited_value: int = knob(2, INT, (1, 4), N_("three valle cards of one suit (times the spade multiplier)"))
    nonvalle_suited_value: int = knob(1, INT, (1, 4), N_("three non-valle cards of one suit"))
    rope_condition_value: int = knob(1, INT, (1, 4), N_("a rope A-2-3 or K-Q-J"))
    valle_suited_addition: str = knob("reduced", ENUM, ("reduced", "full"), N_("a card added to a one-suit valle set pays half (reduced) or the full value"))
    additions_pay: bool = knob(True, BOOL, None, N_("cards added to a condition pay again"))
    rope_condition_scope: str = knob("A23_KQJ_with_additions", ENUM, ("A23_KQJ_with_additions", "any_run_A_or_K_end_flat"), N_("what a condition rope is and how it grows"))
    condition_recognition: str = knob("on_creation", ENUM, ("on_creation", "final_layout"), N_("at going out, re-collect tags set when melds were made, or judge the final cards"))
    remainder_conditions_pay: bool = knob(True, BOOL, None, N_("a borrow remainder that becomes a condition pays as new"))
    condition_payers: str = knob("active_opponents", ENUM, ("active_opponents", "all_other_seated"), N_("who pays conditions and going out"))
    claim_deadline: str = knob("none", ENUM, ("none", "before_own_discard"), N_("pays must be claimed before the melder discards"), recorded_only=True)
    # Going out (§7) and irregularities (§8)
    going_out_base: int = knob(1, INT, (1, 2), N_("chips each payer owes the player who goes out"))
    going_out_recollect: str = knob("current_worth", ENUM, ("current_worth", "base_only", "none"), N_("what the winner's conditions pay again"))
    stock_exhausted: str = knob("reshuffle_discards", ENUM, ("reshuffle_discards", "void_hand"), N_("what happens when the stock runs out"), recorded_only=True)
    irregularity_window: str = knob("until_settled", ENUM, ("until_settled",), N_("rulings stop once a hand is settled"), recorded_only=True)
    unit_value: float = knob(1.0, MONEY, (0, None), N_("money per chip, for reports and settle-up"))

    # -- derived -----------------------------------------------------------------
    def shoe(self) -> Counter[str]:
        """Copies of every card in the shoe. Shared between calls: read it, do not change it."""
        return _shoe(self.packs, self.spade_sets_removed,
                     tuple(self.extra_spade_cards_removed), tuple(self.extra_pay_cards_added))

    def shoe_size(self) -> int:
        return sum(self.shoe().values())


PRESETS: dict[str, dict[str, Any]] = {
    "hoyle": {},
    "cardroom-ca": {
        "spade_sets_removed": 1, "ante": 1, "drop_cost": 0, "tops_chop_allowed": True,
        "going_out_base": 2, "first_dealer": "house",
    },
    "online-pan": {
        "spade_sets_removed": 1, "drawn_card_first": True, "forcing_mode": "automatic",
        "going_out_base": 2,
    },
    "japanese-wp": {
        "ante": 1, "drop_cost": 2, "valle_suited_addition": "full", "next_deal": "rotate",
    },
}
PRESET_NOTES = {
    "hoyle": N_("Hoyle/Bicycle: no ante, 2 chips to drop, going out pays 1 (the default)"),
    "cardroom-ca": N_("California card room: 310 cards, ante 1 is the top, dropping loses it, going out pays 2"),
    "online-pan": N_("Online rooms: 310 cards, drawn card melded first, automatic forcing, going out pays 2"),
    "japanese-wp": N_("Japanese Wikipedia: ante 1, drop 2, additions pay full value, the deal rotates"),
}


@functools.lru_cache(maxsize=64)
def _shoe(packs: int, spade_sets_removed: int, removed: tuple[str, ...], added: tuple[str, ...]) -> Counter[str]:
    return shoe_counts(packs, spade_sets_removed, removed, added)


def _check_shoe(rules: HouseRules) -> None:
    if any(n < 0 for n in rules.shoe().values()):
        raise InputError(_("more copies of a spade are removed than the pack holds"),
                         _("remove fewer spades or use more packs"))


# The topics of `pan rules show`, each starting at its first knob (the sections of spec §1-§8).
TOPICS = {"packs": N_("The pack"), "max_players": N_("Seating and rotation"), "ante": N_("Antes, drops and tops"),
          "discard_take_rule": N_("The turn"),
          "mixed_set_additions": N_("Melds"), "spade_multiplier": N_("Conditions"),
          "going_out_base": N_("Going out and irregularities")}

SCHEMA = Schema(HouseRules, game="panguingue", title="Panguingue", presets=PRESETS, notes=PRESET_NOTES,
                default_preset="hoyle", check=_check_shoe, topics=TOPICS, at_top=True)
KNOBS = SCHEMA.knobs
DEFAULTS = HouseRules()


def preset(name: str) -> HouseRules:
    return SCHEMA.preset(name)


def from_dict(data: dict[str, Any], where: str = "") -> HouseRules:
    """Build house rules from a preset name and knob overrides, checking every key and value."""
    return SCHEMA.from_dict(data, where)


def to_dict(rules: HouseRules) -> dict[str, Any]:
    return SCHEMA.to_dict(rules)


def diff_from(rules: HouseRules, base: HouseRules = DEFAULTS) -> dict[str, Any]:
    return SCHEMA.diff(rules, base)
