"""The roster's listing compared with what the host remembers of each file (club_files), without
a row of every file made in Python: each rule of what is read again still holds (a file replaced
by a copy, one removed, one refused, a listing cut short), and the basis of the kept entries,
joined by SQLite, is the one a database synced before holds (sha256 of the sorted digests), so
such a database takes up its fold instead of folding again."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

from pancli.app import club as club_app, club_held, club_read
from pancli.core import signing
from pancli.storage.club import ClubQueries

from club_hosts import (
    device,
    folds,
    opened,
    quick_settling as quick_settling,  # noqa: F401, PLC0414 the fixture
    settle,
    settled_sync,
    sync,
    three as three,  # noqa: F401, PLC0414 the fixture
)


def rows(pan) -> dict[str, tuple]:
    con = sqlite3.connect(pan.db)
    try:
        return {r[0]: r[1:] for r in con.execute("SELECT path, size, mtime_ns, digest, refusal, ctime_ns, ino "
                                                 "FROM club_files")}
    finally:
        con.close()


def held_basis(pan) -> str:
    con = sqlite3.connect(pan.db)
    try:
        return json.loads(con.execute("SELECT summary FROM club_state").fetchone()[0])["basis"]
    finally:
        con.close()


def entry_of(folder: Path, pan, name: bytes) -> Path:
    return next(p for p in sorted((folder / device(pan) / "club").glob("*.json")) if name in p.read_bytes())


def test_the_kept_entries_basis_is_the_sha256_of_their_sorted_digests_as_a_database_synced_before_holds(three,
                                                                                                        monkeypatch):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    ana = entry_of(folder, ben, b'"Ana"')
    shutil.copy2(ana, ana.with_name(ana.stem + ".sync-conflict-20261207-ABCDEFG.json"))  # the same entry twice
    settled_sync(kasia, folder)
    remembered = rows(kasia)
    digests = [r[2] for r in remembered.values() if r[2] is not None]
    assert len(digests) == len(set(digests)) + 1  # one digest in two files: counted once
    as_before = club_held.basis(digests)  # what the code before kept: Python's sort of every digest
    assert held_basis(kasia) == as_before
    store = club_app.Store(kasia.db)
    try:
        read = club_read.read_folder(folder, store)
        assert read.kept == len(remembered) and not read.entries and not read.read and not read.gone
        assert read.basis() == as_before
        assert read.basis(["f" * 64, digests[0]]) == club_held.basis([*digests, "f" * 64])
        assert club_held._held(store)[1] is not None  # `pan session new`: the fold held is taken up
    finally:
        store.close()
    counted = folds(monkeypatch)
    sync(kasia)
    assert counted == []  # taken up, not folded again from every entry


def test_a_held_fold_whose_basis_differs_is_folded_again(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    settled_sync(kasia, folder)
    con = sqlite3.connect(kasia.db)
    summary = json.loads(con.execute("SELECT summary FROM club_state").fetchone()[0])
    con.execute("UPDATE club_state SET summary = ?", [json.dumps({**summary, "basis": "0" * 64})])
    con.commit()
    con.close()
    counted = folds(monkeypatch)
    sync(kasia)
    assert counted == [len(rows(kasia))]  # every entry, from what was remembered
    assert held_basis(kasia) == summary["basis"]


def test_a_file_replaced_by_a_copy_is_read_again_and_kept_without_verifying_it_again(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    settled_sync(kasia, folder)
    ana = entry_of(folder, ben, b'"Ana"')
    before = rows(kasia)[str(ana)]
    copy = ana.with_name(".copy")
    shutil.copy2(ana, copy)  # the same bytes, size and mtime; another inode
    copy.replace(ana)
    assert ana.stat().st_ino != before[5] and ana.stat().st_mtime_ns == before[1]
    seen = opened(monkeypatch)
    verified: list[str] = []
    real = signing.verify
    monkeypatch.setattr(signing, "verify", lambda *a: (a[2] != signing.CLUB or verified.append(a[0])) and real(*a))
    counted = folds(monkeypatch)
    settle(folder)
    sync(kasia)
    assert [p for p in seen if "/club/" in p] == [str(ana)]
    assert verified == [] and counted == []  # the signed line remembered: the held fold taken up
    assert rows(kasia)[str(ana)][5] == ana.stat().st_ino  # remembered as it is now
    seen.clear()
    sync(kasia)
    assert [p for p in seen if "/club/" in p] == []


def test_a_removed_entry_file_is_forgotten_and_stops_counting(three):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    ben("club add Bo")
    settled_sync(kasia, folder)
    assert sorted(p["name"] for p in kasia.json("club show")["persons"]) == ["Ana", "Bo"]
    bo = entry_of(folder, ben, b'"Bo"')
    bo.unlink()
    sync(kasia)
    assert str(bo) not in rows(kasia)
    assert [p["name"] for p in kasia.json("club show")["persons"]] == ["Ana"]


def test_a_refused_file_is_read_every_time_and_remembered_once(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    bad = folder / device(ben) / "club" / "00000099.json"
    bad.write_bytes(b'{"not": "signed"}\n')
    settle(folder)
    kasia(f"sync {folder}", code=1)
    settle(folder)
    kasia(f"sync {folder}", code=1)
    assert rows(kasia)[str(bad)][3] == "club.unsigned"
    seen = opened(monkeypatch)
    store = club_app.Store(kasia.db)
    try:
        _roster, read = club_app.roster_of(store)
    finally:
        store.close()
    assert [r.code for r in read.refused] == ["club.unsigned"]
    assert [p for p in seen if "/club/" in p] == [str(bad)]  # read again
    assert read.read == []  # as remembered: not written again


def test_a_listing_cut_short_forgets_nothing_after_it(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    ben("club add Bo")
    settled_sync(kasia, folder)
    remembered = rows(kasia)
    monkeypatch.setattr(club_read, "MAX_FILES", 2)
    store = club_app.Store(kasia.db)
    try:
        read = club_read.read_folder(folder, store)
    finally:
        store.close()
    assert read.refused[-1].code == "club.too_many" and read.gone == []
    assert read.kept == 2 and len(remembered) > 2
    assert len(read.but) == len(remembered) - 2  # the files after the cut are not kept either


def test_a_file_gone_between_listing_and_reading_is_neither_kept_nor_forgotten(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    settled_sync(kasia, folder)
    ana = entry_of(folder, ben, b'"Ana"')
    os.utime(ana)  # changed: to be read
    real = club_read.read_bytes

    def taken_away(path, limit):
        if Path(path) == ana:
            raise FileNotFoundError(path)
        return real(path, limit)

    monkeypatch.setattr(club_read, "read_bytes", taken_away)
    store = club_app.Store(kasia.db)
    try:
        read = club_read.read_folder(folder, store)
    finally:
        store.close()
    assert str(ana) in read.but and str(ana) not in read.gone and not read.entries


def test_every_entry_after_the_new_ones_were_remembered_holds_each_once(three):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    settled_sync(kasia, folder)
    ben("club add Bo")  # new to kasia: read, then remembered by roster_of
    store = club_app.Store(kasia.db)
    try:
        _roster, read = club_app.roster_of(store)
        assert [e.data["name"] for e in read.entries] == ["Bo"]
        digests = [e.digest for e in read.every_entry()]  # as a command writing an entry folds them after
    finally:
        store.close()
    assert sorted(digests) == sorted(r[2] for r in rows(kasia).values() if r[2] is not None)


def compared(monkeypatch) -> list[str]:
    """The paths of every remembered file a sync compares with the listing, file by file."""
    got: list[str] = []
    real_in, real_all = ClubQueries.seen_in, ClubQueries.seen

    def seen_in(self, folder, after):
        rows = real_in(self, folder, after)
        got.extend(r[0] for r in rows)
        return rows

    def seen(self):
        rows = real_all(self)
        got.extend(r[0] for r in rows)
        return rows

    monkeypatch.setattr(ClubQueries, "seen_in", seen_in)
    monkeypatch.setattr(ClubQueries, "seen", seen)
    return got


def test_a_roster_folder_that_only_grew_is_compared_by_its_new_files(three, monkeypatch):
    folder, kasia, ben, _cruz = three
    for name in ("Ana", "Bo", "Cy", "Di"):
        ben(f"club add {name}")
    settled_sync(kasia, folder)
    ben("club alias Ana Anka")
    got = compared(monkeypatch)
    sync(kasia)
    assert got == []  # the new entry is beyond every file remembered: none compared one by one
    assert "Anka" in next(p for p in kasia.json("club show")["persons"] if p["name"] == "Ana")["aliases"]
    # a file of the run edited in place (the same size and mtime): the folder is compared file by file
    settle(folder)
    sync(kasia)
    bo = entry_of(folder, ben, b'"Bo"')
    st = bo.stat()
    bo.write_bytes(bo.read_bytes().replace(b'"Bo"', b'"Al"'))
    os.utime(bo, ns=(st.st_atime_ns, st.st_mtime_ns))
    got.clear()
    out = kasia(f"sync {folder}", code=1).output
    assert str(bo) in got and "signature does not hold" in out
    assert "Bo" not in [p["name"] for p in kasia.json("club show")["persons"]]


def test_a_remembered_file_of_no_folder_kept_is_compared_and_forgotten_when_gone(three):
    """A database synced before folders were kept as runs (club_folders empty), or a roster folder
    gone as a whole: every remembered file is compared, and those no longer there are forgotten."""
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    settled_sync(kasia, folder)
    con = sqlite3.connect(kasia.db)
    con.execute("DELETE FROM club_folders")
    con.commit()
    con.close()
    sync(kasia)
    assert len(rows(kasia)) == len(list(folder.glob("*/club/*.json")))
    shutil.rmtree(folder / device(ben) / "club")  # ben's roster folder gone as a whole
    assert sync(kasia)["club"]["entries"] == 2  # kasia's own: the club and ben's grant
    assert not [p for p in rows(kasia) if device(ben) in p]
    assert kasia.json("club show")["persons"] == []
    con = sqlite3.connect(kasia.db)
    try:
        folders = [r[0] for r in con.execute("SELECT path FROM club_folders")]
    finally:
        con.close()
    assert not [p for p in folders if device(ben) in p]
