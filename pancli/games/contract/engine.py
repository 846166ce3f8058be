"""Mendelev's five-deal contract rummy: cards, dispute checks and scoring (house rules: rules.py).

Implements spec other-pan-games.md Part A: the contracts and meld rules of A.2 rules 1-9 and
A.5, the «Можно?» buying rules 10-15 with both turn readings of Q-A3, the deal scoring of rule 8 and
A.7, and the recommended defaults of A.3 and Q-A1..Q-A10 (two 52-card packs, no jokers, sequences
of 3+, ace low or high without wrapping, A = 15, highest total after deal 5 wins).

Decisions where the spec is silent:
* Preset ``contract`` (Western contract rummy): runs of 4+, the buy leaves the turn order alone
  (R2), and "penalty" scoring (cards left count plus, no going-out bonus, lowest total wins).
* A card may appear at most twice in one meld and at most twice in everything recorded during one
  deal (two packs); a set may hold identical cards unless ``duplicates_in_sets`` is off (Q-A9).
* An ``out`` event checks that the player's contract is down only when contracts are being recorded
  in that deal (someone's contract is down); otherwise the scorekeeper takes the dealer's word.
* Cards left in a hand may be given as cards or, when the table counted them, as a points figure.
* A buyer refused by a player who is not next in turn: under R1 play goes on from the refuser's
  left; under R2 the player who was in turn still plays next.
* Meld numbers in ``lay_off`` events count from 1 in the order melds reached the table this deal.

Payments: none, so no payment codes. A deal's score is kept as tallies, whose ``stat`` is their
code: ``points`` (the change to a player's total), ``deals_played``, ``deals_won``.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pancli.core.errors import InputError, RuleError
from pancli.core.i18n import N_, _, ngettext, pgettext

if TYPE_CHECKING:
    from pancli.core.events import ContractDealEvent, ContractEvent, ContractOutEvent, HandEvent, LayOffEvent
from pancli.core.ledger import Step, Tally
from pancli.core.words import signed as with_sign
from pancli.games.contract.rules import PACKS, ContractRules
from pancli.games.frenchpack import (
    RANK_NAMES as _ALL_RANK_NAMES,
    SUIT_SYMBOLS,
    Card,
    card_reader,
    format_cards,
    suggest,
)

# ---------------------------------------------------------------- cards

RANK_NAMES = {r: name for r, name in _ALL_RANK_NAMES.items()}  # 2..14, ace = 14 (it may also sit low)
# Translators: the card codes and suit symbols stay as they are
_PACK = N_("a standard pack holds ranks 2-10, J, Q, K, A in suits S H D C (♠ ♥ ♦ ♣), e.g. 7S, TH, 10♦, QC")
parse_card, parse_cards = card_reader(RANK_NAMES, N_("the contract game's packs"), _PACK)


def parse_melds(text: str | Iterable[Any]) -> list[list[Card]]:
    """Read melds written ``7S 7H 7D + QC QD QS`` (``+``, ``/`` or ``|`` between) or as lists."""
    groups = re.split(r"[+/|]", text) if isinstance(text, str) else list(text)
    melds = [parse_cards(g) for g in groups]
    return [m for m in melds if m]


# ---------------------------------------------------------------- melds and contracts

CONTRACTS: dict[int, dict[str, int]] = {
    1: {"set": 2, "sequence": 0},
    2: {"set": 1, "sequence": 1},
    3: {"set": 0, "sequence": 2},
    4: {"set": 3, "sequence": 0},
    5: {"set": 2, "sequence": 1},
}
DEALS = len(CONTRACTS)


@dataclass(frozen=True)
class Verdict:
    legal: bool
    reason: str  # one line a dealer can read aloud


# Each deal's contract, one whole message each (Russian and Polish say them in words).
CONTRACT_WORDS = {
    1: N_("2 sets"),
    2: N_("1 set and 1 sequence"),
    3: N_("2 sequences"),
    4: N_("3 sets"),
    5: N_("2 sets and 1 sequence"),
}


def describe_contract(deal: int) -> str:
    return _(CONTRACT_WORDS[_checked_deal(deal)])


def _count_words(counts: dict[str, int]) -> str:
    sets, sequences = counts.get("set", 0), counts.get("sequence", 0)
    for deal, need in CONTRACTS.items():
        if need == {"set": sets, "sequence": sequences}:
            return describe_contract(deal)
    set_words = ngettext("{n} set", "{n} sets", sets).format(n=sets)
    sequence_words = ngettext("{n} sequence", "{n} sequences", sequences).format(n=sequences)
    if sets and sequences:
        # Translators: {sets} is e.g. "3 sets", {sequences} e.g. "2 sequences"
        return _("{sets} and {sequences}").format(sets=set_words, sequences=sequence_words)
    if sets:
        return set_words
    if sequences:
        return sequence_words
    return pgettext("melds laid", "nothing")


def _checked_deal(deal: Any) -> int:
    if isinstance(deal, bool) or not isinstance(deal, int) or deal not in CONTRACTS:
        raise InputError(_("there is no deal {deal}").format(deal=repr(deal)),
                         _("the game has deals 1 to {deals}").format(deals=DEALS))
    return deal


def _rank_plural(rank: int) -> str:
    """The cards of a set's rank, as in "a set of jacks" (Russian and Polish: the genitive)."""
    words = {
        2: pgettext("a set of", "2s"), 3: pgettext("a set of", "3s"), 4: pgettext("a set of", "4s"),
        5: pgettext("a set of", "5s"), 6: pgettext("a set of", "6s"), 7: pgettext("a set of", "7s"),
        8: pgettext("a set of", "8s"), 9: pgettext("a set of", "9s"), 10: pgettext("a set of", "10s"),
        11: pgettext("a set of", "jacks"), 12: pgettext("a set of", "queens"),
        13: pgettext("a set of", "kings"), 14: pgettext("a set of", "aces"),
    }
    return words[rank]


