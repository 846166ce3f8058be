"""The club across three hosts and one folder: one person whatever was typed at the seat, two
Anas kept two, a merge and its unmerge giving back the figures from before, head-to-head equal to
the payments in the archives, and every hostile roster file refused in one line."""

from __future__ import annotations

import json
import os
import tomllib

from pancli.core import club, signing
from pancli.core.words import signed

from club_hosts import (
    device,
    everyone_synced,
    night,
    sync,
    three as three,  # noqa: F401, PLC0414 the fixture
    unseen,
    write_signed,
)
from helpers import Pan, sql_value


def test_three_spellings_on_three_hosts_are_one_person_in_player_season_and_versus(three):
    folder, kasia, ben, cruz = three
    ben("club add Ana --alias ana --alias 'Anna K.'")
    everyone_synced(kasia, ben, cruz)
    cruz("club join " + json.loads(kasia("club show --json").stdout)["club"][:8])
    for pan in (kasia, ben, cruz):
        career = pan.json("player ana")
        assert career["person"] and career["sessions"] == 3, career
        season = {r["name"]: r for r in pan.json("standings --season all")["players"]}
        assert season["Ana"]["nights"] == 3 and "ana" not in season and "Anna K." not in season
    assert kasia.json("player 'anna k.'") == ben.json("player Ana") == cruz.json("player ana")


def test_two_anas_stay_two_and_a_merge_and_its_unmerge_give_back_the_figures(three):
    folder, kasia, ben, cruz = three
    kasia("club add Ana")
    kasia("club add 'Anna K.'")
    everyone_synced(kasia, ben, cruz)
    before = {pan.db: (pan.json("player Ana"), pan.json("standings --season all")) for pan in (kasia, ben, cruz)}
    assert before[kasia.db][0]["sessions"] == 2  # "Ana" and "ana"; Anna K. is another person
    kasia("club merge Ana 'Anna K.'")
    everyone_synced(kasia, ben, cruz)
    assert cruz.json("player Ana")["sessions"] == 3
    ben("club unmerge Ana 'Anna K.'")
    everyone_synced(kasia, ben, cruz)
    after = {pan.db: (pan.json("player Ana"), pan.json("standings --season all")) for pan in (kasia, ben, cruz)}
    assert after == before


def test_a_merge_of_two_people_who_sat_at_one_table_is_refused_in_one_line(three):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana")
    kasia("club add Dee")
    r = kasia("club merge Ana Dee", code=2)
    assert "sat at the same table in k1" in r.output and len(r.output.strip().splitlines()) <= 2


def test_versus_equals_the_payments_between_the_two_in_the_archives(three):
    folder, kasia, ben, cruz = three
    ben("club add Ana --alias ana --alias 'Anna K.'")
    ben("club add Ben")
    everyone_synced(kasia, ben, cruz)
    got = kasia.json("versus Ana Ben")
    # independently: every archive in the folder, every effective payment between the two's seats
    expected, nights = 0, 0
    for path in folder.glob("*/*.toml"):
        text = path.read_text(encoding="utf-8").split("\n# signature:")[0]
        archive = tomllib.loads(text)
        voided = {e["undo_of"] for e in archive["events"] if "undo_of" in e}
        players = [p.casefold() for p in archive["session"]["seats"]]
        if not {"ana", "anna k."} & set(players):
            continue
        nights += 1
        for e in archive["events"]:
            if e["seq"] in voided:
                continue
            for p in e.get("payments", []):
                payer, payee = p["payer"].casefold(), p["payee"].casefold()
                if payer in ("ana", "anna k.") and payee == "ben":
                    expected -= p["chips"]
                elif payee in ("ana", "anna k.") and payer == "ben":
                    expected += p["chips"]
    assert got["nights"] == nights == 3
    assert got["net"] == expected and sum(got["by_kind"].values()) == expected
    assert expected != 0
    # night by night, each night dated as the reader's language dates it
    year, month, day = got["sessions"][0]["date"].split("-")
    assert f"\n  {int(day)}.{int(month)}.{year} {got['sessions'][0]['session']}: " in kasia("--lang pl versus Ana Ben").output
    # the record against each regular opponent, in `pan player`: Ben, met on three nights; Dee,
    # Eve and Fay (one night each) not yet regulars
    career = kasia.json("player Ana")
    assert [(r["name"], r["nights"], r["net"]) for r in career["opponents"]] == [("Ben", 3, expected)]
    shown = kasia("player ana").output
    record = " ".join(shown.split()).split("Against regular opponents (from 3 nights together)")[1]
    assert "Ben" in record and signed(expected) in record and "Eve" not in record
    # and on the player's page, the same record
    import warnings

    from pancli.web.app import create_app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    with TestClient(create_app(kasia.db, "tok")) as c:
        page = c.get("/player/Ana", params={"token": "tok"}).text
    h2h = page.split("Head-to-head")[-1]
    assert "<td class=\"l\">Ben</td><td>3</td>" in h2h and signed(expected) in h2h and "Eve" not in h2h


