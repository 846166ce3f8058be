"""Replaying a session's log through the game core, under its own house rules or other ones.

One engine serves three jobs: `pan import` (rebuild a session from an archive, strictly),
`pan db check` (recompute every stored payment and compare) and `pan rescore` (what the same
play would have paid under other rules, skipping what those rules forbid and saying why).

The log is a list of events in order, undo events included. An undo names the event it voids by
its sequence number; as at the table, it can only void the last effective event, so replaying it
means going back to the state before that event. The replay keeps the state before each effective
event since the last checkpoint (the game core never changes a state in place), so an undo costs
nothing and a whole log is replayed once, in time linear in its length. Only an undo that reaches
back past a checkpoint rebuilds, from the checkpoint before, as the recorder loads a session.

Payments are compared by payer, payee, chips, code and parameters, in their order within the
event, and never by their English reason. A payment stored by pancli 0.1 has no code: it is
compared by payer, payee and chips only.
Nothing here touches a database.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pancli.core.bank import apply_event
from pancli.core.errors import PanError, RuleError
from pancli.core.ledger import POOLS, Payment
from pancli.core.rows import Session


@dataclass
class LogEvent:
    """One recorded event as an archive or the database holds it."""

    seq: int
    kind: str
    payload: dict
    hand: int | None = None
    created_at: str | None = None
    undo_of: int | None = None        # for an undo: the seq of the event it voids
    payments: Sequence[Payment] | None = None  # what was stored, if known


@dataclass
class Replayed:
    """What the core made of one event."""

    seq: int
    kind: str
    hand: int | None
    payload: dict                      # as the recorder stores it (enriched by the game)
    payments: list = field(default_factory=list)
    tallies: list = field(default_factory=list)
    error: str | None = None           # why the core refused it (the event was skipped)
    voided: bool = False               # undone by a later undo event
    undo_of: int | None = None
    created_at: str | None = None

    @property
    def applied(self) -> bool:
        return self.error is None


@contextmanager
def gc_paused():
    """Python's cycle collector paused while a whole log is loaded and replayed: it would otherwise
    walk every object of the log again and again (40% of a long replay), and the replay makes no
    garbage cycles that need it. Nested uses are fine; the collector is on again after the outermost."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _moves(payments: Iterable[Payment]) -> Iterator[tuple[str, str, int]]:
    """(payer, payee, chips) of payments, without wording their reasons."""
    for p in payments:
        yield p.payer, p.payee, p.chips


def _apply_fn(game, worded: bool = True):
    """The recorder's own way of applying one event (bank events included), without a database
    (and, not ``worded``, without the lines for people)."""
    return lambda state, payload: apply_event(game, state, payload, worded)


def replay(game, rules, players: Sequence[str], dealer: str | None, events: Iterable[LogEvent],
           strict: bool = False, start: Any = None, worded: bool = True) -> list[Replayed]:
    """Apply every event in order. ``strict``: the first refused event raises RuleError;
    otherwise it is recorded with its reason, skipped, and the replay goes on. ``start``: the
    state to begin from (a checkpoint restored) instead of the session's first. Not ``worded``:
    the game core may leave out the lines for people (an import stores none of them)."""
    with gc_paused():
        return _replay(game, rules, players, dealer, events, strict, start, worded)


def _replay(game, rules, players, dealer, events, strict, start=None, worded=True) -> list[Replayed]:
    apply = _apply_fn(game, worded)
    state = start if start is not None else game.new_state(rules, list(players), dealer)
    start = state
    effective: list[Replayed] = []    # applied and not (yet) undone, in order
    before: list[Any] = []            # the state before each of them; None before the last checkpoint
    kept = 0                          # before[:kept] are None
    by_seq: dict[int, Replayed] = {}
    out: list[Replayed] = []

    def refuse(r: Replayed, why: str) -> None:
        if strict:
            raise RuleError(f"event #{r.seq} ({r.kind}) cannot be replayed: {why}")
        r.error = why

    for ev in events:
        r = Replayed(ev.seq, ev.kind, ev.hand, dict(ev.payload), undo_of=ev.undo_of, created_at=ev.created_at)
        out.append(r)
        if ev.seq in by_seq:
            refuse(r, f"sequence number {ev.seq} appears twice")
            continue
        by_seq[ev.seq] = r
        if ev.kind == "undo":
            target = by_seq.get(ev.undo_of) if ev.undo_of is not None else None
            if target is None or target.kind == "undo":
                refuse(r, f"it undoes #{ev.undo_of}, which is not an earlier event")
            elif target.voided:
                refuse(r, f"#{ev.undo_of} was undone already")
            elif not target.applied:
                pass  # the event it undoes was skipped under these rules: nothing to undo
            elif not effective or effective[-1] is not target:
                refuse(r, f"#{ev.undo_of} is not the last effective event, and only that one can be undone")
            else:
                effective.pop()
                state = before.pop()
                target.voided = True
                if state is None:  # back past the last checkpoint: rebuild from the one before
                    kept, state = _rebuild(game, rules, start, effective, before, apply)
            continue
        try:
            step = apply(state, ev.payload)
        except PanError as e:
            refuse(r, e.message)
            continue
        r.payload = game.enrich(state, ev.payload, step)
        r.hand = game.hand_number(step.state)
        r.payments, r.tallies = list(step.payments), list(step.tallies)
        effective.append(r)
        before.append(state)
        state = step.state
        if r.kind == game.checkpoint_kind:
            # Until this checkpoint is undone, no undo reaches the states before it.
            for i in range(kept, len(before) - 1):
                before[i] = None
            kept = len(before) - 1
    return out


