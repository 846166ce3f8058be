"""The club's promise, whole: three hosts play a month of nights on three laptops, one folder
between them; a registrar fixes a misspelled name once; and every laptop's careers, season,
ratings and head-to-head agree, to the chip."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from pancli.storage import log

from club_hosts import everyone_synced, night, three  # noqa: F401 (the fixture)

# November 2026: a night a week at each host, each week's three nights on three evenings
WEEKS = [(3, 5, 6), (10, 12, 13), (17, 19, 20), (24, 26, 27)]
PEOPLE = ["Ana", "Bo", "Cyd", "Dee", "Eve"]
OPPONENTS = ["Ben", "Bo", "Cyd", "Dee", "Eve", "Fay"]  # the month's and the first three nights' (three)


@pytest.fixture
def month(three, monkeypatch):  # noqa: F811
    """Twelve nights: Kasia types "Ana", Ben "ana", Cruz "Anna K.", and once, in week three,
    Cruz's dealer typed "Anan"."""
    folder, kasia, ben, cruz = three
    kasia("club add Ana --alias ana --alias 'Anna K.'")
    everyone_synced(kasia, ben, cruz)
    spelling = {kasia: "Ana", ben: "ana", cruz: "Anna K."}
    seatings = itertools.cycle(itertools.permutations(PEOPLE[1:], 2))
    for week, days in enumerate(WEEKS, 1):
        for host, day in zip((kasia, ben, cruz), days, strict=True):
            monkeypatch.setattr(log, "now", lambda day=day: f"2026-11-{day:02d}T20:00:00+00:00")
            ana = "Anan" if (host, week) == (cruz, 3) else spelling[host]
            other, third = next(seatings)
            # who sits where (and so who goes out) turns week by week
            players = [[ana, other, third], [other, ana, third], [other, third, ana], [third, ana, other]][week - 1]
            night(host, f"w{week}-{day}", players)
        everyone_synced(kasia, ben, cruz)
    return folder, kasia, ben, cruz


def figures(pan) -> dict:
    """Everything a player reads of the month, on one laptop."""
    return {"career": pan.json("player Ana"), "season": pan.json("standings --season 2026"),
            "ratings": pan.json("ratings --season 2026 --rated-from 3"),
            "versus": {other: pan.json(f"versus Ana {other}") for other in OPPONENTS}}


def test_a_month_on_three_laptops_and_one_fix_of_a_misspelled_name_agree_everywhere_to_the_chip(month):
    folder, kasia, ben, cruz = month
    laptops = (kasia, ben, cruz)
    before = figures(kasia)
    assert all(figures(pan) == before for pan in laptops[1:])
    # the first three nights (three) and eleven of the month: the night typed "Anan" is not Ana's yet
    assert before["career"]["sessions"] == 14
    seasons = {r["name"]: r for r in before["season"]["players"]}
    assert seasons["Anan"]["nights"] == 1 and seasons["Ana"]["nights"] == 14

    kasia("club alias Ana Anan")  # the registrar's one fix
    everyone_synced(*laptops)

    after = figures(kasia)
    for pan in laptops[1:]:
        assert figures(pan) == after, pan.db
    assert after["career"]["sessions"] == 15
    season = {r["name"]: r for r in after["season"]["players"]}
    assert "Anan" not in season and season["Ana"]["nights"] == 15
    # the fixed night's chips moved to Ana, none made or lost
    assert season["Ana"]["net"] == seasons["Ana"]["net"] + seasons["Anan"]["net"]
    assert sum(r["net"] for r in season.values()) == sum(r["net"] for r in seasons.values())
    # head to head: the chips between Ana and each other person, over the nights they shared
    met = Counter()
    for other in OPPONENTS:
        v = after["versus"][other]
        assert v["net"] == sum(v["by_kind"].values())
        met[other] = v["nights"]
    assert sum(met.values()) == 15 * 2  # Ana met two others each night
    rated = {r["name"] for r in after["ratings"]["players"]}
    assert "Ana" in rated and "Anan" not in rated


def test_nights_begun_in_the_same_second_are_listed_in_the_same_order_on_every_laptop(three, monkeypatch):  # noqa: F811
    """Where two hosts began a night in the same second, every laptop lists them in one order
    (by the sessions' global ids), not in the order each laptop happened to store them."""
    folder, kasia, ben, cruz = three
    kasia("club add Ana --alias ana --alias 'Anna K.'")
    monkeypatch.setattr(log, "now", lambda: "2026-11-06T20:00:00+00:00")
    night(cruz, "c-fri", ["Anna K.", "Bo", "Cyd"])
    night(kasia, "k-fri", ["Ana", "Bo", "Dee"])
    everyone_synced(kasia, ben, cruz)
    lists = {pan.db: (pan.json("versus Ana Bo")["sessions"], pan.json("player Ana")["nights"]) for pan in (kasia, ben, cruz)}
    assert len(set(map(repr, lists.values()))) == 1, lists
    assert len(lists[kasia.db][0]) == 2