def test_a_seat_typed_with_an_alias_counts_for_the_person_from_session_new(three):
    folder, kasia, ben, _cruz = three
    ben("club add Ana --alias Anka")
    sync(kasia)
    night(kasia, "k2", ["Anka", "Ben", "Dee"])
    # k1's "Ana", b1's "ana" and k2's "Anka", no sync needed
    # (nights of one second are in the order of their devices' ids: any order of k1 and b1 here)
    assert sorted(n["session"] for n in kasia.json("player Ana")["nights"]) == ["b1", "k1", "k2"]


def test_two_registrars_giving_one_seat_to_two_people_is_shown_both_sides(three):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana")
    kasia("club add 'Ana B.'")
    sync(ben)
    kasia("club attribute Ana --session b1 --seat ana")
    with unseen(folder, kasia):
        ben("club attribute 'Ana B.' --session b1 --seat ana")
    out = kasia(f"sync {folder}", code=1).output
    line = next(x for x in out.splitlines() if "The seat ana of" in x)
    assert "Ana" in line and "Ana B." in line and "entry" in line
    shown = kasia.json("club show")
    assert [c["code"] for c in shown["conflicts"]] == ["club.seat_twice"]


# -- hostile roster files ------------------------------------------------------------------------


def roster_now(pan: Pan) -> dict:
    shown = pan.json("club show")
    return {k: shown[k] for k in ("registrars", "persons", "merges")}


