"""The replay of `pan db check`: a session's log, piece by piece, through the game core, each
event compared with what is stored as soon as it is replayed.

It is a lean twin of the one replay (app/replay.py `Replay`), made to run in bounded memory and
to do nothing a check does not read: pieces of the log come in as plain rows
(pancli/storage/care.py reads them, their fields named by pancli/core/rows.py) and are let go
once compared; the lines for people are not made and no payment's reason is worded (only a
difference found is put in words, by replay.first_difference); and what an undo may still need
is dropped at every checkpoint that is never undone, since no undo reaches back past it. Run on
`Replay` itself, with a hint of the events undone, a check costs about 1.4 times this loop of
raw rows (bench/bench_dbcheck.py), so the twin stays, held to the replay by
tests/test_db_check_gives_the_replays_verdict.py.

What it shares with the replay is every rule: undos are refused by replay.undo_refused, payments
compared by replay.payment_matches, tallies by replay.same_tallies, and nets summed by
replay.add_nets. Nothing here touches a database.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Container, Sequence
from typing import TYPE_CHECKING, Any

from pancli.app.replay import Replayed, add_nets, first_difference, payment_matches, same_tallies, undo_refused
from pancli.core.bank import BANK_KINDS, apply_bank
from pancli.core.errors import PanError
from pancli.core.i18n import _
from pancli.core.rows import EventRow, LoggedEvent, LogPiece, PaymentRow, TallyRow
from pancli.storage.mapping import stored_payment, stored_tally

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject
    from pancli.core.ledger import Payment, Step
    from pancli.games.protocol import Game

_PAYLOADS_KEPT = 20_000
# Where each field the replay reads is in a row of a piece (a list, in the order of its row
# class's fields): the positions, named from the one list of the columns.
_E_ID, _E_SEQ, _E_HAND, _E_KIND, _E_PAYLOAD, _E_UNDO_OF = map(
    EventRow._fields.index, ("id", "seq", "hand", "kind", "payload", "undo_of"))
_P_EVENT, _P_HAND, _P_PAYER, _P_PAYEE, _P_CHIPS, _P_CODE, _P_PARAMS = map(
    PaymentRow._fields.index, ("event_id", "hand", "payer", "payee", "chips", "code", "params"))
_T_EVENT, _T_HAND, _T_PLAYER, _T_STAT, _T_AMOUNT = map(
    TallyRow._fields.index, ("event_id", "hand", "player", "stat", "amount"))
_NONE: list[Any] = []  # no payments or tallies (shared: never changed)
STRAY = "stray"            # a payment or tally of no event of the piece, or of another hand
TOTALS_DIFFER = "totals"   # the running totals of a hand differ from the sums of the log


class LogVerifier:
    """Replays the pieces fed to it, in order, from the session's start or (``restore``) from
    the checkpoint that the first event fed is. ``finals``: the seqs of the checkpoints that are
    never undone; ``undone``: the ids of the events an undo names (only the states before those
    are kept: every other event changes the state in place). ``seq_of``: the seq of an event
    outside the pieces, by id (a problem's words).

    It also sums each hand's net chips per player over the effective events and, once a hand
    is over for good (a checkpoint never undone has begun a later one), compares them with the
    running totals that ``stored_hands(first, last)`` reads (hands ``first`` to ``last``, or on
    from ``first`` if ``last`` is None, as a set of (hand, player, net)); hand 0 (outside any hand) and
    below are left to the caller."""

    def __init__(self, game: Game[Any, Any], rules: Any, players: Sequence[str], dealer: str | None, finals: Container[int], undone: Container[int],
                 restore: bool, seq_of: Callable[[int], int | None],
                 stored_hands: Callable[[int, int | None], set[tuple[int, str, int]]]) -> None:
        self.game, self.rules, self.finals, self.undone, self.seq_of = game, rules, finals, undone, seq_of
        self.stored_hands = stored_hands
        self.state: Any = None if restore else game.new_state(rules, list(players), dealer)
        self.effective: list[int] = []  # the seqs of the events applied and not undone
        # An event an undo names, by id: [seq, kind, voided, hand, payments, the state before it]
        self.seen: dict[int, list[Any]] = {}
        self.last_seq = 0
        self.last_id = 0               # the row id of the event replayed last: ids rise with seqs
        self.events = 0                # replayed so far
        self.moved: dict[int, dict[str, int]] = {}  # net chips by hand and player, hands not yet compared
        self.first_hand: int | None = None if restore else 1  # the first hand this replay sums
        self.over_below = 0            # every hand below this one is over for good
        # Payloads parsed, by their text: a long night repeats most of them (a drop by the same
        # player, the same meld), and the core never changes an event it is given.
        self.payloads: dict[str, dict[str, Any]] = {}

    def feed(self, piece: LogPiece) -> str | None:
        """Replay and compare every event of the piece, then the running totals of the hands it
        finished; the first problem, or None."""
        pays, tallies = piece.payments, piece.tallies
        p = t = 0
        np, nt = len(pays), len(tallies)
        game = self.game
        copying, in_place, enrich = game.apply_unworded, game.apply_in_place, game.enrich
        checkpoint, undone = game.checkpoint_kind, self.undone
        payloads, effective, seen = self.payloads, self.effective, self.seen
        last_id = self.last_id
        for row in piece.events:  # the loop of every event: kept lean
            eid, seq, hand, kind = row[_E_ID], row[_E_SEQ], row[_E_HAND], row[_E_KIND]
            if eid <= last_id:  # read in the order of their numbers, stored in another
                return _("event #{seq} is stored after event #{last}").format(seq=self.last_seq, last=seq)
            last_id = eid
            p0 = p
            while p < np and pays[p][_P_EVENT] <= eid:
                if pays[p][_P_EVENT] < eid or pays[p][_P_HAND] != hand:
                    return STRAY
                p += 1
            t0 = t
            while t < nt and tallies[t][_T_EVENT] <= eid:
                if tallies[t][_T_EVENT] < eid or tallies[t][_T_HAND] != hand:
                    return STRAY
                t += 1
            if seq != self.last_seq + 1:  # events are numbered 1, 2, 3...: a gap is an event taken out
                if seq <= self.last_seq:
                    return _("event #{seq} is stored after event #{last}").format(seq=seq, last=self.last_seq)
                if seq == self.last_seq + 2:
                    return _("event #{gone} is missing: event #{seq} follows event #{last}").format(
                        gone=seq - 1, seq=seq, last=self.last_seq)
                return _("events #{first} to #{gone} are missing: event #{seq} follows event #{last}").format(
                    first=self.last_seq + 1, gone=seq - 1, seq=seq, last=self.last_seq)
            self.last_seq = seq
            self.events += 1
            text = row[_E_PAYLOAD]
            payload = payloads.get(text)
            if payload is None:
                if len(payloads) >= _PAYLOADS_KEPT:
                    payloads.clear()
                payload = payloads[text] = json.loads(text)
            if self.state is None:  # the checkpoint this replay starts from
                try:
                    self.state = game.restore(self.rules, payload)
                except PanError as e:  # a hand-edited database: the checkpoint does not remember it
                    return _("event #{seq} ({kind}) is refused by the core: {why}").format(seq=seq, kind=kind, why=e.message)
                self.first_hand = hand
            mine = pays[p0:p] if p > p0 else _NONE
            if kind == "undo":
                problem = self._undo(eid, seq, row[_E_UNDO_OF]) or _bad_chips(seq, mine)
                if problem:
                    return problem
                continue
            state = self.state
            # An event no undo names is never taken back, so nothing needs the state before it;
            # a checkpoint is copied all the same: enrich reads the state before it.
            bank = kind in BANK_KINDS
            kept = bank or kind == checkpoint or eid in undone
            try:
                if bank:
                    step = apply_bank(state, payload)
                else:
                    step = copying(state, payload) if kept else in_place(state, payload)
            except PanError as e:
                return _("event #{seq} ({kind}) is refused by the core: {why}").format(seq=seq, kind=kind, why=e.message)
            made = enrich(state, payload, step)
            counted = tallies[t0:t] if t > t0 else _NONE
            if made is not payload and made != payload or (mine or step.payments) and not _same_payments(
                    mine, step.payments) or (counted or step.tallies) and not same_tallies(kind, _counted(counted), step.tallies):
                return self._difference(seq, kind, made, payload, step, mine, counted)
            if mine and hand and hand > 0:
                self._move(hand, mine, 1)
            if kept:
                seen[eid] = [seq, kind, False, hand, mine, state]
            effective.append(seq)
            self.state = step.state
            if kind == checkpoint and seq in self.finals:  # no later undo reaches back past it
                effective.clear()
                seen.clear()
                if hand:
                    self.over_below = hand
        self.last_id = last_id
        if p < np or t < nt:
            return STRAY
        return self._compare_hands(self.over_below)

    def finish(self) -> str | None:
        """The running totals of every hand not compared yet."""
        return self._compare_hands(None)

    def _compare_hands(self, below: int | None) -> str | None:
        first = self.first_hand
        if first is None or below is not None and below <= first:
            return None
        mine: set[tuple[int, str, int]] = set()
        for hand in [h for h in self.moved if below is None or h < below]:
            mine.update([(hand, player, net) for player, net in self.moved.pop(hand).items() if net])
        stored = self.stored_hands(first, below - 1 if below is not None else None)
        if mine != stored:
            return TOTALS_DIFFER
        self.first_hand = below
        return None

    def _move(self, hand: int, pays: list[list[Any]], sign: int) -> None:
        moved = self.moved.get(hand)
        if moved is None:
            moved = self.moved[hand] = {}
        add_nets(moved, [(row[_P_PAYER], row[_P_PAYEE], row[_P_CHIPS]) for row in pays], sign)

    def _undo(self, eid: int, seq: int, undo_of: int | None) -> str | None:
        target = self.seen.get(undo_of) if undo_of is not None else None
        self.seen[eid] = [seq, "undo", False, None, (), None]
        if target is None:  # an event before a checkpoint never undone is there, but not the last
            earlier = self.seq_of(undo_of) if undo_of is not None else None
            known = earlier is not None and earlier < seq
            why = undo_refused(earlier, "before the checkpoint" if known else None, False, False)
            return _("event #{seq} (undo) is refused by the core: {why}").format(seq=seq, why=why)
        why = undo_refused(target[0], target[1], target[2], bool(self.effective) and self.effective[-1] == target[0])
        if why is not None:
            return _("event #{seq} (undo) is refused by the core: {why}").format(seq=seq, why=why)
        t_hand, t_pays, t_before = target[3], target[4], target[5]
        self.effective.pop()
        target[2] = True
        if t_hand and t_hand > 0 and t_pays:
            self._move(t_hand, t_pays, -1)
        self.state = t_before
        return None

    @staticmethod
    def _difference(seq: int, kind: str, made: JsonObject, payload: JsonObject, step: Step[Any],
                    pays: list[list[Any]], tallies: list[list[Any]]) -> str:
        """The difference found, in words (the stored payments' reasons as stored)."""
        bad = _bad_chips(seq, pays)
        if bad:
            return bad
        replayed = Replayed(LoggedEvent(seq, kind, payload), made, None, list(step.payments), list(step.tallies))
        stored = {seq: {"payload": payload, "payments": [stored_payment(PaymentRow._make(r)) for r in pays],
                        "tallies": [stored_tally(TallyRow._make(r)) for r in tallies]}}
        return first_difference([replayed], stored) or _("event #{seq} ({kind}) differs from the replay").format(
            seq=seq, kind=kind)


def _bad_chips(seq: int, pays: list[list[Any]]) -> str | None:
    for row in pays:
        chips = row[_P_CHIPS]
        if type(chips) is not int or chips <= 0:
            return _("event #{seq}: a payment of {chips} chips").format(seq=seq, chips=repr(chips))
    return None


def _same_payments(rows: list[list[Any]], computed: Sequence[Payment]) -> bool:
    """Stored payment rows (PaymentRow) against the core's, by the replay's rule (payment_matches)."""
    if len(rows) != len(computed):
        return False
    for row, b in zip(rows, computed):
        if not payment_matches(row[_P_PAYER], row[_P_PAYEE], row[_P_CHIPS], row[_P_CODE], row[_P_PARAMS], b):
            return False
    return True


def _counted(rows: list[list[Any]]) -> list[tuple[str, str, int]]:
    """(player, stat, amount) of each row (TallyRow), as the replay compares tallies (same_tallies)."""
    return [(r[_T_PLAYER], r[_T_STAT], r[_T_AMOUNT]) for r in rows]
