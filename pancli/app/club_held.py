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


class Held:
    """The fold this database holds: its small part (``club_state``) read, its aliases and seats
    left in their tables and read as far as asked (what a sync's few new entries touch)."""

    def __init__(self, store: Store, small: dict[str, Any]):
        self.store, self.small = store, small

    def state(self) -> dict[str, Any]:
        """The whole state (``club.state``): every alias and every seat read from their tables."""
        with self.store.snapshot():
            aliases, seats = self.store.club.held_aliases(), self.store.club.held_seats()
        return {**self.small, "aliases": aliases, "alias_base": 0, "seats": seats}

    def whole(self) -> Roster:
        return club.restore(self.state())

    def part(self, sessions: Iterable[str] = (), names: Iterable[str] = (), persons: Iterable[str] = ()) \
            -> dict[str, Any]:
        """A state (``club.state``) holding only these sessions' seats, and the aliases of these
        folded names and persons (none: the part a fold continues from, new aliases appended)."""
        sessions, names, persons = set(sessions), set(names), set(persons)
        with self.store.snapshot():
            aliases = self.store.club.held_aliases(names, persons) if names or persons else []
            seats = self.store.club.held_seats(sessions) if sessions else []
        return {**self.small, "aliases": aliases, "alias_base": self.small["alias_count"], "seats": seats,
                "sessions": sessions}

    def view(self, rows: Sequence[tuple[int, str | None, str | None, str]] = (), persons: Iterable[str] = ()) -> Roster:
        """The roster in part, enough to place these seats (``_placed``) and name these persons."""
        return club.restore(self.part({f"{device}/{uid}" for _sid, device, uid, _seat in rows},
                                      {club.folded_name(seat) for *_ids, seat in rows}, persons), whole=False)


def held_of(store: Store) -> Held | None:
    """The fold held, when this pancli can take it up (inside the caller's snapshot; the caller
    has found its summary this club's and this pancli's: ``held_summary``)."""
    try:
        small: dict[str, Any] = json.loads(store.club.state_text() or "")
        if small.get("v") != club.STATE_VERSION:
            return None
        club.restore({**small, "aliases": [], "alias_base": small["alias_count"], "seats": []}, whole=False)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):  # a state this pancli cannot take up
        return None
    return Held(store, small)


def keep(store: Store, roster: Roster, pinned: str | None, summary: dict[str, Any],
         sessions: Iterable[str] = (), held_aliases: int = 0) -> Held:
    """The fold ``roster`` made, held (inside the caller's write transaction): whole, or, for a
    roster in part, its new aliases and the seats of these sessions (those it was restored with).
    A whole roster taken up from the fold held has the first ``held_aliases`` aliases held already
    (aliases are only ever appended)."""
    data = club.state(roster, pinned)
    aliases, base, seats = data.pop("aliases"), data.pop("alias_base"), data.pop("seats")
    data["alias_count"] = base + len(aliases)
    if roster.whole and held_aliases:
        aliases, base = aliases[held_aliases:], held_aliases
    store.club.keep_state(pinned or "", STATE_VERSION, json.dumps(summary),
                          json.dumps(data, ensure_ascii=False))
    store.club.keep_parts(aliases, base, seats, None if roster.whole else sessions)
    return Held(store, data)


def held_roster(store: Store) -> Roster | None:
    """The club as this database last read it (no folder read): None when it belongs to none."""
    held, _summary = _held(store)
    if isinstance(held, Held):
        held = held.whole()
    return held if held is not None and held.name is not None else None


def _held(store: Store) -> tuple[Held | Roster | None, dict[str, Any] | None]:
    """The fold held with its summary when it is of exactly the entries remembered; else the
    roster folded again from them, and no summary; None when this database belongs to no club."""
    with store.snapshot():
        pinned = store.setting("club_id")
        if not pinned:
            return None, None
        summary = held_summary(store, pinned)
        remembered = store.club.entries_text()  # what basis() hashes of every entry remembered
        held = held_of(store) if summary is not None else None
    if held is not None and summary is not None and \
            summary["basis"] == hashlib.sha256(remembered.encode("ascii")).hexdigest():
        return (held, summary) if held.small["name"] is not None else (None, None)
    with store.snapshot():
        entries = store.club.entries()
    roster = club.fold([Entry(json.loads(body), digest) for digest, body in entries], pinned)
    return (roster, None) if roster.name is not None else (None, None)


def _persons(roster: Roster, only: set[str] | None = None) -> list[tuple[str, str, str, bool, list[str]]]:
    """Each person (or each of ``only``) with their leader and every name they go by."""
    given_names = roster.given_names()
    persons = []
    for p in roster.persons.values():
        if only is None or p.id in only:
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


def project_changed(store: Store, source: Roster | Held, entries: Sequence[Entry]) -> bool:
    """The seats that ``entries`` (folded on from the roster held) may have changed placed again,
    and the persons (every one from a whole roster; from the fold held, those they name); False,
    with nothing done, when they may have changed who is whom."""
    names: set[str] = set()
    sessions: set[str] = set()
    for e in entries:
        if e.kind in _NAMES:
            names.update(club.folded_name(n) for n in [e.data["name"], *e.data.get("aliases", [])])
        elif e.kind in _SESSION:
            sessions.add(str(e.data["session"]))
        elif e.kind not in _NOTHING:
            return False
    if isinstance(source, Roster):
        store.club.project_persons(_persons(source))
        seasons = source.seasons
    else:  # only the persons these entries name can have changed: no merge is among them
        named = {str(e.data["person"]) for e in entries if "person" in e.data}
        store.club.project_persons(_persons(source.view(persons=named), named), every=False)
        seasons = source.small["seasons"]
    if any(e.kind == "season" for e in entries):
        store.club.project_seasons(seasons)
    if names:
        typed = [n for n in store.club.seat_names() if club.folded_name(n) in names]
        store.club.project_named(typed, _placed(store, source, store.club.seats_named(typed)))
    held = (store.sync.session_by_global_id(*gid.split("/", 1)) for gid in sorted(sessions))
    project_sessions(store, source, [s.id for s in held if s is not None])
    return True


def _placed(store: Store, source: Roster | Held, rows: Sequence[tuple[int, str | None, str | None, str]]) \
        -> list[tuple[int, str, str | None, list[str] | None]]:
    roster = source if isinstance(source, Roster) else source.view(rows)
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


def project_sessions(store: Store, source: Roster | Held, ids: list[int]) -> None:
    """``project`` for these sessions only (new, or with new events, since the roster was last
    projected; the roster itself unchanged)."""
    if not ids:
        return
    store.club.project_sessions(ids, _placed(store, source, store.club.seats_at(ids)))


def refresh_held(store: Store) -> None:
    """Seats of sessions new since the roster was last read placed too (`pan session new`, an
    import): from what this database holds, without reading the folder."""
    held, summary = _held(store)
    if held is not None:
        with store.lock():
            if summary is not None:  # the seats held placed by this very fold: only the sessions since
                project_sessions(store, held, store.club.changed_since(summary["marks"]))
            else:
                assert isinstance(held, Roster)
                project(store, held)
