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

from pancli.core.ledger import NO_PARAMS, Params, Payment
from pancli.games.panguingue import conditions
from pancli.games.panguingue.cards import format_cards

CODES = ("ante", "house", "drop", "tops_returned", "chop", "condition", "addition", "rearranged",
         "carried", "going_out", "tops", "dead_return", "foul_return")


def _meld(p: Mapping) -> str:
    return f"{format_cards(p['cards'])}, {conditions.describe(p['tag'], p['cards'])}"


def _returned(p: Mapping) -> str:
    inner = p["returns"]
    return render(inner["code"], inner["params"])


def _foul(p: Mapping) -> str:
    where = "foul meld found after the discard" if p.get("after_discard") else f"foul meld {p['meld']}"
    return f"{where}: returns {_returned(p)}"


# The English of each code. Only people read it: reword it at will.
TEXT = {
    "ante": lambda p: f"ante for hand {p['hand']}",
    "house": lambda p: "house collection",
    "drop": lambda p: "drops (goes on top)",
    "tops_returned": lambda p: f"hand {p['hand']} void: tops returned",
    "chop": lambda p: "chops the tops",
    "condition": _meld,
    "addition": lambda p: f"{format_cards(p['added'])} added to {conditions.describe(p['tag'], p['cards'])}",
    "rearranged": _meld,  # a new meld of a spread, split or borrow: the line of the event says which
    "carried": lambda p: f"{_meld(p)} (+{p['added']} added)",
    "going_out": lambda p: f"{p['winner']} goes out: base {p['base']}"
                           + (f" + conditions {p['conditions']}" if p["conditions"] else ""),
    "tops": lambda p: "takes the tops",
    "dead_return": lambda p: f"{p.get('why') or 'dead hand'}: returns {_returned(p)}",
    "foul_return": _foul,
}


def render(code: str, params: Mapping) -> str:
    """The English line for a payment's reason."""
    return TEXT[code](params)


def payment(payer: str, payee: str, chips: int, code: str, params: Params | Mapping | None = None) -> Payment:
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
    return render(code, params)  # looked up when asked, so the wording can change without the payments


def returning(pay: Payment) -> Params:
    """How a payment given back is named inside the reason of the payment that returns it."""
    return Params(code=pay.code, params=pay.params)
