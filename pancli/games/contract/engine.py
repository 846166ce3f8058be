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

if TYPE_CHECKING:
    from pancli.core.events import ContractDealEvent, ContractEvent, ContractOutEvent, HandEvent, LayOffEvent
from pancli.core.ledger import Step, Tally
from pancli.core.words import plural, signed as with_sign
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
_PACK = "a standard pack holds ranks 2-10, J, Q, K, A in suits S H D C (♠ ♥ ♦ ♣), e.g. 7S, TH, 10♦, QC"
parse_card, parse_cards = card_reader(RANK_NAMES, "the contract game's packs", _PACK)


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


def describe_contract(deal: int) -> str:
    return _count_words(CONTRACTS[_checked_deal(deal)])


def _count_words(counts: dict[str, int]) -> str:
    parts = [plural(n, kind) for kind, n in counts.items() if n]
    return " and ".join(parts) or "nothing"


def _checked_deal(deal: Any) -> int:
    if isinstance(deal, bool) or not isinstance(deal, int) or deal not in CONTRACTS:
        raise InputError(f"there is no deal {deal!r}", f"the game has deals 1 to {DEALS}")
    return deal


_RANK_PLURALS = {11: "jacks", 12: "queens", 13: "kings", 14: "aces"}


def _rank_plural(rank: int) -> str:
    return _RANK_PLURALS.get(rank, RANK_NAMES[rank] + "s")


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
        return None, f"{shown} is too short: a meld needs at least 3 cards"
    too_many = [c for c, n in Counter(cards).items() if n > PACKS]
    if too_many:
        return None, f"{shown} holds {too_many[0]} more than {PACKS} times; two packs have only {PACKS}"
    if len({c.rank for c in cards}) == 1:
        rank = _rank_plural(cards[0].rank)
        if len(cards) > rules.max_set:
            return None, f"a set holds at most {rules.max_set} cards; this set of {rank} has {len(cards)}"
        if not rules.duplicates_in_sets and len(set(cards)) < len(cards):
            return None, f"{shown} repeats a card; house rule duplicates_in_sets forbids identical cards in a set"
        return "set", f"set of {rank}"
    if len({c.suit for c in cards}) > 1:
        return None, f"{shown} is neither a set (one rank) nor a sequence (one suit)"
    suit = SUIT_SYMBOLS[cards[0].suit]
    if len(set(cards)) < len(cards):
        return None, f"{shown} repeats a card; a sequence cannot hold the same card twice"
    if len(cards) < rules.min_sequence:
        return None, f"a sequence needs at least {rules.min_sequence} cards; {shown} has {len(cards)}"
    if len(cards) > rules.max_sequence:
        return None, f"a sequence holds at most {rules.max_sequence} cards; {shown} has {len(cards)}"
    ranks = [c.rank for c in cards]
    if _sequence_values(ranks) is None:
        if 14 in ranks and 13 in ranks and 2 in ranks:
            return None, f"{shown} wraps round the ace; an ace goes below the 2 or above the king, not both"
        return None, f"{shown} is not consecutive: a sequence has no gaps"
    return "sequence", f"{len(cards)}-card sequence in {suit}"


def validate_contract(rules: ContractRules, deal: int, melds: list[list[Card]]) -> Verdict:
    """Is this lay-down exactly the contract of ``deal`` (A.2 rules 1-3, A.5)?"""
    need = CONTRACTS[_checked_deal(deal)]
    kinds: list[str] = []
    for number, meld in enumerate(melds, 1):
        kind, what = classify_meld(meld, rules)
        if kind is None:
            return Verdict(False, f"combination {number} is not a legal meld: {what}")
        kinds.append(kind)
    have = {kind: kinds.count(kind) for kind in need}
    if have != need:
        return Verdict(False, _contract_mismatch(deal, need, have, melds))
    sets = [m for m, k in zip(melds, kinds) if k == "set"]
    set_ranks = [m[0].rank for m in sets]
    if len(set(set_ranks)) < len(set_ranks):
        twice = _rank_plural(next(r for r in set_ranks if set_ranks.count(r) > 1))
        return Verdict(False, f"two sets are {twice}; the sets of a contract must be of different ranks")
    seq_suits = [m[0].suit for m, k in zip(melds, kinds) if k == "sequence"]
    if len(set(seq_suits)) < len(seq_suits):
        twice = SUIT_SYMBOLS[next(s for s in seq_suits if seq_suits.count(s) > 1)]
        return Verdict(False, f"two sequences are in {twice}; the sequences of a contract must be in different suits")
    described = "; ".join(classify_meld(m, rules)[1] for m in melds)
    return Verdict(True, f"valid contract for deal {deal} ({_count_words(need)}): {described}")