def test_hostile_roster_files_are_refused_in_one_line_and_change_nothing(three):
    folder, kasia, ben, _cruz = three
    kasia("club add Ana")
    before = roster_now(kasia)
    club_id = json.loads(kasia("club show --json").stdout)["club"]
    ben_seed = bytes.fromhex(sql_value(ben.db, "SELECT value FROM settings WHERE key = 'device_key'"))
    ben_id = device(ben)
    # a device never granted: its own key, its own folder
    stranger_seed = os.urandom(32)
    stranger_key = signing.public_key(stranger_seed)
    stranger = signing.device_id_of(stranger_key)
    base = {"v": 1, "club": club_id, "key": stranger_key, "by": stranger, "seq": 1, "prev": None, "seen": {},
            "at": "2026-12-07T10:00:00Z"}
    write_signed(folder, {**base, "kind": "add", "person": "e" * 32, "name": "Mallory"}, stranger_seed)
    # a registrar's entry that would rewrite a session (a field no entry has), properly signed
    ben_key = signing.public_key(ben_seed)
    write_signed(folder, {**base, "by": ben_id, "key": ben_key, "kind": "add", "person": "f" * 32, "name": "X",
                          "events": [{"kind": "out"}]}, ben_seed)
    # duplicate keys, an oversized file, a link, an entry edited after it was signed
    dup = folder / ben_id / "club" / "00000002.json"
    dup.write_bytes(b'{"v":1,"v":1}\n# signature: ed25519 ' + b"0" * 128 + b"\n")
    (folder / stranger / "club" / "00000002.json").write_bytes(b"{" + b" " * (club.MAX_ENTRY_BYTES + 500))
    (folder / stranger / "club" / "00000003.json").symlink_to(dup)
    kasia_id = device(kasia)
    added = next(p for p in (folder / kasia_id / "club").glob("*.json") if b'"Ana"' in p.read_bytes())
    stat = added.stat()
    added.write_bytes(added.read_bytes().replace(b'"Ana"', b'"Eve"'))
    os.utime(added, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same size and time: still seen
    r = kasia(f"sync {folder}", code=1)
    refused = [x for x in r.output.splitlines() if x.startswith("Refused")]
    assert len(refused) >= 5, r.output
    whys = " ".join(refused)
    for said in ("never made a registrar", "a field a roster entry never has", "not a roster entry",
                 "larger than a roster entry", "signature does not hold"):
        assert said in whys, (said, r.output)
    after = roster_now(kasia)
    # the edited entry no longer counts, so Ana is gone from what the folder proves; nothing else moved
    assert after["registrars"] == before["registrars"]
    assert not any(p["name"] in ("Mallory", "X", "Eve") for p in after["persons"])


def test_who_may_write_the_roster_is_said_of_this_device_by_name_in_one_line(three):
    folder, kasia, ben, cruz = three
    said = cruz("club add Zed", code=2).output
    assert said.startswith("Error: this device (cruz) is not a registrar of the club Friday club: ") \
        and "`pan club grant cruz` on their own device" in said and said.count("\n") == 1, said
    assert "is a registrar of the club already" in kasia("club grant ben", code=2).output
    assert "cannot revoke itself" in kasia("club revoke kasia", code=2).output
    sync(cruz)
    kasia("club grant cruz")
    sync(cruz)
    assert kasia("club revoke cruz").output == "Revoked: cruz; it had written no entries.\n"
    assert "cruz was revoked as registrar already" in kasia("club revoke cruz", code=2).output
    sync(cruz)
    assert "this device (cruz) is no longer a registrar" in cruz("club add Zed", code=2).output
    assert [p["name"] for p in kasia.json("club show")["persons"]] == []  # nothing refused was written


def test_a_name_that_already_means_someone_is_given_again_only_as_shared(three):
    folder, kasia, ben, cruz = three
    kasia("club add Ana --alias 'Anna K.'")
    sync(kasia)
    before = kasia.json("player Ana")
    said = kasia("club add Ana", code=2).output
    assert said.startswith("Error: Ana is already a name of Ana (") and "`--shared`" in said, said
    assert "already a name of Ana" in ben("club add 'Ana B.' --alias 'anna k.'", code=2).output
    assert "nothing to do" in kasia("club alias Ana ANA", code=2).output  # hers already, in any case
    assert [p["name"] for p in kasia.json("club show")["persons"]] == ["Ana"]  # nothing refused was written
    ben("club add 'Ana B.'")
    said = ben("club alias 'Ana B.' Ana --shared").output
    assert " ".join(said.split()) == ("Ana is a name of Ana B. too: a seat typed so counts for nobody until "
                                      "`pan club attribute` says who sat there."), said
    assert max(map(len, said.splitlines())) <= 80, said
    everyone_synced(kasia, ben, cruz)
    # "Ana" names two people now: said, never guessed. Each registrar's host reads it as its own
    # alias says (names resolve this host's aliases first); on Cruz's, the seats typed "Ana" and
    # "ana" count for neither, and the one typed "Anna K." stays Ana's
    said = cruz("player Ana", code=2).output
    assert "may be any of: " in said and "Ana B. (" in said and "Ana (" in said, said
    ana, ana_b = before["person"], kasia.json("player 'Ana B.'")["person"]
    assert kasia.json(f"player {ana}") == before and cruz.json(f"player {ana}")["sessions"] == 1
    assert ben.json(f"player {ana_b}")["sessions"] == 2
    # and said where the seats are counted: each seat in `pan club show`, a count in the season
    shown = cruz.json("club show")["ambiguous"]
    assert sorted((a["session"], a["seat"].lower(), sorted(p["name"] for p in a["persons"])) for a in shown) == \
        [("b1", "ana", ["Ana", "Ana B."]), ("k1", "ana", ["Ana", "Ana B."])]
    assert "The seat Ana of k1 may be any of: " in " ".join(cruz("club show").output.split())
    assert cruz.json("standings --season all")["ambiguous"] == 2
    assert "2 seats may be more than one person of the club" in cruz("standings --season all").output
    assert "ambiguous" not in kasia.json("standings --season all") and not kasia.json("club show")["ambiguous"]
    for session in ("k1", "b1"):  # a registrar says who sat there, once, for every host
        kasia(f"club attribute {ana} --session {session} --seat Ana")
    everyone_synced(kasia, ben, cruz)
    assert kasia.json(f"player {ana}") == ben.json(f"player {ana}") == cruz.json(f"player {ana}") == before
    assert not cruz.json("club show")["ambiguous"] and "ambiguous" not in cruz.json("ratings")


def test_retiring_twice_and_undoing_a_merge_never_made_are_refused_by_name(three):
    folder, kasia, ben, cruz = three
    kasia("club add Ana")
    kasia("club add Eve")
    kasia("club retire Ana")
    entries = kasia.json("club show")["entries"]
    assert "Ana is retired already: nothing to do" in kasia("club retire Ana", code=2).output
    assert "no merge of Ana and Eve to undo" in kasia("club unmerge Ana Eve", code=2).output
    assert kasia.json("club show")["entries"] == entries


def test_a_revoked_registrars_later_entries_do_not_count(three):
    folder, kasia, ben, _cruz = three
    ben("club add Ana")
    sync(kasia)
    kasia("club revoke ben")
    with unseen(folder, kasia):
        ben("club add Zed")  # ben has not seen the revocation yet
    assert "had been revoked" in ben(f"sync {folder}", code=1).output  # said on ben's host too
    out = kasia(f"sync {folder}", code=1).output
    assert "had been revoked" in out
    names = [p["name"] for p in kasia.json("club show")["persons"]]
    assert names == ["Ana"]


def test_a_host_without_a_club_reads_everything_as_before(tmp_path):
    pan = Pan(tmp_path / "p.db")
    night(pan, "n1", ["Ana", "Ben", "Dee"])
    career = pan.json("player ana")
    assert "person" not in career and career["player"] == "Ana"
    r = pan("club show", code=2)
    assert "no folder given" in r.output or "no club" in r.output
