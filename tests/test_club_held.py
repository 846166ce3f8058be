"""What a club's host keeps between syncs so that a sync costs what is new: each folder file's
size, mtime, ctime and inode (a file as last seen is not opened again), the roster as last folded
(taken up with the new entries, or folded again where that would not give the same roster), and
the seats projected again only where the roster or the sessions changed. Each cache is checked
against the thing it stands for changing: a file edited in place at the same size and mtime, a
folder replaced, an entry out of order, a revoked registrar's later entries."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

from pancli.app import club as club_app, club_held, club_read
from pancli.core import club
from pancli.core.club import Entry, Roster

from club_hosts import (
    device,
    everyone_synced,
    folds,
    night,
    opened,
    quick_settling as quick_settling,  # noqa: F401, PLC0414 the fixture
    settled_sync,
    sync,
    three as three,  # noqa: F401, PLC0414 the fixture
    unseen,
)


def roster_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*/club/*.json"))


def test_an_unchanged_file_is_not_opened_but_an_edit_in_place_at_the_same_size_and_mtime_is_seen(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana")
    settled_sync(kasia, folder)
    con = sqlite3.connect(kasia.db)
    assert con.execute("SELECT count(*) FROM club_files WHERE ctime_ns IS NULL").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM sync_files WHERE ctime_ns IS NULL").fetchone()[0] == 0
    con.close()
    seen = opened(monkeypatch)
    sync(kasia, folder)
    archives_and_entries = [p for p in seen if p.endswith(".toml") or "/club/" in p]
    assert archives_and_entries == []  # only the devices' device.json are read
    added = next(p for p in roster_files(folder) if b'"Ana"' in p.read_bytes())
    st = added.stat()
    added.write_bytes(added.read_bytes().replace(b'"Ana"', b'"Eve"'))
    os.utime(added, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (added.stat().st_size, added.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    out = kasia(f"sync {folder}", code=1).output
    assert "signature does not hold" in out, out
    assert [p["name"] for p in kasia.json("club show")["persons"]] == []
    # an archive edited in place the same way is read again too
    archive = sorted((folder / device(ben)).glob("*.toml"))[0]
    st = archive.stat()
    raw = archive.read_bytes()
    archive.write_bytes(raw[:-3] + (b"0" if raw[-3:-2] != b"0" else b"1") + raw[-2:])
    os.utime(archive, ns=(st.st_atime_ns, st.st_mtime_ns))
    seen.clear()
    kasia(f"sync {folder}", code=1)
    assert str(archive) in seen


def test_a_replaced_roster_folder_is_read_again(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    ben("club add Bo")
    settled_sync(kasia, folder)
    seen = opened(monkeypatch)
    assert sorted(p["name"] for p in kasia.json("club show")["persons"]) == ["Ana", "Bo"]
    assert not [p for p in seen if "/club/" in p]  # as last seen: not opened
    # the folder put back from elsewhere with the same names, sizes and times, one entry edited
    where = folder / device(ben) / "club"
    copy = where.with_name("club-copy")
    shutil.copytree(where, copy)  # copy2: the same mtimes
    for p in sorted(copy.glob("*.json")):
        if b'"Bo"' in p.read_bytes():
            st = p.stat()
            p.write_bytes(p.read_bytes().replace(b'"Bo"', b'"Al"'))
            os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    shutil.rmtree(where)
    copy.rename(where)
    out = kasia(f"sync {folder}", code=1).output
    assert "signature does not hold" in out, out
    assert [p["name"] for p in kasia.json("club show")["persons"]] == ["Ana"]


def seats(pan) -> list[tuple]:
    con = sqlite3.connect(pan.db)
    try:
        return con.execute("SELECT * FROM club_seats ORDER BY session_id, seat").fetchall()
    finally:
        con.close()


HELD = ("club_persons", "club_seasons", "club_held_aliases", "club_held_seats")


def held_tables(pan) -> dict:
    """The persons and seasons projected, and the fold held: its aliases, seats and the rest."""
    con = sqlite3.connect(pan.db)
    try:
        got = {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in HELD}  # noqa: S608 our names
        got["state"] = json.loads(con.execute("SELECT state FROM club_state").fetchone()[0])
        return got
    finally:
        con.close()


def same_as_folded_again(pan) -> dict:
    """`club show`, the seats and persons as the held fold gives them, and the fold held itself,
    equal those from every entry folded again and every seat placed again."""
    held, placed, tables = pan.json("club show"), seats(pan), held_tables(pan)
    con = sqlite3.connect(pan.db)
    con.execute("DELETE FROM club_state")
    con.commit()
    con.close()
    again = pan.json("club show")
    assert held == again
    assert placed == seats(pan)
    assert tables == held_tables(pan)
    return held


def test_entries_that_touch_little_are_folded_on_in_part_and_hold_what_a_whole_fold_holds(three, monkeypatch):
    """An alias, an add, an attribution, a retirement, a grant and a season closed are folded on
    from the fold held without reading its aliases and seats whole; what is held and projected
    after is what every entry folded again gives."""
    folder, kasia, ben, cruz = three
    kasia("club add Ana --alias Anka")
    kasia("club add Bo")
    kasia("club attribute Bo --session b1 --seat eve")
    night(kasia, "k2", ["Anka", "Ben", "Bo"])
    everyone_synced(kasia, ben, cruz)
    ben("club alias Ana 'Anna K.'")
    ben("club attribute Bo --session k1 --seat dee")
    ben("club add Cy --alias Fay")
    ben("club retire Bo")
    ben("club grant cruz")
    ben(f"club season close {time.strftime('%Y')}")
    counted, whole = folds(monkeypatch), []
    real = club_held.Held.state  # every alias and seat read: the whole fold held
    monkeypatch.setattr(club_held.Held, "state", lambda self: whole.append(1) or real(self))
    assert sync(kasia)["club"]["new"] == 6
    assert counted == [] and whole == []
    assert sorted(n["session"] for n in kasia.json("player Ana")["nights"]) == ["b1", "c1", "k1", "k2"]
    assert sorted(n["session"] for n in kasia.json("player Bo")["nights"]) == ["b1", "k1", "k2"]
    assert [n["session"] for n in kasia.json("player Cy")["nights"]] == ["c1"]
    same_as_folded_again(kasia)
    # an entry that reads every seat (a merge) is folded on from the whole fold held
    ben("club merge Ana Cy", code=2)  # they sat together at c1: refused
    ben("club add Di")
    ben("club merge Cy Di")
    counted.clear()
    whole.clear()
    sync(kasia)
    assert counted == [] and whole == [1]
    same_as_folded_again(kasia)


def test_a_new_alias_places_again_only_the_seats_typed_with_it(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana")
    kasia("club add Bo")
    night(kasia, "k2", ["Anka", "Ben", "Bo"])
    sync(kasia)
    sync(ben)
    ben("club alias Ana Anka")
    whole: list[int] = []
    real = club_held.project
    monkeypatch.setattr(club_held, "project", lambda store, roster: whole.append(1) or real(store, roster))
    monkeypatch.setattr(club_read, "project", club_held.project)
    sync(kasia)
    assert whole == []
    assert sorted(n["session"] for n in kasia.json("player Ana")["nights"]) == ["b1", "k1", "k2"]
    same_as_folded_again(kasia)
    # a merge changes who is whom: every seat placed again
    ben("club merge Ana Bo", code=2)  # they sat together at k2: refused
    ben("club add Cy")
    ben("club merge Ana Cy")
    whole.clear()
    sync(kasia)
    assert whole == [1]
    same_as_folded_again(kasia)


def test_new_entries_after_the_held_ones_are_folded_on_from_them_and_the_rest_from_the_start(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana")
    sync(ben)
    sync(kasia)
    ben("club alias Ana Anka")  # ben had folded everything kasia holds: taken up from the held fold
    counted = folds(monkeypatch)
    sync(kasia)
    assert counted == [], counted
    assert "Anka" in same_as_folded_again(kasia)["persons"][0]["aliases"]
    # written at the same time on two hosts: ben's entry comes before kasia's, which kasia holds folded
    kasia("club add Bo")
    sync(kasia)
    with unseen(folder, kasia):
        ben("club add Cy")
    counted.clear()
    sync(kasia)
    assert counted and counted[-1] >= 5, counted  # folded again from the start
    shown = same_as_folded_again(kasia)
    assert sorted(p["name"] for p in shown["persons"]) == ["Ana", "Bo", "Cy"]


def test_a_revocation_folds_again_from_the_start_and_the_revoked_later_entries_stop_counting(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    sync(kasia)
    kasia("club revoke ben")
    with unseen(folder, kasia):
        ben("club add Zed")  # ben has not seen the revocation
    sync(kasia, code=1)
    counted = folds(monkeypatch)
    sync(ben, code=1)
    assert counted, "the revocation was folded from the start"
    assert [p["name"] for p in same_as_folded_again(kasia)["persons"]] == ["Ana"]
    assert [p["name"] for p in same_as_folded_again(ben)["persons"]] == ["Ana"]


def test_a_night_brought_in_with_nothing_new_in_the_roster_has_its_seats_placed(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana --alias 'Anna K.'")
    sync(kasia)
    sync(ben)
    night(ben, "b2", ["ANA", "Ben", "Gus"])
    sync(ben)
    counted = folds(monkeypatch)
    sync(kasia)
    assert counted == []  # the roster as held: only the new night's seats placed
    nights = sorted(n["session"] for n in kasia.json("player Ana")["nights"])
    assert nights == ["b1", "b2", "c1", "k1"], nights


# -- the fold taken up, in the core ---------------------------------------------------------------

A, B = "a" * 32, "b" * 32
KA, KB = "1" * 64, "2" * 64


def entry(roster: Roster, by: str, key: str, kind: str, **fields) -> Entry:
    data = club.entry_data(kind, roster, by, key, "2026-12-07T10:00:00Z", **fields)
    return Entry(data, club.digest(club.canonical(data)))


def grown(entries: list[Entry], by: str, key: str, kind: str, **fields) -> Entry:
    """The next entry of ``by`` written having folded ``entries``."""
    e = entry(club.fold(entries), by, key, kind, **fields)
    entries.append(e)
    return e


def start() -> list[Entry]:
    entries: list[Entry] = []
    grown(entries, A, KA, "create", name="Club", label="a")
    grown(entries, A, KA, "grant", device=B, device_key=KB, label="b")
    grown(entries, A, KA, "add", person="c" * 32, name="Ana", aliases=[])
    return entries


def test_a_fold_taken_up_equals_the_fold_of_every_entry_and_its_state_reads_back_the_same():
    entries = start()
    held = club.fold(entries)
    cid = held.club
    state = club.state(held, None)
    assert club.state(club.restore(json.loads(json.dumps(state))), None) == state
    more = list(entries)
    grown(more, B, KB, "alias", person="c" * 32, name="Anka")
    grown(more, A, KA, "add", person="d" * 32, name="Bo", aliases=["B"])
    grown(more, B, KB, "merge", person="c" * 32, other="d" * 32)
    pinned_state = json.loads(json.dumps(club.state(club.fold(entries, cid), cid)))
    taken_up = club.fold_more(pinned_state, more[len(entries):], cid)
    assert taken_up is not None
    assert club.state(taken_up, cid) == club.state(club.fold(more, cid), cid)
    assert taken_up.display("d" * 32) == "Ana"


def test_a_fold_is_not_taken_up_where_it_would_differ():
    entries = start()
    cid = club.fold(entries).club
    held = json.loads(json.dumps(club.state(club.fold(entries, cid), cid)))
    # an entry whose writer had not folded every held entry (written before the last one arrived)
    early = entry(club.fold(entries[:2]), B, KB, "add", person="e" * 32, name="Cy", aliases=[])
    assert club.fold_more(held, [early], cid) is None
    # a revocation (it counts from the start)
    assert club.fold_more(held, [entry(club.fold(entries), A, KA, "revoke", device=B, upto=0)], cid) is None
    # a fork: a second entry with a number the device has used
    fork = entry(club.fold(entries[:2]), A, KA, "add", person="f" * 32, name="Di", aliases=[])
    assert club.fold_more(held, [fork], cid) is None
    # another club pinned, or none
    assert club.fold_more(held, [], None) is None and club.fold_more(held, [], "0" * 32) is None
    # and where it is taken up, nothing new gives the held roster back
    same = club.fold_more(held, [], cid)
    assert same is not None and json.loads(json.dumps(club.state(same, cid))) == held


def test_a_device_whose_chain_a_refusal_ended_is_folded_again():
    entries = start()
    cid = club.fold(entries).club
    bad = entry(club.fold(entries), B, KB, "alias", person="9" * 32, name="Nobody")  # no such person: refused
    held_entries = [*entries, bad]
    held = json.loads(json.dumps(club.state(club.fold(held_entries, cid), cid)))
    later = entry(club.fold(held_entries), B, KB, "add", person="e" * 32, name="Cy", aliases=[])
    assert club.fold_more(held, [later], cid) is None
    assert [r.code for r in club.fold([*held_entries, later], cid).refused] == ["club.no_person", "club.after_refused"]


def test_roster_of_gives_what_a_whole_fold_gives(three):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana")
    ben("club add Bo")
    sync(kasia)
    store = club_app.Store(kasia.db)
    try:
        roster, read = club_app.roster_of(store)
        whole = club.fold(read.every_entry(), roster.club)
        assert club.state(roster, roster.club) == club.state(whole, roster.club)
    finally:
        store.close()


def test_a_new_session_on_a_clubs_host_places_only_its_own_seats(three, monkeypatch):
    folder, kasia, _ben, _cruz = three
    kasia("club add Ana --alias Anka")
    sync(kasia)
    whole: list[int] = []
    real = club_held.project
    monkeypatch.setattr(club_held, "project", lambda store, roster: whole.append(1) or real(store, roster))
    night(kasia, "k2", ["Anka", "Ben", "Dee"])
    assert whole == []
    assert sorted(n["session"] for n in kasia.json("player Ana")["nights"]) == ["b1", "k1", "k2"]
    same_as_folded_again(kasia)


def in_part(state: dict, sessions: set[str]) -> dict:
    """``state`` as a holder restores it in part: no aliases (they come after ``alias_base``), the
    seats of these sessions only."""
    return {**state, "aliases": [], "alias_base": len(state["aliases"]), "sessions": sessions,
            "seats": [row for row in state["seats"] if row[0] in sessions]}


def test_a_fold_taken_up_in_part_holds_what_the_whole_fold_holds_where_it_was_restored():
    entries = start()
    ana, bo = "c" * 32, "d" * 32
    grown(entries, A, KA, "add", person=bo, name="Bo", aliases=["B"])
    s1, s2 = f"{A}/1", f"{B}/2"
    grown(entries, A, KA, "attribute", person=ana, session=s1, seat="ana")
    grown(entries, B, KB, "attribute", person=bo, session=s2, seat="bo")
    cid = club.fold(entries).club
    held = json.loads(json.dumps(club.state(club.fold(entries, cid), cid)))
    more = list(entries)
    grown(more, B, KB, "alias", person=ana, name="Anka")
    grown(more, A, KA, "attribute", person=bo, session=s1, seat="bee")
    grown(more, B, KB, "retire", person=bo)
    taken_up = club.fold_more(in_part(held, {s1}), more[len(entries):], cid, whole=False)
    assert taken_up is not None and not taken_up.whole
    got, want = club.state(taken_up, cid), club.state(club.fold(more, cid), cid)
    assert got["aliases"] == want["aliases"][len(held["aliases"]):] and got["alias_base"] == len(held["aliases"])
    assert got["seats"] == [row for row in want["seats"] if row[0] == s1]
    parts = ("aliases", "alias_base", "seats")
    assert {k: v for k, v in got.items() if k not in parts} == {k: v for k, v in want.items() if k not in parts}
    # what a part cannot be folded on with: a merge (it reads every seat), a seat of a session not held
    merge = entry(club.fold(entries), B, KB, "merge", person=ana, other=bo)
    assert club.fold_more(in_part(held, {s1, s2}), [merge], cid, whole=False) is None
    elsewhere = entry(club.fold(entries), B, KB, "attribute", person=ana, session=s2, seat="x")
    assert club.fold_more(in_part(held, {s1}), [elsewhere], cid, whole=False) is None
    assert club.fold_more(in_part(held, {s2}), [elsewhere], cid, whole=False) is not None


def test_a_held_fold_this_pancli_cannot_read_back_is_folded_again_without_a_traceback(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana --alias Anka")
    sync(kasia)
    con = sqlite3.connect(kasia.db)
    state = json.loads(con.execute("SELECT state FROM club_state").fetchone()[0])
    con.execute("UPDATE club_state SET state = ?", [json.dumps({**state, "persons": [["not a person"]]})])
    con.commit()
    con.close()
    counted = folds(monkeypatch)
    night(kasia, "k2", ["Anka", "Ben", "Dee"])  # `pan session new` places its seats from the entries
    assert counted, "folded again from the entries"
    assert sorted(n["session"] for n in kasia.json("player Ana")["nights"]) == ["b1", "k1", "k2"]
    counted.clear()
    sync(kasia)
    assert counted
    same_as_folded_again(kasia)
