"""Replaying a session's log through the game core, under its own house rules or other ones.

One engine serves three jobs: `pan import` (rebuild a session from an archive, strictly),
`pan db check` (recompute every stored payment and compare) and `pan rescore` (app/rescore.py: what the same
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pancli.core.bank import BANK_KINDS, apply_event
from pancli.core.errors import PanError, RuleError
from pancli.core.i18n import _
from pancli.core.ledger import Payment, Tally
from pancli.core.rows import LoggedEvent

if TYPE_CHECKING:
    from pancli.games.protocol import Game


@dataclass(slots=True)
class Replayed:
    """What the core made of one logged event, beside that event (``event``: as the archive or
    the database holds it)."""

    event: LoggedEvent
    payload: dict[str, Any]                      # as the recorder stores it (enriched by the game)
    hand: int | None
    payments: list[Any] = field(default_factory=list)
    tallies: list[Any] = field(default_factory=list)
    error: str | None = None           # why the core refused it (the event was skipped)
    voided: bool = False               # undone by a later undo event

    @property
    def seq(self) -> int:
        return self.event.seq

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def undo_of(self) -> int | None:
        return self.event.undo_of

    @property
    def applied(self) -> bool:
        return self.error is None

    def logged(self) -> LoggedEvent:
        """The event to store: the logged one as the core made it (every other column as logged;
        an undo alone names the event it voids)."""
        ev = self.event
        # by position, the columns after these as they came (a replay stores thousands a batch;
        # a column is added at the end, and tests/test_logged_event.py holds every one to this)
        return LoggedEvent(ev.seq, ev.kind, self.payload, self.hand, ev.created_at,
                           ev.undo_of if ev.kind == "undo" else None, ev.voided_by, tuple(self.payments),
                           tuple(self.tallies), *ev[9:])


@contextmanager
def gc_paused() -> Iterator[None]:
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


def moves(payments: Iterable[Payment]) -> Iterator[tuple[str, str, int]]:
    """(payer, payee, chips) of payments, without wording their reasons."""
    for p in payments:
        yield p.payer, p.payee, p.chips


# -- why an event cannot be replayed: the sentences of every replay (db check's too) ------------

def twice(seq: int) -> str:
    return _("sequence number {seq} appears twice").format(seq=seq)


def not_earlier(seq: int | None) -> str:
    if seq is None:  # the event it names is missing, or another session's
        return _("it undoes an event that is not in this session's log")
    return _("it undoes #{seq}, which is not an earlier event").format(seq=seq)


def undone_already(seq: int | None) -> str:
    return _("#{seq} was undone already").format(seq=seq)


def not_last(seq: int | None) -> str:
    return _("#{seq} is not the last effective event, and only that one can be undone").format(seq=seq)


def undo_refused(seq: int | None, kind: str | None, voided: bool, last: bool) -> str | None:
    """The undo rule, stated once for every replay (db check's fast one too): why an undo cannot
    void event ``seq``, of ``kind`` (None when no earlier event has that number), ``voided``
    already or not, the ``last`` effective event or not; None when it can. As at the table, only
    the last effective event can be undone, and only once; an undo is never undone."""
    if kind is None or kind == "undo":
        return not_earlier(seq)
    if voided:
        return undone_already(seq)
    return None if last else not_last(seq)


def cannot_replay(seq: int, kind: str, why: str) -> str:
    # Translators: {kind} is an event kind such as meld or deal, never translated
    return _("event #{seq} ({kind}) cannot be replayed: {why}").format(seq=seq, kind=kind, why=why)


class History(Protocol):
    """What a bounded replay reads back of the events it let go (those stored so far)."""

    def effective_before(self, seq: int) -> tuple[list[Replayed], bool]: ...
    def effective_tail(self, seq: int, limit: int) -> list[Replayed]: ...
    def state(self, seq: int, before_seq: int) -> tuple[str, bool] | None: ...


# The most bank events a bounded replay holds in a row: they leave the game's state as it was,
# so no checkpoint need end a run of them for the window to let the older ones go.
WINDOW = 1024


class Replay:
    """The replay of a log an event at a time (``step``), as the recorder applies it: the same
    states, payloads, payments and refusals for re-scoring, `pan import`, `pan sync` and the
    recorder loading a session.

    ``strict``: the first event refused raises RuleError; otherwise it is kept with its reason,
    skipped, and the replay goes on. Not ``worded``: the game core may leave out the lines for
    people. ``start``: the state to begin from (a checkpoint restored). ``hook``: called with
    each event replayed.

    An undo can only void the last effective event, so it goes back to the state kept before it
    (the game core never changes a state in place); only an undo that reaches back past a
    checkpoint rebuilds, from the checkpoint before, as the recorder loads a session. Without
    ``history`` every event is held (a whole log, in time linear in its length). With one, the
    replay is bounded: it holds the effective events from the checkpoint before last on (the hand
    before and this one) and the last WINDOW of a run of bank events, and an undo that reaches
    past them reads the ones it needs back from ``history``."""

    def __init__(self, game: Game[Any, Any], rules: Any, players: Sequence[str], dealer: str | None, strict: bool = False,
                 worded: bool = True, start: Any = None, history: History | None = None,
                 hook: Callable[[Replayed], None] | None = None) -> None:
        self.game, self.rules, self.strict, self.worded, self.history, self.hook = \
            game, rules, strict, worded, history, hook
        self.state = self.start = start if start is not None else game.new_state(rules, list(players), dealer)
        self.effective: list[Replayed] = []  # applied and not (yet) undone, in order
        self.before: list[Any] = []  # the state before each; None before the last checkpoint
        self.kept = 0  # before[:kept] are None
        # Whole: every event by seq. Bounded: effective events precede the window (it begins at
        # a checkpoint then), and ``gap`` bank events let go, effective, right before
        # effective[gap_at] (all of the trailing run of bank events but the last WINDOW).
        self.by_seq: dict[int, Replayed] | None = {} if history is None else None
        self.earlier = False
        self.gap_at, self.gap = 0, 0

    def _refuse(self, r: Replayed, why: str) -> None:
        if self.strict:
            raise RuleError(cannot_replay(r.seq, r.kind, why)) from None
        r.error = why

    def step(self, ev: LoggedEvent) -> Replayed:
        r = Replayed(ev, dict(ev.payload), ev.hand)
        self._step(ev, r)
        if self.hook is not None:
            self.hook(r)
        return r

    def _step(self, ev: LoggedEvent, r: Replayed) -> None:
        by_seq = self.by_seq
        if by_seq is not None:
            if ev.seq in by_seq:
                self._refuse(r, twice(ev.seq))
                return
            by_seq[ev.seq] = r
        if ev.kind == "undo":
            self._undo(r)
            return
        g = self.game
        try:
            step = apply_event(g, self.state, ev.payload, self.worded)
        except PanError as e:
            self._refuse(r, e.message)
            return
        r.payload = g.enrich(self.state, ev.payload, step)
        r.hand = g.hand_number(step.state)
        r.payments, r.tallies = list(step.payments), list(step.tallies)
        self.effective.append(r)
        self.before.append(self.state)
        self.state = step.state
        if ev.kind == g.checkpoint_kind:
            # Until this checkpoint is undone, no undo reaches the states before it.
            for i in range(self.kept, len(self.before) - 1):
                self.before[i] = None
            self.kept = len(self.before) - 1
            if by_seq is None:
                self._forget_before_last_hand()
        elif by_seq is None and ev.kind in BANK_KINDS and len(self.effective) > 2 * WINDOW:
            self._let_bank_events_go()

    def _forget_before_last_hand(self) -> None:
        """Keep the window from the checkpoint before this one on."""
        for j in range(len(self.effective) - 2, 0, -1):
            if self.effective[j].kind == self.game.checkpoint_kind:
                del self.effective[:j], self.before[:j]
                self.kept -= j
                self.earlier = True
                if self.gap and self.gap_at <= j:  # before the window now: read back with the rest
                    self.gap_at, self.gap = 0, 0
                elif self.gap:
                    self.gap_at -= j
                return

    def _let_bank_events_go(self) -> None:
        """Let all but the last WINDOW of the trailing run of bank events go (the gap), when the
        run begins where the gap is, or there is none: one gap at a time."""
        effective, end = self.effective, len(self.effective) - WINDOW
        run = end
        while run > 0 and effective[run - 1].kind in BANK_KINDS:
            run -= 1
        if self.gap and run != self.gap_at or run >= end:
            return
        del effective[run:end], self.before[run:end]
        self.kept = min(self.kept, run)
        self.gap_at, self.gap = run, self.gap + end - run

    def _undo(self, r: Replayed) -> None:
        history = self.history
        if history is not None:
            if self.gap and len(self.effective) == self.gap_at:  # the bank events let go come back
                back = history.effective_tail(r.seq, min(self.gap, WINDOW))
                self.effective[self.gap_at:] = back
                self.before[self.gap_at:] = [self.state] * len(back)  # a bank event changes no state
                self.gap -= len(back)
                self.gap_at = self.gap_at if self.gap else 0
            if not self.effective and self.earlier:
                self.effective, self.earlier = history.effective_before(r.seq)
                self.before = [None] * len(self.effective)
                self.kept = len(self.before)
        why = self._why_not(r)
        if why is not None:
            if why:
                self._refuse(r, why)
            return
        target = self.effective.pop()
        target.voided = True
        state = self.before.pop()
        self.kept = min(self.kept, len(self.before))
        self.state = state if state is not None else self._rebuild()

    def _why_not(self, r: Replayed) -> str | None:
        """Why the undo cannot void its event; "" when there is nothing to undo (the event was
        skipped under these rules); None when it can."""
        seq = r.undo_of
        last = self.effective[-1] if self.effective else None
        if self.by_seq is None:
            if last is not None and last.seq == seq:
                return None
            found = self.history.state(seq, r.seq) if self.history and isinstance(seq, int) and 0 < seq < r.seq \
                else None
            return undo_refused(seq, found[0] if found else None, bool(found and found[1]), False)
        target = self.by_seq.get(seq) if seq is not None else None
        if target is None:
            return undo_refused(seq, None, False, False)
        if target.kind != "undo" and not target.voided and not target.applied:
            return ""
        return undo_refused(seq, target.kind, target.voided, last is target)

    def _rebuild(self) -> Any:
        """The state after the effective events, from the last state kept or checkpoint among them
        (restored as the recorder loads a session), filling in the states since."""
        g, effective, before = self.game, self.effective, self.before
        first, state = 0, self.start
        for i in range(len(effective) - 1, -1, -1):
            if before[i] is not None:
                first, state = i, before[i]
                break
            if effective[i].kind == g.checkpoint_kind:
                first, state = i, g.restore(self.rules, effective[i].payload)
                break
        for i in range(first, len(effective)):
            before[i] = state
            state = apply_event(g, state, effective[i].payload, self.worded).state
        self.kept = first
        return state


def replay(game: Game[Any, Any], rules: Any, players: Sequence[str], dealer: str | None, events: Iterable[LoggedEvent],
           strict: bool = False, start: Any = None, worded: bool = True) -> list[Replayed]:
    """Every event replayed in order, held whole (``Replay``), each as the core made it."""
    with gc_paused():
        r = Replay(game, rules, players, dealer, strict, worded, start)
        return [r.step(ev) for ev in events]


# -- totals and differences --------------------------------------------------------------

def add_nets(into: dict[str, int], payments: Iterable[tuple[str, str, int]], sign: int = 1) -> None:
    """Each (payer, payee, chips) moved into the net chips per player (and pool) ``into``: added
    to the payee's, taken from the payer's; ``sign`` -1 takes them back (an undo). The one sum of
    nets, for every replay (db check's running totals too)."""
    get = into.get
    for payer, payee, chips in payments:
        chips *= sign
        into[payee] = get(payee, 0) + chips
        into[payer] = get(payer, 0) - chips


def nets(replayed: Iterable[Replayed], hand: int | None = None) -> dict[str, int]:
    """Net chips per player (and pool) over the effective events, or one hand's."""
    totals: dict[str, int] = {}
    for r in replayed:
        if not r.applied or r.voided or r.kind == "undo":
            continue
        if hand is not None and r.hand != hand:
            continue
        add_nets(totals, moves(r.payments))
    return totals


# -- comparing a replay with what was stored: one rule each, for every replay (db check's too) --

def first_difference(replayed: list[Replayed], stored: dict[int, dict[str, Any]]) -> str | None:
    """The first event whose stored payload, payments or tallies differ from the replay.

    ``stored`` maps seq to {"payload", "payments": [Payment], "tallies": [Tally] (optional)}.
    """
    for r in replayed:
        s = stored.get(r.seq)
        if s is None:
            continue
        if r.error:
            return _("event #{seq} ({kind}) is refused by the core: {why}").format(seq=r.seq, kind=r.kind, why=r.error)
        if r.kind == "undo":
            continue
        if "payload" in s and s["payload"] != r.payload:
            return _("event #{seq} ({kind}): stored payload {stored} but the core makes {made}").format(
                seq=r.seq, kind=r.kind, stored=s["payload"], made=r.payload)
        want = s.get("payments")
        if want is not None and not same_payments(want, r.payments):
            return _("event #{seq} ({kind}): {difference}").format(
                seq=r.seq, kind=r.kind, difference=_describe_payment_diff(want, r.payments))
        if s.get("tallies") is not None:
            want_t = [(t.player, t.stat, t.amount) for t in s["tallies"]]
            if not same_tallies(r.kind, want_t, r.tallies):
                return _("event #{seq} ({kind}): stored tallies {stored} but the core counts {counted}").format(
                    seq=r.seq, kind=r.kind, stored=sorted(want_t), counted=sorted(counted(r.tallies)))
    return None


def counted(tallies: Iterable[Tally]) -> list[tuple[str, str, int]]:
    """(player, stat, amount) of each tally, as tallies are compared."""
    return [(t.player, t.stat, t.amount) for t in tallies]


def same_tallies(kind: str, stored: list[tuple[Any, ...]], computed: Sequence[Tally]) -> bool:
    """Whether the tallies stored for an event of ``kind``, as (player, stat, amount), are those
    the core counts: in any order (stored in the order counted, as a rule), or, for a foul
    stored before a fouled meld's condition came off the tally, lacking only that take-back. The
    one rule for tallies, for every replay (db check's too)."""
    if len(stored) == len(computed):
        for (player, stat, amount), t in zip(stored, computed):
            if player != t.player or stat != t.stat or amount != t.amount:
                break
        else:
            return True
    got = counted(computed)
    return sorted(stored) == sorted(got) or _fouled_before_fix(kind, stored, got)


def _fouled_before_fix(kind: str, stored: list[tuple[Any, ...]], counted: list[tuple[Any, ...]]) -> bool:
    """A foul recorded before a fouled meld's condition was taken off the `conditions` tally: its
    stored tallies lack only that take-back. Both are accepted, so a database of then still checks
    (and keeps the count it showed); a foul recorded now counts it."""
    if kind != "foul":
        return False
    extra = [t for t in counted if t[1:] == ("conditions", -1)]
    return len(extra) == 1 and sorted(stored) == sorted(t for t in counted if t is not extra[0])


def payment_matches(payer: Any, payee: Any, chips: Any, code: Any, params: Any, computed: Payment) -> bool:
    """Whether a stored payment, field by field as stored (``params`` the JSON text), is the
    core's ``computed`` one: payer, payee and chips (a whole number above 0: 5.0 equals 5 and is
    no number of chips), and code and parameters unless it was stored before payments had codes
    (``code`` None). Reasons are not worded, let alone compared. The one rule for payments, for
    every replay (db check's rows too)."""
    return payer == computed.payer and payee == computed.payee and chips == computed.chips \
        and type(chips) is int and chips > 0 \
        and (code is None or code == computed.code and params == computed.params.to_json())


def same_payment(stored: Payment, computed: Payment, either_old: bool = False) -> bool:
    """``payment_matches`` for a stored Payment; ``either_old``: by players and chips alone
    when either predates codes (two stored copies of one payment)."""
    code = None if stored.code is None or either_old and computed.code is None else stored.code
    return payment_matches(stored.payer, stored.payee, stored.chips, code,
                           None if code is None else stored.params.to_json(), computed)


def same_payments(stored: Sequence[Payment], computed: Sequence[Payment]) -> bool:
    """The payments of one event, in order, as ``same_payment`` compares them."""
    if len(stored) != len(computed):
        return False
    for a, b in zip(stored, computed):
        if not same_payment(a, b):
            return False
    return True


def _said(p: Payment) -> str:
    what = p.reason if p.code is None else f"{p.reason} [{p.code} {p.params.to_json()}]"
    return _("'{payer} pays {payee} {chips}: {what}'").format(payer=p.payer, payee=p.payee, chips=p.chips, what=what)


def _describe_payment_diff(stored: Sequence[Payment], computed: Sequence[Payment]) -> str:
    for i, (a, b) in enumerate(zip(stored, computed)):
        if not same_payment(a, b):
            return _("stored payment {n} is {stored} but the core pays {paid}").format(
                n=i + 1, stored=_said(a), paid=_said(b))
    if len(stored) > len(computed):
        return _("stored payment {stored} is not paid by the core").format(stored=_said(stored[len(computed)]))
    return _("the core pays {paid}, which is not stored").format(paid=_said(computed[len(stored)]))
