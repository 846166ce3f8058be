"""The club's roster folded from signed entries (pancli/core/club.py): whatever order the entries
arrive in, every host folds the same club; contradictions are shown with both sides; hostile
entries are refused and change nothing already accepted."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from pancli.core import club
from pancli.core.club import Entry, Roster

A, B, C, D = ("a" * 32, "b" * 32, "c" * 32, "d" * 32)
KEYS = {A: "1" * 64, B: "2" * 64, C: "3" * 64, D: "4" * 64}
S1, S2 = (f"{A}/{'1' * 32}", f"{B}/{'2' * 32}")


class Host:
    """One device and what it has received of the folder."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.held: dict[str, Entry] = {}

    def roster(self) -> Roster:
        return club.fold(self.held.values())

    def write(self, kind: str, **fields: object) -> Entry:
        data = club.entry_data(kind, self.roster(), self.device, KEYS[self.device], "2026-12-07T10:00:00Z", **fields)
        body = club.canonical(data)
        assert not isinstance(club.parse(body), club.Refusal), club.parse(body)
        e = Entry(data, club.digest(body))
        self.held[e.id] = e
        return e

    def receive(self, other: Host) -> None:
        self.held.update(other.held)


def person(n: int) -> str:
    return f"{n:032x}"


def summary(r: Roster) -> object:
    """What a host shows of a roster, order-free."""
    return (r.club, r.name, sorted((d, v["key"], v["upto"]) for d, v in r.registrars.items()),
            sorted((p.id, p.name, p.retired, r.leader(p.id)) for p in r.persons.values()),
            sorted(r.aliases), sorted((s, seat, p, e.id) for s, t in r.seats.items() for seat, (p, e) in t.items()),
            sorted((c.code, c.first, c.second) for c in r.conflicts), sorted(r.merges),
            sorted((x.entry, x.code) for x in r.refused), sorted(r.pending), sorted(r.accepted))


def club_of_two() -> tuple[Host, Host]:
    a, b = Host(A), Host(B)
    a.write("create", name="Friday club", label="kasia")
    a.write("grant", device=B, device_key=KEYS[B], label="ben")
    b.receive(a)
    return a, b


def test_a_device_granted_by_the_first_registrar_writes_and_both_hosts_fold_one_club() -> None:
    a, b = club_of_two()
    b.write("add", person=person(1), name="Ana", aliases=["ana", "Anna K."])
    a.receive(b)
    r = a.roster()
    assert r.name == "Friday club" and set(r.registrars) == {A, B}
    assert r.named("anna k") is None and r.named("ＡＮＮＡ　Ｋ.") == person(1)  # compatibility form, case, spaces
    assert summary(r) == summary(b.roster())
    assert not r.refused and not r.pending


def test_an_entry_of_a_device_never_granted_is_refused_and_changes_nothing() -> None:
    a, b = club_of_two()
    stranger = Host(C)
    stranger.receive(a)
    stranger.write("add", person=person(9), name="Mallory")
    before = summary(a.roster())
    a.receive(stranger)
    r = a.roster()
    assert [(x.entry, x.code) for x in r.refused] == [(f"{C}:1", "club.not_granted")]
    assert person(9) not in r.persons
    assert summary(r)[:6] == before[:6]


def test_a_forged_entry_under_a_granted_device_with_another_key_is_refused() -> None:
    a, b = club_of_two()
    forger = Host(B)
    forger.receive(a)
    data = club.entry_data("merge", forger.roster(), B, KEYS[C], "2026-12-07T10:00:00Z",
                           person=person(1), other=person(2))
    e = Entry(data, club.digest(club.canonical(data)))
    r = club.fold([*a.held.values(), e])
    assert [(x.entry, x.code) for x in r.refused] == [(f"{B}:1", "club.not_granted")]


def test_entries_after_a_revocation_do_not_count_and_those_before_it_stand() -> None:
    a, b = club_of_two()
    b.write("add", person=person(1), name="Ana")
    a.receive(b)
    a.write("revoke", device=B, upto=1)
    b.write("add", person=person(2), name="Ben")  # b has not heard yet
    a.receive(b)
    r = a.roster()
    assert person(1) in r.persons and person(2) not in r.persons
    assert (f"{B}:2", "club.revoked") in [(x.entry, x.code) for x in r.refused]
    # the same whatever order the entries come in
    for _ in range(5):
        entries = list(a.held.values())
        random.shuffle(entries)
        assert summary(club.fold(entries)) == summary(r)