def _sequence_values(ranks: list[int]) -> list[int] | None:
    """The ranks in order if they run without a gap, the ace counted high or low (never both)."""
    for ace in (14, 1):
        values = sorted(ace if r == 14 else r for r in ranks)
        if values == list(range(values[0], values[0] + len(values))):
            return values
    return None


def classify_meld(cards: list[Card], rules: ContractRules) -> tuple[str | None, str]:
    """Return ``("set" | "sequence", description)``, or ``(None, why it is no legal meld)``."""
    shown = format_cards(cards)
    if len(cards) < 3:
        return None, _("{cards} is too short: a meld needs at least 3 cards").format(cards=shown)
    too_many = [c for c, n in Counter(cards).items() if n > PACKS]
    if too_many:
        return None, _("{cards} holds {card} more than {packs} times; two packs have only {packs}").format(
            cards=shown, card=too_many[0], packs=PACKS)
    if len({c.rank for c in cards}) == 1:
        rank = _rank_plural(cards[0].rank)
        if len(cards) > rules.max_set:
            return None, _("a set holds at most {most} cards; this set of {rank} has {n}").format(
                most=rules.max_set, rank=rank, n=len(cards))
        if not rules.duplicates_in_sets and len(set(cards)) < len(cards):
            return None, _("{cards} repeats a card; house rule duplicates_in_sets forbids identical cards "
                           "in a set").format(cards=shown)
        # Translators: {rank} is e.g. "jacks" or "7s" (the "a set of" words)
        return "set", _("set of {rank}").format(rank=rank)
    if len({c.suit for c in cards}) > 1:
        return None, _("{cards} is neither a set (one rank) nor a sequence (one suit)").format(cards=shown)
    suit = SUIT_SYMBOLS[cards[0].suit]
    if len(set(cards)) < len(cards):
        return None, _("{cards} repeats a card; a sequence cannot hold the same card twice").format(cards=shown)
    if len(cards) < rules.min_sequence:
        return None, _("a sequence needs at least {least} cards; {cards} has {n}").format(
            least=rules.min_sequence, cards=shown, n=len(cards))
    if len(cards) > rules.max_sequence:
        return None, _("a sequence holds at most {most} cards; {cards} has {n}").format(
            most=rules.max_sequence, cards=shown, n=len(cards))
    ranks = [c.rank for c in cards]
    if _sequence_values(ranks) is None:
        if 14 in ranks and 13 in ranks and 2 in ranks:
            return None, _("{cards} wraps round the ace; an ace goes below the 2 or above the king, "
                           "not both").format(cards=shown)
        return None, _("{cards} is not consecutive: a sequence has no gaps").format(cards=shown)
    # Translators: {suit} is a suit symbol (♠ ♥ ♦ ♣)
    return "sequence", _("{n}-card sequence in {suit}").format(n=len(cards), suit=suit)


