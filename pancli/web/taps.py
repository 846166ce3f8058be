"""The dealer's phone's words for the games' hints (pancli/core/hints.py): it names its buttons,
made from the games' declared actions (their labels), never a command or an option. A code the
phone has no words of its own for is said in the hint's plain words, which name neither."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pancli.core.hints import PHONE, Wording, add_words
from pancli.core.i18n import N_, _


def button(action: str) -> str:
    """The label of the dealer's button for a declared action (the first game that declares it)."""
    from pancli.games import GAMES  # noqa: PLC0415 the games load with the first page

    for g in GAMES.values():
        for a in g.actions:
            if a.name == action:
                return _(a.label)
    return action


def _tap(message: str, action: str) -> Wording:
    def said(p: Mapping[str, Any]) -> str:
        return _(message).format(button=button(action), **p)
    return said


WORDS: dict[str, Wording] = {
    "deal.first": _tap(N_("tap {button} to start one"), "deal"),
    "deal.next": _tap(N_("tap {button} to start the next"), "deal"),
    "deal.next_line": _tap(N_("Next hand: {dealer} deals, {eldest} is eldest; tap {button} to start it."), "deal"),
    "meld.new": _tap(N_("tap {button} to lay them as a new meld"), "meld"),
    "void.now": _tap(N_("No live hand is left: tap {button} to end the hand."), "void"),
    "left.still": _tap(N_("Still to record ({button}): the cards left of {players}."), "left"),
    "session.closed": lambda p: _("start a new one with {button}").format(button=_("New game")),
    "add.which": N_("tap the meld to add them to, e.g. meld {number}"),
    "add.cards": N_("choose the cards first"),
    "out.onto_melds": N_("tap the new melds without a meld chosen, or add to the meld first"),
    # the picker's number field is its Points
    "left.both": N_("choose the cards or type the points, not both"),
    "left.none": N_("choose the cards, or type the points (0 for none)"),
    "left.example": N_("choose the cards left, e.g. KC KD 4S"),
}

add_words(PHONE, WORDS)
