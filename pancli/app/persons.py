"""People, not names: a person of the club across every seat they sat in (their career, a
season's row), and head-to-head between two people in exact chips (`pan versus`).

The seats come from the roster as this database last projected it (``club_seats``: pancli/app/
club.py); with no club, a person is a name, compared case-insensitively, as it always was.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass

from pancli.app.career import career_from, counted_kinds, resolve_known
from pancli.core import club
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.json_types import JsonObject
from pancli.core.ledger import POOLS
from pancli.storage.store import Store

# What each payment code counts as in head-to-head (the rest: "other")
KINDS = {"condition": "conditions", "addition": "conditions", "rearranged": "conditions", "carried": "conditions",
         "going_out": "going_out", "drop": "drops", "tops": "tops", "tops_returned": "tops"}
KIND_ORDER = ("conditions", "going_out", "drops", "tops", "other")
REGULAR = 3  # nights together before an opponent shows in a player's record


@dataclass(frozen=True)
class Who:
    """A person of the club (``person`` its id) or a name typed at tables (``person`` None)."""

    name: str
    person: str | None
    seats: tuple[tuple[int, str], ...]  # (session id, seat name)

    def seats_json(self) -> str:
        return json.dumps([list(s) for s in self.seats], ensure_ascii=False)


def person_named(store: Store, text: str) -> tuple[str, str] | None:
    """(person id, name shown) of the club's person ``text`` names (a name, an alias, an id);
    None when the database belongs to no club or no person is so named; two are said."""
    with store.snapshot():
        if not store.setting("club_id"):
            return None
        persons = store.club.persons()
    found = club.find_in([(p["id"], p["leader"], p["names"]) for p in persons], text)
    if not found:
        return None
    names = {p["id"]: p["name"] for p in persons}
    if len(found) > 1:
        listed = ", ".join(f"{names[p]} ({p[:6]})" for p in found)
        raise InputError(_("'{text}' may be any of: {names}").format(text=text, names=listed),
                         _("give the person's id as `pan club show` lists it"))
    return found[0], names[found[0]]


def who(store: Store, text: str) -> Who:
    """A person of the club, else the name as typed at the tables (resolved as `pan player` does)."""
    named = person_named(store, text)
    name = None
    if named is None:
        with store.snapshot():
            name = resolve_known(store, text)
        named = person_named(store, name)  # the start of a name a person goes by: that person
    with store.snapshot():
        if named is not None:
            return Who(named[1], named[0], tuple(store.club.seats_of(named[0])))
        assert name is not None
        # the seats typed in any case of the name (each spelling found once), not every seat held
        typed = store.queries.seats_named(n for n in store.queries.seat_spellings() if n.lower() == name.lower())
        placed = store.club.seat_persons(sid for sid, _seat in typed)
        seats = [(sid, seat) for sid, seat in typed if (sid, seat.lower()) not in placed]
    return Who(name, None, tuple(sorted(set(seats))))


def player_career(store: Store, text: str) -> JsonObject:
    """Career stats of one player across every session: a person of the club across every seat
    that counts for them, else a name as typed at the tables; with the record against each
    regular opponent."""
    w = who(store, text)  # the name is looked up once, for the career and the record alike
    return {**career_of(store, w), "opponents": opponents(store, w)}


def career_of(store: Store, w: Who) -> JsonObject:
    """A career across the seats that count for a person, or for a name as typed (its seats in
    any case of it, as ``who`` finds them): pancli/app/career.py's, over seats."""
    kinds, takebacks = counted_kinds()
    with store.snapshot():
        seats = w.seats_json()
        sessions = store.club.sessions_of(sid for sid, _seat in w.seats)
        nets = store.queries.seat_nets(seats)
        tallies = store.queries.seat_tallies(seats)
        laid = store.queries.seat_events(seats, kinds) if kinds else []
        given_back = store.queries.seat_takebacks(seats, takebacks) if takebacks else []
    career = career_from(w.name, sessions, nets, tallies, laid, given_back)
    return {**career, "person": w.person} if w.person is not None else career


