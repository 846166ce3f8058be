"""The club's roster at club scale, counted rather than timed (bench/bench_club.py times it): a
chain of thousands folds looking at one entry a device each step, and a sync that brings nothing
new writes nothing to the database's projection of the roster."""

from __future__ import annotations

import json

from pancli.app import club as club_app
from pancli.core import club
from pancli.core.club import Entry, Roster
from pancli.storage.store import Store

from helpers import Pan

DEVICE = "a" * 32
KEY = "b" * 64


def chain(n: int) -> list[Entry]:
    """One registrar's chain: the club, then ``n`` people (signatures are the reader's concern)."""
    out: list[Entry] = []
    roster = Roster()
    for i in range(n + 1):
        fields = {"name": "Club", "label": "host"} if i == 0 else {"person": f"{i:032x}", "name": f"P{i}", "aliases": []}
        data = club.entry_data("create" if i == 0 else "add", roster, DEVICE, KEY, "2026-12-07T10:00:00Z", **fields)
        e = Entry(data, club.digest(club.canonical(data)))
        out.append(e)
        roster = Roster(club=roster.club or club.club_id(data), folded={DEVICE: e})
    return out


def test_a_chain_of_thousands_folds_looking_at_one_entry_a_device_each_step(monkeypatch):
    entries = chain(3000)
    calls = 0
    ready = club._ready

    def counted(*args):
        nonlocal calls
        calls += 1
        return ready(*args)

    monkeypatch.setattr(club, "_ready", counted)
    roster = club.fold(reversed(entries))
    assert len(roster.persons) == 3000 and not roster.refused and not roster.pending
    assert calls <= 2 * len(entries), calls  # not every waiting entry at every step (~4.5 million)


def test_a_sync_that_brings_nothing_new_writes_nothing_to_the_projection(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    pan = Pan(tmp_path / "host.db")
    for name, players in (("n1", "Ana,Ben,Dee"), ("n2", "ana,Ben,Eve")):
        pan(f"session new {name} --players {players}")
        pan("deal")
    pan(f"sync {folder} --device-name host")
    pan("club init Club")
    pan("club add Ana")
    pan("club add Ben")
    pan("sync")
    store = Store(pan.db)
    try:
        seats = store.conn.execute("SELECT count(*) FROM club_seats WHERE person IS NOT NULL").fetchone()[0]
        assert seats == 4  # Ana and Ben at both tables
        before = store.conn.total_changes
        roster, _read = club_app.roster_of(store)
        assert store.conn.total_changes == before
        assert len(roster.persons) == 2
    finally:
        store.close()
    assert json.loads(pan("player Ana --json").stdout)["sessions"] == 2


def test_a_name_given_after_the_roster_was_first_asked_still_resolves():
    roster = club.fold(chain(3))
    assert roster.named("p1") == f"{1:032x}" and roster.named("Pip") is None
    roster.aliases.append((club.folded_name("Pip"), f"{2:032x}", DEVICE, "Pip"))  # as an alias entry folds
    assert roster.named("PIP") == f"{2:032x}" and roster.named("P3") == f"{3:032x}"
