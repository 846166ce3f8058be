"""Why chips move at a Panguingue table: the payment vocabulary, and its English.

Every payment the core makes carries one of these codes and its parameters; storage keeps
them beside the rendered line, and `pan db check`, `pan import` and `pan rescore` compare
payments by players, chips, code and parameters, never by the English. The codes and their
parameters are stable: rename or reword the text freely, but change a code or a parameter
only with a schema note, since stored databases and archives hold them.

=============  =====================================================  ===========================
code           params                                                 paid
=============  =====================================================  ===========================
ante           hand: the hand's number                                player -> (tops), at the deal
house          (none)                                                 player -> (house), at the deal
drop           (none)                                                 dropper -> (tops)
tops_returned  hand: the void hand's number                           (tops) -> who put them there
chop           (none)                                                 (tops) -> each of the last two
condition      meld: number; tag: condition tag (see conditions.py);  each payer -> the melder
               cards: the meld, in display order
addition       meld: number; added: the cards added; tag, cards:      each payer -> the melder
               the meld's tag and cards before the addition
rearranged     meld: number; tag; cards: a condition made by          each payer -> the melder
               splitting, borrowing or spreading
carried        meld: number; tag; cards; added: how many cards from   each payer -> the melder
               the hand a meld that kept its number grew by
going_out      winner; base: going_out_base; conditions: what the     each payer -> the winner
               winner's melds pay again
tops           (none)                                                 (tops) -> the winner
dead_return    returns: {code, params} of the payment given back;     the dead player -> its payer
               why: the cause, when the event names one
foul_return    returns: {code, params}; meld: the foul meld's         the melder -> its payer
               number, or after_discard: true (the hand is dead)
=============  =====================================================  ===========================

Pools are the pseudo-players ``(tops)`` and ``(house)``. Bank events (``buyin``, ``cashout``)
move no chips between players: they are tallies, whose ``stat`` is their code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pancli.core.i18n import ENGLISH, _, language, speaking_catalog
from pancli.core.ledger import NO_PARAMS, Params, Payment
from pancli.games.panguingue import conditions
from pancli.games.panguingue.cards import format_cards

CODES = ("ante", "house", "drop", "tops_returned", "chop", "condition", "addition", "rearranged",
         "carried", "going_out", "tops", "dead_return", "foul_return")


def _meld(p: Mapping[str, Any]) -> str:
    return _("{cards}, {condition}").format(cards=format_cards(p["cards"]),
                                            condition=conditions.describe(p["tag"], p["cards"]))


def _returned(p: Mapping[str, Any]) -> str:
    inner = p["returns"]
    return render(inner["code"], inner["params"])


def _foul(p: Mapping[str, Any]) -> str:
    if p.get("after_discard"):
        return _("foul meld found after the discard: returns {returned}").format(returned=_returned(p))
    return _("foul meld {number}: returns {returned}").format(number=p["meld"], returned=_returned(p))


def _going_out(p: Mapping[str, Any]) -> str:
    if p["conditions"]:
        return _("{player} goes out: base {base} + conditions {conditions}").format(
            player=p["winner"], base=p["base"], conditions=p["conditions"])
    return _("{player} goes out: base {base}").format(player=p["winner"], base=p["base"])


def _dead_return(p: Mapping[str, Any]) -> str:
    # The why is the table's own words, as recorded: shown as it was typed.
    why = p.get("why") or _("dead hand")
    return _("{why}: returns {returned}").format(why=why, returned=_returned(p))


# The words of each code, in the language in force. Only people read them: reword them at will.
TEXT = {
    "ante": lambda p: _("ante for hand {number}").format(number=p["hand"]),
    "house": lambda p: _("house collection"),
    "drop": lambda p: _("drops (goes on top)"),
    "tops_returned": lambda p: _("hand {number} void: tops returned").format(number=p["hand"]),
    "chop": lambda p: _("chops the tops"),
    "condition": _meld,
    "addition": lambda p: _("{added} added to {condition}").format(
        added=format_cards(p["added"]), condition=conditions.describe(p["tag"], p["cards"])),
    "rearranged": _meld,  # a new meld of a spread, split or borrow: the line of the event says which
    "carried": lambda p: _("{meld} (+{n} added)").format(meld=_meld(p), n=p["added"]),
    "going_out": _going_out,
    "tops": lambda p: _("takes the tops"),
    "dead_return": _dead_return,
    "foul_return": _foul,
}


def render(code: str, params: Mapping[str, Any]) -> str:
    """A payment's reason in the language in force, for a screen."""
    return TEXT[code](params)


def render_english(code: str, params: Mapping[str, Any]) -> str:
    """A payment's reason in English: what is stored and archived beside the payment."""
    if language() == ENGLISH:
        return TEXT[code](params)
    with speaking_catalog(ENGLISH, None):
        return TEXT[code](params)


def payment(payer: str, payee: str, chips: int, code: str, params: Params | Mapping[str, Any] | None = None) -> Payment:
    """A payment with its reason as data, worded in English when asked. Share one ``params`` among
    the payments for the same thing (every payer of a condition): its JSON is then made once."""
    if code not in TEXT:
        raise ValueError(f"unknown payment code {code!r}")
    if params is None:
        params = NO_PARAMS
    elif type(params) is not Params:
        params = Params(params)
    return Payment(payer, payee, chips, code, params, _wording)


def payments(payers: list[str], payee: str, chips: int, code: str, params: Params) -> list[Payment]:
    """The same payment from each of the payers (a condition, going out), sharing one ``params``."""
    if code not in TEXT:
        raise ValueError(f"unknown payment code {code!r}")
    return [Payment(payer, payee, chips, code, params, _wording) for payer in payers]


def _wording(code: str, params: Params) -> str:
    # Looked up when asked, so the wording can change without the payments; in English, since
    # the reason is stored and archived beside the payment (a screen says it with ``render``).
    return render_english(code, params)


def returning(pay: Payment) -> Params:
    """How a payment given back is named inside the reason of the payment that returns it."""
    return Params(code=pay.code, params=pay.params)