def _contract_mismatch(deal: int, need: dict[str, int], have: dict[str, int], melds: list[list[Card]]) -> str:
    wanted = f"deal {deal} calls for exactly {_count_words(need)}"
    unwanted = [kind for kind in need if have[kind] and not need[kind]]
    if unwanted:
        return f"{wanted}; a {unwanted[0]} is not part of this contract"
    if sum(have.values()) > sum(need.values()):
        return f"{wanted}, not {sum(have.values())} combinations; no extra combinations may be laid"
    note = " (a long set is still one combination)" if any(len(m) >= 6 for m in melds) else ""
    return f"{wanted}; only {_count_words(have)} laid, so the contract is incomplete{note}"


def validate_lay_off(rules: ContractRules, meld: list[Card], cards: list[Card],
                     contract_down: bool = True) -> Verdict:
    """May ``cards`` be laid off onto ``meld`` on the table (A.2 rules 4-5, A.5)?"""
    if not contract_down and not rules.lay_off_before_contract:
        return Verdict(False, "lay off only after your own contract is down (house rule lay_off_before_contract)")
    if not cards:
        return Verdict(False, "name the cards to lay off")
    kind, what = classify_meld(meld, rules)
    if kind is None:
        return Verdict(False, f"the meld on the table is not legal: {what}")
    limit = rules.max_set if kind == "set" else rules.max_sequence
    if len(meld) + len(cards) > limit:
        return Verdict(False, f"a {kind} holds at most {limit} cards; this {what} already has {len(meld)}")
    grown_kind, grown = classify_meld(meld + cards, rules)
    if grown_kind != kind:
        return Verdict(False, f"{format_cards(cards)} does not fit the {what}: {grown}")
    return Verdict(True, f"{format_cards(cards)} lays off onto the {what}, making it {len(meld) + len(cards)} cards")


