"""The Polish shedding game Pan ("trzy litery"): cards, dispute checks and letters (house rules: rules.py).

Implements spec other-pan-games.md Part B: the 24-card pack, dealing, opening, legal plays,
taking and turn order of B.2 and B.5, the variants of B.3 (piki cofane, timed play, beton, pickup
size), the hidden-card penalty («podkładanie») and the letters P-A-N, with the recommended defaults
of Q-B1..Q-B10.

Decisions where the spec is silent:
* "Two players" in the spades-back rule (Q-B5) counts the players still holding cards, so when only
  two are left in a bigger game a spade on top gives the mover another turn.
* Preset ``timed`` gives each player 5 minutes; the seed names timed play but no time.
* Preset ``beton`` lays 3 cards face down per player (the seed allows 2 or 3).
* With 5 players the short hand (4 cards) goes to the last player dealt to, the dealer.
* A pile must start with the 9♥, and a card can be in the pile or the play only once (one pack);
  breaking either is unreadable input, not a rules verdict.
* The word whose letters a loser collects is a house rule (Pagat: any three-letter word works).
* A timeout loses the deal (Q-B9); with ``timeout_loses = "game"`` the flagged player takes all the
  missing letters at once and the game ends.

Payments: none, so no payment codes. Letters are kept as tallies, whose ``stat`` is their code:
``letters``, ``deals_played``, ``deals_lost``, ``games_lost``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pancli.core.errors import InputError, RuleError
from pancli.core.i18n import N_, _, ngettext
from pancli.core.ledger import Step, Tally
from pancli.games.frenchpack import RANK_NAMES as _ALL_RANK_NAMES, SUITS, Card, card_reader, format_cards, suggest
from pancli.games.polish.rules import PolishRules

# ---------------------------------------------------------------- cards

RANK_NAMES = {r: _ALL_RANK_NAMES[r] for r in range(9, 15)}  # 9..14, ace high
# Translators: the card codes and suit symbols stay as they are
_PACK = N_("the 24-card pack holds 9, 10, J, Q, K, A in suits S H D C (♠ ♥ ♦ ♣), e.g. 9H, TS, 10♦, AC")
PACK_SIZE = 24
NINE_OF_HEARTS = Card(9, "H")
PACK = tuple(Card(rank, suit) for rank in RANK_NAMES for suit in SUITS)
parse_card, parse_cards = card_reader(RANK_NAMES, N_("the Polish Pan pack"), _PACK)


# ---------------------------------------------------------------- dealing

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def deal_sizes(players: int) -> list[int]:
    """Cards per player in dealing order: the whole pack, as evenly as it goes (B.2)."""
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(_("Pan is dealt to {least} to {most} players, not {n}").format(
            least=MIN_PLAYERS, most=MAX_PLAYERS, n=repr(players)), _("seat between 2 and 6 players"))
    base, extra = divmod(PACK_SIZE, players)
    return [base + 1 if seat < extra else base for seat in range(players)]


@dataclass(frozen=True)
class Verdict:
    legal: bool
    reason: str  # one line a dealer can read aloud


def check_out(hand: int, beton: int = 0) -> Verdict:
    """Is a player out of the deal? ``legal`` is True when they are (beton: B.3, Q-B10)."""
    if hand > 0:
        return Verdict(False, ngettext("not out: {n} card still in hand", "not out: {n} cards still in hand",
                                       hand).format(n=hand))
    if beton > 0:
        return Verdict(False, ngettext("not out: the hand is empty but {n} beton card lies face down; "
                                       "take them into hand and play on",
                                       "not out: the hand is empty but {n} beton cards lie face down; "
                                       "take them into hand and play on", beton).format(n=beton))
    return Verdict(True, _("out: no cards in hand and no beton left; safe for this deal"))


# ---------------------------------------------------------------- plays and takes

def _checked_pile(pile: list[Card]) -> list[Card]:
    if pile and pile[0] != NINE_OF_HEARTS:
        raise InputError(_("a pile starts with the 9♥, not {card}").format(card=pile[0]),
                         _("list the pile from the bottom (9♥) to the top"))
    _refuse_repeats(pile, False)
    return list(pile)


def _refuse_repeats(cards: list[Card], with_play: bool) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            text = _("{card} appears twice in the pile and the play") if with_play else _("{card} appears twice in the pile")
            raise InputError(text.format(card=card), _("the pack holds one of each card"))
        seen.add(card)


def check_play(rules: PolishRules, pile: list[Card], cards: list[Card], hand: list[Card] | None = None) -> Verdict:
    """May ``cards`` (in the order laid, bottom first) go onto ``pile`` (bottom → top)?"""
    pile = _checked_pile(pile)
    _refuse_repeats(pile + list(cards), True)
    if not cards:
        return Verdict(False, _("play at least one card, or take"))
    if hand is not None and (missing := [c for c in cards if c not in hand]):
        return Verdict(False, _("{card} is not in the player's hand").format(card=missing[0]))
    if not pile:
        return _check_opening(rules, cards)
    top, rank, n = pile[-1], cards[0].rank, len(cards)
    if n == 2:
        return Verdict(False, _("two cards at once are never allowed; play one card, three to complete a four, "
                                "or four of a kind"))
    if n > 4:
        return Verdict(False, _("{n} cards at once are never allowed; at most four of a kind").format(n=n))
    if any(c.rank != rank for c in cards):
        return Verdict(False, _("{cards} mixes ranks; several cards must all be of one rank").format(
            cards=format_cards(cards)))
    if n == 1:
        if rank < top.rank:
            # Translators: {rank} is a rank as on the cards: 9, 10, J, Q, K, A
            return Verdict(False, _("{card} is lower than the {top} on top; play {rank} or higher, or take").format(
                card=cards[0], top=top, rank=RANK_NAMES[top.rank]))
        if rank == top.rank:
            return Verdict(True, _("{card} goes on the {top}: equal rank").format(card=cards[0], top=top))
        return Verdict(True, _("{card} goes on the {top}: higher rank").format(card=cards[0], top=top))
    if n == 3:
        return _check_three(rules, top, cards)
    # Translators: {rank} is a rank as on the cards: 9, 10, J, Q, K, A ("four Ks")
    if rank <= top.rank:
        return Verdict(False, _("four {rank}s must be higher than the {top} on top").format(
            rank=RANK_NAMES[rank], top=top))
    return Verdict(True, _("four {rank}s go on the {top}: four of a higher rank").format(rank=RANK_NAMES[rank], top=top))


def _check_opening(rules: PolishRules, cards: list[Card]) -> Verdict:
    if cards == [NINE_OF_HEARTS]:
        return Verdict(True, _("the deal opens with the 9♥"))
    if len(cards) == 4 and all(c.rank == 9 for c in cards):
        if not rules.open_with_four_nines:
            return Verdict(False, _("open with the 9♥ alone (house rule open_with_four_nines is off)"))
        if cards[0] != NINE_OF_HEARTS:
            return Verdict(False, _("when all four 9s open the deal, the 9♥ must lie at the bottom"))
        return Verdict(True, _("the deal opens with all four 9s, the 9♥ at the bottom"))
    return Verdict(False, _("every deal opens with the 9♥, not {cards}").format(cards=format_cards(cards)))


def _check_three(rules: PolishRules, top: Card, cards: list[Card]) -> Verdict:
    rank = cards[0].rank
    name = RANK_NAMES[rank]
    # Translators: {rank} is a rank as on the cards: 9, 10, J, Q, K, A ("three Ks")
    if rules.three_card_play == "nines_only" and (rank != 9 or top.rank != 9):
        return Verdict(False, _("three {rank}s are not allowed: only the other three 9s may go on a 9 "
                                "(house rule three_card_play = nines_only)").format(rank=name))
    if rules.three_card_play == "equal_or_higher":
        if rank < top.rank:
            return Verdict(False, _("three {rank}s are lower than the {top} on top").format(rank=name, top=top))
        return Verdict(True, _("three {rank}s go on the {top}: three of a kind, equal or higher").format(
            rank=name, top=top))
    if rank != top.rank:
        return Verdict(False, _("three {rank}s may only go onto a {rank}, to complete the four; "
                                "the top card is the {top}").format(rank=name, top=top))
    return Verdict(True, _("three {rank}s go on the {top}, completing the four").format(rank=name, top=top))


@dataclass(frozen=True)
class TakeVerdict:
    legal: bool
    reason: str
    taken: tuple[Card, ...] = ()       # top card first
    pile: tuple[Card, ...] = ()        # what remains, bottom → top


def take_choices(rules: PolishRules, pile: list[Card]) -> list[int]:
    """How many cards a taker may lift off this pile under the pickup house rule."""
    available = len(pile) - 1  # the 9♥ at the bottom stays
    if available < 1:
        return []
    standard = min(3, available)
    if rules.pickup == "any":
        return list(range(1, available + 1))
    if rules.pickup == "three_or_all":
        return sorted({standard, available})
    return [standard]


def check_take(rules: PolishRules, pile: list[Card], count: int | None = None) -> TakeVerdict:
    """May the player take ``count`` cards (default: the standard 3, or all above the 9♥)?"""
    pile = _checked_pile(pile)
    choices = take_choices(rules, pile)
    if not choices:
        return TakeVerdict(False, _("the 9♥ is never taken and nothing lies on it; play a card instead "
                                    "(every card is 9 or higher)"))
    if count is None:
        count = choices[0] if rules.pickup != "any" else min(3, len(pile) - 1)
    if count not in choices:
        # Translators: {choices} is e.g. "take 3 (K♠ Q♥ J♦)", "take all 2" or "take from 1 to 4 cards"
        return TakeVerdict(False, _("cannot take {n}: {choices}").format(n=count,
                                                                        choices=_choice_words(rules, choices, pile)))
    taken = tuple(reversed(pile[-count:]))
    if count == len(pile) - 1 and count < 3:
        text = _("take {n}: {cards} (all above the 9♥: taking clean)")
    else:
        text = _("take {n}: {cards}")
    return TakeVerdict(True, text.format(n=count, cards=format_cards(taken)), taken, tuple(pile[:-count]))


def _choice_words(rules: PolishRules, choices: list[int], pile: list[Card]) -> str:
    if rules.pickup == "any":
        return _("take from 1 to {most} cards").format(most=choices[-1])
    if len(choices) == 2:  # three_or_all: three (which leaves cards on the 9♥) or all of them
        return _("take {n} ({cards}) or all {all}").format(n=choices[0], cards=format_cards(reversed(pile[-choices[0]:])),
                                                          all=choices[1])
    n = choices[0]
    if n < len(pile) - 1:
        return _("take {n} ({cards})").format(n=n, cards=format_cards(reversed(pile[-n:])))
    return _("take all {n}").format(n=n)


def next_player(rules: PolishRules, seating: list[str], mover: str, pile: list[Card],
                out: Iterable[str] = ()) -> str | None:
    """Who moves after ``mover`` played or took, leaving ``pile``; None once the deal is decided.

    Play goes clockwise (the seating order), skipping players who are out. Under piki cofane a spade
    on top sends the turn back to the previous player (B.3, P18-P22).
    """
    if mover not in seating:
        raise InputError(_("no player {name} at this table").format(name=repr(mover)),
                         suggest(str(mover), seating, _("players")))
    out = set(out)
    active = [p for p in seating if p not in out]
    if len(active) < 2:
        return None
    n, seat = len(seating), seating.index(mover)
    backwards = rules.spades_back and bool(pile) and pile[-1].suit == "S"
    if backwards and len(active) == 2 and mover in active and rules.spades_back_two_players == "again":
        return mover
    step = -1 if backwards else 1
    for i in range(1, n + 1):
        candidate = seating[(seat + step * i) % n]
        if candidate not in out:
            return candidate
    return None  # unreachable: two players are active


@dataclass(frozen=True)
class ChallengeRuling:
    taker: str | None               # who takes the pile; None when the trick stands
    taken: tuple[Card, ...]         # the whole pile except the 9♥, top first
    reason: str


def rule_challenge(pile: list[Card], player: str, challenger: str, hidden: bool,
                   played_over: bool = False) -> ChallengeRuling:
    """Rule on a claim that ``player`` slipped a card under the one they played («podkładanie», B.2)."""
    pile = _checked_pile(pile)
    taken = tuple(reversed(pile[1:]))
    if played_over:
        return ChallengeRuling(None, (), _("too late: the next player has played on it, so the trick stands"))
    if hidden:
        return ChallengeRuling(player, taken, _("{player} hid a card: {player} takes the whole pile except "
                                                "the 9♥").format(player=player))
    return ChallengeRuling(challenger, taken, _("nothing was hidden: {player} takes the whole pile except "
                                                "the 9♥").format(player=challenger))


# ---------------------------------------------------------------- letters

@dataclass(frozen=True)
class GameState:
    rules: PolishRules
    players: tuple[str, ...]
    letters: tuple[int, ...]          # how many letters of the word each player holds
    deals_lost: tuple[int, ...]
    deals: tuple[str | None, ...] = ()  # the loser of each deal, None when nobody lost
    loser: str | None = None          # who completed the word and lost the game

    @property
    def over(self) -> bool:
        return self.loser is not None

    def letters_of(self, player: str) -> str:
        return self.rules.word[:self.letters[self.players.index(player)]]

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        return cls(rules=PolishRules(**d["rules"]), players=tuple(d["players"]), letters=tuple(d["letters"]),
                   deals_lost=tuple(d["deals_lost"]), deals=tuple(d["deals"]), loser=d["loser"])


def new_state(rules: PolishRules, players: list[str]) -> GameState:
    names = tuple(players)
    if any(not isinstance(p, str) or not p.strip() for p in names):
        raise InputError(_("every player needs a name"), _("give each player a non-empty name"))
    if len(set(names)) < len(names):
        raise InputError(_("two players have the same name"), _("give each player a different name"))
    deal_sizes(len(names))  # refuses a table of the wrong size
    zeros = (0,) * len(names)
    return GameState(rules=rules, players=names, letters=zeros, deals_lost=zeros)


EVENT_KINDS = ("deal", "clock_flag")


def apply(state: GameState, event: dict[str, Any]) -> Step[GameState]:
    """Record one finished deal; the input state is never changed.

    Events: ``{"kind": "deal", "loser": name or None}`` and ``{"kind": "clock_flag", "player": name}``.
    """
    if not isinstance(event, dict) or "kind" not in event:
        raise InputError(_("an event must be a mapping with a 'kind'"),
                         _("kinds: {kinds}").format(kinds=", ".join(EVENT_KINDS)))
    kind = event["kind"]
    if kind not in EVENT_KINDS:
        raise InputError(_("unknown Pan event {kind}").format(kind=repr(kind)),
                         suggest(str(kind), EVENT_KINDS, _("kinds")))
    if state.over:
        raise RuleError(_("the game is over: {player} completed {word}").format(player=state.loser,
                                                                             word=state.rules.word),
                        _("start a new game to go on playing"))
    number = len(state.deals) + 1
    if kind == "deal":
        if "loser" not in event:
            raise InputError(_("a deal event needs 'loser'"), _("give the loser's name, or null when nobody lost"))
        if event["loser"] is None:
            step = _give_letters(state, None, 0)
            step.lines.append(_("Deal {deal}: no loser, no letter").format(deal=number))
            return step
        loser = _player(state, event["loser"])
        return _give_letters(state, loser, 1, _("Deal {deal}: {player} is left holding cards: takes {letters} "
                                                "({player} has {held})"), number)
    if "player" not in event:
        raise InputError(_("a clock_flag event needs 'player'"), _("name the player whose time ran out"))
    player = _player(state, event["player"])
    if state.rules.timeout_loses == "game":
        missing = len(state.rules.word) - state.letters[state.players.index(player)]
        return _give_letters(state, player, missing, _("Deal {deal}: {player}'s time ran out and loses the game: "
                                                       "takes {letters} ({player} has {held})"), number)
    return _give_letters(state, player, 1, _("Deal {deal}: {player}'s time ran out and loses the deal: "
                                             "takes {letters} ({player} has {held})"), number)


def replay(rules: PolishRules, players: list[str], events: Iterable[dict[str, Any]]) -> GameState:
    state = new_state(rules, players)
    for event in events:
        state = apply(state, event).state
    return state


def _player(state: GameState, name: Any) -> str:
    if not isinstance(name, str) or name not in state.players:
        raise InputError(_("no player {name} in this game").format(name=repr(name)),
                         suggest(str(name), state.players, _("players")))
    return name


def _give_letters(state: GameState, loser: str | None, count: int, line: str = "", number: int = 0) -> Step[GameState]:
    """``line`` (translated) names the deal, the loser, the letters taken and the letters held."""
    tallies = [Tally(p, "deals_played", 1) for p in state.players]
    if loser is None:
        return Step(dataclasses.replace(state, deals=state.deals + (None,)), tallies=tallies)
    seat, word = state.players.index(loser), state.rules.word
    letters = list(state.letters)
    gained = word[letters[seat]:letters[seat] + count]
    letters[seat] += count
    lost = list(state.deals_lost)
    lost[seat] += 1
    done = letters[seat] >= len(word)
    new = dataclasses.replace(state, letters=tuple(letters), deals_lost=tuple(lost), deals=state.deals + (loser,),
                              loser=loser if done else None)
    tallies += [Tally(loser, "letters", count), Tally(loser, "deals_lost", 1)]
    lines = [line.format(deal=number, player=loser, letters="-".join(gained), held="-".join(new.letters_of(loser)))]
    if done:
        tallies.append(Tally(loser, "games_lost", 1))
        lines.append(_("{player} has completed {word} and loses the game").format(player=loser, word=word))
    return Step(new, tallies=tallies, lines=lines)


def standings(state: GameState) -> list[dict[str, Any]]:
    """Fewest letters first; the player who completed the word is last."""
    rows = []
    for player in sorted(state.players, key=lambda p: state.letters[state.players.index(p)]):
        seat = state.players.index(player)
        place = 1 + sum(1 for n in state.letters if n < state.letters[seat])
        rows.append({"player": player, "letters": state.letters_of(player), "letter_count": state.letters[seat],
                     "deals_lost": state.deals_lost[seat], "place": place, "lost_game": player == state.loser})
    return rows


def summary(state: GameState) -> str:
    held = ", ".join(f"{r['player']} {r['letters'] or '-'}" for r in standings(state))
    n = len(state.deals)
    if state.over:
        return ngettext("Game over after {n} deal: {player} completed {word} and loses ({held})",
                        "Game over after {n} deals: {player} completed {word} and loses ({held})", n).format(
            n=n, player=state.loser, word=state.rules.word, held=held)
    return ngettext("After {n} deal: {held}", "After {n} deals: {held}", n).format(n=n, held=held)
