"""What a Panguingue table records: each action once, with its parameters, its help and the events
it makes (see pancli/games/actions.py). Its commands are `pan`'s own (`pan meld`, `pan seat add`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pancli.core.errors import InputError
from pancli.core.grouping import write_melds
from pancli.core.hints import Hint
from pancli.core.i18n import N_, _, ngettext
from pancli.games.actions import (
    CARDS,
    FLAG,
    IN_HAND,
    MELD,
    MELDS,
    NEW_NAME,
    PLAYER,
    Action,
    Param,
    Table,
    read_meld_number,
    read_melds,
)

if TYPE_CHECKING:
    from pancli.core.events import (
        AddEvent,
        BorrowEvent,
        ChopEvent,
        DeadEvent,
        DropEvent,
        FoulEvent,
        MeldEvent,
        PanDealEvent,
        PanOutEvent,
        SeatAddEvent,
        SeatRemoveEvent,
        SplitEvent,
        SpreadEvent,
        StayEvent,
        VoidEvent,
    )

Values = Mapping[str, Any]

_WHO = "player"


def _deal(v: Values) -> list[PanDealEvent]:
    return [{"kind": "deal", "dealer": v.get("dealer")}]


def _names(v: Values) -> list[str]:
    names = v["player"]
    return [names] if isinstance(names, str) else list(names)


def _stay(v: Values) -> list[StayEvent]:
    return [{"kind": "stay", "player": name} for name in _names(v)]


def _drop(v: Values) -> list[DropEvent]:
    return [{"kind": "drop", "player": name} for name in _names(v)]


def _dead(v: Values) -> list[DeadEvent]:
    return [{"kind": "dead", "player": name} for name in _names(v)]


def _meld(v: Values) -> list[MeldEvent]:
    return [{"kind": "meld", "player": v["player"], "cards": list(v["cards"])}]


def _add(v: Values) -> list[AddEvent]:
    return [{"kind": "add", "player": v["player"], "cards": list(v["cards"]), "to": v.get("to")}]


def _split(v: Values) -> list[SplitEvent]:
    pieces = [" ".join(m) for m in v["into"]]
    if len(pieces) > 1 and all(" " not in part for part in pieces):  # `split ana 1 AD 2D 3D 4D 5D 6D`
        half = len(pieces) // 2
        raise InputError(_("the parts of a split are melds, not single cards"),
                         _("separate them with /, e.g. {example}").format(example=write_melds([pieces[:half], pieces[half:]])))
    return [{"kind": "split", "player": v["player"], "meld": v["meld"], "into": pieces}]


def _borrow(v: Values) -> list[BorrowEvent]:
    return [{"kind": "borrow", "player": v["player"], "from": v["from"], "cards": list(v["cards"]),
             "with": list(v.get("with") or [])}]


# -- what the command line reads itself (``Action.words``) ---------------------------------------

def _split_words(w: Values, table: Table) -> dict[str, Any]:
    """`pan split ana 1 "AD 2D 3D" "4D 5D 6D"`: each quoted word is a part."""
    return {"player": w["player"], "meld": w["meld"],
            "into": read_melds(list(w["into"]), table.read_cards, each_word_a_meld=True)}


def _borrow_words(w: Values, table: Table) -> dict[str, Any]:
    """`--from 1 KH`: the lending meld's number, then the cards it lends, in one option."""
    lent = w.get("from")
    if lent is None or not lent.strip():
        raise InputError(Hint("borrow.from", N_("say which meld lends the cards")),
                         Hint("borrow.example", N_("e.g. meld 1 lends KH, the hand gives KD KC")))
    number, _sep, taken = lent.strip().partition(" ")
    source = read_meld_number(number, "--from")
    return {"player": w["player"], "from": source, "cards": list(table.read_cards(taken)),
            "with": list(table.read_cards(w.get("with") or ""))}


def _out_words(w: Values, table: Table) -> dict[str, Any]:
    """The final cards are one meld: several are a whole layout, `pan spread`'s."""
    final = read_melds(list(w.get("cards") or ()), table.read_cards)
    if len(final) > 1:
        raise InputError(Hint("out.one_meld", N_("going out takes the final cards of one meld, not {n} melds"),
                              n=len(final)),
                         Hint("out.spread", N_("record the whole layout as a spread: the melds already down and "
                                               "these, separated by /"), player=w["player"].lower()))
    return {"player": w["player"], "cards": final[0] if final else [], "to": w.get("to")}