def test_an_entry_edited_in_place_breaks_its_chain_and_what_follows_it() -> None:
    a, b = club_of_two()
    b.write("add", person=person(1), name="Ana")
    b.write("add", person=person(2), name="Ben")
    edited = dict(b.held[f"{B}:1"].data, name="Eve")
    a.receive(b)
    a.held[f"{B}:1"] = Entry(edited, club.digest(club.canonical(edited)))
    r = a.roster()
    assert r.persons[person(1)].name == "Eve"  # a signature check refuses it before the fold (tests/test_club_cli.py)
    a.held[f"{B}:1"] = Entry(edited, "f" * 64)  # the digest the next entry names no longer matches
    r = a.roster()
    assert (f"{B}:2", "club.chain_broken") in [(x.entry, x.code) for x in r.refused]
    assert person(2) not in r.persons


def test_two_registrars_giving_one_seat_to_two_people_at_once_is_shown_both_sides_and_counts_for_neither() -> None:
    a, b = club_of_two()
    a.write("add", person=person(1), name="Ana")
    a.write("add", person=person(2), name="Anna")
    b.receive(a)
    a.write("attribute", person=person(1), session=S1, seat="An")
    b.write("attribute", person=person(2), session=S1, seat="An")
    a.receive(b)
    b.receive(a)
    for host in (a, b):
        r = host.roster()
        assert [c.code for c in r.conflicts] == ["club.seat_twice"]
        assert r.seat(S1, "An") == sorted([person(1), person(2)])  # said, never guessed
    # one entry that follows both settles it
    a.write("attribute", person=person(2), session=S1, seat="An")
    b.receive(a)
    assert b.roster().seat(S1, "An") == person(2)


def test_attributions_of_different_seats_and_merges_commute() -> None:
    a, b = club_of_two()
    for n, name in enumerate(["Ana", "Ben", "Cy"], 1):
        a.write("add", person=person(n), name=name)
    b.receive(a)
    a.write("attribute", person=person(1), session=S1, seat="ana")
    b.write("attribute", person=person(2), session=S1, seat="ben")
    b.write("alias", person=person(3), name="C.")
    a.receive(b)
    b.receive(a)
    assert summary(a.roster()) == summary(b.roster())
    assert not a.roster().conflicts


def test_a_merge_of_two_people_who_sat_at_the_same_table_is_refused() -> None:
    a, _b = club_of_two()
    a.write("add", person=person(1), name="Ana")
    a.write("add", person=person(2), name="Anna")
    a.write("attribute", person=person(1), session=S1, seat="Ana")
    a.write("attribute", person=person(2), session=S1, seat="Anna")
    data = club.entry_data("merge", a.roster(), A, KEYS[A], "t", person=person(1), other=person(2))
    e = Entry(data, club.digest(club.canonical(data)))
    r = club.fold([*a.held.values(), e])
    assert (e.id, "club.merge_same_table") in [(x.entry, x.code) for x in r.refused]
    assert r.leader(person(2)) == person(2)


def test_a_merge_and_its_unmerge_give_back_exactly_the_people_from_before() -> None:
    a, _b = club_of_two()
    a.write("add", person=person(1), name="Ana", aliases=["ana"])
    a.write("add", person=person(2), name="Anna K.")
    a.write("attribute", person=person(2), session=S2, seat="AK")
    before = a.roster()
    seats = {(S1, "ana"): before.seat(S1, "ana"), (S2, "AK"): before.seat(S2, "AK")}
    m = a.write("merge", person=person(1), other=person(2))
    merged = a.roster()
    assert merged.seat(S2, "AK") == person(1) and merged.display(person(2)) == "Ana"
    a.write("unmerge", merge=m.id)
    after = a.roster()
    assert {k: after.seat(*k) for k in seats} == seats
    assert [after.leader(p) for p in (person(1), person(2))] == [person(1), person(2)]


def test_names_resolve_this_hosts_alias_first_then_the_registrars_and_two_anas_are_said() -> None:
    a, b = club_of_two()
    a.write("add", person=person(1), name="Ana")
    b.receive(a)
    b.write("add", person=person(2), name="Ana B.", aliases=["Ana"])
    a.receive(b)
    r = a.roster()
    assert r.named("Ana", A) == person(1)  # a's own entry first
    assert r.named("Ana", B) == person(2)
    assert r.named("Ana", C) == sorted([person(1), person(2)])  # two Anas: said, not guessed
    assert r.named("Zed", A) is None  # the name typed at the table stands


