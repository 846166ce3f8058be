"""`pan club season close` across three hosts and one folder: the same season, to the chip, on
every host that synced the entry; a session arriving later, or one changed after the close, left
out and said once; closing twice, a non-registrar, an unsynced session and hostile season entries
refused in one line; and the closed seasons a projection of the roster that follows it."""

from __future__ import annotations

import json
import os

from pancli.core import club, signing

from club_hosts import device, everyone_synced, night, sync, three, unseen, write_signed  # noqa: F401 (a fixture)
from helpers import sql_value


def year_of(pan) -> str:
    return pan.json("sessions")[0]["date"][:4]


def season(pan, year: str) -> dict:
    return pan.json(f"standings --season {year}")


def figures(data: dict) -> dict:
    return {r["name"]: (r["net"], r["nights"], r["hands"]) for r in data["players"]}


def closed_lines(out: str) -> list[str]:
    """The season's notes about its close, each whole (a note is broken between words to fit 80
    columns, its lines after the first indented)."""
    notes: list[str] = []
    for line in out.split("└")[-1].splitlines()[1:]:
        if line.startswith("  ") and notes:
            notes[-1] += " " + line.strip()
        else:
            notes.append(line)
    return [note for note in notes if "closed" in note]


def test_a_closed_season_counts_the_same_sessions_to_the_chip_on_three_hosts_and_a_later_one_is_said(three):  # noqa: F811
    folder, kasia, ben, cruz = three
    everyone_synced(kasia, ben, cruz)
    year = year_of(kasia)
    before = season(kasia, year)
    assert before["sessions"] == 3 and "closed" not in before
    got = kasia.json(f"club season close {year}")
    assert got["sessions"] == 3 and got["season"] == f"panguingue {year}"
    everyone_synced(kasia, ben, cruz)
    for pan in (kasia, ben, cruz):
        now = season(pan, year)
        assert figures(now) == figures(before) and now["sessions"] == 3, pan.db
        assert now["closed"] == {"name": f"panguingue {year}", "sessions": 3, "left_out": [], "missing": 0}
        assert pan.json("club show")["seasons"] == [{"name": f"panguingue {year}", "sessions": 3}]
        assert f"Closed season: panguingue {year} (3 sessions)" in pan("club show").output
    # a night of that year recorded after the close: not counted anywhere, and said once
    night(cruz, "c2", ["Ben", "Fay", "Gus"])
    everyone_synced(kasia, ben, cruz)
    for pan in (kasia, ben, cruz):
        now = season(pan, year)
        assert figures(now) == figures(before) and now["sessions"] == 3
        assert now["closed"]["left_out"] == ["c2"]
        said = closed_lines(pan(f"standings --season {year}").output)
        assert said == [f"Not counted: 1 session played or changed after the season panguingue {year} was "
                        "closed: c2 (`--season all` counts it)."], said
        assert pan.json("standings --season all")["sessions"] == 4  # every session, closed or not
        rated = pan.json(f"ratings --season {year}")
        assert rated["sessions"] == 3 and rated["closed"]["left_out"] == ["c2"]


def test_a_session_changed_after_the_close_is_left_out_on_every_host_and_said(three):  # noqa: F811
    folder, kasia, ben, cruz = three
    everyone_synced(kasia, ben, cruz)
    year = year_of(kasia)
    kasia(f"club season close {year}")
    everyone_synced(kasia, ben, cruz)
    closed = figures(season(ben, year))
    ben("session use b1")
    ben("undo")  # b1 re-scored: not what it was when the season closed
    said = closed_lines(ben(f"standings --season {year}").output)  # before any sync: changed here
    assert len(said) == 2 and "b1" in said[0] and "1 session of the closed season" in said[1], said
    everyone_synced(kasia, ben, cruz)
    for pan in (kasia, ben, cruz):
        now = season(pan, year)
        assert now["sessions"] == 2 and now["closed"]["left_out"] == ["b1"] and now["closed"]["missing"] == 1
        assert figures(now) != closed and "Eve" not in figures(now)  # Eve sat only at b1
        said = closed_lines(pan(f"standings --season {year}").output)
        assert len(said) == 2 and "`pan sync` brings it" in said[1], said


