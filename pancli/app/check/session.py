"""One session checked: the events not verified before replayed (in parts, a process each, when
the replay is long) and compared with what is stored, the rest read against the digest of the
check that verified them, and the running totals compared with the sums of the log."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pancli
from pancli.app.check.marks import seal, sealed, sha
from pancli.core.errors import PanError
from pancli.core.i18n import N_, _, ngettext
from pancli.core.rows import CheckMark, Session
from pancli.storage.log import now
from pancli.storage.store import Store

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

    from pancli.games.protocol import Game


# A replay this long is checked in parts, one per core, each replayed from a checkpoint in a
# process of its own; a shorter one is not worth starting processes for.
PARALLEL_FROM = 4000


# Events read, replayed and digested at a time: what a check holds of the log at once.
PIECE = 4096


@dataclass
class Plan:
    """What to check of one session: the events from ``start`` to ``last_seq`` are replayed, and
    those from ``digest_from`` on are new; the ones before were verified by an earlier check
    (``mark``) and are read against its digest."""

    session: Session
    last_seq: int
    last_event: int
    mark: CheckMark | None = None
    start: int = 1
    digest_from: int = 1

    @property
    def replayed(self) -> int:
        """The events replayed: the new ones, and those since the checkpoint they start from."""
        return max(0, self.last_seq - self.start + 1)


def plan(store: Store, session: Session, mark: CheckMark | None) -> Plan:
    """What a check of the session needs to replay, given what an earlier one verified: a mark
    of another pancli or SQLite, or one whose seal does not hold under this user's key (forged
    by someone who could edit the file, made elsewhere, or with no key to check it), counts for
    nothing (everything is replayed)."""
    last_seq = store.log.last_seq(session.id)
    last_event = store.log.last_event_id(session.id)
    if mark is None or not mark.last_seq or mark.pancli != pancli.__version__ \
            or mark.sqlite != store.care.sqlite_version() \
            or not sealed(mark, store.care.session_basis(session.id)):
        return Plan(session, last_seq, last_event)
    from pancli.games import game as get_game  # noqa: PLC0415 start-up: only db check replays (not db status or backup)

    start = 1
    try:
        kind = get_game(session.game).checkpoint_kind
    except PanError:  # an unknown game: check_session says so
        kind = None
    if kind:  # the last checkpoint verified and never undone: no new undo reaches before it
        start = store.log.last_checkpoint_seq(session.id, kind, mark.last_seq) or 1
    return Plan(session, last_seq, last_event, mark, start, mark.last_seq + 1)


def check_session(store: Store, session: Session | Plan, workers: int | None = None,
                  pool: Pool | None = None) -> tuple[str | None, dict[str, Any]]:
    """Check one session: replay the events not verified before and compare each with what is
    stored, read the rest against the digest of the check that verified them, and compare the
    running totals with the sums of the log. Returns (first problem or None, figures); the
    figures hold the new ``mark`` when the session passed."""
    # start-up: only db check replays (not db status or backup)
    from pancli.app.check.verify import STRAY, TOTALS_DIFFER  # noqa: PLC0415
    from pancli.app.replay import gc_paused  # noqa: PLC0415
    from pancli.games import game as get_game  # noqa: PLC0415

    p = session if isinstance(session, Plan) else plan(store, session, None)
    s = p.session
    name = s.name
    figures: dict[str, Any] = {"session": name}
    # The replay finds the rows of no event among those it reads; after the last event, here.
    payments, tallies = store.log.stray_rows(s.id, p.last_event)
    if payments or tallies:
        return _stray(name, payments, tallies), figures
    try:
        g = get_game(s.game)
        rules = g.rules_from_dict(s.rules)
    except PanError as e:
        return _("session '{name}': cannot be replayed: {error}").format(name=name, error=e), figures
    basis = store.care.session_basis(s.id)
    if p.mark is not None:
        changed = _changed_since(store, p)
        if changed:  # the full replay says what is wrong, if the rules can tell
            problem, _figures = check_session(store, plan(store, s, None), workers=1)
            if problem:
                return problem, figures
            return _("session '{name}': {change}").format(name=name, change=changed), {**figures, "fix": _(CHANGED_FIX)}
    # The checkpoints never undone, read once for every part (as of this snapshot, which the
    # plan was made in: no undo recorded since reaches the events replayed).
    finals = store.log.checkpoint_seqs(s.id, g.checkpoint_kind, p.start) if g.checkpoint_kind and p.replayed else []
    parts = _parts(g, p, workers, finals)
    with gc_paused():
        if len(parts) <= 1:
            results = [verify_part(store, s, g, rules, *part, finals) for part in parts]
        else:
            args = [(str(store.path), s, *part, finals) for part in parts]
            if pool is not None:
                results = pool.starmap(_verify_part_apart, args)
            else:  # called on its own (no threads running here): a pool for this session
                import multiprocessing  # noqa: PLC0415 start-up: only a long session's check starts processes

                with multiprocessing.get_context("fork").Pool(len(parts)) as own:
                    results = own.starmap(_verify_part_apart, args)
    events, payments = store.care.session_size(s.id)
    figures.update(events=events, payments=payments, replayed=sum(r[1] for r in results),
                   remembered=p.digest_from - 1)
    problem = next((r[0] for r in results if r[0]), None)
    if problem == STRAY:
        payments, tallies = store.log.stray_rows(s.id)
        order = None if payments or tallies else store.care.stored_out_of_order(s.id)
        if order:  # the rows of an event stored out of its number's place, not of no event
            problem = _("event #{seq} is stored after event #{last}").format(seq=order[0], last=order[1])
            return _("session '{name}', {problem}").format(name=name, problem=problem), figures
        return _stray(name, payments, tallies), figures
    if problem and problem != TOTALS_DIFFER:
        return _("session '{name}', {problem}").format(name=name, problem=problem), figures
    first_hand = store.care.hand_at(s.id, p.start) if p.start > 1 else 1
    hands_kept = _hands_below_unchanged(store, p, first_hand)
    if problem or not hands_kept:
        # The sums of every hand, in this snapshot, have the last word: a worker process reads
        # in a snapshot of its own, where an undo recorded meanwhile may have reopened a hand.
        differ, _sums = store.care.totals_check(s.id)
        if differ:
            return _("session '{name}': the running totals differ from the sums of the log").format(name=name), figures
    differ, total = store.care.totals_rest_check(s.id)
    if differ:
        return _("session '{name}': the running totals differ from the sums of the log").format(name=name), figures
    figures["sum"] = total
    if g.zero_sum and total != 0:
        return _("session '{name}': the balances sum to {total}, not 0").format(name=name, total=total), figures
    pieces = (p.mark.pieces if p.mark else ()) + tuple(piece for r in results for piece in r[2])
    final = next((seq for seq in reversed(finals) if seq <= p.last_seq), None)  # read above, when replayed
    if final is None and g.checkpoint_kind:
        final = store.log.last_checkpoint_seq(s.id, g.checkpoint_kind, p.last_seq)
    below = (store.care.hand_at(s.id, final) or 1) if final else 1
    if hands_kept and p.mark is not None and p.mark.hands_below == below == first_hand:
        hands = p.mark.hands_digest  # those rows were just read against it
    else:
        hands = sha(store.care.hand_totals_text(s.id, below))
    digest = seal(basis, s.id, p.last_seq, p.last_event, pieces, below, hands, pancli.__version__,
                  store.care.sqlite_version())
    figures["mark"] = CheckMark(s.id, p.last_seq, p.last_event, digest, pieces, below, hands, pancli.__version__,
                                store.care.sqlite_version(), now()) if digest else None
    return None, figures


def _hands_below_unchanged(store: Store, p: Plan, first_hand: int | None) -> bool:
    """Whether the running totals of the hands before ``first_hand`` (the first this replay
    summed) are those the earlier check verified (if not, or an undo reached back before them,
    every hand is summed afresh)."""
    if not first_hand or first_hand <= 1:
        return True
    return p.mark is not None and p.mark.hands_below == first_hand \
        and sha(store.care.hand_totals_text(p.session.id, first_hand)) == p.mark.hands_digest


CHANGED_FIX = N_("restore the database from a backup; if the change was meant, `pan db check --full` "
                 "checks the session anew")


def _stray(name: str, payments: int, tallies: int) -> str:
    """The rows of no event of the session, counted (English has always said "1 payments")."""
    return _("session '{name}': {payments} and {tallies} belong to no event of the session, or to another "
             "hand than their event's").format(
        name=name, payments=ngettext("{n} payments", "{n} payments", payments).format(n=payments),
        tallies=ngettext("{n} tallies", "{n} tallies", tallies).format(n=tallies))


def _changed_since(store: Store, p: Plan) -> str | None:
    """How the events an earlier check verified differ from what is stored now, if they do."""
    mark = p.mark
    assert mark is not None
    when = mark.checked_at.replace("T", " ")[:16]
    if mark.last_seq > p.last_seq or store.care.event_at(p.session.id, mark.last_seq) != mark.last_event:
        return _("event #{seq}, checked on {when}, is no longer the one stored").format(seq=mark.last_seq, when=when)
    for first, last, digest in mark.pieces:
        if sha(store.care.piece(p.session.id, first, last, rows=False).text) != digest:
            return _("events #{first} to #{last} have changed since they were checked on {when}").format(
                first=first, last=last, when=when)
    return None  # the game, seats and rules are in the seal, checked when the check was planned


def _parts(g: Game[Any, Any], p: Plan, workers: int | None, finals: list[int]) -> list[tuple[int, int | None, int, int]]:
    """(first seq, the next part's first seq or None, the last seq, the first seq to digest) of
    each part of the replay. A part begins at a checkpoint that was never undone (``finals``,
    from the replay's start on), so that no undo after it reaches before it, and also replays the
    next part's checkpoint, so that the state a part restores is checked to be the one the part
    before it reached."""
    if not p.replayed:
        return []
    whole: list[tuple[int, int | None, int, int]] = [(p.start, None, p.last_seq, p.digest_from)]
    workers = workers or min(4, os.cpu_count() or 1)
    if workers < 2 or p.replayed < PARALLEL_FROM or not g.checkpoint_kind:
        return whole
    seqs = [s for s in finals if s > p.start]
    cuts: list[int] = []
    for k in range(1, workers):
        want = p.start + p.replayed * k // workers
        cut = next((s for s in seqs if s >= want and (not cuts or s > cuts[-1])), None)
        if cut is not None:
            cuts.append(cut)
    bounds = [p.start] + cuts
    return [(first, bounds[i + 1] if i + 1 < len(bounds) else None, p.last_seq, p.digest_from)
            for i, first in enumerate(bounds)]


def _verify_part_apart(path: str, session: Session, first: int, nxt: int | None, last: int, digest_from: int,
                       finals: list[int]) -> tuple[str | None, int, list[tuple[int, int, str]]]:
    """verify_part in a worker process, on a read-only connection of its own (and, as in the
    parent, without the cycle collector walking the rows as they are read)."""
    # start-up: only db check replays (not db status or backup)
    from pancli.app.replay import gc_paused  # noqa: PLC0415
    from pancli.games import game as get_game  # noqa: PLC0415

    store = Store(path, readonly=True)
    try:
        with gc_paused(), store.snapshot():
            g = get_game(session.game)
            return verify_part(store, session, g, g.rules_from_dict(session.rules), first, nxt, last, digest_from,
                               finals)
    finally:
        store.close()


def verify_part(store: Store, session: Session, g: Game[Any, Any], rules: Any, first: int, nxt: int | None, last: int,
                digest_from: int, finals: list[int]) -> tuple[str | None, int, list[tuple[int, int, str]]]:
    """Replay the events numbered ``first`` up to the next part's checkpoint ``nxt`` (compared
    here, counted there) or to ``last``, a piece at a time, from the checkpoint that ``first``
    is (or from the session's start); ``finals``: the seqs of the checkpoints never undone, from
    the replay's start on. Returns (first problem or None, events replayed, the pieces from
    ``digest_from`` on with their digests)."""
    from pancli.app.check.verify import LogVerifier  # noqa: PLC0415 start-up: only db check replays

    final = {seq for seq in finals if seq >= first}

    def seq_of(event_id: int) -> int | None:
        found = store.care.seq_of_event(event_id)
        return found[1] if found and found[0] == session.id else None

    def stored_hands(first_hand: int, last_hand: int | None) -> set[tuple[int, str, int]]:
        return store.care.hand_totals_between(session.id, first_hand, last_hand)

    undone = store.log.undone_ids(session.id)
    v = LogVerifier(g, rules, session.players, session.dealer, final, undone, first > 1, seq_of, stored_hands)
    v.last_seq = first - 1  # the events are numbered without a gap from here
    end = nxt - 1 if nxt is not None else last
    ranges = [(a, min(a + PIECE - 1, digest_from - 1, end), False) for a in range(first, min(digest_from, end + 1), PIECE)]
    ranges += [(a, min(a + PIECE - 1, end), True) for a in range(max(first, digest_from), end + 1, PIECE)]
    if nxt is not None:
        ranges.append((nxt, nxt, False))
    pieces = []
    for a, b, digested in ranges:
        piece = store.care.piece(session.id, a, b)
        problem = v.feed(piece)
        if problem:
            return problem, v.events, []
        if digested:
            pieces.append((a, b, sha(piece.text)))
    problem = v.finish() if nxt is None else None
    return problem, v.events - (nxt is not None), pieces