def versus(store: Store, text: str, other_text: str) -> JsonObject:
    """Every chip that passed between two people, from the payments themselves: in total, by
    kind (conditions, going out, drops, tops, the rest), and night by night."""
    a, b = who(store, text), who(store, other_text)
    if (a.person or a.name.lower()) == (b.person or b.name.lower()):
        raise InputError(_("{name} against themselves").format(name=a.name), _("give two different players"))
    with store.snapshot():
        moves = store.queries.payments_between(a.seats_json(), b.seats_json())
        sessions = store.club.sessions_of(sid for sid, _seat in a.seats)
    a_seats = {(sid, seat.lower()) for sid, seat in a.seats}
    b_sessions = {sid for sid, _seat in b.seats}
    together = sorted({sid for sid, _seat in a.seats} & b_sessions, key=lambda sid: sessions[sid].played)
    by_kind: Counter[str] = Counter()
    by_night: Counter[int] = Counter()
    for sid, payer, _payee, chips, code in moves:
        signed = -chips if (sid, payer.lower()) in a_seats else chips  # what A took from B
        by_kind[KINDS.get(code or "", "other")] += signed
        by_night[sid] += signed
    nights = [{"session": sessions[sid].name, "date": sessions[sid].created_at[:10], "game": sessions[sid].game,
               "net": by_night.get(sid, 0)} for sid in together]
    return {"player": _side(a), "other": _side(b), "nights": len(together), "net": sum(by_kind.values()),
            "by_kind": {k: by_kind.get(k, 0) for k in KIND_ORDER}, "sessions": nights}


def _side(w: Who) -> JsonObject:
    return {"name": w.name, "person": w.person}


def opponents(store: Store, w: Who, regular: int = REGULAR) -> list[JsonObject]:
    """A record against each regular opponent (from ``regular`` nights together): nights and the
    chips taken from them, most nights first."""
    with store.snapshot():
        my_nights = {sid for sid, _seat in w.seats}
        seats = store.club.seats_at(my_nights)  # the tables this person sat at, not the whole club's
        placed = store.club.seat_persons(my_nights)
        names = {p["id"]: p["name"] for p in store.club.persons()}
        moves = store.queries.seat_payments(w.seats_json())  # this person's payments only, not every seat's
    mine = {(sid, seat.lower()) for sid, seat in w.seats}
    at_table = {(sid, seat.lower()) for sid, _d, _u, seat in seats}
    me = w.person or w.name.lower()

    def key(sid: int, seat: str) -> tuple[str, str]:
        person = placed.get((sid, seat.lower()))
        return (person, names[person]) if person else (seat.lower(), seat)

    nights: dict[str, set[int]] = defaultdict(set)
    shown: dict[str, str] = {}
    for sid, _dev, _uid, seat in seats:
        if sid in my_nights and (sid, seat.lower()) not in mine and seat not in POOLS:
            k, name = key(sid, seat)
            if k != me:
                nights[k].add(sid)
                shown.setdefault(k, name)
    net: Counter[str] = Counter()
    for sid, payer, payee, chips, _code in moves:
        if (sid, payer.lower()) in mine and (sid, payee.lower()) in mine:
            continue
        if (sid, payer.lower()) not in at_table or (sid, payee.lower()) not in at_table:
            continue  # a payment to or from no seat of the table (a pool) is nobody's record
        if (sid, payer.lower()) in mine:
            net[key(sid, payee)[0]] -= chips
        else:
            net[key(sid, payer)[0]] += chips
    rows = [{"name": shown[k], "person": k if k in names else None, "nights": len(n), "net": net.get(k, 0)}
            for k, n in nights.items() if len(n) >= regular]
    return sorted(rows, key=lambda r: (-r["nights"], r["name"].lower()))