def validate_contract(rules: ContractRules, deal: int, melds: list[list[Card]]) -> Verdict:
    """Is this lay-down exactly the contract of ``deal`` (A.2 rules 1-3, A.5)?"""
    need = CONTRACTS[_checked_deal(deal)]
    kinds: list[str] = []
    for number, meld in enumerate(melds, 1):
        kind, what = classify_meld(meld, rules)
        if kind is None:
            return Verdict(False, _("combination {number} is not a legal meld: {why}").format(
                number=number, why=what))
        kinds.append(kind)
    have = {kind: kinds.count(kind) for kind in need}
    if have != need:
        return Verdict(False, _contract_mismatch(deal, need, have, melds))
    sets = [m for m, k in zip(melds, kinds) if k == "set"]
    set_ranks = [m[0].rank for m in sets]
    if len(set(set_ranks)) < len(set_ranks):
        twice = _rank_plural(next(r for r in set_ranks if set_ranks.count(r) > 1))
        # Translators: {rank} is e.g. "jacks" or "7s" (the "a set of" words)
        return Verdict(False, _("two sets are {rank}; the sets of a contract must be of different "
                                "ranks").format(rank=twice))
    seq_suits = [m[0].suit for m, k in zip(melds, kinds) if k == "sequence"]
    if len(set(seq_suits)) < len(seq_suits):
        twice = SUIT_SYMBOLS[next(s for s in seq_suits if seq_suits.count(s) > 1)]
        return Verdict(False, _("two sequences are in {suit}; the sequences of a contract must be in "
                                "different suits").format(suit=twice))
    described = "; ".join(classify_meld(m, rules)[1] for m in melds)
    return Verdict(True, _("valid contract for deal {deal} ({contract}): {melds}").format(
        deal=deal, contract=_count_words(need), melds=described))


def _contract_mismatch(deal: int, need: dict[str, int], have: dict[str, int], melds: list[list[Card]]) -> str:
    contract = _count_words(need)
    unwanted = [kind for kind in need if have[kind] and not need[kind]]
    if unwanted:
        if unwanted[0] == "set":
            return _("deal {deal} calls for exactly {contract}; a set is not part of this contract").format(
                deal=deal, contract=contract)
        return _("deal {deal} calls for exactly {contract}; a sequence is not part of this contract").format(
            deal=deal, contract=contract)
    laid = sum(have.values())
    if laid > sum(need.values()):
        return ngettext("deal {deal} calls for exactly {contract}, not {n} combination; no extra "
                        "combinations may be laid",
                        "deal {deal} calls for exactly {contract}, not {n} combinations; no extra "
                        "combinations may be laid", laid).format(deal=deal, contract=contract, n=laid)
    if any(len(m) >= 6 for m in melds):
        return _("deal {deal} calls for exactly {contract}; only {laid} laid, so the contract is incomplete "
                 "(a long set is still one combination)").format(deal=deal, contract=contract,
                                                                  laid=_count_words(have))
    return _("deal {deal} calls for exactly {contract}; only {laid} laid, so the contract is "
             "incomplete").format(deal=deal, contract=contract, laid=_count_words(have))


def validate_lay_off(rules: ContractRules, meld: list[Card], cards: list[Card],
                     contract_down: bool = True) -> Verdict:
    """May ``cards`` be laid off onto ``meld`` on the table (A.2 rules 4-5, A.5)?"""
    if not contract_down and not rules.lay_off_before_contract:
        return Verdict(False, _("lay off only after your own contract is down (house rule "
                                "lay_off_before_contract)"))
    if not cards:
        return Verdict(False, _("name the cards to lay off"))
    kind, what = classify_meld(meld, rules)
    if kind is None:
        return Verdict(False, _("the meld on the table is not legal: {why}").format(why=what))
    limit = rules.max_set if kind == "set" else rules.max_sequence
    if len(meld) + len(cards) > limit:
        # Translators: {meld} is e.g. "set of jacks" or "4-card sequence in ♠"
        text = (_("a set holds at most {most} cards; this {meld} already has {n}") if kind == "set"
                else _("a sequence holds at most {most} cards; this {meld} already has {n}"))
        return Verdict(False, text.format(most=limit, meld=what, n=len(meld)))
    grown_kind, grown = classify_meld(meld + cards, rules)
    if grown_kind != kind:
        return Verdict(False, _("{cards} does not fit the {meld}: {why}").format(
            cards=format_cards(cards), meld=what, why=grown))
    return Verdict(True, _("{cards} lays off onto the {meld}, making it {n} cards").format(
        cards=format_cards(cards), meld=what, n=len(meld) + len(cards)))