def check_going_out(rules: ContractRules, deal: int, contract_down: bool, final_discard: bool) -> Verdict:
    """Does emptying the hand (with or without a final discard) end the deal (rules 6-7)?"""
    _checked_deal(deal)
    if not contract_down:
        return Verdict(False, f"not out: nobody goes out before laying down the contract ({describe_contract(deal)})")
    if final_discard and deal == DEALS and rules.last_deal_no_discard:
        return Verdict(False, f"not out: in deal {DEALS} the last card must go into a combination, "
                       "not the discard pile")
    how = "with a final discard" if final_discard else "with every card on the table"
    return Verdict(True, f"goes out {how}; the deal ends")


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
        raise InputError(f"cannot buy {cards!r} cards", "buy 1 or more cards from the top of the pack")
    d, a = _seat(seating, discarder), _seat(seating, asker)
    if a == d:
        return BuyRuling(False, f"{asker} discarded that card and may not buy it back")
    n = len(seating)
    in_turn = seating[(d + 1) % n]

    def after(name: str) -> str:  # the player seated to the left
        return seating[(_seat(seating, name) + 1) % n]

    ask = permission_needed(seating, discarder, asker)
    if asker == in_turn:
        if refused_by is not None:
            raise InputError(f"{refused_by} cannot refuse {asker}",
                             f"the discard was meant for {asker}, who asks nobody")
        if cards == 1:
            return BuyRuling(True, f"{asker} needs nobody's permission: taking the discard is an ordinary draw; "
                             f"{asker} may meld and must discard", (), asker, 1, 0, True, after(asker))
        return BuyRuling(True, f"{asker} takes {cards} pack cards and {cards - 1} deck card{'s' * (cards > 2)} "
                         f"without asking, discards nothing; {after(asker)} plays next",
                         (), asker, cards, cards - 1, False, after(asker))
    from_buyer = rules.buy_turn == "from_buyer"
    if refused_by is None:
        nxt = after(asker) if from_buyer else in_turn
        skipped = ask if from_buyer else ()
        lost = f" ({_names(skipped)} lose{'s' * (len(skipped) == 1)} the turn)" if skipped else ""
        return BuyRuling(True, f"{_names(ask)} agreed: {asker} takes {cards} pack card{'s' * (cards > 1)} and "
                         f"{cards} deck card{'s' * (cards > 1)}, discards nothing; {nxt} plays next{lost}",
                         ask, asker, cards, cards, False, nxt, skipped)
    if refused_by not in ask:
        _seat(seating, refused_by)
        raise InputError(f"{refused_by} was not asked", f"only {_names(ask)} give permission to {asker}")
    if refused_by == in_turn:
        return BuyRuling(True, f"{refused_by} refused, so {refused_by} takes the discard as the draw, takes no deck "
                         f"card and discards nothing; {asker}'s request lapses; {after(refused_by)} plays next",
                         ask, refused_by, 1, 0, False, after(refused_by))
    nxt = after(refused_by) if from_buyer else in_turn
    skipped = ask[:ask.index(refused_by)] if from_buyer else ()
    return BuyRuling(True, f"{refused_by} refused, so {refused_by} must buy: the discard plus 1 deck card, "
                     f"discarding nothing; {asker}'s request lapses; {nxt} plays next",
                     ask, refused_by, 1, 1, False, nxt, skipped)


def _names(names: Iterable[str]) -> str:
    names = list(names)
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _seat(seating: list[str], name: str) -> int:
    if name not in seating:
        raise InputError(f"no player {name!r} at this table", suggest(str(name), seating, "players"))
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
        raise InputError("every player needs a name", "give each player a non-empty name")
    if len(set(names)) < len(names):
        raise InputError("two players have the same name", "give each player a different name")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(f"the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}",
                        "seat between 2 and 6 players")
    return names


EVENT_KINDS = ("contract", "lay_off", "out", "hand", "deal")