def _rebuild(game, rules, start, effective: list[Replayed], before: list, apply) -> tuple[int, Any]:
    """The state after the effective events, from the last checkpoint among them (restored as the
    recorder loads a session), filling in the states before the events since; returns the index
    of the first state filled in, and the state."""
    first, state = 0, start
    for i in range(len(effective) - 1, -1, -1):
        if before[i] is not None:
            first, state = i, before[i]
            break
        if effective[i].kind == game.checkpoint_kind:
            first, state = i, game.restore(rules, effective[i].payload)
            break
    for i in range(first, len(effective)):
        before[i] = state
        state = apply(state, effective[i].payload).state
    return first, state


# -- totals and differences --------------------------------------------------------------

def nets(replayed: Iterable[Replayed], hand: int | None = None) -> dict[str, int]:
    """Net chips per player (and pool) over the effective events, or one hand's."""
    totals: dict[str, int] = defaultdict(int)
    for r in replayed:
        if not r.applied or r.voided or r.kind == "undo":
            continue
        if hand is not None and r.hand != hand:
            continue
        for payer, payee, chips in _moves(r.payments):
            totals[payee] += chips
            totals[payer] -= chips
    return dict(totals)


@dataclass
class Rescore:
    rows: list[dict]               # per player: name, recorded, rescored, difference
    illegal: list[dict]            # per skipped event: seq, hand, what, why
    pools: dict[str, dict]         # per pool: recorded, rescored
    hand: int | None
    changed_rules: dict[str, Any]  # knob: [recorded value, rescored value]

    def to_json(self) -> dict:
        return {"hand": self.hand, "rules_changed": self.changed_rules, "players": self.rows,
                "pools": self.pools, "illegal": self.illegal,
                "sum": {"recorded": sum(r["recorded"] for r in self.rows) + sum(p["recorded"] for p in self.pools.values()),
                        "rescored": sum(r["rescored"] for r in self.rows) + sum(p["rescored"] for p in self.pools.values())}}


def rescore(game, session: Session, events: list[LogEvent], new_rules, hand: int | None = None) -> Rescore:
    """The recorded play of a session paid again under ``new_rules``; the session is not changed.

    ``recorded`` is what the stored payments say; ``rescored`` what the replay pays. With
    ``hand``, both count only the events recorded in that hand.
    """
    recorded_by_seq = {ev.seq: ev for ev in events}
    if all(ev.payments is not None for ev in events):
        voided = {ev.undo_of for ev in events if ev.kind == "undo"}
        old = [Replayed(ev.seq, ev.kind, ev.hand, ev.payload, payments=list(ev.payments or ()), voided=ev.seq in voided)
               for ev in events]
    else:  # an archive without payments: what the session's own rules pay
        old = replay(game, game.rules_from_dict(session.rules), session.players, session.dealer, events)
    new = replay(game, new_rules, session.players, session.dealer, events)
    # Filter by the hand each event was recorded in, whatever the replay numbered it.
    recorded_hand = {ev.seq: ev.hand for ev in events}
    if hand is not None:
        keep = {s for s, h in recorded_hand.items() if h == hand}
        old = [r for r in old if r.seq in keep]
        new = [r for r in new if r.seq in keep]
    before, after = nets(old), nets(new)
    names = [p for p in session.players]
    for r in list(old) + list(new):
        for payer, payee, _ in _moves(r.payments):
            for n in (payer, payee):
                if n not in names and n not in POOLS:
                    names.append(n)
    rows: list[dict[str, Any]] = [{"name": n, "recorded": before.get(n, 0), "rescored": after.get(n, 0),
                                   "difference": after.get(n, 0) - before.get(n, 0)} for n in names]
    rows.sort(key=lambda x: (-x["rescored"], x["name"]))
    pools = {p.strip("()"): {"recorded": before.get(p, 0), "rescored": after.get(p, 0)}
             for p in POOLS if before.get(p) or after.get(p)}
    illegal = [{"seq": r.seq, "hand": recorded_hand.get(r.seq), "kind": r.kind,
                "what": game.event_words(recorded_by_seq[r.seq].payload),
                "why": r.error} for r in new if r.error]
    old_rules = session.rules
    new_dict = game.rules_to_dict(new_rules)
    changed = {k: [old_rules.get(k), v] for k, v in new_dict.items() if old_rules.get(k) != v}
    return Rescore(rows, illegal, pools, hand, changed)