def check_going_out(rules: ContractRules, deal: int, contract_down: bool, final_discard: bool) -> Verdict:
    """Does emptying the hand (with or without a final discard) end the deal (rules 6-7)?"""
    _checked_deal(deal)
    if not contract_down:
        return Verdict(False, _("not out: nobody goes out before laying down the contract ({contract})").format(
            contract=describe_contract(deal)))
    if final_discard and deal == DEALS and rules.last_deal_no_discard:
        return Verdict(False, _("not out: in deal {deal} the last card must go into a combination, "
                                "not the discard pile").format(deal=DEALS))
    if final_discard:
        return Verdict(True, _("goes out with a final discard; the deal ends"))
    return Verdict(True, _("goes out with every card on the table; the deal ends"))


# ---------------------------------------------------------------- buying the discard («Можно?»)

@dataclass(frozen=True)
class BuyRuling:
    """What a «Можно?» request comes to (A.2 rules 10-15)."""

    legal: bool
    reason: str
    permission_from: tuple[str, ...] = ()  # asked in this order
    taker: str | None = None               # who ends up with the discard
    pack_cards: int = 0                    # cards taken from the open pack
    deck_cards: int = 0                    # extra cards from the closed deck
    discards: bool = False                 # True only for an ordinary draw
    next_player: str | None = None         # whose turn comes next
    skipped: tuple[str, ...] = ()          # players who lose their turn (reading R1)

    @property
    def cards_gained(self) -> int:
        return self.pack_cards + self.deck_cards


def permission_needed(seating: list[str], discarder: str, asker: str) -> tuple[str, ...]:
    """Everyone seated after the discarder and before the asker: each had the right to the card first."""
    d, a = _seat(seating, discarder), _seat(seating, asker)
    n = len(seating)
    return tuple(seating[(d + i) % n] for i in range(1, (a - d) % n))


def rule_buy(rules: ContractRules, seating: list[str], discarder: str, asker: str,
             refused_by: str | None = None, cards: int = 1) -> BuyRuling:
    """Rule on a request to buy the top ``cards`` of the open pack.

    ``refused_by`` is the first player, in seating order, who answered «Нельзя»; everyone asked
    before them agreed. ``None`` means everyone asked agreed.
    """
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 1:
        raise InputError(_("cannot buy {cards} cards").format(cards=repr(cards)),
                         _("buy 1 or more cards from the top of the pack"))
    d, a = _seat(seating, discarder), _seat(seating, asker)
    if a == d:
        return BuyRuling(False, _("{asker} discarded that card and may not buy it back").format(asker=asker))
    n = len(seating)
    in_turn = seating[(d + 1) % n]

    def after(name: str) -> str:  # the player seated to the left
        return seating[(_seat(seating, name) + 1) % n]

    ask = permission_needed(seating, discarder, asker)
    if asker == in_turn:
        if refused_by is not None:
            raise InputError(_("{refuser} cannot refuse {asker}").format(refuser=refused_by, asker=asker),
                             _("the discard was meant for {asker}, who asks nobody").format(asker=asker))
        if cards == 1:
            return BuyRuling(True, _("{asker} needs nobody's permission: taking the discard is an ordinary "
                                     "draw; {asker} may meld and must discard").format(asker=asker),
                             (), asker, 1, 0, True, after(asker))
        # Translators: {pack} is at least 2, {deck} at least 1; the plural follows {deck}
        return BuyRuling(True, ngettext("{asker} takes {pack} pack cards and {deck} deck card without asking, "
                                        "discards nothing; {next} plays next",
                                        "{asker} takes {pack} pack cards and {deck} deck cards without asking, "
                                        "discards nothing; {next} plays next", cards - 1).format(
                             asker=asker, pack=cards, deck=cards - 1, next=after(asker)),
                         (), asker, cards, cards - 1, False, after(asker))
    from_buyer = rules.buy_turn == "from_buyer"
    if refused_by is None:
        nxt = after(asker) if from_buyer else in_turn
        skipped = ask if from_buyer else ()
        agreed = ngettext("{agreed} agreed: {asker} takes {n} pack card and {n} deck card, discards nothing; "
                          "{next} plays next",
                          "{agreed} agreed: {asker} takes {n} pack cards and {n} deck cards, discards nothing; "
                          "{next} plays next", cards).format(agreed=_names(ask), asker=asker, n=cards, next=nxt)
        if skipped:
            # Translators: {ruling} is the whole ruling before it, {players} who lose their turn
            agreed = ngettext("{ruling} ({players} loses the turn)", "{ruling} ({players} lose the turn)",
                              len(skipped)).format(ruling=agreed, players=_names(skipped))
        return BuyRuling(True, agreed, ask, asker, cards, cards, False, nxt, skipped)
    if refused_by not in ask:
        _seat(seating, refused_by)
        raise InputError(_("{refuser} was not asked").format(refuser=refused_by),
                         _("only {players} give permission to {asker}").format(players=_names(ask), asker=asker))
    if refused_by == in_turn:
        return BuyRuling(True, _("{refuser} refused, so {refuser} takes the discard as the draw, takes no deck "
                                 "card and discards nothing; {asker}'s request lapses; {next} plays next").format(
                             refuser=refused_by, asker=asker, next=after(refused_by)),
                         ask, refused_by, 1, 0, False, after(refused_by))
    nxt = after(refused_by) if from_buyer else in_turn
    skipped = ask[:ask.index(refused_by)] if from_buyer else ()
    return BuyRuling(True, _("{refuser} refused, so {refuser} must buy: the discard plus 1 deck card, "
                             "discarding nothing; {asker}'s request lapses; {next} plays next").format(
                         refuser=refused_by, asker=asker, next=nxt),
                     ask, refused_by, 1, 1, False, nxt, skipped)


