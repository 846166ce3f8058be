"""A random night at the table, for Hypothesis: a state machine that drives the recorder (the path
every `pan` command takes) against a real SQLite file with random legal and illegal events, and
checks after each that the night sums to zero, its replay equals the live state and an undo
restores exactly. tests/test_stateful.py runs it; other tests run it with more checks."""

import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from pancli.app.recorder import Recorder
from pancli.app.views import board_json
from pancli.core.errors import PanError
from pancli.core.rows import LoggedEvent
from pancli.games import game
from pancli.games.panguingue.cards import RANKS, SUITS
from pancli.games.panguingue.rules import preset
from pancli.storage.store import Store
from pancli.storage.voided import VOIDED_IN_SESSION

PLAYERS = ["Ana", "Ben", "Cruz", "Dee"]


@st.composite
def meld_cards(draw):
    kind = draw(st.sampled_from(["set", "set", "rope", "rope", "junk"]))
    suit = draw(st.sampled_from(SUITS))
    if kind == "set":
        rank = draw(st.sampled_from(RANKS))
        n = draw(st.integers(3, 5))
        if draw(st.booleans()):
            return [rank + suit] * n
        return [rank + s for s in draw(st.permutations(SUITS))[: n if n <= 4 else 4]]
    if kind == "rope":
        start = draw(st.integers(0, 7))
        n = draw(st.integers(3, min(6, 10 - start)))
        return [RANKS[i] + suit for i in range(start, start + n)]
    return draw(st.lists(st.sampled_from([r + s for r in RANKS for s in SUITS]), min_size=1, max_size=4))


# The running totals as the log implies them, summed in Python over rows already read: the
# reference the incremental totals (and `pan db check`'s SQL sums) must equal.

def log_sums(rows: list[LoggedEvent]) -> tuple[dict, dict]:
    """What the running totals should hold for these events (Store.session_log rows): net chips
    per hand and player (or pool), and tallies per player and stat. Every event counts but the
    undone ones, as the running totals do. (`pan db check` sums them in SQL; this is the same
    sum over rows already read.)"""
    undone = {e.undo_of for e in rows if e.undo_of is not None}
    hands: dict[int, dict[str, int]] = {}
    tallies: dict[str, dict[str, int]] = {}
    for e in rows:
        if e.seq in undone:
            continue
        if e.payments:
            hand = e.hand or 0
            moved = hands.get(hand)
            if moved is None:
                moved = hands[hand] = defaultdict(int)
            for pay in e.payments:
                moved[pay.payee] += pay.chips
                moved[pay.payer] -= pay.chips
        for t in e.tallies:
            counts = tallies.get(t.player)
            if counts is None:
                counts = tallies[t.player] = defaultdict(int)
            counts[t.stat] += t.amount
    return hands, tallies


def running_totals(parts) -> tuple[dict, dict, dict]:
    """What the running totals should hold, from the log_sums of a session's parts: shaped as
    Store.balances, Store.tallies and Store.hand_nets."""
    nets: dict[str, int] = defaultdict(int)
    tallies: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    hand_nets: dict[tuple[int, str], int] = defaultdict(int)
    for hands, counts in parts:
        for hand, moved in hands.items():
            for player, chips in moved.items():
                nets[player] += chips
                hand_nets[hand, player] += chips
        for player, stats in counts.items():
            for stat, amount in stats.items():
                tallies[player][stat] += amount
    by_player = {p: kept for p, stats in tallies.items() if (kept := {s: v for s, v in stats.items() if v})}
    return ({p: v for p, v in sorted(nets.items()) if v}, by_player,
            {k: v for k, v in hand_nets.items() if v})


