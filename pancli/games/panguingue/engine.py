"""The Panguingue table as a pure state machine: events in, state and payments out.

Covers seating and rotation (§2), antes, drops and tops (§3), melds, additions, splits and
borrows with their pays (§5, §6.10), going out (§7) and irregularities (§8.3).
``apply(state, event)`` never changes ``state``; it returns a Step with a new one.

Decisions where the spec leaves the recorder free:
* Melding the eleventh card ends the hand at once: any meld, addition or rearrangement that
  brings a player to 11 melded cards settles the hand (§4.9), so `out` is only needed to name
  the final cards.
* A dead player's melds are thrown in and leave the board; they keep paying (§8.1).
* A voided hand (stock exhausted under `void_hand`, or a misdeal) returns the tops to those who
  paid them; conditions already paid stand; the same dealer deals again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, TypeVar

from pancli.core.errors import InputError, RuleError
from pancli.core.hints import Hint
from pancli.core.i18n import N_, _, ngettext, pgettext, sentence
from pancli.core.ledger import HOUSE, TOPS, Params, Payment, Step, Tally
from pancli.games.panguingue import conditions, reasons
from pancli.games.panguingue.cards import format_cards, parse_cards
from pancli.games.panguingue.melds import check_meld, in_meld_order, meld_order, rope_pieces
from pancli.games.panguingue.rules import HouseRules
from pancli.games.panguingue.rulings import judge, judge_addition
from pancli.games.panguingue.words import whose

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

    class _DeadAfterFoul(TypedDict):
        """A foul found after the discard, applied as a dead hand with why (never stored as such)."""

        kind: Literal["foul"]
        player: str
        after_discard: bool
        meld: NotRequired[int | None]
        why: str

_T = TypeVar("_T")  # what _shallow copies: a state, a hand

IN, DROPPED, DEAD = "in", "dropped", "dead"
# Why a hand is dead when the event says nothing, and when a foul is found after the discard.
DEAD_HAND = N_("dead hand")
FOUL_AFTER_DISCARD = N_("foul meld found after the discard")
# The line of a rearrangement, by move: with chips paid, and paying nothing.
_REARRANGED = {
    "split": (N_("{player} splits meld {number}: {melds}; {n} from each payer"),
              N_("{player} splits meld {number}: {melds}; pays nothing")),
    "borrow": (N_("{player} borrows {taken} from meld {number}: {melds}; {n} from each payer"),
               N_("{player} borrows {taken} from meld {number}: {melds}; pays nothing")),
    "spread": (N_("{player} spreads: {melds}; {n} from each payer"),
               N_("{player} spreads: {melds}; pays nothing")),
}


def _shallow(obj: _T) -> _T:
    """A shallow copy of a dataclass instance: a tenth of copy.copy's cost, which adds up when every
    event of a long night is replayed (dataclasses.replace() costs more still)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


@dataclass
class Meld:
    """A meld on the board. States share their melds: a handler that changes one replaces it in
    its hand with a clone first (Hand.changing), so the state before the event keeps the old one."""

    number: int
    owner: str
    cards: tuple[str, ...]
    tag: str
    grown: bool = False
    pays: list[Payment] = field(default_factory=list)  # condition chips this meld collected
    counted: bool = False  # laid as a condition: a foul takes it off the player's `conditions` tally

    def worth(self, rules: HouseRules) -> int:
        return conditions.worth(self.tag, self.cards, rules)

    def clone(self) -> Meld:
        new = _shallow(self)
        new.pays = list(self.pays)
        return new

    def shown(self) -> str:
        return format_cards(meld_order(self.cards))


@dataclass
class Hand:
    """One deal: who is in, the board, the tops and the chips moved so far."""

    number: int
    dealer: str
    eldest: str
    order: list[str]                  # eldest first, dealer last
    status: dict[str, str]
    stayed: list[str] = field(default_factory=list)
    melds: dict[int, Meld] = field(default_factory=dict)
    next_meld: int = 1
    tops: dict[str, int] = field(default_factory=dict)       # who put how much on the tops
    collected: list[Payment] = field(default_factory=list)   # condition chips won this hand
    paid: list[Payment] = field(default_factory=list)        # every payment of the hand so far
    winner: str | None = None
    over: bool = False
    result: str = ""
    events: int = 0                   # events of this hand applied, the deal included
    dropped_at: dict[str, int] = field(default_factory=dict)  # a dropped player: ``events`` after the drop

    def clone(self) -> Hand:
        """A copy apply() may change freely (much cheaper than deepcopy on every event). The melds
        are shared until changed: see ``changing``."""
        new = _shallow(self)
        new.order, new.stayed, new.collected = list(self.order), list(self.stayed), list(self.collected)
        new.status, new.tops, new.paid = dict(self.status), dict(self.tops), list(self.paid)
        new.melds = dict(self.melds)
        return new

    def changing(self, meld: Meld) -> Meld:
        """The meld, made this hand's own to change: the state before the event keeps the old one."""
        own = self.melds[meld.number] = meld.clone()
        return own

    @property
    def moved(self) -> dict[str, int]:
        """Net chips per player this hand (summed when asked: a replay never asks)."""
        net: dict[str, int] = {}
        for p in self.paid:
            net[p.payee] = net.get(p.payee, 0) + p.chips
            net[p.payer] = net.get(p.payer, 0) - p.chips
        return net

    def melds_of(self, player: str) -> list[Meld]:
        return [m for m in self.melds.values() if m.owner == player]

    def melded(self, player: str) -> int:
        return sum([len(m.cards) for m in self.melds.values() if m.owner == player])

    @property
    def started(self) -> bool:
        return self.next_meld > 1

    def tops_total(self) -> int:
        return sum(self.tops.values())


