"""The contract every game keeps with the rest of pancli: a few small protocols.

The recorder, re-scoring, reports, archives, the board, standings, the shell's completion and
the command line talk to a game only through these; none of them looks inside a game's state.
Each protocol is generic over the game's rules ``R`` and state ``S``, so a type checker can check
a game against them:

* ``Rules[R]``: the knob schema of its house rules, and their stored form.
* ``Engine[R, S]``: the state before the first event, one event applied, what is stored of it,
  and the payloads of its events (``pancli.core.payloads``).
* ``Checkpoints[R, S]``: an event kind from which the state can be rebuilt (optional).
* ``Views[S]``: plain data and lines for people and scripts: players, the board, standings, the
  score sheet (``sheet_shows``: chips per hand, or the game's own ``sheet``), and each event in
  words (``event_words``: every screen shows an event so, never its fields).
* ``Completions[S]``: what the shell offers for a word of a kind ("card", "meld", "preset").
* ``Cards[R]``: reading the cards of the game's own top-level commands (optional).
* ``Table``: what the table records, declared once (``actions``: pancli/games/actions.py), the
  pack a card picker lays out, whether it is scored in chips, what a round of its play is called
  (a hand or a deal), and what is still to record.

``Game[R, S]`` is all of them, with its name and the hook that adds its commands to `pan`.
A game is pure: it turns events into states and payments, and states into plain data.
``GameBase`` gives every optional part its default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

from pancli.core.errors import InputError
from pancli.core.hints import Hint
from pancli.core.i18n import N_, _
from pancli.core.ledger import Step
from pancli.core.payloads import NO_PAYLOADS, Payloads
from pancli.core.rows import Session
from pancli.core.words import bank_words, undo_words, unworded

# The counts a standings row of released pancli always showed, for every game: what a session
# of a game this pancli lacks still shows. Each game declares its own (``Table.tallies``).
TALLIES = ("hands", "won", "dropped", "conditions")

if TYPE_CHECKING:
    from pancli.core.knobs import Schema
    from pancli.games.actions import Action
    from pancli.games.board import Board, SeatsBoard

R = TypeVar("R")  # a game's house rules (a frozen KnobRules dataclass)
S = TypeVar("S")  # a game's state between two events
# The same, for a protocol that only takes them (or only gives the state back).
R_in = TypeVar("R_in", contravariant=True)
S_in = TypeVar("S_in", contravariant=True)
S_out = TypeVar("S_out", covariant=True)

Event = dict[str, Any]          # an event's payload: plain JSON data with a "kind"
SessionRow = Session            # a session as storage gives it (pancli/core/rows.py)

CompletionKind = Literal["card", "meld", "preset"]
# The night's score sheet in a game's own scoring (``Views.sheet``): ``unit`` (what a cell counts,
# "points", "letters"), ``round`` ("deal"), ``caption`` (what the cells are, for people),
# ``players`` (seating order), ``rows`` ({"number", "note", "scores", "running"} per round: the
# note names what the round was played for, or None), ``note_label`` (the notes' column),
# ``signed`` (whether numbers show their sign), ``totals``, and ``result`` (who won, or None).
Sheet = dict[str, Any]


class CommandHooks(Protocol):
    """What `pan` offers a game that adds commands of its own (``Game.register_commands``)."""

    def add_group(self, name: str, module: str, attr: str, panel: str | None = None) -> None:
        """Mount the Typer app ``module.attr`` (or what ``module.attr(NAME)`` makes) as `pan NAME`,
        in the help panel ``panel``; the module is imported only when the command is asked for."""


class Rules(Protocol[R]):
    @property
    def schema(self) -> Schema[Any]:
        """The knob schema of the game's house rules: knobs, presets."""

    def rules_from_dict(self, data: Mapping[str, Any]) -> R:
        """Rules from their stored form (a session's rules, a rules file's keys); validates."""

    def rules_to_dict(self, rules: R) -> dict[str, Any]:
        """The stored form of rules: plain JSON/TOML values."""


