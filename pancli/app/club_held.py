"""The club's roster as this database last read it from the folder (no folder read), and the
seats of the sessions held here placed by it: what `pan session new` and an import need, apart
from reading the folder (pancli/app/club_read.py) and writing entries (pancli/app/club.py)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

import pancli
from pancli.core import club
from pancli.core.club import Entry, Roster
from pancli.storage.store import Store

# The fold this database holds (club_state) is taken up only by the pancli that made it.
STATE_VERSION = f"{club.STATE_VERSION} {pancli.__version__}"


def basis(digests: Iterable[str]) -> str:
    """What identifies a set of entries: the fold held is of exactly the entries of this basis."""
    return hashlib.sha256("\n".join(sorted(set(digests))).encode("ascii")).hexdigest()


def held_summary(store: Store, pinned: str | None) -> dict[str, Any] | None:
    """The summary of the fold held (inside the caller's snapshot): the basis of its entries, the
    marks its projection was made at, its counts; None when none is held for this club and pancli."""
    row = store.club.state()
    if row is None or row[0] != (pinned or "") or row[1] != STATE_VERSION:
        return None
    try:
        summary: dict[str, Any] = json.loads(row[2])
    except ValueError:
        return None
    return summary


def load_held(store: Store) -> Roster | None:
    """The roster as last folded, from the state held (None when it cannot be read back)."""
    with store.snapshot():
        text = store.club.state_text()
    if not text:
        return None
    try:
        return club.restore(json.loads(text))
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def held_roster(store: Store) -> Roster | None:
    """The club as this database last read it (no folder read): None when it belongs to none."""
    return _held(store)[0]


def _held(store: Store) -> tuple[Roster | None, dict[str, Any] | None]:
    """The roster as last read, and the summary of the fold held when it is that fold (of exactly
    the entries remembered; else they are folded again, and the summary is None)."""
    with store.snapshot():
        pinned = store.setting("club_id")
        if not pinned:
            return None, None
        summary = held_summary(store, pinned)
        remembered = store.club.entries_text()  # what basis() hashes of every entry remembered
    roster = None
    if summary is not None and summary["basis"] == hashlib.sha256(remembered.encode("ascii")).hexdigest():
        roster = load_held(store)
    if roster is None:
        summary = None
        with store.snapshot():
            entries = store.club.entries()
        roster = club.fold([Entry(json.loads(body), digest) for digest, body in entries], pinned)
    return (roster, summary) if roster.name is not None else (None, None)


def _persons(roster: Roster) -> list[tuple[str, str, str, bool, list[str]]]:
    given_names: dict[str, list[str]] = {}  # each person's aliases, in one pass over them all
    for _n, q, _by, given in roster.aliases:
        given_names.setdefault(q, []).append(given)
    persons = []
    for p in roster.persons.values():
        names = list(dict.fromkeys([p.name, *given_names.get(p.id, [])]))
        persons.append((p.id, p.name, roster.leader(p.id), p.retired, names))
    return persons


def project(store: Store, roster: Roster) -> None:
    """Who sat in each seat of each session held here, as the roster says (inside the caller's
    write transaction)."""
    store.club.project(_persons(roster), _placed(store, roster, store.club.seats_to_place()))
    store.club.project_seasons(roster.seasons)


# What an entry of each kind may change of the seats: the names it gives, the session it
# attributes a seat of; nothing (a grant, a season, a retirement: the persons only); or who is
# whom (a merge, an unmerge: every seat of the two, placed again from the start).
_NAMES, _SESSION, _NOTHING = ("add", "alias"), ("attribute",), ("grant", "season", "retire")


def project_changed(store: Store, roster: Roster, entries: Sequence[Entry]) -> bool:
    """The seats that ``entries`` (folded on from the roster held) may have changed placed again,
    and every person; False, with nothing done, when they may have changed who is whom."""
    names: set[str] = set()
    sessions: set[str] = set()
    for e in entries:
        if e.kind in _NAMES:
            names.update(club.folded_name(n) for n in [e.data["name"], *e.data.get("aliases", [])])
        elif e.kind in _SESSION:
            sessions.add(str(e.data["session"]))
        elif e.kind not in _NOTHING:
            return False
    store.club.project_persons(_persons(roster))
    if any(e.kind == "season" for e in entries):
        store.club.project_seasons(roster.seasons)
    if names:
        typed = [n for n in store.club.seat_names() if club.folded_name(n) in names]
        store.club.project_named(typed, _placed(store, roster, store.club.seats_named(typed)))
    held = (store.sync.session_by_global_id(*gid.split("/", 1)) for gid in sorted(sessions))
    project_sessions(store, roster, [s.id for s in held if s is not None])
    return True


def _placed(store: Store, roster: Roster, rows: Iterable[tuple[int, str | None, str | None, str]]) \
        -> list[tuple[int, str, str | None, list[str] | None]]:
    me = store.sync.device_id()
    seats: list[tuple[int, str, str | None, list[str] | None]] = []
    named: dict[str, str | list[str] | None] = {}  # a name typed at many tables resolved once
    for sid, device, uid, seat in rows:
        gid, folded = f"{device}/{uid}", club.folded_name(seat)
        if folded in roster.seats.get(gid, {}) or (gid, folded) in roster.disputed:
            who = roster.seat(gid, seat, me)
        else:
            if folded not in named:
                named[folded] = roster.named(seat, me)
            who = named[folded]
        if who is not None:
            seats.append((sid, seat, who if isinstance(who, str) else None, who if isinstance(who, list) else None))
    return seats


def project_sessions(store: Store, roster: Roster, ids: list[int]) -> None:
    """``project`` for these sessions only (new, or with new events, since the roster was last
    projected; the roster itself unchanged)."""
    if not ids:
        return
    store.club.project_sessions(ids, _placed(store, roster, store.club.seats_at(ids)))


def refresh_held(store: Store) -> None:
    """Seats of sessions new since the roster was last read placed too (`pan session new`, an
    import): from what this database holds, without reading the folder."""
    roster, summary = _held(store)
    if roster is not None:
        with store.lock():
            if summary is not None:  # the seats held placed by this very fold: only the sessions since
                project_sessions(store, roster, store.club.changed_since(summary["marks"]))
            else:
                project(store, roster)