@dataclass
class PanState:
    """The table between events: the rules, the seats and the hand being played."""

    rules: HouseRules
    seats: list[str]
    next_dealer: str | None = None   # set after a void or for rotate
    next_eldest: str | None = None   # set after a win under winner_is_eldest
    hand: Hand | None = None
    hands: int = 0

    def clone(self) -> PanState:
        new = _shallow(self)
        new.seats = list(self.seats)
        new.hand = self.hand.clone() if self.hand else None
        return new

    @property
    def hand_open(self) -> bool:
        return self.hand is not None and not self.hand.over

    def players(self) -> list[str]:
        """Everyone a name may refer to now: the seats and the players of the current hand."""
        names = list(self.seats)
        if self.hand:
            names += [p for p in self.hand.order if p not in names]
        return names


def new_state(rules: HouseRules, players: list[str], dealer: str | None = None) -> PanState:
    _check_names(players, rules)
    return PanState(rules=rules, seats=list(players), next_dealer=dealer or players[0])


def _and_list(items: list[str]) -> str:
    """``1 and 2 and 3``: meld numbers as the table reads them."""
    # Translators: joins meld numbers, "1 and 2"; keep the spaces
    return pgettext("numbers", " and ").join(items)


# Where a meld's number is seen: each face says it its own way (pancli/core/hints.py).
MELD_NUMBERS = Hint("meld.numbers", N_("the board shows the melds' numbers"))


def _check_names(players: list[str], rules: HouseRules) -> None:
    if len(players) < 2:
        raise RuleError(_("a Pan table needs at least 2 players"), Hint("players.list", N_("list at least two players, e.g. Ana, Ben, Cruz")))
    if len(players) > rules.max_players:
        raise RuleError(_("{n} players is more than this table's {most}").format(n=len(players), most=rules.max_players),
                        _("raise max_players in the house rules, or seat fewer"))
    lowered = [p.lower() for p in players]
    for p in players:
        if not p.strip() or p.startswith("(") or any(ch in p for ch in ",|\n\t"):
            raise InputError(_("'{name}' cannot be a player's name").format(name=p),
                             _("use letters, digits, spaces, - or '"))
        if lowered.count(p.lower()) > 1:
            raise InputError(_("'{name}' is seated twice").format(name=p), _("give every player a different name"))


def apply(state: PanState, event: dict[str, Any], worded: bool = True, own: bool = False) -> Step[PanState]:
    """Apply one recorded event; raise PanError if the table could not have done it. Not
    ``worded``: the same state, payments and tallies, without the lines for people. ``own``:
    the caller gives ``state`` up, so it is changed and returned instead of copied (a melds'
    change still clones the meld: other states may share it)."""
    kind = event.get("kind")
    handler = _HANDLERS.get(kind) if kind is not None else None
    if handler is None:
        raise InputError(_("unknown event '{kind}'").format(kind=kind))
    new = state if own else state.clone()
    step = Step(new, None, None, None, worded)
    handler(new, event, step)
    hand = new.hand
    if hand:
        hand.events += 1
        hand.paid += step.payments
    return step


# -- seating ---------------------------------------------------------------------------

# The hint of a move made during a hand that is made only between hands, by move.
_BETWEEN_HANDS = {
    "seat": N_("seat players between hands: finish the hand first (or undo the deal)"),
    "leave": N_("players leave between hands: finish the hand first (or undo the deal)"),
    "deal": N_("deal the next hand between hands: finish the hand first (or undo the deal)"),
}


def _between_hands(state: PanState, what: str) -> None:
    hand = state.hand
    if hand is not None and not hand.over:
        raise RuleError(_("hand {number} is still being played").format(number=hand.number),
                        Hint(f"between.{what}", _BETWEEN_HANDS[what]))


def _seat_add(state: PanState, ev: SeatAddEvent, step: Step[PanState]) -> None:
    _between_hands(state, "seat")
    name, after = ev["player"], ev.get("after")
    _check_names(state.seats + [name], state.rules)
    at = state.seats.index(after) + 1 if after else len(state.seats)
    state.seats.insert(at, name)
    if step.worded:
        seats = ", ".join(state.seats)
        step.lines.append(_("{player} takes a seat after {after}; seats: {seats}").format(player=name, after=after, seats=seats)
                          if after else _("{player} takes a seat; seats: {seats}").format(player=name, seats=seats))


