"""What `pan import` trusts: an archive is hostile until it is checked (issue 31)."""

import shutil
from pathlib import Path

import pytest

from helpers import db_dump, pan_in_process as pan, peak_mb, run_sql, sql_value

MAIN = Path(__file__).parent / "fixtures" / "main_9347d07"


def refused_in_one_line(db, path) -> str:
    before = db_dump(db)
    result = pan(db, ["import", str(path)], ok=False)
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and lines[0].startswith("Error: ") and "Traceback" not in result.output, result.output
    assert db_dump(db) == before  # nothing stored
    return result.output


# -- a JSON archive with a key twice in one table ---------------------------------------------

def _twice(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("where, old, new", [
    ("header", '  "name": "warsaw",\n', '  "name": "warsaw",\n  "name": "krakow",\n'),
    ("event", '   "hand": 1,\n', '   "hand": 1,\n   "hand": 2,\n'),
    ("payload", '    "loser": "Piotr"', '    "loser": "Ola",\n    "loser": "Piotr"'),
])
@pytest.mark.parametrize("layout", ["as written", "on one line"])
def test_a_json_archive_with_a_key_twice_is_refused(tmp_path, where, old, new, layout):
    text = _twice((MAIN / "exports" / "warsaw.json").read_text(encoding="utf-8"), old, new)
    if layout == "on one line":  # not the writer's layout: read whole
        text = text.replace("\n", " ")
    path = tmp_path / "warsaw.json"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "p.db"
    pan(db, "session new other --players A,B")
    said = refused_in_one_line(db, path)
    assert "twice" in said, said


def test_a_json_archive_with_each_key_once_imports(tmp_path):
    db = tmp_path / "p.db"
    assert "Imported session warsaw" in pan(db, ["import", str(MAIN / "exports" / "warsaw.json")]).output


# -- an archive of another device's session -----------------------------------------------------

def two_devices(tmp_path):
    """Ana records friday and syncs; Ben brings it in; Ana records on and syncs again."""
    ana, ben, folder = tmp_path / "ana.db", tmp_path / "ben.db", tmp_path / "folder"
    for line in ["session new friday --players Ana,Ben,Cruz --dealer Cruz", "deal", "meld ana 5S 5S 5S",
                 f"sync {folder} --create --device-name ana"]:
        pan(ana, line)
    pan(ben, "session new monday --players Ben,Cruz")
    pan(ben, f"sync {folder} --device-name ben")
    for line in ["add ana 5S", f"sync {folder}"]:
        pan(ana, line)
    signed = next(folder.glob("*/friday--*.toml"))
    return ana, ben, signed


def events_of(db, session: str = "friday") -> int:
    return sql_value(db, f"SELECT count(*) FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.name = '{session}'")


def test_an_unsigned_archive_does_not_extend_another_devices_session(tmp_path):
    ana, ben, _ = two_devices(tmp_path)
    exported = tmp_path / "friday.toml"
    pan(ana, f"export friday -o {exported}")
    said = refused_in_one_line(ben, exported)
    assert "ana" in said and "sign" in said and "--as" in said, said
    assert events_of(ben) == 2


def test_an_archive_whose_signature_no_longer_holds_does_not_extend_it(tmp_path):
    ana, ben, signed = two_devices(tmp_path)
    text = signed.read_text(encoding="utf-8")
    broken = tmp_path / "friday.toml"
    broken.write_text(text.replace('device_label = "ana"', 'device_label = "anna"'), encoding="utf-8")
    said = refused_in_one_line(ben, broken)
    assert "sign" in said, said
    assert events_of(ben) == 2


def test_an_archive_signed_by_another_key_does_not_extend_it(tmp_path):
    """Mallory signs Ana's session with her own key: the signature holds, but it is not Ana's."""
    ana, ben, signed = two_devices(tmp_path)
    mallory, theirs = tmp_path / "mallory.db", tmp_path / "theirs"
    shutil.copyfile(ana, mallory)  # Ana's session, and so her device id and global ids ...
    run_sql(mallory, "UPDATE settings SET value = lower(hex(randomblob(32))) WHERE key = 'device_key'")
    pan(mallory, f"sync {theirs} --create")  # ... written out under another key
    forged = next(theirs.glob("*/friday--*.toml"))
    said = refused_in_one_line(ben, forged)
    assert "sign" in said, said
    assert events_of(ben) == 2


def test_the_devices_own_signed_file_extends_its_session(tmp_path):
    ana, ben, signed = two_devices(tmp_path)
    out = pan(ben, ["import", str(signed)]).output
    assert "friday" in out
    assert events_of(ben) == 3
    pan(ben, "db check")


def test_an_unsigned_archive_of_another_devices_session_comes_in_as_a_copy_under_a_new_name(tmp_path):
    ana, ben, _ = two_devices(tmp_path)
    exported = tmp_path / "friday.toml"
    pan(ana, f"export friday -o {exported}")
    pan(ben, ["import", str(exported), "--as", "friday-copy"])
    assert events_of(ben) == 2
    assert events_of(ben, "friday-copy") == 3


def test_an_unsigned_archive_that_changes_nothing_is_present(tmp_path):
    """The same or an older copy changes nothing: no proof is asked of it."""
    ana, ben, _ = two_devices(tmp_path)
    older = tmp_path / "older.toml"
    pan(ben, f"export friday -o {older}")
    assert pan(ben, ["import", str(older)]).exit_code == 0
    assert events_of(ben) == 2


# -- a night of bank events and no hands, in bounded memory -----------------------------------

def bank_archive(n: int, undos: int) -> dict:
    """n buy-ins and cash-outs and no hand, the last ``undos`` of them undone one after another."""
    from pancli.app import archive
    from pancli.app.rulesfile import resolve
    from pancli.games import game

    players = ["Ana", "Ben", "Cruz", "Dee"]
    events: list[dict] = []
    for i in range(n):
        kind = "cashout" if i % 5 == 4 else "buyin"
        events.append({"seq": i + 1, "hand": None, "kind": kind, "created_at": "2026-01-01T20:00:00+00:00",
                       "undo_of": None, "payload": {"kind": kind, "player": players[i % 4], "chips": 1 + i % 9},
                       "payments": []})
    for k in range(undos):
        target = n - k
        events.append({"seq": len(events) + 1, "hand": None, "kind": "undo", "created_at": "2026-01-01T21:00:00+00:00",
                       "undo_of": target, "payload": {"kind": "undo", "undid": events[target - 1]["kind"],
                                                      "seq": target}, "payments": []})
    rules = game("panguingue").rules_to_dict(resolve(None, None, "panguingue"))
    return {"format": archive.FORMAT, "version": archive.VERSION,
            "session": {"name": "cashier", "game": "panguingue", "created_at": "2026-01-01T20:00:00+00:00",
                        "seats": players, "dealer": None, "chip_value": None, "closed_at": None},
            "rules": rules, "events": events}


def bank_totals(n: int, undos: int) -> dict[str, dict[str, int]]:
    players = ["Ana", "Ben", "Cruz", "Dee"]
    out: dict[str, dict[str, int]] = {}
    for i in range(n - undos):
        kind = "cashout" if i % 5 == 4 else "buyin"
        row = out.setdefault(players[i % 4], {})
        row[kind] = row.get(kind, 0) + 1 + i % 9
    return out


def stored_bank_totals(db) -> dict[str, dict[str, int]]:
    import sqlite3

    con = sqlite3.connect(db)
    try:
        out: dict[str, dict[str, int]] = {}
        for player, stat, amount in con.execute("SELECT player, stat, amount FROM totals WHERE amount != 0"):
            out.setdefault(player, {})[stat] = amount
        return out
    finally:
        con.close()


@pytest.mark.parametrize("window", [3, 8, 64])
@pytest.mark.parametrize("n, undos", [(40, 0), (40, 12), (40, 40), (7, 7)])
def test_bank_events_past_the_window_are_undone_as_the_whole_replay_undoes_them(tmp_path, monkeypatch,
                                                                                   window, n, undos):
    from pancli.app import archive, archive_import, replay

    monkeypatch.setattr(replay, "WINDOW", window)
    monkeypatch.setattr(archive_import, "_BATCH", 5)
    path = tmp_path / "cashier.toml"
    path.write_text(archive.to_toml(bank_archive(n, undos)), encoding="utf-8")
    db = tmp_path / "p.db"
    assert "Imported session cashier" in pan(db, ["import", str(path)]).output
    assert stored_bank_totals(db) == bank_totals(n, undos)
    pan(db, "db check --full")


def test_an_undo_of_a_bank_event_past_the_window_that_is_not_the_last_is_refused(tmp_path, monkeypatch):
    from pancli.app import archive, replay

    monkeypatch.setattr(replay, "WINDOW", 4)
    data = bank_archive(30, 3)
    data["events"][-1]["undo_of"] = data["events"][-1]["payload"]["seq"] = 5  # not the last effective one
    path = tmp_path / "cashier.toml"
    path.write_text(archive.to_toml(data), encoding="utf-8")
    db = tmp_path / "p.db"
    pan(db, "session new other --players A,B")
    said = refused_in_one_line(db, path)
    assert "#5 is not the last effective event" in said, said


@pytest.mark.slow
def test_a_session_of_200000_bank_events_and_no_hand_imports_in_bounded_memory(tmp_path):
    """Issue 31: it peaked at 275 MB, holding every event (no deal ever ends a window); bounded
    as hands are, it stays within the memory of a long night's hand (the goal: under 100 MB)."""
    from pancli.app import archive

    n, undos = 200_000, 1_500
    path = tmp_path / "cashier.toml"
    path.write_text(archive.to_toml(bank_archive(n, undos)), encoding="utf-8")
    db = tmp_path / "p.db"
    peak = peak_mb(db, "import", str(path))
    assert stored_bank_totals(db) == bank_totals(n, undos)
    assert peak < 100, peak