class Night(RuleBasedStateMachine):
    @initialize(preset_name=st.sampled_from(["hoyle", "cardroom-ca", "japanese-wp"]))
    def start(self, preset_name):
        self.dir = tempfile.TemporaryDirectory()
        self.store = Store(Path(self.dir.name) / "pan.db")
        rules = game("panguingue").rules_to_dict(preset(preset_name))
        with self.store.lock():
            sid = self.store.create_session("night", "panguingue", PLAYERS, None, rules, None)
        self.session = self.store.session("night")
        assert self.session.id == sid
        self.rec = Recorder(self.store, self.session)

    def teardown(self):
        self.store.close()
        self.dir.cleanup()

    def snapshot(self):
        return board_json(self.session, self.rec.state()), self.store.log.balances(self.session.id)

    def try_record(self, event):
        try:
            self.rec.record(event)
            return True
        except PanError:
            return False

    @rule()
    def deal(self):
        self.try_record({"kind": "deal"})

    @rule(who=st.sampled_from(PLAYERS), kind=st.sampled_from(["drop", "stay", "dead"]))
    def declare(self, who, kind):
        self.try_record({"kind": kind, "player": who})

    @rule(who=st.sampled_from(PLAYERS), cards=meld_cards())
    def meld(self, who, cards):
        self.try_record({"kind": "meld", "player": who, "cards": cards})

    @rule(who=st.sampled_from(PLAYERS), cards=st.lists(st.sampled_from([r + s for r in RANKS for s in SUITS]),
                                                        min_size=1, max_size=2),
          to=st.none() | st.integers(1, 8))
    def add(self, who, cards, to):
        self.try_record({"kind": "add", "player": who, "cards": cards, "to": to})

    @rule(who=st.sampled_from(PLAYERS), number=st.integers(1, 8), cut=st.integers(3, 5))
    def split(self, who, number, cut):
        hand = self.rec.state().hand
        meld = hand.melds.get(number) if hand else None
        cards = list(meld.cards) if meld else ["5S"] * 6
        self.try_record({"kind": "split", "player": who, "meld": number,
                         "into": [" ".join(cards[:cut]), " ".join(cards[cut:])]})

    @rule(who=st.sampled_from(PLAYERS), number=st.integers(1, 8), cards=meld_cards())
    def borrow(self, who, number, cards):
        hand = self.rec.state().hand
        meld = hand.melds.get(number) if hand else None
        taken = [meld.cards[0]] if meld else ["KS"]
        self.try_record({"kind": "borrow", "player": who, "from": number, "cards": taken, "with": cards[:2]})

    @rule(who=st.sampled_from(PLAYERS), cards=meld_cards())
    def go_out(self, who, cards):
        self.try_record({"kind": "out", "player": who, "cards": cards})

    @rule(who=st.sampled_from(PLAYERS), data=st.data())
    def grow(self, who, data):
        hand = self.rec.state().hand
        own = [m for m in hand.melds.values() if m.owner == who] if hand else []
        if not own:
            return
        meld = data.draw(st.sampled_from(own))
        ranks = sorted({c[0] for c in meld.cards}, key=RANKS.index)
        if len(ranks) == 1:
            card = data.draw(st.sampled_from(list(meld.cards)))
        else:
            hi = RANKS.index(ranks[-1]) + 1
            card = (RANKS[hi] if hi < 10 else RANKS[RANKS.index(ranks[0]) - 1]) + meld.cards[0][1]
        self.try_record({"kind": "add", "player": who, "cards": [card]})

    @rule(who=st.sampled_from(PLAYERS), suit=st.sampled_from(SUITS), start=st.integers(0, 2),
          rank=st.sampled_from(RANKS), same=st.booleans())
    def pat_hand(self, who, suit, start, rank, same):
        rope = " ".join(RANKS[i] + suit for i in range(start, start + 8))
        group = " ".join([rank + suit] * 3 if same else [rank + s for s in "SHD"])
        self.try_record({"kind": "spread", "player": who, "melds": [rope, group]})

    @rule()
    def void(self):
        self.try_record({"kind": "void"})

    @rule()
    def undo(self):
        try:
            self.rec.undo()
        except PanError:
            pass

    @rule(who=st.sampled_from(PLAYERS), cards=meld_cards())
    def undo_restores_exactly(self, who, cards):
        before = self.snapshot()
        if self.try_record({"kind": "meld", "player": who, "cards": cards}):
            self.rec.undo()
            assert self.snapshot() == before

    @invariant()
    def chips_sum_to_zero(self):
        if hasattr(self, "store"):
            assert sum(self.store.log.balances(self.session.id).values()) == 0

    @invariant()
    def replay_equals_live(self):
        if not hasattr(self, "store"):
            return
        live = board_json(self.session, self.rec.state())
        fresh = Recorder(self.store, self.session)
        assert board_json(self.session, fresh.state()) == live
        # A full replay from the first event recomputes exactly the stored payments.
        g = game("panguingue")
        state = g.new_state(fresh.rules, PLAYERS, None)
        recomputed = Counter()
        for ev in self.store.log.effective_events(self.session.id):
            step = g.apply(state, ev.payload)
            state = step.state
            recomputed.update((p.payer, p.payee, p.chips, p.reason) for p in step.payments)
        stored = Counter(tuple(r) for r in self.store.conn.execute(
            f"SELECT payer, payee, chips, reason FROM payments WHERE session_id = ? AND event_id NOT IN ({VOIDED_IN_SESSION})",
            [self.session.id, self.session.id]))
        assert recomputed == stored
        assert board_json(self.session, state) == live
        sid = self.session.id
        assert running_totals([log_sums(self.store.log.session_log(sid))]) == (
            self.store.log.balances(sid), self.store.log.tallies(sid), self.store.log.hand_nets(sid))