class Engine(Protocol[R_in, S]):
    @property
    def payloads(self) -> Payloads:
        """The fields of every kind of event the engine reads and writes."""

    def new_state(self, rules: R_in, players: list[str], dealer: str | None) -> S:
        """The state before the first event; refuses a table the rules do not allow."""

    def apply(self, state: S, event: Event) -> Step[S]:
        """One event applied: the new state, the payments, tallies and lines it makes. The state
        given is never changed."""

    def apply_unworded(self, state: S, event: Event) -> Step[S]:
        """``apply`` for a check that reads only the state, payments and tallies: the lines for
        people may be left out (and their reasons are never worded)."""

    def apply_in_place(self, state: S, event: Event) -> Step[S]:
        """``apply_unworded`` for a caller that gives ``state`` up: the core may change it and
        return it as the new state, sparing the copy. If the event is refused, ``state`` may be
        left half changed: the caller drops it."""

    def enrich(self, state_before: S, event: Event, step: Step[S]) -> Event:
        """The event as stored: with whatever the core decided that a replay must not recompute."""

    def hand_number(self, state: S) -> int | None:
        """The hand (or deal) an event that left this state belongs to."""


class Checkpoints(Protocol[R_in, S_out]):
    @property
    def checkpoint_kind(self) -> str | None:
        """An event from which the state can be rebuilt, or None: replay every event."""

    def restore(self, rules: R_in, payload: Event) -> S_out:
        """The state just before a checkpoint event, from what its stored payload remembers."""


class Views(Protocol[S_in]):
    @property
    def board_template(self) -> str | None:
        """The `pan serve` template of the table page; None: the generic one."""

    @property
    def career_kinds(self) -> tuple[str, ...]:
        """Event kinds a player's career reads (``career_counts``)."""

    @property
    def career_takebacks(self) -> tuple[str, ...]:
        """Payment codes by which a player gives back what was laid (a fouled meld's chips):
        ``career_counts`` is given their parameters, to take it off what the player laid."""

    def players(self, state: S_in) -> list[str]:
        """Every name a command may refer to now."""

    def seats(self, state: S_in) -> list[str]:
        """Who sits at the table now, in playing order."""

    def active_players(self, state: S_in) -> list[str]:
        """The players still in the current hand (all players between hands)."""

    def hand_open(self, state: S_in) -> bool:
        """Whether a hand is in play (a session cannot be closed then)."""

    def status(self, state: S_in) -> str | None:
        """A few words on where the game is, for the shell's prompt: "hand 3", "deal 2"."""

    def board(self, session: SessionRow, state: S_in) -> Board:
        """The table now, as JSON-ready data (`pan board --json` and the web view)."""

    def board_lines(self, board: Mapping[str, Any]) -> list[str]:
        """The board (this game's ``board``) in a line or two for the shell, above the night's
        totals (which it adds)."""

    def hand_over_lines(self, before: S_in | None, after: S_in) -> list[str]:
        """What to say when the events between two states ended a hand: who won, who deals next."""

    def result_words(self, result: str) -> str:
        """How a hand ended (the board's ``result``, English data as in --json) in the language in
        force."""

    def meld_words(self, meld: Mapping[str, Any]) -> str:
        """The words for one meld of the board: what it is worth and why ("" if nothing to say)."""

    def payment_words(self, code: str | None, params: Mapping[str, Any]) -> str | None:
        """A payment's reason in the language in force, for a screen, from its code and params;
        None when the game does not word that code (show the reason as stored). The reason stored
        and archived beside a payment (``Payment.reason``) stays English."""

    def event_words(self, event: Event, undone: Event | None = None) -> str:
        """One recorded event as the table says it ("Chuy deals hand 6"), for every kind the game
        declares and the bank's and undo's (``undone``: what an undo took back, when known)."""

    def standings(self, rules_data: Mapping[str, Any],
                  rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]] | None:
        """Rows in ranking order and the columns to show, or None to rank by net chips."""

    @property
    def sheet_shows(self) -> str:
        """What the night's score sheet shows: "chips" (each hand's chips, read from the ledger),
        or the game's own score per deal ("points", "letters"), which ``sheet`` gives."""

    def sheet(self, state: S_in) -> Sheet:
        """The score sheet in the game's own scoring, from the state after the last event (only
        asked of a game whose ``sheet_shows`` is not "chips")."""

    def career_counts(self, events: Sequence[tuple[Mapping[str, Any], Event]],
                      taken_back: Sequence[Sequence[Mapping[str, Any]]] = ()) -> list[tuple[str, int]]:
        """What a player laid and how often, most often first, from (session rules, payload) of
        the player's effective events of ``career_kinds``, less what ``taken_back`` gave back: for
        each effective event with payments of ``career_takebacks``, their parameters."""