def _seat_remove(state: PanState, ev: SeatRemoveEvent, step: Step[PanState]) -> None:
    _between_hands(state, "leave")
    name = ev["player"]
    if name not in state.seats:
        raise InputError(_("{player} has no seat").format(player=name), Hint("seats.list", N_("check the name against the seated players")))
    if len(state.seats) <= 2:
        raise RuleError(_("a Pan table needs at least 2 players"), _("seat someone else first"))
    i = state.seats.index(name)
    following = state.seats[(i + 1) % len(state.seats)]
    if state.next_eldest == name:
        state.next_eldest = following
    if state.next_dealer == name:
        state.next_dealer = following
    state.seats.remove(name)
    if step.worded:
        step.lines.append(_("{player} leaves the table; seats: {seats}").format(player=name, seats=", ".join(state.seats)))


# -- the deal, drops, the tops ------------------------------------------------------------

def _deal(state: PanState, ev: PanDealEvent, step: Step[PanState]) -> None:
    _between_hands(state, "deal")
    rules, seats = state.rules, state.seats
    if ev.get("dealer"):
        dealer = ev["dealer"]
    elif state.next_eldest in seats:
        dealer = seats[seats.index(state.next_eldest) - 1]  # the player on the winner's left
    else:
        dealer = state.next_dealer if state.next_dealer in seats else seats[0]
    if dealer not in seats:
        raise InputError(_("{player} has no seat").format(player=dealer), _("deal with a seated player"))
    d = seats.index(dealer)
    order = seats[d + 1:] + seats[:d + 1]
    state.hands += 1
    hand = Hand(number=state.hands, dealer=dealer, eldest=order[0], order=order,
                status={p: IN for p in order})
    state.hand = hand
    step.tallies += [Tally(p, "hands") for p in order]
    ante = Params(hand=hand.number)
    if rules.ante:
        hand.tops = dict.fromkeys(order, rules.ante)
        if not rules.house_collection:  # (with one, each player's ante and collection go in turn)
            step.payments += reasons.payments(order, TOPS, rules.ante, "ante", ante)
    if rules.house_collection:
        for p in order:
            if rules.ante:
                step.payments.append(reasons.payment(p, TOPS, rules.ante, "ante", ante))
            step.payments.append(reasons.payment(p, HOUSE, rules.house_collection, "house"))
    if step.worded:
        step.lines.append(sentence(_("Hand {number}: {dealer} deals, {eldest} is eldest. Declarations: {order}."),
                                   number=hand.number, dealer=dealer, eldest=order[0], order=", ".join(order)))


def _open_hand(state: PanState) -> Hand:
    if state.hand is None:
        raise RuleError(_("no hand has been dealt yet"), Hint("deal.first", N_("deal the first hand")))
    if state.hand.over:
        raise RuleError(_("hand {number} is over ({result})").format(number=state.hand.number,
                                                                     result=result_words(state.hand.result)),
                        Hint("deal.next", N_("deal the next hand")))
    return state.hand


def result_words(result: str) -> str:
    """How a hand ended (``Hand.result``: English data, also in JSON) in the language in force."""
    if result == "void":
        return _("void")
    if result == "in play":
        return _("in play")
    for prefix, message in _RESULTS:
        if result.startswith(prefix):
            rest = result[len(prefix):]
            if prefix == "won by ":
                return _(message).format(player=rest)
            first, _and, second = rest.partition(" and ")
            return _(message).format(first=first, second=second)
    return result


_RESULTS = (("won by ", N_("won by {player}")), ("tops chopped by ", N_("tops chopped by {first} and {second}")))

# What a player who dropped, or whose hand is dead, cannot do, by move: one whole sentence each.
_CANNOT = {
    "drop": (N_("{player} dropped this hand and cannot drop"),
             N_("{player}'s hand is dead and cannot drop")),
    "stay": (N_("{player} dropped this hand and cannot stay"),
             N_("{player}'s hand is dead and cannot stay")),
    "meld": (N_("{player} dropped this hand and cannot meld"),
             N_("{player}'s hand is dead and cannot meld")),
    "add to a meld": (N_("{player} dropped this hand and cannot add to a meld"),
                      N_("{player}'s hand is dead and cannot add to a meld")),
    "split a meld": (N_("{player} dropped this hand and cannot split a meld"),
                     N_("{player}'s hand is dead and cannot split a meld")),
    "borrow": (N_("{player} dropped this hand and cannot borrow"),
               N_("{player}'s hand is dead and cannot borrow")),
    "spread": (N_("{player} dropped this hand and cannot spread"),
               N_("{player}'s hand is dead and cannot spread")),
    "go out": (N_("{player} dropped this hand and cannot go out"),
               N_("{player}'s hand is dead and cannot go out")),
    "be declared dead": (N_("{player} dropped this hand and cannot be declared dead"),
                         N_("{player}'s hand is dead and cannot be declared dead")),
    "be called for a foul": (N_("{player} dropped this hand and cannot be called for a foul"),
                             N_("{player}'s hand is dead and cannot be called for a foul")),
}


def _in_hand(hand: Hand, player: str, doing: str) -> None:
    status = hand.status.get(player)
    if status is None:
        raise RuleError(_("{player} is not dealt in hand {number}").format(player=player, number=hand.number),
                        _("players seated later join at the next deal"))
    if status == DROPPED:
        raise RuleError(_(_CANNOT[doing][0]).format(player=player), _undo_the_drop(hand, player))
    if status == DEAD:
        raise RuleError(_(_CANNOT[doing][1]).format(player=player),
                        _("a dead hand only pays until the next deal"))