def _spread(v: Values) -> list[SpreadEvent]:
    return [{"kind": "spread", "player": v["player"], "melds": [" ".join(m) for m in v["melds"]]}]


def _out(v: Values) -> list[MeldEvent | PanOutEvent]:
    """Going out with the final cards; with several new melds (the dealer's picker, / between
    them), each but the last laid as a meld, then out with the last: recorded together or not at all."""
    cards = list(v.get("cards") or [])
    melds = [list(m) for m in cards if m] if cards and not isinstance(cards[0], str) else [cards] if cards else []
    if len(melds) > 1 and v.get("to") is not None:
        raise InputError(ngettext("going out onto a meld takes the cards of one addition, not {n} melds",
                                  "going out onto a meld takes the cards of one addition, not {n} melds",
                                  len(melds)).format(n=len(melds)),
                         Hint("out.onto_melds", N_("lay the new melds with no meld chosen, or add to the meld first")))
    laid: list[MeldEvent | PanOutEvent] = [{"kind": "meld", "player": v["player"], "cards": m} for m in melds[:-1]]
    laid.append({"kind": "out", "player": v["player"], "cards": melds[-1] if melds else [], "to": v.get("to")})
    return laid


def _foul(v: Values) -> list[FoulEvent]:
    return [{"kind": "foul", "player": v["player"], "after_discard": bool(v.get("after_discard")),
             "meld": v.get("meld")}]


def _void(v: Values) -> list[VoidEvent]:
    return [{"kind": "void"}]


def _chop(v: Values) -> list[ChopEvent]:
    return [{"kind": "chop"}]


def _join(v: Values) -> list[SeatAddEvent]:
    return [{"kind": "seat_add", "player": v["player"], "after": v.get("after")}]


def _leave(v: Values) -> list[SeatRemoveEvent]:
    return [{"kind": "seat_remove", "player": v["player"]}]


_BOARD_NUMBER = Hint("help.board_number", N_("The meld's number on the board."))

