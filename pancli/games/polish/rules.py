"""House rules of the Polish shedding game Pan: the variants of spec other-pan-games.md B.3 and the
recommended defaults of Q-B1..Q-B10, declared with the shared knob schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pancli.core.i18n import N_
from pancli.core.knobs import BOOL, ENUM, INT, WORD, KnobRules, Schema, knob


@dataclass(frozen=True, eq=False, repr=False)  # eq, hash, repr: KnobRules
class PolishRules(KnobRules):
    """House-rule switches; the defaults are the spec's recommended ones (B.5, Q-B1..Q-B10)."""

    three_card_play: str = knob("same_rank", ENUM, ("same_rank", "nines_only", "equal_or_higher"),
                                N_("what three cards of a rank may be played onto"))
    open_with_four_nines: bool = knob(True, BOOL, None, N_("the deal may open with all four 9s, the 9♥ at the bottom"))
    pickup: str = knob("three", ENUM, ("three", "any", "three_or_all"),
                       N_("how many cards a player who cannot or will not play takes from the pile"))
    spades_back: bool = knob(False, BOOL, None, N_("piki cofane: a spade on top sends the turn back to the previous player"))
    spades_back_two_players: str = knob("again", ENUM, ("again", "opponent"),
                                        N_("under piki cofane with two players left: the mover plays again, "
                                           "or the opponent does"))
    beton: int = knob(0, ENUM, (0, 2, 3), N_("cards dealt face down to each player, played once the hand is empty"))
    word: str = knob("PAN", WORD, (1, 10), N_("the letters a loser collects, one per lost deal"))
    clock_minutes: int = knob(0, INT, (0, 180), N_("timed play: minutes per player, 0 for none"))
    timeout_loses: str = knob("deal", ENUM, ("deal", "game"), N_("a flag fall loses the deal or the whole game"))


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "piki-cofane": {"spades_back": True},
    "beton": {"beton": 3},
    "timed": {"clock_minutes": 5},
}
PRESET_NOTES = {
    "standard": N_("The recommended rules: take three, open with the 9♥ or all four 9s, no clock (the default)"),
    "piki-cofane": N_("Spades go back: a spade on top sends the turn to the previous player"),
    "beton": N_("Beton: three cards face down for each player, played once the hand is empty"),
    "timed": N_("Timed play: 5 minutes a player; a flag fall loses the deal"),
}

SCHEMA = Schema(PolishRules, game="polish", title=N_("Polish Pan"), presets=PRESETS, notes=PRESET_NOTES,
                default_preset="standard")