def _undo_the_drop(hand: Hand, player: str) -> Hint:
    """The hint for a dropped player's move: what `undo` takes back before it reaches the drop."""
    since = hand.events - hand.dropped_at.get(player, hand.events)
    if since <= 0:
        return Hint("drop.undo", N_("if the drop was a mistake, undo takes it back"))
    return Hint("drop.undo_back", N_("undo takes back the last event first: the drop is {n} undos back"), n=since + 1)


def _drop(state: PanState, ev: DropEvent, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "drop")
    if hand.started:
        raise RuleError(_("{player} cannot drop: play has begun (the first meld is down)").format(player=player),
                        _("players drop only before the first meld; once in, always in"))
    hand.status[player] = DROPPED
    hand.dropped_at = {**hand.dropped_at, player: hand.events + 1}  # shared with the state before
    cost = state.rules.drop_cost
    if cost:
        step.payments.append(reasons.payment(player, TOPS, cost, "drop"))
        hand.tops[player] = hand.tops.get(player, 0) + cost
    step.tallies.append(Tally(player, "dropped"))
    if step.worded:
        step.lines.append(ngettext("{player} drops and puts {n} on the tops.", "{player} drops and puts {n} on the tops.",
                                   cost).format(player=player, n=cost)
                          if cost else _("{player} drops.").format(player=player))
    if state.rules.last_player_wins_if_all_drop and len(hand.status) - list(hand.status.values()).count(DROPPED) == 1:
        last = next(p for p in hand.order if hand.status[p] != DROPPED)
        _win(state, hand, last, step, _("Everyone else dropped; {player} takes the tops without play.").format(player=last)
             if step.worded else "")


def _stay(state: PanState, ev: StayEvent, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "stay")
    if player not in hand.stayed:
        hand.stayed.append(player)
    if step.worded:
        step.lines.append(_("{player} stays.").format(player=player))


