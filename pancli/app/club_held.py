"""The club's roster as this database last read it from the folder (no folder read), and the
seats of the sessions held here placed by it: what `pan session new` and an import need, apart
from reading the folder and writing entries (pancli/app/club.py)."""

from __future__ import annotations

import json

from pancli.core import club
from pancli.core.club import Entry, Roster
from pancli.storage.store import Store


def held_roster(store: Store) -> Roster | None:
    """The club as this database last read it (no folder read): None when it belongs to none."""
    with store.snapshot():
        pinned = store.setting("club_id")
        rows = store.club.files() if pinned else {}
    if not pinned:
        return None
    roster = club.fold([Entry(json.loads(r["body"]), r["digest"]) for r in rows.values() if r["digest"]], pinned)
    return roster if roster.name is not None else None


def project(store: Store, roster: Roster) -> None:
    """Who sat in each seat of each session held here, as the roster says (inside the caller's
    write transaction)."""
    me = store.sync.device_id()
    given_names: dict[str, list[str]] = {}  # each person's aliases, in one pass over them all
    for _n, q, _by, given in roster.aliases:
        given_names.setdefault(q, []).append(given)
    persons = []
    for p in roster.persons.values():
        names = list(dict.fromkeys([p.name, *given_names.get(p.id, [])]))
        persons.append((p.id, p.name, roster.leader(p.id), p.retired, names))
    seats: list[tuple[int, str, str | None, list[str] | None]] = []
    named: dict[str, str | list[str] | None] = {}  # a name typed at many tables resolved once
    for sid, device, uid, seat in store.club.seats_to_place():
        gid, folded = f"{device}/{uid}", club.folded_name(seat)
        if folded in roster.seats.get(gid, {}) or (gid, folded) in roster.disputed:
            who = roster.seat(gid, seat, me)
        else:
            if folded not in named:
                named[folded] = roster.named(seat, me)
            who = named[folded]
        if who is not None:
            seats.append((sid, seat, who if isinstance(who, str) else None, who if isinstance(who, list) else None))
    store.club.project(persons, seats)
    store.club.project_seasons(roster.seasons)


def refresh_held(store: Store) -> None:
    """Seats of sessions new since the roster was last read placed too (`pan session new`, an
    import): from what this database holds, without reading the folder."""
    roster = held_roster(store)
    if roster is not None:
        with store.lock():
            project(store, roster)