ACTIONS = (
    Action("deal", ("deal",),
           N_("Start the next hand: says who deals, who is eldest and the order of declarations; takes antes."),
           N_("Deal"), (Param("dealer", PLAYER, N_("Override who deals this hand."), required=False, option="--dealer"),),
           _deal, ("deal",), when="between", example="pan deal"),
    Action("stay", ("stay",), N_("Record that players stay in (optional: not dropping is staying)."), N_("Stay"),
           (Param(_WHO, IN_HAND, N_("Players who stay in."), many=True, arg="names"),), _stay, ("stay",),
           when="hand", example="pan stay ana ben"),
    Action("drop", ("drop",), N_("Players drop and pay the drop cost to the tops; allowed until the first meld."),
           N_("Drop"), (Param(_WHO, IN_HAND, N_("Players who drop (go on top)."), many=True, arg="names"),),
           _drop, ("drop",), when="hand", example="pan drop cruz dee"),
    Action("meld", ("meld",), N_("Lay a new meld; its condition is paid at once by every payer."), N_("Meld"),
           (Param(_WHO, IN_HAND, N_("Who melds."), arg="name"),
            Param("cards", CARDS, N_("The cards of the new meld."), many=True)), _meld, ("meld",), when="hand",
           example="pan meld ben 5S 5S 5S"),
    Action("add", ("add",), N_("Add cards to one of the player's own melds."), N_("Add to meld"),
           (Param(_WHO, IN_HAND, N_("Who adds."), arg="name"), Param("cards", CARDS, N_("The cards added."), many=True),
            Param("to", MELD, Hint("help.add_to", N_("The meld's number on the board (needed only if several fit).")), required=False,
                  option="--to")), _add, ("add",), when="hand", example="pan add ben 5S --to 1"),
    Action("split", ("split",), N_("Split a meld into two or more legal melds; a part that becomes a condition pays."),
           N_("Split"), (Param(_WHO, IN_HAND, N_("Whose meld."), arg="name"),
                     Param("meld", MELD, _BOARD_NUMBER, arg="number"),
                     Param("into", MELDS, N_("The parts, melds separated by / (or +, or \"|\" in quotes): AS 2S 3S / 5S 5S 5S (or each quoted: \"AD 2D 3D\" \"4D 5D 6D\")."),
                           many=True, arg="parts", metavar="MELDS")), _split, ("split",), when="hand",
           example="pan split ana 1 --into AD 2D 3D / 4D 5D 6D",
           extra=(Param("marker", FLAG, N_("Marks the parts that follow (optional)."), required=False,
                        option="--into", arg="into"),), words=_split_words),
    Action("borrow", ("borrow",),
           N_("Borrow cards from one of the player's melds to make a new meld with cards from the hand."), N_("Borrow"),
           (Param(_WHO, IN_HAND, N_("Who borrows."), arg="name"),
            Param("from", MELD, Hint("help.borrow_from", N_("The meld that lends (its number on the board) and the cards it lends.")),
                  option="--from", arg="lent", short="-f", metavar="N CARD...", multiword=True),
            Param("cards", CARDS, N_("The cards the meld lends."), arg="lent"),
            Param("with", CARDS, N_("The cards from the hand."), option="--with", arg="with_cards", short="-w",
                  metavar="CARD...", multiword=True)),
           _borrow, ("borrow",), when="hand", direct=False, example="pan borrow ana --from 1 KH --with KD KC",
           words=_borrow_words),
    Action("spread", ("spread",), N_("Restate a player's whole layout: one legal rearrangement plus cards from the hand."),
           N_("Spread"), (Param(_WHO, IN_HAND, N_("Whose layout."), arg="name"),
                      Param("melds", MELDS, N_("All the player's melds separated by / (or +, or \"|\" in quotes): AS 2S 3S / 5S 5S 5S."), many=True, arg="layout", metavar="MELDS")),
           _spread, ("spread",), when="hand", example="pan spread ana AS 2S 3S 4S / 5S 5S 5S / KH KH KC KD"),
    Action("out", ("out",), N_("Go out: checks the 11-card layout and pays the settlement (base, conditions again, tops)."),
           N_("Go out"), (Param(_WHO, IN_HAND, N_("Who goes out."), arg="name"),
                      Param("cards", MELDS, N_("The final cards: a new meld, or an addition."), required=False, many=True,
                            metavar="CARD..."),
                      Param("to", MELD, N_("Add the final cards to this meld."), required=False, option="--to")),
           _out, ("meld", "out"), when="hand", example="pan out ana 4H 4D 4C", words=_out_words,
           more="The final cards make one meld (or one addition); to lay several melds at once, name the\n"
                "whole layout with `pan spread` (melds separated by /): it goes out when it reaches 11 cards."),
    Action("foul", ("foul",), N_("A foul meld: before the discard the meld's chips go back; after it the hand is dead."),
           N_("Foul"), (Param(_WHO, IN_HAND, N_("Who laid the foul meld."), arg="name"),
                    Param("after_discard", FLAG, N_("Found after their discard: the hand is dead."), required=False,
                          option="--after-discard"),
                    Param("meld", MELD, N_("The recorded meld that is foul (before the discard)."), required=False,
                          option="--meld", arg="meld_number")), _foul, ("foul",), when="hand",
           example="pan foul ben --after-discard"),
    Action("dead", ("dead",),
           N_("A dead hand (wrong number of cards after the first draw): returns their condition chips, keeps paying."),
           N_("Dead"), (Param(_WHO, IN_HAND, N_("Whose hand is dead."), arg="name"),), _dead, ("dead",), when="hand",
           example="pan dead ben"),
    Action("void", ("void",),
           N_("End the hand with no winner (stock exhausted under void_hand, or a misdeal): the tops go back."),
           N_("Void the hand"), (), _void, ("void",), when="hand", example="pan void"),
    Action("chop", ("chop",), N_("The last two players chop the tops by agreement (house rule tops_chop_allowed)."),
           N_("Chop the tops"), (), _chop, ("chop",), when="hand", example="pan chop"),
    Action("join", ("seat", "add"), N_("Seat a player between hands."), N_("Seat a player"),
           (Param(_WHO, NEW_NAME, N_("The new player's name."), arg="name"),
            Param("after", PLAYER, N_("Seat them after this player (default: last)."), required=False, option="--after")),
           _join, ("seat_add",), when="between", example="pan seat add Eve --after Ben"),
    Action("leave", ("seat", "remove"), N_("A player leaves between hands (their results stay in the session)."),
           N_("Leave"), (Param(_WHO, PLAYER, N_("The leaving player."), arg="name"),), _leave, ("seat_remove",),
           when="between", example="pan seat remove Eve"),
)

# The Pan pack a card picker lays out: no 8s, 9s or 10s (with rank_set = no_JQK they are read as J, Q, K).
PACK = tuple(rank + suit for rank in "A234567JQK" for suit in "SHDC")
