"""`pan sessions` and `pan session list` mark a session brought in by `pan sync` from another
device: read-only here, and the device it is recorded on named."""

from __future__ import annotations

import json

from helpers import pan_in_process as pan, synced


def wide(db, line):
    from typer.testing import CliRunner

    from pancli.cli import app

    return CliRunner(env={"COLUMNS": "200"}).invoke(app, ["--db", str(db), *line.split()]).stdout


def test_sessions_marks_the_other_devices_session_read_only_and_names_the_device(tmp_path):
    db = synced(tmp_path)
    text = wide(db, "sessions")
    [row] = [x for x in text.splitlines() if "friday@ana-laptop" in x]
    assert "friday@ana-laptop (read-only, from ana-laptop)" in row
    [own] = [x for x in text.splitlines() if "friday " in x and "@" not in x]
    assert "read-only" not in own
    assert ("A session from another device is read-only here: it is recorded on that device, and "
            "`pan sync` brings its new events.") in text
    rows = json.loads(pan(db, "sessions --json").output)
    assert [(r["name"], r["recorded_here"], r["device_label"]) for r in rows] == [
        ("friday", True, "ben-laptop"), ("friday@ana-laptop", False, "ana-laptop")]


def test_session_list_marks_it_too(tmp_path):
    db = synced(tmp_path)
    lines = wide(db, "session list").splitlines()
    assert lines[0] == "* friday  panguingue  " + lines[0].split("  ")[2] + "  Ben, Cruz, Dee"
    assert lines[1].endswith("  Ana, Ben, Cruz (recorded on ana-laptop, read-only here)")
    rows = json.loads(pan(db, "session list --json").output)
    assert [(r["name"], r["recorded_here"], r["device_label"]) for r in rows] == [
        ("friday", True, "ben-laptop"), ("friday@ana-laptop", False, "ana-laptop")]
    assert all(len(r["device"]) == 32 for r in rows)


def test_a_database_of_one_device_has_no_such_marks(tmp_path):
    db = tmp_path / "p.db"
    pan(db, "session new friday --players Ana,Ben")
    assert "read-only" not in wide(db, "sessions") + wide(db, "session list")