def test_a_fork_of_one_devices_chain_is_refused_the_same_way_on_every_host() -> None:
    a, b = club_of_two()
    b2 = Host(B)
    b2.receive(b)
    b.write("add", person=person(1), name="Ana")
    b2.write("add", person=person(2), name="Eve")
    one = club.fold([*a.held.values(), *b.held.values(), *b2.held.values()])
    two = club.fold([*b2.held.values(), *a.held.values(), *b.held.values()])
    assert [x.code for x in one.refused] == ["club.fork"]
    assert summary(one) == summary(two)


def test_a_second_club_or_another_clubs_entry_never_takes_over() -> None:
    a, _b = club_of_two()
    other = Host(C)
    other.write("create", name="Other club", label="x")
    ours = club.club_id(a.held[f"{A}:1"].data)
    r = club.fold([*a.held.values(), *other.held.values()], ours)
    assert r.name == "Friday club"
    assert (f"{C}:1", "club.other_club") in [(x.entry, x.code) for x in r.refused]
    theirs = club.fold([*a.held.values(), *other.held.values()], club.club_id(other.held[f"{C}:1"].data))
    assert theirs.name == "Other club" and not theirs.registrars.keys() & {A, B}
    # a host that has not joined either is told both, and guesses neither
    unjoined = club.fold([*a.held.values(), *other.held.values()])
    assert unjoined.name is None and sorted(unjoined.clubs) == sorted([ours, club.club_id(other.held[f"{C}:1"].data)])


def test_parse_refuses_what_is_not_a_roster_entry_in_one_code() -> None:
    a, _b = club_of_two()
    good = dict(a.held[f"{A}:2"].data)
    assert club.parse(club.canonical(good)) == good
    assert club.parse(b'{"kind":"add","kind":"add"}').code == "club.not_json"  # duplicate keys
    rewrite = dict(good, events=[{"kind": "out"}])
    assert club.parse(club.canonical(rewrite)) == club.Refusal("", "club.unknown_field", {"field": "events"})
    assert club.parse(b"x" * (club.MAX_ENTRY_BYTES + 1)).code == "club.too_large"
    assert club.parse(club.canonical(dict(good, seq=0))).code == "club.bad_field"
    assert club.parse(club.canonical(dict(good, kind="drop_table"))).code == "club.unknown_kind"


# -- any order, any interleaving ---------------------------------------------------------------

OPS = st.lists(st.tuples(st.sampled_from([A, B, C]), st.sampled_from(["add", "alias", "attribute", "merge",
                                                                     "unmerge", "retire", "sync"]),
                         st.integers(0, 5), st.integers(0, 5), st.sampled_from([A, B, C])), max_size=40)


@settings(max_examples=60, deadline=None)
@given(OPS, st.randoms(use_true_random=False))
def test_three_registrars_writing_and_syncing_in_any_interleaving_fold_one_club_in_any_order(ops, rnd) -> None:
    a = Host(A)
    a.write("create", name="Club", label="a")
    a.write("grant", device=B, device_key=KEYS[B], label="b")
    a.write("grant", device=C, device_key=KEYS[C], label="c")
    hosts = {A: a, B: Host(B), C: Host(C)}
    hosts[B].receive(a)
    hosts[C].receive(a)
    for n in range(3):
        a.write("add", person=person(n), name=f"P{n}")
    for h in hosts.values():
        h.receive(a)
    for device, kind, x, y, other in ops:
        h = hosts[device]
        r = h.roster()
        if kind == "sync":
            h.receive(hosts[other])
            continue
        if kind == "add":
            h.write("add", person=person(10 + len(r.persons)), name=f"Q{x}")
            continue
        people = sorted(r.persons)
        p, q = people[x % len(people)], people[y % len(people)]
        if kind == "alias":
            h.write("alias", person=p, name=f"N{y}")
        elif kind == "attribute":
            h.write("attribute", person=p, session=S1 if y % 2 else S2, seat=f"seat{x % 3}")
        elif kind == "merge" and r.leader(p) != r.leader(q):
            h.write("merge", person=p, other=q)
        elif kind == "unmerge" and r.merges:
            h.write("unmerge", merge=sorted(r.merges)[x % len(r.merges)])
        elif kind == "retire":
            h.write("retire", person=p)
    union: dict[str, Entry] = {}
    for h in hosts.values():
        union.update(h.held)
    entries = list(union.values())
    first = club.fold(entries)
    rnd.shuffle(entries)
    assert summary(club.fold(entries)) == summary(first)
    assert not first.pending
    # every host that received everything shows the same club
    for h in hosts.values():
        h.held = dict(union)
        assert summary(h.roster()) == summary(first)