def apply(state: GameState, event: dict[str, Any]) -> Step:
    """Advance the game by one recorded event; the input state is never changed."""
    if not isinstance(event, dict) or "kind" not in event:
        raise InputError("an event must be a mapping with a 'kind'", f"kinds: {', '.join(EVENT_KINDS)}")
    kind = event["kind"]
    if kind not in EVENT_KINDS:
        raise InputError(f"unknown contract-game event {kind!r}", suggest(str(kind), EVENT_KINDS, "kinds"))
    if state.over:
        raise RuleError("the game is over after deal 5", "start a new game to go on playing")
    # Each handler takes its kind's payload (pancli/core/events.py); ``apply`` gives it the stored one.
    handlers: dict[str, Callable[[GameState, Any], Step]] = {
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
        raise InputError(f"a {event['kind']} event needs {key!r}", f"add {key} to the event")
    return event[key]


def _player(state: GameState, name: Any) -> str:
    if name not in state.players:
        raise InputError(f"no player {name!r} in this game", suggest(str(name), state.players, "players"))
    return name


def _before_out(state: GameState, what: str) -> None:
    if state.out is not None:
        raise RuleError(f"{state.out} has already gone out of deal {state.deal}",
                        f"record the cards left in the other hands instead of {what}")


def _check_supply(state: GameState, cards: list[Card]) -> None:
    """Two packs hold two copies of each card: refuse a deal that records a third."""
    seen = Counter(parse_cards([c for m in state.table for c in m.cards] +
                               [c for x in state.leftovers for c in x.cards]))
    seen.update(cards)
    extra = [c for c, n in seen.items() if n > PACKS]
    if extra:
        raise RuleError(f"{extra[0]} would be recorded {seen[extra[0]]} times in deal {state.deal}, "
                        f"but two packs hold only {PACKS}", "check the cards against the table")


def _apply_contract(state: GameState, event: ContractEvent) -> Step:
    player = _player(state, _field(event, "player"))
    melds = parse_melds(_field(event, "melds"))
    _before_out(state, "a contract")
    if player in state.down:
        raise RuleError(f"{player}'s contract is already down in deal {state.deal}",
                        "after the contract only lay-offs are allowed")
    verdict = validate_contract(state.rules, state.deal, melds)
    if not verdict.legal:
        raise RuleError(f"{player}'s contract is refused: {verdict.reason}", f"deal {state.deal} needs "
                        f"{describe_contract(state.deal)}")
    _check_supply(state, [c for m in melds for c in m])
    new_melds = tuple(Meld(player, classify_meld(m, state.rules)[0] or "", tuple(c.code for c in m)) for m in melds)
    first = len(state.table) + 1
    numbers = ", ".join(str(first + i) for i in range(len(melds)))
    line = f"{player} lays down the deal-{state.deal} contract as meld{'s' * (len(melds) > 1)} {numbers}: " + \
        " + ".join(format_cards(m) for m in melds)
    return Step(dataclasses.replace(state, down=state.down + (player,), table=state.table + new_melds), lines=[line])


def _apply_lay_off(state: GameState, event: LayOffEvent) -> Step:
    player = _player(state, _field(event, "player"))
    number = _field(event, "meld")
    cards = parse_cards(_field(event, "cards"))
    _before_out(state, "a lay-off")
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(state.table):
        raise InputError(f"there is no meld {number!r} on the table",
                         f"melds are numbered 1 to {len(state.table)}" if state.table else "no meld is down yet")
    target = state.table[number - 1]
    verdict = validate_lay_off(state.rules, parse_cards(target.cards), cards, player in state.down)
    if not verdict.legal:
        raise RuleError(f"{player} cannot lay off: {verdict.reason}", "pick another meld or keep the cards")
    _check_supply(state, cards)
    grown = dataclasses.replace(target, cards=target.cards + tuple(c.code for c in cards))
    table = state.table[:number - 1] + (grown,) + state.table[number:]
    return Step(dataclasses.replace(state, table=table),
                lines=[f"{player} lays off {format_cards(cards)} onto meld {number} ({target.owner}'s)"])


def _apply_out(state: GameState, event: ContractOutEvent) -> Step:
    player = _player(state, _field(event, "player"))
    discard = event.get("discard")
    _before_out(state, "another going out")
    recording_contracts = bool(state.down)
    verdict = check_going_out(state.rules, state.deal, player in state.down or not recording_contracts,
                              discard is not None)
    if not verdict.legal:
        raise RuleError(f"{player} is {verdict.reason}", "play on until the hand can be emptied legally")
    line = f"{player} goes out of deal {state.deal}"
    if discard is not None:
        if not isinstance(discard, str):
            raise InputError(f"the final discard must be one card, not {discard!r}", 'e.g. discard = "QH"')
        card = parse_card(discard)
        _check_supply(state, [card])
        line += f", discarding {card}"
    return Step(dataclasses.replace(state, out=player), lines=[line])


def _apply_hand(state: GameState, event: HandEvent) -> Step:
    player = _player(state, _field(event, "player"))
    if state.out is None:
        raise RuleError(f"nobody has gone out of deal {state.deal} yet", "record who went out before the hands left")
    if player == state.out:
        raise RuleError(f"{player} went out and holds no cards", "record the hands of the other players")
    if any(x.player == player for x in state.leftovers):
        raise RuleError(f"{player}'s hand is already recorded for deal {state.deal}", "void that event to correct it")
    leftover = _read_leftover(state, player, event)
    state = dataclasses.replace(state, leftovers=state.leftovers + (leftover,))
    if len(state.leftovers) == len(state.players) - 1:
        return _score_deal(state)
    return Step(state, lines=[f"{player} recorded with {_leftover_words(leftover)}"])


def _read_leftover(state: GameState, player: str, event: HandEvent) -> Leftover:
    if "cards" in event:
        cards = parse_cards(event["cards"])
        _check_supply(state, cards)
        return Leftover(player, sum(state.rules.card_value(c) for c in cards), tuple(c.code for c in cards))
    points = _field(event, "points")
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise InputError(f"points left in {player}'s hand must be a whole number of 0 or more, not {points!r}",
                         "give the cards or their total value")
    return Leftover(player, points)


def _leftover_words(leftover: Leftover) -> str:
    if leftover.cards:
        return f"cards left: {format_cards(parse_cards(leftover.cards))}"
    return f"cards left worth {leftover.points} (counted at the table)" if leftover.points else "no cards left"


def _before_whole_deal(state: GameState) -> None:
    """A whole deal replaces the deal's events: refused once any of them is recorded, for it
    would drop the lay-downs (or the going out) already on the table without a word."""
    if state.out is not None:
        raise RuleError(f"{state.out} has already gone out of deal {state.deal}",
                        "record the cards left in the other hands instead of a whole deal")
    if state.table:
        raise RuleError(f"deal {state.deal} already has lay-downs on the table ({_names(state.down)})",
                        "record who goes out and the cards left, or undo the lay-downs first")


def _apply_whole_deal(state: GameState, event: ContractDealEvent) -> Step:
    """Record a finished deal at once: optional contracts, who went out, and every other hand."""
    contracts = event.get("contracts") or {}
    hands = _field(event, "hands")
    if not isinstance(hands, dict) or not isinstance(contracts, dict):
        raise InputError("a deal event gives 'hands' (and optional 'contracts') as name → cards",
                         'e.g. hands = {Ben = "KS QH 5C"}')
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
        raise InputError(f"deal {state.deal} is missing the hand of {_names(missing)}",
                         "give every player's cards left (or points)")
    return merged


def _score_deal(state: GameState) -> Step:
    rules, deal = state.rules, state.deal
    signed = rules.scoring == "signed"
    changes, lines, tallies = [], [], []
    left = {x.player: x for x in state.leftovers}
    for player in state.players:
        if player == state.out:
            change = rules.going_out_bonus if signed else 0
            lines.append(f"Deal {deal}: {player} {with_sign(change, zero='+0')} for going out")
            tallies.append(Tally(player, "deals_won", 1))
        else:
            change = -left[player].points if signed else left[player].points
            lines.append(f"Deal {deal}: {player} {with_sign(change, zero='+0')} for {_leftover_words(left[player])}")
        changes.append(change)
        tallies += [Tally(player, "points", change), Tally(player, "deals_played", 1)]
    totals = tuple(t + c for t, c in zip(state.totals, changes))
    won = tuple(w + (p == state.out) for p, w in zip(state.players, state.deals_won))
    over = deal == DEALS
    scored = dataclasses.replace(state, totals=totals, deals_won=won, deal=deal if over else deal + 1,
                                 down=(), table=(), out=None, leftovers=(), history=state.history + (tuple(changes),),
                                 over=over)
    lines.append(f"Totals after deal {deal}: " + ", ".join(f"{p} {with_sign(t, zero='+0')}" for p, t in zip(scored.players, totals)))
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
            return f"Game over: {best[0]} wins with {with_sign(score, zero='+0')} ({scores})"
        return f"Game over: {_names(best)} share first place with {with_sign(score, zero='+0')} ({scores})"
    return f"Deal {state.deal} of {DEALS} ({describe_contract(state.deal)}): {scores}"
