"""Panguingue behind the game contract: the adapter the recorder, reports and commands use."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pancli.core.errors import PanError, RuleError
from pancli.core.hints import Hint
from pancli.core.i18n import N_, _
from pancli.core.ledger import Step
from pancli.core.payloads import LIST, TEXT, TEXTS, WHOLE, YES_NO, Field, Payloads
from pancli.core.words import signed
from pancli.games.protocol import CompletionKind, Event, GameBase, SessionRow, starting

if TYPE_CHECKING:
    from types import ModuleType

    from pancli.core.json_types import JsonObject
    from pancli.core.knobs import Schema
    from pancli.games.panguingue.board import MeldJson, NextHand, PanguingueBoard, SeatJson
    from pancli.games.panguingue.engine import PanState
    from pancli.games.panguingue.rules import HouseRules


@functools.cache
def _engine() -> ModuleType:
    """The engine, imported on first use (a command that never applies an event does not load it)
    and then looked up in a dictionary: a replay applies every event of a long night."""
    from pancli.games.panguingue import engine

    return engine


_PLAYER, _CARDS, _NUMBER = Field(TEXT), Field(TEXTS), Field(WHOLE, nullable=True)

# The payload of every event the engine reads; `deal` is stored with what the core decided
# (``enrich``), so a replay from it needs nothing earlier.
PAYLOADS = Payloads({
    "seat_add": {"player": _PLAYER, "after": Field(TEXT, nullable=True)},
    "seat_remove": {"player": _PLAYER},
    "deal": {"dealer": Field(TEXT, nullable=True), "seats": Field(TEXTS), "hand": _NUMBER},
    "drop": {"player": _PLAYER},
    "stay": {"player": _PLAYER},
    "meld": {"player": _PLAYER, "cards": _CARDS},
    "add": {"player": _PLAYER, "cards": _CARDS, "to": _NUMBER},
    "split": {"player": _PLAYER, "meld": _NUMBER, "into": Field(LIST)},
    "borrow": {"player": _PLAYER, "from": Field(WHOLE), "cards": _CARDS, "with": _CARDS},
    "spread": {"player": _PLAYER, "melds": Field(LIST)},
    "out": {"player": _PLAYER, "cards": _CARDS, "to": _NUMBER},
    "foul": {"player": _PLAYER, "after_discard": Field(YES_NO), "meld": _NUMBER},
    "dead": {"player": _PLAYER},
    "void": {},
    "chop": {},
})


class Panguingue(GameBase["HouseRules", "PanState"]):
    name = "panguingue"
    title = N_("Panguingue")
    checkpoint_kind = "deal"
    zero_sum = True
    board_template = "table_panguingue.html"
    career_kinds = ("meld", "out")
    career_takebacks = ("foul_return",)  # a fouled meld's chips: its condition was never laid
    payloads = PAYLOADS
    tallies = ("hands", "won", "dropped", "conditions")  # what each player's standings row counts
    season_tallies = ("hands", "won")  # what a season's row adds up, as released pancli showed
    # no register_commands: its commands are pan's own top-level ones (deal, meld, out …)

    declarations = "pancli.games.panguingue.actions"  # its ACTIONS and PACK

    @property
    def schema(self) -> Schema[HouseRules]:
        from pancli.games.panguingue.rules import SCHEMA  # adapter: the game's modules load on first use

        return SCHEMA

    def new_state(self, rules: HouseRules, players: list[str], dealer: str | None) -> PanState:
        from pancli.games.panguingue.engine import new_state  # adapter: the game's modules load on first use

        return new_state(rules, players, dealer)

    def apply(self, state: PanState, event: Event) -> Step[PanState]:
        step: Step[PanState] = _engine().apply(state, event)
        return step

    def apply_unworded(self, state: PanState, event: Event) -> Step[PanState]:
        step: Step[PanState] = _engine().apply(state, event, False)
        return step

    def apply_in_place(self, state: PanState, event: Event) -> Step[PanState]:
        step: Step[PanState] = _engine().apply(state, event, False, own=True)
        return step

    def restore(self, rules: HouseRules, payload: Event) -> PanState:
        """The state just before a recorded deal, from what the deal payload remembers."""
        from pancli.games.panguingue.engine import PanState  # adapter: the game's modules load on first use

        seats, dealer, hand = payload.get("seats"), payload.get("dealer"), payload.get("hand")
        if not (isinstance(seats, list) and seats and all(isinstance(s, str) for s in seats)):
            field = "seats"
        elif not (isinstance(dealer, str) and dealer in seats):
            field = "dealer"
        elif not (isinstance(hand, int) and not isinstance(hand, bool) and hand >= 1):
            field = "hand"
        else:
            return PanState(rules=rules, seats=list(seats), next_dealer=dealer, hands=hand - 1)
        # a hand-edited database: the deal does not remember what the state before it needs
        # Translators: {field} is the name of a field of a stored event (seats, dealer, hand), never translated
        raise RuleError(_("its stored payload has no valid '{field}'").format(field=field))

    def enrich(self, state_before: PanState, event: Event, step: Step[PanState]) -> Event:
        """Fill in what the core decided, so a replay from this event needs nothing earlier."""
        if event["kind"] == "deal":
            hand = step.state.hand
            assert hand is not None  # a deal opens a hand
            return {**event, "dealer": hand.dealer, "seats": list(state_before.seats), "hand": hand.number}
        return event

    def hand_number(self, state: PanState) -> int | None:
        return state.hand.number if state.hand else None

    def read_cards(self, text: str, rules: HouseRules) -> tuple[str, ...]:
        from pancli.games.panguingue.cards import parse_cards  # adapter: the game's modules load on first use

        return parse_cards(text, rules.rank_set)

    def verdict(self, cards: Sequence[str], rules: HouseRules, onto: Sequence[str] | None = None) -> JsonObject:
        """A meld or an addition judged in one sentence, as `pan check` says it (the dealer's page)."""
        from pancli.games.panguingue.verdicts import verdict  # adapter: the game's modules load on first use

        return verdict(cards, rules, onto)

    # -- looking ----------------------------------------------------------------------------
    def event_words(self, event: Event, undone: Event | None = None) -> str:
        from pancli.games.panguingue.words import event_words  # adapter: the game's modules load on first use

        return event_words(event) or super().event_words(event, undone)

    def players(self, state: PanState) -> list[str]:
        return state.players()

    def seats(self, state: PanState) -> list[str]:
        return list(state.seats)

    def active_players(self, state: PanState) -> list[str]:
        hand = state.hand
        if hand is None or hand.over:
            return state.players()
        return [p for p in hand.order if hand.status.get(p) == "in"]

    def hand_open(self, state: PanState) -> bool:
        return state.hand_open

    def status(self, state: PanState) -> str | None:
        hand = state.hand
        if hand is None:
            return None
        return (_("hand {number} over") if hand.over else _("hand {number}")).format(number=hand.number)

    def complete(self, kind: CompletionKind, word: str, state: PanState | None = None,
                 owner: str | None = None) -> list[str]:
        if kind == "card":
            from pancli.games.panguingue.cards import card_candidates  # adapter: the game's modules load on first use

            return card_candidates(word)
        if kind == "meld":
            hand = state.hand if state is not None else None
            if hand is None:
                return []
            return [str(n) for n, m in hand.melds.items() if owner in (None, m.owner) and str(n).startswith(word)]
        if kind == "preset":
            return starting(word, self.schema.presets)
        return []

    def board(self, session: SessionRow, state: PanState) -> PanguingueBoard:
        from pancli.games.panguingue.melds import meld_order  # adapter: the game's modules load on first use

        hand = state.hand
        out: PanguingueBoard = {"session": session.name, "seats": list(state.seats), "hand": None}
        if hand is None:
            return out
        rules, moved = state.rules, hand.moved
        players: list[SeatJson] = []
        for p in hand.order:
            melds: list[MeldJson] = [{"number": m.number, "cards": meld_order(m.cards), "condition": m.tag,
                      "worth": m.worth(rules)} for m in hand.melds_of(p)]
            players.append({"name": p, "status": hand.status[p], "stayed": p in hand.stayed,
                            "melded": hand.melded(p), "melds": melds, "chips_this_hand": moved.get(p, 0)})
        out["hand"] = {"number": hand.number, "dealer": hand.dealer, "eldest": hand.eldest, "over": hand.over,
                       "result": hand.result or "in play", "winner": hand.winner, "tops": hand.tops_total(),
                       "players": players, **self.next_hand(state)}
        return out

    def next_hand(self, state: PanState) -> NextHand:
        """Once a hand is over: who deals the next one and who is eldest (as `deal` would seat them)."""
        hand = state.hand
        if hand is None or not hand.over:
            return {}
        try:
            nxt = self.apply_unworded(state, {"kind": "deal"}).state.hand
        except PanError:  # a table that cannot deal again (too few seated) says nothing
            return {}
        return {"next_dealer": nxt.dealer, "next_eldest": nxt.eldest} if nxt is not None else {}

    def board_lines(self, board: Mapping[str, Any]) -> list[str]:
        """The hand; who is in with melds, worth and chips."""
        from pancli.games.panguingue.cards import format_card  # adapter: the game's modules load on first use
        from pancli.games.panguingue.engine import result_words  # adapter: the game's modules load on first use

        hand = board.get("hand")
        if hand is None:
            return []
        status = _("in play") if not hand["over"] else result_words(hand["result"])
        lines = [_("hand {number} · {dealer} deals · {eldest} eldest · tops {tops} · {status}").format(
            number=hand["number"], dealer=hand["dealer"], eldest=hand["eldest"], tops=hand["tops"], status=status)]
        playing, out = [], []
        for p in hand["players"]:
            if p["status"] != "in":
                moved = p["chips_this_hand"]  # a void hand gives a drop back: nothing to show
                said = dict(player=p["name"], status=p["status"], n=signed(moved))
                if p["status"] == "dropped":
                    out.append((_("{player} dropped {n}") if moved else _("{player} dropped")).format(**said))
                elif p["status"] == "dead":
                    out.append((_("{player} dead {n}") if moved else _("{player} dead")).format(**said))
                else:
                    out.append(f"{p['name']} {p['status']}" + (f" {signed(moved)}" if moved else ""))
                continue
            melds = "; ".join(
                (_("meld {number}: {cards} worth {worth}") if m["worth"] else _("meld {number}: {cards}")).format(
                    number=m["number"], cards="".join(format_card(c) for c in m["cards"]), worth=m["worth"])
                for m in p["melds"])
            playing.append(f"{p['name']} {signed(p['chips_this_hand'], zero='+0')}" + (f" [{melds}]" if melds else ""))
        # Translators: "in" are the players still in the hand; {out} who dropped or is dead
        lines.append((_("in: {players} | {out}") if out else _("in: {players}")).format(
            players=" · ".join(playing), out=", ".join(out)))
        return lines

    def hand_over_lines(self, before: PanState | None, after: PanState) -> list[str]:
        """When the events ended a hand: who won, what moved, who deals next and who is eldest."""
        hand = after.hand
        if hand is None or not hand.over:
            return []
        was = before.hand if before is not None else None
        if was is not None and (was.number, was.over) == (hand.number, hand.over):
            return []
        moved = sorted(((p, n) for p, n in hand.moved.items() if p in hand.status and n), key=lambda pn: -pn[1])
        from pancli.games.panguingue.engine import result_words  # adapter: the game's modules load on first use

        lines = [_("Hand {number} is void.").format(number=hand.number) if hand.result == "void" else
                 _("Hand {number} is over: {result}.").format(number=hand.number, result=result_words(hand.result)),
                 _("Moved this hand: {moves}").format(moves=" · ".join(f"{p} {signed(n)}" for p, n in moved)) if moved
                 else _("No chips moved this hand.")]
        try:
            nxt = self.apply(after, {"kind": "deal"}).state.hand
        except PanError:  # no next hand to deal (too few seated, the night over)
            return lines
        if nxt is not None:
            lines.append(str(Hint("deal.next_line", N_("Next hand: {dealer} deals, {eldest} is eldest."),
                                  dealer=nxt.dealer, eldest=nxt.eldest)))
        return lines

    def result_words(self, result: str) -> str:
        from pancli.games.panguingue.engine import result_words  # adapter: the game's modules load on first use

        return result_words(result)

    def meld_words(self, meld: Mapping[str, Any]) -> str:
        from pancli.games.panguingue import conditions  # adapter: the game's modules load on first use

        return conditions.describe(meld["condition"], meld["cards"]) if meld["worth"] else _("no condition")

    def payment_words(self, code: str | None, params: Mapping[str, Any]) -> str | None:
        from pancli.games.panguingue import reasons  # adapter: the game's modules load on first use

        if code not in reasons.TEXT:
            return None
        try:
            return reasons.render(code, params)
        except (KeyError, TypeError, ValueError, IndexError):  # particulars edited by hand: the stored reason
            return None

    def career_counts(self, events: Sequence[tuple[Mapping[str, Any], Event]],
                      taken_back: Sequence[Sequence[Mapping[str, Any]]] = ()) -> list[tuple[str, int]]:
        """How often each condition was laid, from meld payloads (and final melds at going out),
        less the melds fouled before the discard (their chips given back name the condition)."""
        # adapter: the game's modules load on first use
        from pancli.games.panguingue import conditions
        from pancli.games.panguingue.cards import parse_cards
        from pancli.games.panguingue.melds import check_meld
        from pancli.games.panguingue.rules import from_dict

        counts: Counter[str] = Counter()
        rules_cache: dict[str, HouseRules] = {}
        for rules_dict, payload in events:
            key = json.dumps(rules_dict, sort_keys=True)
            rules = rules_cache.get(key) or rules_cache.setdefault(key, from_dict(dict(rules_dict)))
            try:
                cards = parse_cards(payload.get("cards") or [])
            except PanError:
                continue
            if len(cards) < 3 or (payload["kind"] == "out" and payload.get("to") is not None):
                continue
            if not check_meld(cards, rules.mixed_set_additions).valid:
                continue
            tag = conditions.tag_of(cards, rules)
            if tag != conditions.NONE:
                counts[conditions.describe(tag, cards)] += 1
        for payments in taken_back:  # one fouled meld (or dead hand) each
            laid = [p["returns"]["params"] for p in payments if p.get("meld") is not None
                    and (p.get("returns") or {}).get("code") in ("condition", "rearranged")]
            if not laid:
                continue  # a dead hand's chips, or a meld's additions only: nothing laid goes back
            what = conditions.describe(laid[0]["tag"], laid[0]["cards"])
            if counts[what] > 0:
                counts[what] -= 1
        return [(what, n) for what, n in counts.most_common() if n > 0]


if TYPE_CHECKING:  # the type checker holds the adapter to the whole contract, with this game's own types
    from pancli.games.protocol import Game

    _checked: Game[HouseRules, PanState] = Panguingue()