def _names(names: Iterable[str]) -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cruz``."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    # Translators: a list of players: {first} is "Ana" or "Ana, Ben", {last} the last name
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def _seat(seating: list[str], name: str) -> int:
    if name not in seating:
        raise InputError(_("no player {name} at this table").format(name=repr(name)),
                         suggest(str(name), seating, _("players")))
    return seating.index(name)


# ---------------------------------------------------------------- scoring state

MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True)
class Meld:
    owner: str
    kind: str
    cards: tuple[str, ...]  # card codes


@dataclass(frozen=True)
class Leftover:
    player: str
    points: int                 # card value of what was left in hand
    cards: tuple[str, ...] = ()  # empty when only the points were recorded


@dataclass(frozen=True)
class GameState:
    rules: ContractRules
    players: tuple[str, ...]
    totals: tuple[int, ...]
    deals_won: tuple[int, ...]
    deal: int = 1                       # the deal being played (stays 5 once the game is over)
    down: tuple[str, ...] = ()          # players whose contract is on the table this deal
    table: tuple[Meld, ...] = ()
    out: str | None = None              # who went out this deal
    leftovers: tuple[Leftover, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()  # score changes of each finished deal
    over: bool = False

    def total(self, player: str) -> int:
        return self.totals[self.players.index(player)]

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        return cls(
            rules=ContractRules(**d["rules"]), players=tuple(d["players"]), totals=tuple(d["totals"]),
            deals_won=tuple(d["deals_won"]), deal=d["deal"], down=tuple(d["down"]),
            table=tuple(Meld(m["owner"], m["kind"], tuple(m["cards"])) for m in d["table"]),
            out=d["out"], leftovers=tuple(Leftover(x["player"], x["points"], tuple(x["cards"]))
                                          for x in d["leftovers"]),
            history=tuple(tuple(h) for h in d["history"]), over=d["over"])


def new_state(rules: ContractRules, players: list[str]) -> GameState:
    seated = _checked_players(players)
    zeros = (0,) * len(seated)
    return GameState(rules=rules, players=seated, totals=zeros, deals_won=zeros)


def _checked_players(players: Iterable[str]) -> tuple[str, ...]:
    names = tuple(players)
    if any(not isinstance(p, str) or not p.strip() for p in names):
        raise InputError(_("every player needs a name"), _("give each player a non-empty name"))
    if len(set(names)) < len(names):
        raise InputError(_("two players have the same name"), _("give each player a different name"))
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(_("the game is for {least} to {most} players, not {n}").format(
            least=MIN_PLAYERS, most=MAX_PLAYERS, n=len(names)), _("seat between 2 and 6 players"))
    return names


EVENT_KINDS = ("contract", "lay_off", "out", "hand", "deal")


def apply(state: GameState, event: dict[str, Any]) -> Step[GameState]:
    """Advance the game by one recorded event; the input state is never changed."""
    if not isinstance(event, dict) or "kind" not in event:
        raise InputError(_("an event must be a mapping with a 'kind'"),
                         _("kinds: {kinds}").format(kinds=", ".join(EVENT_KINDS)))
    kind = event["kind"]
    if kind not in EVENT_KINDS:
        raise InputError(_("unknown contract-game event {kind}").format(kind=repr(kind)),
                         suggest(str(kind), EVENT_KINDS, _("kinds")))
    if state.over:
        raise RuleError(_("the game is over after deal 5"), _("start a new game to go on playing"))
    # Each handler takes its kind's payload (pancli/core/events.py); ``apply`` gives it the stored one.
    handlers: dict[str, Callable[[GameState, Any], Step[GameState]]] = {
        "contract": _apply_contract, "lay_off": _apply_lay_off, "out": _apply_out, "hand": _apply_hand,
        "deal": _apply_whole_deal}
    return handlers[kind](state, event)


def replay(rules: ContractRules, players: list[str], events: Iterable[dict[str, Any]]) -> GameState:
    state = new_state(rules, players)
    for event in events:
        state = apply(state, event).state
    return state


def _field(event: Mapping[str, Any], key: str) -> Any:
    if key not in event:
        raise InputError(_("a {kind} event needs {key}").format(kind=event["kind"], key=repr(key)),
                         _("add {key} to the event").format(key=key))
    return event[key]


def _player(state: GameState, name: Any) -> str:
    if not isinstance(name, str) or name not in state.players:
        raise InputError(_("no player {name} in this game").format(name=repr(name)),
                         suggest(str(name), state.players, _("players")))
    return name


# What may not be recorded once someone went out: one whole hint each.
_INSTEAD = {
    "contract": N_("record the cards left in the other hands instead of a contract"),
    "lay_off": N_("record the cards left in the other hands instead of a lay-off"),
    "out": N_("record the cards left in the other hands instead of another going out"),
    "deal": N_("record the cards left in the other hands instead of a whole deal"),
}


def _before_out(state: GameState, what: str) -> None:
    if state.out is not None:
        raise RuleError(_("{player} has already gone out of deal {deal}").format(player=state.out, deal=state.deal),
                        _(_INSTEAD[what]))


def _check_supply(state: GameState, cards: list[Card]) -> None:
    """Two packs hold two copies of each card: refuse a deal that records a third."""
    seen = Counter(parse_cards([c for m in state.table for c in m.cards] +
                               [c for x in state.leftovers for c in x.cards]))
    seen.update(cards)
    extra = [c for c, n in seen.items() if n > PACKS]
    if extra:
        raise RuleError(_("{card} would be recorded {n} times in deal {deal}, but two packs hold only "
                          "{packs}").format(card=extra[0], n=seen[extra[0]], deal=state.deal, packs=PACKS),
                        _("check the cards against the table"))


def _apply_contract(state: GameState, event: ContractEvent) -> Step[GameState]:
    player = _player(state, _field(event, "player"))
    melds = parse_melds(_field(event, "melds"))
    _before_out(state, "contract")
    if player in state.down:
        raise RuleError(_("{player}'s contract is already down in deal {deal}").format(player=player, deal=state.deal),
                        _("after the contract only lay-offs are allowed"))
    verdict = validate_contract(state.rules, state.deal, melds)
    if not verdict.legal:
        raise RuleError(_("{player}'s contract is refused: {why}").format(player=player, why=verdict.reason),
                        _("deal {deal} needs {contract}").format(deal=state.deal,
                                                                 contract=describe_contract(state.deal)))
    _check_supply(state, [c for m in melds for c in m])
    new_melds = tuple(Meld(player, classify_meld(m, state.rules)[0] or "", tuple(c.code for c in m)) for m in melds)
    first = len(state.table) + 1
    numbers = ", ".join(str(first + i) for i in range(len(melds)))
    line = ngettext("{player} lays down the deal-{deal} contract as meld {numbers}: {melds}",
                    "{player} lays down the deal-{deal} contract as melds {numbers}: {melds}", len(melds)).format(
        player=player, deal=state.deal, numbers=numbers, melds=" + ".join(format_cards(m) for m in melds))
    return Step(dataclasses.replace(state, down=state.down + (player,), table=state.table + new_melds), lines=[line])


def _apply_lay_off(state: GameState, event: LayOffEvent) -> Step[GameState]:
    player = _player(state, _field(event, "player"))
    number = _field(event, "meld")
    cards = parse_cards(_field(event, "cards"))
    _before_out(state, "lay_off")
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(state.table):
        raise InputError(_("there is no meld {number} on the table").format(number=repr(number)),
                         _("melds are numbered 1 to {last}").format(last=len(state.table)) if state.table
                         else _("no meld is down yet"))
    target = state.table[number - 1]
    verdict = validate_lay_off(state.rules, parse_cards(target.cards), cards, player in state.down)
    if not verdict.legal:
        raise RuleError(_("{player} cannot lay off: {why}").format(player=player, why=verdict.reason),
                        _("pick another meld or keep the cards"))
    _check_supply(state, cards)
    grown = dataclasses.replace(target, cards=target.cards + tuple(c.code for c in cards))
    table = state.table[:number - 1] + (grown,) + state.table[number:]
    return Step(dataclasses.replace(state, table=table),
                lines=[_("{player} lays off {cards} onto meld {number} ({owner}'s)").format(
                    player=player, cards=format_cards(cards), number=number, owner=target.owner)])


def _apply_out(state: GameState, event: ContractOutEvent) -> Step[GameState]:
    player = _player(state, _field(event, "player"))
    discard = event.get("discard")
    _before_out(state, "out")
    recording_contracts = bool(state.down)
    contract_down = player in state.down or not recording_contracts
    verdict = check_going_out(state.rules, state.deal, contract_down, discard is not None)
    if not verdict.legal:
        why = (_("{player} is not out: nobody goes out before laying down the contract ({contract})").format(
                   player=player, contract=describe_contract(state.deal)) if not contract_down else
               _("{player} is not out: in deal {deal} the last card must go into a combination, not the "
                 "discard pile").format(player=player, deal=DEALS))
        raise RuleError(why, _("play on until the hand can be emptied legally"))
    line = _("{player} goes out of deal {deal}").format(player=player, deal=state.deal)
    if discard is not None:
        if not isinstance(discard, str):
            raise InputError(_("the final discard must be one card, not {discard}").format(discard=repr(discard)),
                             _('e.g. discard = "QH"'))
        card = parse_card(discard)
        _check_supply(state, [card])
        line = _("{player} goes out of deal {deal}, discarding {card}").format(
            player=player, deal=state.deal, card=card)
    return Step(dataclasses.replace(state, out=player), lines=[line])


def _apply_hand(state: GameState, event: HandEvent) -> Step[GameState]:
    player = _player(state, _field(event, "player"))
    if state.out is None:
        raise RuleError(_("nobody has gone out of deal {deal} yet").format(deal=state.deal),
                        _("record who went out before the hands left"))
    if player == state.out:
        raise RuleError(_("{player} went out and holds no cards").format(player=player),
                        _("record the hands of the other players"))
    if any(x.player == player for x in state.leftovers):
        raise RuleError(_("{player}'s hand is already recorded for deal {deal}").format(player=player, deal=state.deal),
                        _("void that event to correct it"))
    leftover = _read_leftover(state, player, event)
    state = dataclasses.replace(state, leftovers=state.leftovers + (leftover,))
    if len(state.leftovers) == len(state.players) - 1:
        return _score_deal(state)
    # Translators: {left} is e.g. "cards left: K♣ K♦" or "no cards left"
    return Step(state, lines=[_("{player} recorded with {left}").format(player=player, left=_leftover_words(leftover))])


def _read_leftover(state: GameState, player: str, event: HandEvent) -> Leftover:
    if "cards" in event:
        cards = parse_cards(event["cards"])
        _check_supply(state, cards)
        return Leftover(player, sum(state.rules.card_value(c) for c in cards), tuple(c.code for c in cards))
    points = _field(event, "points")
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise InputError(_("points left in {player}'s hand must be a whole number of 0 or more, not "
                           "{points}").format(player=player, points=repr(points)),
                         _("give the cards or their total value"))
    return Leftover(player, points)


def _leftover_words(leftover: Leftover) -> str:
    if leftover.cards:
        return _("cards left: {cards}").format(cards=format_cards(parse_cards(leftover.cards)))
    if leftover.points:
        return _("cards left worth {points} (counted at the table)").format(points=leftover.points)
    return _("no cards left")


def _before_whole_deal(state: GameState) -> None:
    """A whole deal replaces the deal's events: refused once any of them is recorded, for it
    would drop the lay-downs (or the going out) already on the table without a word."""
    if state.out is not None:
        raise RuleError(_("{player} has already gone out of deal {deal}").format(player=state.out, deal=state.deal),
                        _(_INSTEAD["deal"]))
    if state.table:
        raise RuleError(_("deal {deal} already has lay-downs on the table ({players})").format(
            deal=state.deal, players=_names(state.down)),
                        _("record who goes out and the cards left, or undo the lay-downs first"))


def _apply_whole_deal(state: GameState, event: ContractDealEvent) -> Step[GameState]:
    """Record a finished deal at once: optional contracts, who went out, and every other hand."""
    contracts = event.get("contracts") or {}
    hands = _field(event, "hands")
    if not isinstance(hands, dict) or not isinstance(contracts, dict):
        raise InputError(_("a deal event gives 'hands' (and optional 'contracts') as name → cards"),
                         _('e.g. hands = {Ben = "KS QH 5C"}'))
    _before_whole_deal(state)
    subevents = [{"kind": "contract", "player": p, "melds": m} for p, m in contracts.items()]
    subevents.append({"kind": "out", "player": _field(event, "out"), "discard": event.get("discard")})
    for player, held in hands.items():
        payload = {"points": held} if isinstance(held, int) and not isinstance(held, bool) else {"cards": held}
        subevents.append({"kind": "hand", "player": player, **payload})
    merged = Step(state)
    for sub in subevents:
        step = apply(merged.state, sub)
        merged = Step(step.state, tallies=merged.tallies + step.tallies, lines=merged.lines + step.lines)
    if merged.state.deal == state.deal and not merged.state.over:
        missing = [p for p in state.players if p != event["out"] and p not in hands]
        raise InputError(_("deal {deal} is missing the hand of {players}").format(deal=state.deal,
                                                                                    players=_names(missing)),
                         _("give every player's cards left (or points)"))
    return merged


def _score_deal(state: GameState) -> Step[GameState]:
    rules, deal = state.rules, state.deal
    signed = rules.scoring == "signed"
    changes, lines, tallies = [], [], []
    left = {x.player: x for x in state.leftovers}
    for player in state.players:
        if player == state.out:
            change = rules.going_out_bonus if signed else 0
            lines.append(_("Deal {deal}: {player} {points} for going out").format(
                deal=deal, player=player, points=with_sign(change, zero="+0")))
            tallies.append(Tally(player, "deals_won", 1))
        else:
            change = -left[player].points if signed else left[player].points
            # Translators: {left} is e.g. "cards left: K♣ K♦" or "no cards left"
            lines.append(_("Deal {deal}: {player} {points} for {left}").format(
                deal=deal, player=player, points=with_sign(change, zero="+0"), left=_leftover_words(left[player])))
        changes.append(change)
        tallies += [Tally(player, "points", change), Tally(player, "deals_played", 1)]
    totals = tuple(t + c for t, c in zip(state.totals, changes))
    won = tuple(w + (p == state.out) for p, w in zip(state.players, state.deals_won))
    over = deal == DEALS
    scored = dataclasses.replace(state, totals=totals, deals_won=won, deal=deal if over else deal + 1,
                                 down=(), table=(), out=None, leftovers=(), history=state.history + (tuple(changes),),
                                 over=over)
    lines.append(_("Totals after deal {deal}: {totals}").format(
        deal=deal, totals=", ".join(f"{p} {with_sign(t, zero='+0')}" for p, t in zip(scored.players, totals))))
    if over:
        lines.append(summary(scored))
    return Step(scored, tallies=tallies, lines=lines)


def winners(state: GameState) -> list[str]:
    """Players with the best total: highest under signed scoring, lowest under penalty scoring."""
    best = (max if state.rules.scoring == "signed" else min)(state.totals)
    return [p for p, t in zip(state.players, state.totals) if t == best]


def standings(state: GameState) -> list[dict[str, Any]]:
    sign = -1 if state.rules.scoring == "signed" else 1
    order = sorted(state.players, key=lambda p: sign * state.total(p))
    rows = []
    for player in order:
        place = 1 + sum(1 for q in state.players if sign * state.total(q) < sign * state.total(player))
        rows.append({"player": player, "score": state.total(player), "place": place,
                     "deals_won": state.deals_won[state.players.index(player)]})
    return rows


def summary(state: GameState) -> str:
    scores = ", ".join(f"{r['player']} {with_sign(r['score'], zero='+0')}" for r in standings(state))
    if state.over:
        best = winners(state)
        score = state.total(best[0])
        if len(best) == 1:
            return _("Game over: {player} wins with {points} ({scores})").format(
                player=best[0], points=with_sign(score, zero="+0"), scores=scores)
        return _("Game over: {players} share first place with {points} ({scores})").format(
            players=_names(best), points=with_sign(score, zero="+0"), scores=scores)
    return _("Deal {deal} of {deals} ({contract}): {scores}").format(
        deal=state.deal, deals=DEALS, contract=describe_contract(state.deal), scores=scores)