def test_closing_twice_a_non_registrar_and_a_session_not_synced_are_refused_in_one_line(three):  # noqa: F811
    folder, kasia, ben, cruz = three
    everyone_synced(kasia, ben, cruz)
    year = year_of(kasia)
    r = cruz(f"club season close {year}", code=2)
    assert "this device (cruz) is not a registrar" in r.output and len(r.output.strip().splitlines()) <= 2, r.output
    night(kasia, "k2", ["Ana", "Ben", "Dee"])  # not synced yet
    r = kasia(f"club season close {year}", code=2)
    assert "1 session of panguingue" in r.output and "k2" in r.output and "pan sync" in r.output, r.output
    assert len(r.output.strip().splitlines()) <= 2
    assert kasia.json("club show")["seasons"] == []
    sync(kasia)
    kasia(f"club season close {year}")
    sync(ben)
    r = ben(f"club season close {year}", code=2)
    assert f"the season panguingue {year} is already closed" in r.output and len(r.output.strip().splitlines()) <= 2
    assert "is not a year" in kasia("club season close all", code=2).output
    assert "no session of contract" in kasia(f"club season close {year} --game contract", code=2).output


def test_hostile_season_entries_are_refused_in_one_line_and_close_nothing(three):  # noqa: F811
    folder, kasia, ben, cruz = three
    everyone_synced(kasia, ben, cruz)
    year = year_of(kasia)
    club_id = kasia.json("club show")["club"]
    fps = ["ab" * 32, "cd" * 32]
    stranger_seed = os.urandom(32)
    stranger_key = signing.public_key(stranger_seed)
    base = {"v": 1, "club": club_id, "kind": "season", "seq": 1, "prev": None, "seen": {}, "at": "2026-12-07T10:00:00Z"}
    write_signed(folder, {**base, "by": signing.device_id_of(stranger_key), "key": stranger_key,
                          "name": f"panguingue {year}", "sessions": fps}, stranger_seed)
    # a registrar's own entries, signed: more sessions than a season holds, and one fingerprint twice
    ben_seed = bytes.fromhex(sql_value(ben.db, "SELECT value FROM settings WHERE key = 'device_key'"))
    ben_id, ben_key = device(ben), signing.public_key(ben_seed)
    head = max(int(p.stem) for p in (folder / ben_id / "club").glob("*.json")) if (folder / ben_id / "club").is_dir() else 0
    many = [f"{i:064x}" for i in range(club.MAX_SEASON + 1)]
    write_signed(folder, {**base, "by": ben_id, "key": ben_key, "seq": head + 1, "name": f"panguingue {year}",
                          "sessions": many}, ben_seed, name=f"{head + 1:08d}.json")
    other = folder / "twice"
    other.mkdir()
    write_signed(other, {**base, "by": ben_id, "key": ben_key, "seq": head + 1, "name": f"panguingue {year}",
                         "sessions": [fps[0], fps[0]]}, ben_seed)
    r = kasia(f"sync {folder}", code=1)
    refused = [x for x in r.output.splitlines() if x.startswith("Refused")]
    whys = " ".join(refused)
    assert "never made a registrar" in whys and "its field sessions is missing or not what it must be" in whys, r.output
    assert kasia.json("club show")["seasons"] == []
    assert "closed" not in season(kasia, year) and season(kasia, year)["sessions"] == 3
    # the same signed entry with a fingerprint twice, in ben's place: refused the same way
    twice = next((other / ben_id / "club").glob("*.json"))
    twice.replace(folder / ben_id / "club" / twice.name)
    r = kasia(f"sync {folder}", code=1)
    assert "its field sessions is missing or not what it must be" in r.output, r.output
    assert kasia.json("club show")["seasons"] == []


def test_the_closed_seasons_follow_the_roster_a_revocation_takes_a_close_away(three):  # noqa: F811
    folder, kasia, ben, cruz = three
    everyone_synced(kasia, ben, cruz)
    year = year_of(kasia)
    ben(f"club season close {year}")
    assert season(ben, year)["closed"]["sessions"] == 3
    with unseen(folder, ben):
        kasia("club revoke ben")  # written before kasia saw ben's close: the close does not count
    night(cruz, "c2", ["Ben", "Fay", "Gus"])
    for _ in range(2):
        for pan in (kasia, ben, cruz):
            sync(pan, code=1)  # ben's close refused on every host, in one line
    for pan in (kasia, ben, cruz):
        now = season(pan, year)
        assert "closed" not in now and now["sessions"] == 4, pan.db
        assert pan.json("club show")["seasons"] == []
    assert json.loads(sql_value(ben.db, "SELECT json_group_array(name) FROM club_seasons")) == []