def _void(state: PanState, ev: VoidEvent, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    returned = Params(hand=hand.number)
    for p, chips in hand.tops.items():
        if chips:
            step.payments.append(reasons.payment(TOPS, p, chips, "tops_returned", returned))
    hand.tops = {}
    hand.over, hand.result = True, "void"
    state.next_dealer, state.next_eldest = hand.dealer, None
    if step.worded:
        step.lines.append(_("Hand {number} is void: the tops go back; {dealer} deals again.").format(
            number=hand.number, dealer=hand.dealer))


def _chop(state: PanState, ev: ChopEvent, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    if not state.rules.tops_chop_allowed:
        raise RuleError(_("chopping the tops is not allowed at this table"), _("house rule tops_chop_allowed = false"))
    left = [p for p in hand.order if hand.status[p] == IN]
    if len(left) != 2 or hand.started:
        raise RuleError(_("the tops can be chopped only by the last two players, before any meld"),
                        ngettext("{n} players are in", "{n} players are in", len(left)).format(n=len(left)))
    total = hand.tops_total()
    first = total - total // 2  # the odd chip goes to the earlier player in turn
    for p, share in zip(left, (first, total // 2)):
        if share:
            step.payments.append(reasons.payment(TOPS, p, share, "chop"))
    hand.tops = {}
    hand.over, hand.result = True, f"tops chopped by {left[0]} and {left[1]}"
    _rotate_after(state, hand, None)
    if step.worded:
        step.lines.append(_("{first} and {second} chop the tops ({chips}).").format(first=left[0], second=left[1], chips=total))


# -- melding -----------------------------------------------------------------------------

def _payers(state: PanState, hand: Hand, player: str) -> list[str]:
    if state.rules.condition_payers == "all_other_seated":
        return [p for p in hand.order if p != player]
    return [p for p in hand.order if p != player and hand.status[p] != DROPPED]


def _collect(state: PanState, hand: Hand, player: str, each: int, code: str, params: Params, step: Step[PanState],
             meld: Meld) -> None:
    if each <= 0:
        return
    payers = _payers(state, hand, player)
    pays = reasons.payments(payers, player, each, code, params)
    step.payments += pays
    hand.collected += pays
    meld.pays += pays
    if payers:
        step.tallies.append(Tally(player, "condition_chips", each * len(payers)))


def _check_shoe(state: PanState, hand: Hand, extra: tuple[str, ...]) -> None:
    # The board was within the shoe before (every card on it was checked when it came), so
    # only the copies of the cards coming now can be too many.
    shoe = state.rules.shoe()
    board = [c for m in hand.melds.values() for c in m.cards]
    for card in set(extra):
        if extra.count(card) + board.count(card) > shoe[card]:
            # Translators: {card} is a card code such as 5♠, never translated
            raise RuleError(_("that would put more {card} on the table than the shoe holds ({n})").format(
                card=format_cards([card]), n=shoe[card]), _("check the cards: one of them must be another card"))


def _check_count(state: PanState, hand: Hand, player: str, extra: int) -> None:
    total = hand.melded(player) + extra
    if total > 11:
        raise RuleError(ngettext("{player} would have {n} cards melded", "{player} would have {n} cards melded",
                                 total).format(player=player, n=total),
                        _("a player holds 10 cards and goes out with the 11th"))


def _meld_cards(ev: MeldEvent | AddEvent | PanOutEvent) -> tuple[str, ...]:
    return parse_cards(ev.get("cards", []))


def _new_meld(state: PanState, hand: Hand, player: str, cards: tuple[str, ...], step: Step[PanState]) -> Meld:
    ruling = judge(cards, state.rules)
    if not ruling.valid:
        raise RuleError(ruling.reason)
    assert ruling.condition is not None  # a valid ruling names its condition
    _check_shoe(state, hand, cards)
    _check_count(state, hand, player, len(cards))
    meld = Meld(hand.next_meld, player, tuple(cards), ruling.condition)
    hand.melds[meld.number] = meld
    hand.next_meld += 1
    worth = ruling.worth  # the meld's worth: the ruling judged these very cards
    _collect(state, hand, player, worth, "condition",
             Params(meld=meld.number, tag=meld.tag, cards=in_meld_order(meld.cards)), step, meld)
    if worth:
        step.tallies.append(Tally(player, "conditions"))
        meld.counted = True
    if step.worded:
        if worth:
            step.lines.append(_("{player} melds {cards} as meld {number}: {condition}, {n} from each payer").format(
                player=player, cards=meld.shown(), number=meld.number, condition=conditions.describe(meld.tag, cards),
                n=worth))
        else:
            step.lines.append(_("{player} melds {cards} as meld {number}: no condition").format(
                player=player, cards=meld.shown(), number=meld.number))
    return meld


def _meld(state: PanState, ev: MeldEvent, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "meld")
    _new_meld(state, hand, player, _meld_cards(ev), step)
    _maybe_out(state, hand, player, step)


def addition_targets(state: PanState, player: str, cards: tuple[str, ...]) -> list[Meld]:
    """The player's melds that can legally take these cards."""
    hand = _open_hand(state)
    return [m for m in hand.melds_of(player) if judge_addition(m.cards, m.tag, cards, state.rules).legal]


def _add_cards(state: PanState, hand: Hand, player: str, cards: tuple[str, ...], to: int | None, step: Step[PanState]) -> None:
    if not cards:
        raise InputError(_("no cards to add"), Hint("add.cards", N_("name the cards, e.g. 5S")))
    if to is not None:
        meld = hand.melds.get(to)
        if meld is None:
            raise InputError(_("there is no meld {number} on the board").format(number=to),
                             MELD_NUMBERS)
        if meld.owner != player:
            raise RuleError(_("meld {number} is {owner}'s, not {player}'s").format(number=to, owner=meld.owner, player=player),
                            _("players add only to their own melds"))
    else:
        own = hand.melds_of(player)
        if not own:
            raise RuleError(_("{player} has no melds to add to").format(player=player), Hint("meld.new", N_("lay them as a new meld")))
        fits = addition_targets(state, player, cards)
        if not fits:
            if len(own) == 1:
                raise RuleError(judge_addition(own[0].cards, own[0].tag, cards, state.rules).reason,
                                _("add to a meld the cards fit, or lay a new meld"))
            listed = ", ".join(_("meld {number} {cards}").format(number=m.number, cards=m.shown()) for m in own)
            raise RuleError(_("{cards} fits none of {player}'s melds ({melds})").format(
                cards=format_cards(cards), player=player, melds=listed), _("check the cards, or lay them as a new meld"))
        if len(fits) > 1:
            numbers = [str(m.number) for m in fits]
            raise InputError(_("{cards} fits {player}'s melds {numbers}").format(
                cards=format_cards(cards), player=player, numbers=_and_list(numbers)),
                Hint("add.which", N_("say which meld, e.g. meld {number}"), number=fits[0].number))
        meld = fits[0]
    ruling = judge_addition(meld.cards, meld.tag, cards, state.rules)
    if not ruling.legal:
        raise RuleError(ruling.reason, _("add only cards that keep the meld legal"))
    assert ruling.tag is not None  # a legal addition names the meld's tag after it
    _check_shoe(state, hand, cards)
    _check_count(state, hand, player, len(cards))
    before = Params(meld=meld.number, added=cards, tag=meld.tag, cards=in_meld_order(meld.cards))
    meld = hand.changing(meld)
    meld.cards, meld.tag, meld.grown = meld.cards + tuple(cards), ruling.tag, True
    _collect(state, hand, player, ruling.pays, "addition", before, step, meld)
    if step.worded:
        said = dict(player=player, cards=format_cards(cards), number=meld.number, now=meld.shown(), n=ruling.pays)
        step.lines.append(_("{player} adds {cards} to meld {number}, now {now}: {n} from each payer").format(**said)
                          if ruling.pays else _("{player} adds {cards} to meld {number}, now {now}: pays nothing").format(**said))


def _add(state: PanState, ev: AddEvent, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "add to a meld")
    _add_cards(state, hand, player, _meld_cards(ev), ev.get("to"), step)
    _maybe_out(state, hand, player, step)


def _own_meld(hand: Hand, player: str, number: int | None) -> Meld:
    meld = hand.melds.get(number) if number is not None else None  # None: the event names no meld
    if meld is None:
        raise InputError(_("there is no meld {number} on the board").format(number=number),
                         MELD_NUMBERS)
    if meld.owner != player:
        raise RuleError(_("meld {number} is {owner}'s, not {player}'s").format(number=number, owner=meld.owner, player=player),
                        _("players rearrange only their own melds"))
    return meld


def _apply_rearrangement(state: PanState, hand: Hand, player: str, olds: list[Meld], parts: list[Any],
                         step: Step[PanState], borrow: bool, what: str, said: dict[str, Any] | None = None) -> None:
    from pancli.games.panguingue.rearrange import HAND, rearrange  # noqa: PLC0415 only rearranging needs it: not at start-up

    results = rearrange([(m.cards, m.tag, m.grown) for m in olds], parts, state.rules, borrow=borrow)
    added = sum(s is HAND for p in parts for s in p.sources)
    new_cards = tuple(c for p in parts for c, s in zip(p.cards, p.sources) if s is HAND)
    _check_shoe(state, hand, new_cards)
    _check_count(state, hand, player, added)
    for m in olds:
        del hand.melds[m.number]
    made = []
    for r in results:
        number = olds[r.continues].number if r.continues is not None else hand.next_meld
        if r.continues is None:
            hand.next_meld += 1
        kept = [m for m in olds if m.number == number]
        meld = Meld(number, player, r.cards, r.tag, r.grown, list(kept[0].pays) if kept else [],
                    kept[0].counted if kept else False)
        hand.melds[number] = meld
        made.append(_("meld {number} is {cards}").format(number=number, cards=format_cards(meld_order(r.cards))))
        if r.pays:
            _collect(state, hand, player, r.pays, r.code, Params(r.params, meld=number), step, meld)
            if r.continues is None:
                step.tallies.append(Tally(player, "conditions"))
                meld.counted = True
    pays = sum(r.pays for r in results)
    hand.melds = dict(sorted(hand.melds.items()))
    if step.worded:
        line = _REARRANGED[what][0 if pays else 1]
        step.lines.append(_(line).format(player=player, melds=", ".join(made), n=pays, **(said or {})))


def _split(state: PanState, ev: SplitEvent, step: Step[PanState]) -> None:
    from pancli.games.panguingue.rearrange import Part  # noqa: PLC0415 only rearranging needs it: not at start-up

    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "split a meld")
    meld = _own_meld(hand, player, ev.get("meld"))
    parts = [parse_cards(p) for p in ev.get("into", [])]
    if len(parts) < 2:
        raise InputError(_("a split needs at least two parts"), Hint("split.parts", N_("e.g. the parts AD 2D 3D / 4D 5D 6D")))
    if Counter(c for p in parts for c in p) != Counter(meld.cards):
        raise RuleError(_("the parts do not hold exactly the cards of meld {number} ({cards})").format(
            number=meld.number, cards=meld.shown()),
            Hint("split.add_first", N_("a split divides one meld; add cards from the hand to it first")))
    _apply_rearrangement(state, hand, player, [meld], [Part(p, (0,) * len(p)) for p in parts], step,
                         borrow=False, what="split", said={"number": meld.number})
    _maybe_out(state, hand, player, step)


def _borrow(state: PanState, ev: BorrowEvent, step: Step[PanState]) -> None:
    from pancli.games.panguingue.rearrange import HAND, Part  # noqa: PLC0415 only rearranging needs it: not at start-up

    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "borrow")
    meld = _own_meld(hand, player, ev.get("from"))
    taken = parse_cards(ev.get("cards", []))
    with_cards = parse_cards(ev.get("with", []))
    if not taken:
        raise InputError(_("name the cards to borrow"), Hint("borrow.cards", N_("e.g. meld 2 lends 7C, the hand gives 7H 7D")))
    if not with_cards:  # spec §5.6: a meld's own cards rearranged with no hand card is a split
        raise RuleError(_("a borrow completes a new meld with cards from {player}'s hand, and none were named").format(
            player=player),
            Hint("borrow.with", N_("name the cards from the hand, or split meld {number} instead (the split rules apply)"),
                 number=meld.number))
    rest = Counter(meld.cards)
    rest.subtract(Counter(taken))
    if any(n < 0 for n in rest.values()):
        raise RuleError(_("meld {number} ({cards}) does not hold {taken}").format(
            number=meld.number, cards=meld.shown(), taken=format_cards(taken)), _("borrow only cards of that meld"))
    remainder = tuple(rest.elements())
    pieces = [remainder]
    if not check_meld(remainder, state.rules.mixed_set_additions).valid:
        one_suit_rope = len({c[1] for c in remainder}) == 1 and len({c[0] for c in remainder}) == len(remainder)
        if one_suit_rope and len(rope_pieces(remainder)) > 1:
            pieces = [tuple(p) for p in rope_pieces(remainder)]
        bad = [p for p in pieces if not check_meld(p, state.rules.mixed_set_additions).valid]
        if bad:
            raise RuleError(_("borrowing {taken} would leave {left}, which is not a meld").format(
                taken=format_cards(taken), left=format_cards(meld_order(bad[0]))),
                _("what is left of a meld must still be legal"))
    parts = [Part(p, (0,) * len(p)) for p in pieces]
    parts.append(Part(tuple(taken) + tuple(with_cards), (0,) * len(taken) + (HAND,) * len(with_cards)))
    _apply_rearrangement(state, hand, player, [meld], parts, step, borrow=True,
                         what="borrow", said={"taken": format_cards(taken), "number": meld.number})
    _maybe_out(state, hand, player, step)


def _spread(state: PanState, ev: SpreadEvent, step: Step[PanState]) -> None:
    from pancli.games.panguingue.rearrange import find_sources, rearrange  # noqa: PLC0415 only rearranging needs it: not at start-up

    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "spread")
    layout = [parse_cards(m) for m in ev.get("melds", [])]
    if not layout:
        raise InputError(_("the spread names no melds"), Hint("spread.example", N_("e.g. AS 2S 3S / 5S 5S 5S")))
    for m in layout:
        check = check_meld(m, state.rules.mixed_set_additions, state.rules.max_meld_size)
        if not check.valid:
            raise RuleError(check.reason, _("every meld of the spread must be legal"))
    olds = hand.melds_of(player)
    best, first_error = None, None
    for parts in find_sources([m.cards for m in olds], layout):
        try:
            results = rearrange([(m.cards, m.tag, m.grown) for m in olds], parts, state.rules)
        except RuleError as e:
            first_error = first_error or e
            continue
        kept = sum(r.continues is not None for r in results)
        key = (-kept, sum(r.pays for r in results))
        if best is None or key < best[0]:
            best = (key, parts)
    if best is None:
        raise first_error or RuleError(_("that spread cannot be reached from the melds on the board"))
    _apply_rearrangement(state, hand, player, olds, best[1], step, borrow=False, what="spread")
    _maybe_out(state, hand, player, step)


# -- going out -------------------------------------------------------------------------

def _out(state: PanState, ev: PanOutEvent, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "go out")
    cards = _meld_cards(ev)
    before = hand.melded(player)
    if cards:
        as_meld = ev.get("to") is None and len(cards) >= 3 and check_meld(cards, state.rules.mixed_set_additions).valid
        if as_meld:
            _new_meld(state, hand, player, cards, step)
        else:
            _add_cards(state, hand, player, cards, ev.get("to"), step)
    melded = hand.melded(player)
    if melded != 11:
        raise _short_out(player, before, cards, melded)
    _maybe_out(state, hand, player, step)


def _short_out(player: str, before: int, cards: Sequence[str], melded: int) -> RuleError:
    """A `pan out` that leaves fewer than 11 cards melded, explained for the situation it was typed in."""
    spread = Hint("out.spread_all", N_("lay the whole hand at once as a spread: CARDS / CARDS / CARDS"), name=player.lower())
    if before == 0 and not cards:
        return RuleError(_("{player} has no melds yet; going out needs 11 cards melded").format(player=player), spread)
    if before == 0:
        return RuleError(_("{cards} would be {player}'s only meld; going out needs 11 cards melded").format(
            cards=format_cards(cards), player=player), spread)
    if cards:
        return RuleError(
            ngettext("with {cards} {player} would have {n} cards melded; going out needs 11",
                     "with {cards} {player} would have {n} cards melded; going out needs 11", melded).format(
                cards=format_cards(cards), player=player, n=melded),
            Hint("out.more", N_("record their other melds first ({n} more cards), then go out with the last cards"),
                 n=11 - melded))
    return RuleError(ngettext("{player} has {n} cards melded; going out needs 11",
                              "{player} has {n} cards melded; going out needs 11", melded).format(player=player, n=melded),
                     Hint("out.final", N_("name the final cards"), name=player.lower()))


def _maybe_out(state: PanState, hand: Hand, player: str, step: Step[PanState]) -> None:
    if hand.melded(player) < 11:
        return
    layout = hand.melds_of(player)
    if not 1 <= len(layout) <= 3:
        raise RuleError(ngettext("{player}'s layout has {n} melds", "{player}'s layout has {n} melds", len(layout)).format(
            player=player, n=len(layout)), _("11 cards make 1 to 3 melds"))
    _win(state, hand, player, step, None)


def recollect(state: PanState, melds: list[Meld]) -> list[tuple[Meld, int]]:
    """What each of the winner's melds pays again when they go out (§7.1, knob going_out_recollect)."""
    rules = state.rules
    out = []
    for m in melds:
        tag = conditions.tag_of(m.cards, rules) if rules.condition_recognition == "final_layout" else m.tag
        if rules.going_out_recollect == "none" or tag == conditions.NONE:
            value = 0
        elif rules.going_out_recollect == "base_only":
            value = conditions.base_value(tag, m.cards, rules)
        else:
            value = conditions.worth(tag, m.cards, rules)
        out.append((m, value))
    return out


def _win(state: PanState, hand: Hand, winner: str, step: Step[PanState], why: str | None) -> None:
    rules = state.rules
    if why is None:  # went out: base and conditions from every payer
        again = [(m, v) for m, v in recollect(state, hand.melds_of(winner)) if v]
        cond = sum(v for _m, v in again)
        each = rules.going_out_base + cond
        out = Params(winner=winner, base=rules.going_out_base, conditions=cond)
        step.payments += reasons.payments(_payers(state, hand, winner), winner, each, "going_out", out)
        if step.worded:
            said = dict(player=winner, n=each, base=rules.going_out_base, conditions=cond)
            step.lines.append(_("{player} goes out: {n} from each payer (base {base} + conditions {conditions}).").format(**said)
                              if cond else _("{player} goes out: {n} from each payer (base {base}).").format(**said))
    elif step.worded:
        step.lines.append(why)
    tops = hand.tops_total()
    if tops:
        step.payments.append(reasons.payment(TOPS, winner, tops, "tops"))
        if step.worded:
            step.lines.append(_("{player} takes the tops: {chips}.").format(player=winner, chips=tops))
    hand.tops = {}
    hand.winner, hand.over = winner, True
    hand.result = f"won by {winner}"
    step.tallies.append(Tally(winner, "won"))
    _rotate_after(state, hand, winner)


def _rotate_after(state: PanState, hand: Hand, winner: str | None) -> None:
    if winner and state.rules.next_deal == "winner_is_eldest":
        state.next_eldest, state.next_dealer = winner, None
    else:
        seats = state.seats
        i = seats.index(hand.dealer) if hand.dealer in seats else 0
        state.next_dealer, state.next_eldest = seats[(i + 1) % len(seats)], None


# -- irregularities (§8) ---------------------------------------------------------------

def _refund(hand: Hand, player: str, step: Step[PanState], code: str, params: dict[str, Any]) -> int:
    total = 0
    for pay in [p for p in hand.collected if p.payee == player]:
        step.payments.append(reasons.payment(player, pay.payer, pay.chips, code,
                                             Params(params, returns=reasons.returning(pay))))
        hand.collected.remove(pay)
        total += pay.chips
    if total:
        step.tallies.append(Tally(player, "condition_chips", -total))
    return total


def _dead(state: PanState, ev: DeadEvent | _DeadAfterFoul, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    player = ev["player"]
    _in_hand(hand, player, "be declared dead")
    why = ev.get("why")
    if ev.get("after_discard"):
        returned = _refund(hand, player, step, "foul_return", {"after_discard": True})
    else:
        returned = _refund(hand, player, step, "dead_return", {"why": why} if ev.get("why") else {})
    for m in hand.melds_of(player):
        del hand.melds[m.number]
    hand.status[player] = DEAD
    step.tallies.append(Tally(player, "dead"))
    if step.worded:
        shown = _(FOUL_AFTER_DISCARD) if why == FOUL_AFTER_DISCARD and ev.get("after_discard") else (why or _(DEAD_HAND))
        step.lines.append(ngettext(
            "{player}'s hand is dead ({why}): returns {n} chip won this hand, throws in their cards, and keeps paying.",
            "{player}'s hand is dead ({why}): returns {n} chips won this hand, throws in their cards, and keeps paying.",
            returned).format(player=player, why=shown, n=returned))
    alive = [p for p in hand.order if hand.status[p] == IN]
    if not alive:
        if step.worded:
            step.lines.append(str(Hint("void.now", N_("No live hand is left: void the hand to end it."))))


def _foul(state: PanState, ev: FoulEvent, step: Step[PanState]) -> None:
    hand = _open_hand(state)
    player = ev["player"]
    if ev.get("after_discard"):
        _dead(state, {**ev, "why": FOUL_AFTER_DISCARD, "after_discard": True}, step)
        return
    _in_hand(hand, player, "be called for a foul")
    number = ev.get("meld")
    if number is None:
        raise InputError(Hint("foul.which", N_("say which meld is foul, or that it was found after the discard")),
                         _("a foul found before the discard costs only that meld's chips"))
    meld = _own_meld(hand, player, number)
    returned = 0
    for pay in meld.pays:
        step.payments.append(reasons.payment(player, pay.payer, pay.chips, "foul_return",
                                             Params(meld=number, returns=reasons.returning(pay))))
        hand.collected.remove(pay)
        returned += pay.chips
    if returned:
        step.tallies.append(Tally(player, "condition_chips", -returned))
    if meld.counted:  # the condition goes back with its chips: it was never laid
        step.tallies.append(Tally(player, "conditions", -1))
    del hand.melds[number]
    if step.worded:
        said = dict(whose=whose(player), player=player, number=number, n=returned)
        step.lines.append(ngettext("{whose} meld {number} is foul: its cards go back to {whose} hand, "
                                   "and {player} returns {n} chip.",
                                   "{whose} meld {number} is foul: its cards go back to {whose} hand, "
                                   "and {player} returns {n} chips.", returned).format(**said)
                          if returned else
                          _("{whose} meld {number} is foul: its cards go back to {whose} hand.").format(**said))


# Each handler takes its kind's payload (pancli/core/events.py); ``apply`` gives it the stored one.
_HANDLERS: dict[str, Callable[[PanState, Any, Step[PanState]], None]] = {
    "seat_add": _seat_add, "seat_remove": _seat_remove,
    "deal": _deal, "drop": _drop, "stay": _stay, "void": _void, "chop": _chop,
    "meld": _meld, "add": _add, "split": _split, "borrow": _borrow, "spread": _spread,
    "out": _out, "dead": _dead, "foul": _foul,
}