class Completions(Protocol[S_in]):
    def complete(self, kind: CompletionKind, word: str, state: S_in | None = None,
                 owner: str | None = None) -> list[str]:
        """Words of a kind that complete ``word``: "card" (cards of its pack), "meld" (numbers of
        the melds on the table, of ``owner`` if given), "preset" (its presets)."""


class Cards(Protocol[R_in]):
    def read_cards(self, text: str, rules: R_in) -> tuple[str, ...]:
        """The cards a command word names, in any notation the game accepts, as stored codes."""


class Table(Protocol[S_in]):
    @property
    def actions(self) -> tuple[Action, ...]:
        """Everything its table records, each once: the game's own actions, then the bank's. The
        recording commands, the shell's fast path and the dealer's page are made from or held to it."""

    @property
    def pack(self) -> tuple[str, ...]:
        """The cards a card picker lays out, one of each, as stored codes (empty: no cards)."""

    @property
    def at_top(self) -> bool:
        """Its actions are `pan`'s own commands (`pan deal`, not `pan contract deal`), read under
        the session's rules, and its rules need no --game (``Schema.at_top``: one game at most)."""

    @property
    def in_chips(self) -> bool:
        """Scored in chips: a night's net is what it won (best and worst nights, the chip columns)."""

    @property
    def round_word(self) -> str:
        """What one round of its play is called where its events are listed: "hand", or "deal"."""

    @property
    def tallies(self) -> tuple[str, ...]:
        """The counts each player's row of the standings shows, 0 when none (others only when had)."""

    @property
    def season_tallies(self) -> tuple[str, ...]:
        """The counts a season's row adds up over the nights of the game (``tallies`` unless the
        game says fewer); a game not in chips ranks its season by the first, as its ``standings``."""

    def still_to_record(self, state: S_in) -> str | Hint | None:
        """What the table has yet to tell pancli before the state is complete, in a sentence, or None."""


@runtime_checkable
class Game(Rules[R], Engine[R, S], Checkpoints[R, S], Views[S], Completions[S], Cards[R], Table[S],
           Protocol[R, S]):
    @property
    def name(self) -> str:
        """Stored with each session: never rename."""

    @property
    def title(self) -> str:
        """For people."""

    @property
    def zero_sum(self) -> bool:
        """Every chip a player wins another player (or a pool) pays."""

    def register_commands(self, cli: CommandHooks) -> None:
        """Add the game's own commands to `pan` (see ``CommandHooks``); called once per command line."""


