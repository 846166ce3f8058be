"""`pan versus` and `pan standings --season` at club scale, counted rather than timed
(bench/bench_club.py times them): what SQLite does for a head-to-head grows with the nights the
two sat together, not with every night of one times every night of the other, and a season reads
the sessions of its year, not every session the club holds."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pancli.app import persons, reports
from pancli.storage.store import Store

from helpers import Pan

NIGHT = ["deal", "drop {c}", "meld {a} 5S 5S 5S", "meld {b} 7H 7H 7H", "out {b} KD KD KD"]


def night(pan: Pan, name: str, players: list[str]) -> None:
    pan(f"session new {name} --players " + ",".join(players))
    a, b, c = players
    for line in NIGHT:
        pan(line.format(a=a, b=b, c=c), ok=False)


def steps(store: Store, read: Callable[[], Any]) -> tuple[Any, int]:
    """What ``read`` gives and how many steps of SQLite's machine it took (tens of them)."""
    counted = 0

    def tick() -> int:
        nonlocal counted
        counted += 1
        return 0

    store.conn.set_progress_handler(tick, 10)
    try:
        return read(), counted
    finally:
        store.conn.set_progress_handler(None, 10)


def test_versus_reads_the_nights_together_not_every_night_of_one_by_every_night_of_the_other(tmp_path):
    pan = Pan(tmp_path / "host.db")
    for i in range(4):
        night(pan, f"t{i}", ["Ana", "Ben", "Dee"])
    store = Store(pan.db)
    try:
        def between() -> tuple[list, int]:
            a, b = persons.who(store, "Ana"), persons.who(store, "Ben")
            return steps(store, lambda: store.queries.payments_between(a.seats_json(), b.seats_json()))

        before, few = between()
        for i in range(16):  # Ben's nights without Ana: nothing passed between them there
            night(pan, f"b{i}", ["Ben", "Eve", "Fay"])
        after, many = between()
    finally:
        store.close()
    assert after == before and len(before) == 8  # two payments a night between Ana and Ben
    # Each of Ana's payments joined to every seat of Ben's, 16 more nights of his made it 3.5 times the work.
    assert many < 2 * few, (few, many)
    assert pan.json("versus Ana Ben")["nights"] == 4


def test_a_season_reads_its_own_years_sessions_and_gives_the_same_rows(tmp_path):
    pan = Pan(tmp_path / "host.db")
    for i in range(3):
        night(pan, f"n{i}", ["Ana", "Ben", "Dee"])
    store = Store(pan.db)
    try:
        year = store.sessions()[0].created_at[:4]
        first, few = steps(store, lambda: reports.season_standings(store, year))
    finally:
        store.close()
    for i in range(24):
        night(pan, f"old{i}", ["ana", "Ben", "Eve"])
    store = Store(pan.db)
    try:
        with store.lock():  # nights of an earlier year (a club's three years of them)
            store.conn.execute("UPDATE sessions SET created_at = '2001-05-05T20:00:00+00:00' WHERE name LIKE 'old%'")
        again, many = steps(store, lambda: reports.season_standings(store, year))
        old = reports.season_standings(store, "2001")
    finally:
        store.close()
    assert json.dumps(again) == json.dumps(first) and first["sessions"] == 3
    assert {r["name"]: r["nights"] for r in old["players"]} == {"ana": 24, "Ben": 24, "Eve": 24}
    # Every session and every total read, 24 nights of 2001 made this year's season 8.5 times the work.
    assert many < 2 * few, (few, many)


def test_a_name_not_of_the_club_reads_its_own_nights_not_every_session_held(tmp_path, monkeypatch):
    pan = Pan(tmp_path / "host.db")
    night(pan, "n1", ["Ana", "Ben", "Dee"])
    night(pan, "n2", ["ana", "Ben", "Eve"])
    for i in range(10):
        night(pan, f"o{i}", ["Cy", "Ben", "Eve"])
    before = pan.json("player ana")
    versus = pan.json("versus Ana Ben")
    read: list[int] = []
    from pancli.storage import club, mapping, queries, store

    def counted(row):
        read.append(row[0])
        return mapping.session_row(row)

    for module in (store, queries, club):  # each reads sessions' rows through its own name for it
        monkeypatch.setattr(module, "session_row", counted, raising=False)

    def every_seat(self):
        raise AssertionError("every seat of every session read for one name")

    monkeypatch.setattr(club.ClubQueries, "seats_to_place", every_seat)
    assert pan.json("player ana") == before and before["sessions"] == 2
    assert sorted(read) == [1, 2]  # Ana's two nights, not the twelve held (each read twice)
    read.clear()
    assert pan.json("versus Ana Ben") == versus and versus["nights"] == 2
    assert sorted(read) == [1, 2]


def test_a_season_parses_each_text_of_house_rules_once_and_each_session_keeps_its_own(tmp_path, monkeypatch):
    pan = Pan(tmp_path / "host.db")
    for i in range(5):
        night(pan, f"n{i}", ["Ana", "Ben", "Dee"])
    store = Store(pan.db)
    try:
        year = store.sessions()[0].created_at[:4]
        whole = {s.id: s for s in store.sessions()}
        from pancli.storage import mapping

        texts: list[str] = []
        loads = json.loads

        def counted(text, *args, **kwargs):
            texts.append(text)
            return loads(text, *args, **kwargs)

        monkeypatch.setattr(mapping.json, "loads", counted)
        season = reports.season_of(store, year, "panguingue")
        monkeypatch.undo()
    finally:
        store.close()
    assert season.sessions == whole  # every field as a session read alone, the rules included
    rules = [t for t in texts if t.startswith("{")]
    assert len(rules) == 1, len(rules)  # five sessions, one text of house rules
    one, two = (season.sessions[sid].rules for sid in list(season.sessions)[:2])
    assert one == two and one is not two


def test_a_table_is_measured_once_to_fit_the_width(monkeypatch):
    from rich.measure import Measurement
    from rich.table import Table

    from pancli.cli.fit import fit_table
    from pancli.cli.output import console

    table = Table(title="Season")
    for col in ("player", "net", "nights"):
        table.add_column(col)
    for i in range(30):
        table.add_row(f"Player {i:03d}", f"+{i}", str(i))
    measured = 0
    get = Measurement.get

    def counted(*args, **kwargs):
        nonlocal measured
        measured += 1
        return get(*args, **kwargs)

    monkeypatch.setattr(Measurement, "get", counted)
    fit_table(table, console(width=80))
    assert measured == 3 * 31  # each cell and header once (twice, to see whether it fits and then again)
