"""Ratings of a season from each night's ranking: the same on every host whatever order the
seats and hosts came in, a person of the club rated across every host, shown only from the
stated number of nights."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from pancli.core.ratings import rate_nights

from club_hosts import everyone_synced, three  # noqa: F401, F811 the fixture of three hosts, one folder
from helpers import Pan

NAMES = ["Ana", "Ben", "Cruz", "Dee", "Eve", "Fay"]
nights_strategy = st.lists(
    st.dictionaries(st.sampled_from(NAMES), st.integers(-50, 50), min_size=2, max_size=6), min_size=1, max_size=12)


@given(nights_strategy, st.randoms())
@settings(max_examples=60, deadline=None)
def test_the_order_the_seats_arrive_in_changes_no_rating(nights, rnd):
    shuffled = []
    for night in nights:
        items = list(night.items())
        rnd.shuffle(items)
        shuffled.append(dict(items))
    assert rate_nights(shuffled) == rate_nights(nights)


@given(nights_strategy)
@settings(max_examples=60, deadline=None)
def test_equal_nets_tie_and_more_chips_never_rates_lower_on_a_first_night(nights):
    first = nights[0]
    rated = rate_nights([first])
    for a in first:
        for b in first:
            if first[a] == first[b]:
                assert rated[a] == rated[b]
            elif first[a] > first[b]:
                assert rated[a].mu > rated[b].mu
    assert all(r.nights == sum(1 for n in nights if k in n) for k, r in rate_nights(nights).items())


def test_a_player_who_wins_every_night_is_rated_first():
    nights = [{"Ana": 30, "Ben": -10, "Cruz": -20}, {"Ana": 5, "Ben": 0, "Cruz": -5}] * 5
    rated = rate_nights(nights)
    assert max(rated, key=lambda k: rated[k].ordinal) == "Ana"
    assert rated["Ana"].nights == 10


def test_a_person_is_rated_across_every_host_and_every_host_agrees(three):  # noqa: F811
    folder, kasia, ben, cruz = three
    ben("club add Ana --alias ana --alias 'Anna K.'")
    everyone_synced(kasia, ben, cruz)
    cruz("club join " + json.loads(kasia("club show --json").stdout)["club"][:8])
    got = [pan.json("ratings --rated-from 3") for pan in (kasia, ben, cruz)]
    assert got[0] == got[1] == got[2]
    rows = {r["name"]: r for r in got[0]["players"]}
    assert rows["Ana"]["nights"] == 3 and rows["Ana"]["rating"] is not None
    assert "ana" not in rows and "Anna K." not in rows
    assert rows["Dee"]["nights"] == 1 and rows["Dee"]["rating"] is None and rows["Dee"]["place"] is None
    text = kasia("ratings --rated-from 3").output
    assert "A rating shows from 3 nights played" in " ".join(text.split())


def test_ratings_of_a_game_without_chips_are_refused_in_one_line(tmp_path):
    pan = Pan(tmp_path / "x.db")
    pan("session new a --players Ana,Ben")
    r = pan("ratings --game contract", code=2)
    assert "not played for chips" in r.output and len(r.output.strip().splitlines()) <= 2
    assert "No nights to rate" in pan("ratings").output