# -- comparing a replay with what was stored ---------------------------------------------

def first_difference(replayed: list[Replayed], stored: dict[int, dict]) -> str | None:
    """The first event whose stored payload, payments or tallies differ from the replay.

    ``stored`` maps seq to {"payload", "payments": [Payment], "tallies": [Tally] (optional)}.
    """
    for r in replayed:
        s = stored.get(r.seq)
        if s is None:
            continue
        if r.error:
            return f"event #{r.seq} ({r.kind}) is refused by the core: {r.error}"
        if r.kind == "undo":
            continue
        if "payload" in s and s["payload"] != r.payload:
            return f"event #{r.seq} ({r.kind}): stored payload {s['payload']} but the core makes {r.payload}"
        want = s.get("payments")
        if want is not None and not same_payments(want, r.payments):
            return f"event #{r.seq} ({r.kind}): " + _describe_payment_diff(want, r.payments)
        if s.get("tallies") is not None:
            want_t = [(t.player, t.stat, t.amount) for t in s["tallies"]]
            got = [(t.player, t.stat, t.amount) for t in r.tallies]
            if want_t != got and sorted(want_t) != sorted(got) and not fouled_before_fix(r.kind, want_t, got):
                return f"event #{r.seq} ({r.kind}): stored tallies {sorted(want_t)} but the core counts {sorted(got)}"
    return None


def fouled_before_fix(kind: str, stored: list[tuple], counted: list[tuple]) -> bool:
    """A foul recorded before a fouled meld's condition was taken off the `conditions` tally: its
    stored tallies lack only that take-back. Both are accepted, so a database of then still checks
    (and keeps the count it showed); a foul recorded now counts it."""
    if kind != "foul":
        return False
    extra = [t for t in counted if t[1:] == ("conditions", -1)]
    return len(extra) == 1 and sorted(stored) == sorted(t for t in counted if t is not extra[0])


def same_payment(stored: Payment, computed: Payment, either_old: bool = False) -> bool:
    """Players and chips, and code and parameters unless the stored payment predates them (or,
    ``either_old``, either does). Reasons are not worded, let alone compared."""
    if stored.payer != computed.payer or stored.payee != computed.payee or stored.chips != computed.chips:
        return False
    if stored.code is None or either_old and computed.code is None:
        return True
    return stored.code == computed.code and stored.params.to_json() == computed.params.to_json()


def same_payments(stored: Sequence[Payment], computed: Sequence[Payment]) -> bool:
    """The payments of one event, in order, as ``same_payment`` compares them (inlined: db check
    compares every payment of the log)."""
    if len(stored) != len(computed):
        return False
    for a, b in zip(stored, computed):
        if a.payer != b.payer or a.payee != b.payee or a.chips != b.chips \
                or a.code is not None and (a.code != b.code or a.params.to_json() != b.params.to_json()):
            return False
    return True


def _said(p: Payment) -> str:
    what = p.reason if p.code is None else f"{p.reason} [{p.code} {p.params.to_json()}]"
    return f"'{p.payer} pays {p.payee} {p.chips}: {what}'"


def _describe_payment_diff(stored: Sequence[Payment], computed: Sequence[Payment]) -> str:
    for i, (a, b) in enumerate(zip(stored, computed)):
        if not same_payment(a, b):
            return f"stored payment {i + 1} is {_said(a)} but the core pays {_said(b)}"
    if len(stored) > len(computed):
        return f"stored payment {_said(stored[len(computed)])} is not paid by the core"
    return f"the core pays {_said(computed[len(stored)])}, which is not stored"
