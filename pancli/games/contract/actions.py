"""What the contract game's table records (`pan contract …`): each action once, with its
parameters, its help and the events it makes (see pancli/games/actions.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pancli.core.errors import InputError
from pancli.core.hints import Hint
from pancli.core.i18n import N_, _
from pancli.games.actions import CARD, CARDS, COUNT, HAND_EACH, MELDS, MELDS_EACH, PLAYER, Action, Param, Table

if TYPE_CHECKING:
    from pancli.core.events import ContractDealEvent, ContractEvent, ContractOutEvent, HandEvent, LayOffEvent

Values = Mapping[str, Any]


def _lay(v: Values) -> list[ContractEvent]:
    if not v["melds"]:
        raise InputError(_("no melds given"), _("write the contract, e.g. 7S 7H 7D / QC QD QS"))
    return [{"kind": "contract", "player": v["player"], "melds": [list(m) for m in v["melds"]]}]


# The cards and the points of a hand together: said without the command's options (each face
# words the code, pancli/core/hints.py).
_BOTH = Hint("left.both", N_("give the cards or the points, not both"))
_LEFT_EXAMPLE = Hint("left.example", N_("e.g. the cards KC KD 4S"))


def _layoff(v: Values) -> list[LayOffEvent]:
    return [{"kind": "lay_off", "player": v["player"], "meld": v["meld"], "cards": list(v["cards"])}]


def _out(v: Values) -> list[ContractOutEvent]:
    return [{"kind": "out", "player": v["player"], "discard": v.get("discard")}]


def _left(v: Values) -> list[HandEvent]:
    who, cards, points = v["player"], v.get("cards"), v.get("points")
    if cards and points is not None:
        raise InputError(_BOTH, _LEFT_EXAMPLE)
    if points is not None:
        return [{"kind": "hand", "player": who, "points": points}]
    if not cards:
        raise InputError(_("no cards given for {player}").format(player=who),
                         Hint("left.none", N_("list the cards, or their points (0 for none)")))
    return [{"kind": "hand", "player": who, "cards": list(cards)}]


def _left_words(w: Values, table: Table) -> dict[str, Any]:
    """The cards and --points together are refused before the cards are read (a card that is
    not one would hide the real mistake), once the player is known."""
    if w.get("cards") and w.get("points") is not None:
        table.player(w["player"])
        raise InputError(_BOTH, _LEFT_EXAMPLE)
    return dict(w)


def _deal(v: Values) -> list[ContractDealEvent]:
    event: ContractDealEvent = {"kind": "deal", "out": v["out"], "hands": dict(v.get("hands") or {})}
    if v.get("contracts"):
        event["contracts"] = dict(v["contracts"])
    if v.get("discard"):
        event["discard"] = v["discard"]
    return [event]


# "The whole contract, {MELDS_HELP}.", written out whole for the catalog (a test holds them equal)
_WHOLE_CONTRACT = N_('The whole contract, melds separated by / (or +, or "|" in quotes): AS 2S 3S / 5S 5S 5S.')

ACTIONS = (
    Action("lay", ("contract", "lay"), N_("Lay down a player's contract; it must be exactly the deal's contract, all at once."),
           N_("Lay down"), (Param("player", PLAYER, N_("Who lays down the contract."), arg="name"),
                            Param("melds", MELDS, _WHOLE_CONTRACT, many=True, metavar="MELDS")),
           _lay, ("contract",), when="any", example="pan contract lay ana 7S 7H 7D / QC QD QS"),
    Action("layoff", ("contract", "layoff"), N_("Lay off cards onto a meld on the table, one's own or an opponent's."),
           N_("Lay off"), (Param("player", PLAYER, N_("Who lays off."), arg="name"),
                           Param("meld", COUNT, Hint("help.contract_meld", N_("The meld's number on the table.")),
                                 noun=N_("a meld number"), high=100_000, onto="any"),
                           Param("cards", CARDS, N_("The cards laid off."), many=True)),
           _layoff, ("lay_off",), when="any", example="pan contract layoff ana 3 8D"),
    Action("out", ("contract", "out"),
           N_("A player goes out (in deal 5 with no final discard); then record the cards left in the other hands."),
           N_("Go out"), (Param("player", PLAYER, N_("Who went out."), arg="name"),
                          Param("discard", CARD, N_("The final discard (deals 1-4 only)."), required=False,
                                option="--discard", metavar="CARD")),
           _out, ("out",), when="any", example="pan contract out ana --discard QH"),
    Action("left", ("contract", "left"),
           N_("Record the cards left in a hand after someone went out; the last one scores the deal."),
           N_("Cards left"), (Param("player", PLAYER, N_("Whose hand."), arg="name"),
                              Param("cards", CARDS, N_("The cards left in the hand."), required=False, many=True),
                              Param("points", COUNT, N_("Their value as counted at the table, instead of the cards."),
                                    required=False, option="--points", noun=N_("a number of points"), low=0)),
           _left, ("hand",), when="any", example="pan contract left ben KC KD 4S", words=_left_words),
    Action("deal", ("contract", "deal"),
           N_("Record a whole finished deal at once: who went out and what every other hand held."),
           N_("Whole deal"), (Param("out", PLAYER, N_("Who went out."), option="--out", metavar="NAME"),
                              Param("hands", HAND_EACH, N_('Cards left in a hand ("Ben=KS QH"), or their points '
                                                          '("Ben=24"); once per other player.'),
                                    required=False, many=True, option="--left", arg="left", metavar="NAME=CARDS"),
                              Param("contracts", MELDS_EACH, N_('A contract laid this deal, checked '
                                                               '("Ana=7S 7H 7D / QC QD QS").'),
                                    required=False, many=True, option="--contract", arg="contract",
                                    metavar="NAME=MELDS"),
                              Param("discard", CARD, N_("The goer's final discard."), required=False,
                                    option="--discard", metavar="CARD")),
           _deal, ("deal",), when="any", phone=False,
           example='pan contract deal --out ana --left "Ben=KC KD 4S" --left "Cruz=AS 9H 9D" --left Dee=69'),
)

# Two 52-card packs, no jokers: the picker lays out one of each card.
PACK = tuple(rank + suit for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
             for suit in "SHDC")


def still_to_record(state: Any) -> Hint | None:
    """What the table still has to tell pancli about the deal in play (after `out`)."""
    if state.over or state.out is None:
        return None
    done = {x.player for x in state.leftovers}
    missing = [p for p in state.players if p != state.out and p not in done]
    if missing:
        return Hint("left.still", N_("Still to record: the cards left of {players}."), players=", ".join(missing))
    return None
