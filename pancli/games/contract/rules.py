"""House rules of Mendelev's five-deal contract rummy: the switches of spec other-pan-games.md A.5
and Q-A1..Q-A10, declared with the shared knob schema. The defaults are the ``mendelev`` profile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pancli.core.errors import InputError
from pancli.core.i18n import N_, _
from pancli.core.knobs import BOOL, ENUM, INT, KnobRules, Schema, knob

if TYPE_CHECKING:
    from pancli.games.frenchpack import Card

PACKS = 2  # two 52-card packs: at most two copies of any card (A.3, Q-A7)


@dataclass(frozen=True, eq=False, repr=False)  # eq, hash, repr: KnobRules
class ContractRules(KnobRules):
    """House-rule switches; the defaults are the spec's ``mendelev`` profile (A.5)."""

    min_sequence: int = knob(3, INT, (3, 13), N_("shortest sequence: 3 (remik, Russian rummy) or 4 (Western)"))
    max_set: int = knob(8, INT, (3, 4 * PACKS), N_("most cards a set grows to"))
    max_sequence: int = knob(13, INT, (3, 13), N_("most cards a sequence grows to"))
    duplicates_in_sets: bool = knob(True, BOOL, None, N_("a set may hold two identical cards (two packs)"))
    lay_off_before_contract: bool = knob(False, BOOL, None, N_("lay off onto melds before your own contract is down"))
    buy_turn: str = knob("from_buyer", ENUM, ("from_buyer", "unchanged"),
                         N_("after a buy, play goes on from the buyer (R1) or the turn order is unchanged (R2)"))
    ace_value: int = knob(15, ENUM, (15, 11, 1), N_("points an ace left in hand counts"))
    going_out_bonus: int = knob(20, INT, (0, 100), N_("points for going out"))
    scoring: str = knob("signed", ENUM, ("signed", "penalty"),
                        N_("signed: +bonus and minus cards left, highest total wins; penalty: cards left count "
                           "plus, lowest total wins"))
    last_deal_no_discard: bool = knob(True, BOOL, None, N_("deal 5 goes out without a final discard"))

    def card_value(self, card: Card) -> int:
        if card.rank == 14:
            return self.ace_value
        return min(card.rank, 10)


PRESETS: dict[str, dict[str, Any]] = {
    "mendelev": {},
    "contract": {"min_sequence": 4, "buy_turn": "unchanged", "scoring": "penalty"},
}
PRESET_NOTES = {
    "mendelev": N_("Mendelev's game: runs of 3+, play goes on from the buyer, +20 for going out, "
                   "highest total wins (the default)"),
    "contract": N_("Western contract rummy: runs of 4+, a buy leaves the turn order alone, cards left are "
                   "penalty points, lowest total wins"),
}


def _check(rules: ContractRules) -> None:
    if rules.min_sequence > rules.max_sequence:
        raise InputError(_("min_sequence {least} is above max_sequence {most}").format(
            least=rules.min_sequence, most=rules.max_sequence), _("make min_sequence at most max_sequence"))


SCHEMA = Schema(ContractRules, game="contract", title=N_("Contract rummy (five deals)"), presets=PRESETS,
                notes=PRESET_NOTES, default_preset="mendelev", check=_check)