class GameBase(Generic[R, S]):
    """Defaults for the optional parts of the contract. A game sets ``name``, ``title``, its
    ``schema`` and ``payloads``, and writes ``new_state``, ``apply``, ``hand_number`` and ``players``."""

    name = ""
    title = ""
    zero_sum = False
    checkpoint_kind: str | None = None
    board_template: str | None = None
    career_kinds: tuple[str, ...] = ()
    career_takebacks: tuple[str, ...] = ()
    sheet_shows = "chips"
    payloads: Payloads = NO_PAYLOADS
    in_chips = True
    round_word = "hand"
    tallies: tuple[str, ...] = ()  # a game shows the counts it declares, none of another game's

    @property
    def season_tallies(self) -> tuple[str, ...]:
        return self.tallies

    # The module that declares the game's ACTIONS and PACK, loaded when first asked for (None:
    # only the bank's actions and no cards).
    declarations: str | None = None

    def _declared(self, name: str, default: tuple[Any, ...]) -> tuple[Any, ...]:
        if self.declarations is None:
            return default
        return tuple(getattr(import_module(self.declarations), name))

    @property
    def pack(self) -> tuple[str, ...]:
        return self._declared("PACK", ())

    @property
    def at_top(self) -> bool:
        return self.schema.at_top

    @property
    def actions(self) -> tuple[Action, ...]:
        from pancli.games.actions import BANK_ACTIONS  # noqa: PLC0415 the declarations load when first asked for

        return self._declared("ACTIONS", ()) + BANK_ACTIONS

    def still_to_record(self, state: S) -> str | Hint | None:
        return None

    # -- house rules ------------------------------------------------------------------------
    @property
    def schema(self) -> Schema[Any]:
        raise NotImplementedError

    def rules_from_dict(self, data: Mapping[str, Any]) -> R:
        rules: R = self.schema.from_dict(dict(data))
        return rules

    def rules_to_dict(self, rules: R) -> dict[str, Any]:
        return self.schema.to_dict(rules)

    # -- playing ----------------------------------------------------------------------------
    def new_state(self, rules: R, players: list[str], dealer: str | None) -> S:
        raise NotImplementedError

    def apply(self, state: S, event: Event) -> Step[S]:
        raise NotImplementedError

    def apply_unworded(self, state: S, event: Event) -> Step[S]:
        return self.apply(state, event)

    def apply_in_place(self, state: S, event: Event) -> Step[S]:
        return self.apply_unworded(state, event)

    def restore(self, rules: R, payload: Event) -> S:
        raise NotImplementedError(f"{self.title} keeps no checkpoints")

    def enrich(self, state_before: S, event: Event, step: Step[S]) -> Event:
        return event

    def hand_number(self, state: S) -> int | None:
        raise NotImplementedError

    def register_commands(self, cli: CommandHooks) -> None:
        """`pan NAME …` made from its declared actions whose command starts with its name (a game
        that writes commands of its own mounts its own group instead)."""
        if any(len(a.command) == 2 and a.command[0] == self.name for a in self.actions):
            cli.add_group(self.name, "pancli.cli.action_commands", "game_group")

    # -- looking ----------------------------------------------------------------------------
    def players(self, state: S) -> list[str]:
        raise NotImplementedError

    def seats(self, state: S) -> list[str]:
        return self.players(state)

    def active_players(self, state: S) -> list[str]:
        return self.players(state)

    def hand_open(self, state: S) -> bool:
        return False

    def status(self, state: S) -> str | None:
        return None

    def board(self, session: SessionRow, state: S) -> Board:
        seats: SeatsBoard = {"session": session.name, "game": self.name, "seats": self.seats(state)}
        return seats

    def board_lines(self, board: Mapping[str, Any]) -> list[str]:
        return []

    def hand_over_lines(self, before: S | None, after: S) -> list[str]:
        return []

    def result_words(self, result: str) -> str:
        return result

    def meld_words(self, meld: Mapping[str, Any]) -> str:
        return ""

    def payment_words(self, code: str | None, params: Mapping[str, Any]) -> str | None:
        return None

    def event_words(self, event: Event, undone: Event | None = None) -> str:
        """The bank's kinds and undo; a game words its own kinds and leaves these to this."""
        kind = event.get("kind")
        if kind in ("buyin", "cashout"):
            return bank_words(event)
        if kind == "undo":
            return undo_words(event, undone, self.event_words)
        return unworded(event)

    def standings(self, rules_data: Mapping[str, Any],
                  rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]] | None:
        return None

    def sheet(self, state: S) -> Sheet:
        raise NotImplementedError(f"{self.title} keeps its score sheet in chips")

    def career_counts(self, events: Sequence[tuple[Mapping[str, Any], Event]],
                      taken_back: Sequence[Sequence[Mapping[str, Any]]] = ()) -> list[tuple[str, int]]:
        return []

    def complete(self, kind: CompletionKind, word: str, state: S | None = None,
                 owner: str | None = None) -> list[str]:
        if kind == "preset":
            return starting(word, self.schema.presets)
        return []

    def read_cards(self, text: str, rules: R) -> tuple[str, ...]:
        raise InputError(_("{game} has no cards to read here").format(game=self.title),
                         Hint("cards.none", N_("this game's actions take no cards"), name=self.name))


def starting(word: str, names: Sequence[str] | Mapping[str, Any]) -> list[str]:
    """The names that start with the word, ignoring case."""
    low = word.lower()
    return [n for n in names if n.lower().startswith(low)]


def place(rows: list[dict[str, Any]], key: Any) -> None:
    """Shared places for equal scores (1, 2, 2, 4)."""
    for row in rows:
        row["place"] = 1 + sum(1 for other in rows if key(other) < key(row))


def dealer_of(session: SessionRow, players: list[str], number: int) -> str:
    """Who deals deal ``number``: the first dealer, then one seat on in playing order each deal."""
    first = session.dealer if session.dealer in players else players[0]
    return players[(players.index(first) + number - 1) % len(players)]
