"""`pan history` as a host reads it: the last few events, one player's, one hand's; one line an
event when piped; a pager on a terminal only when the history does not fit the window."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pancli.cli import app
from pancli.cli.commands.after_game.history import placed

from helpers import Pan, as_from_a_terminal, run_sql

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("history") / "pan.db"
    script = (ROOT / "examples" / "tonight.pan").read_text(encoding="utf-8")
    r = CliRunner().invoke(app, ["--db", str(db), "table", "--quiet"], input=script)
    assert r.exit_code == 0, r.output
    return db


def events(pan: Pan, line: str) -> list[dict]:
    return pan.json(line)["events"]


def test_last_player_and_hand_pick_the_events(evening):
    pan = Pan(evening)
    every = events(pan, "history")
    assert [e["seq"] for e in events(pan, "history --last 3")] == [e["seq"] for e in every[-3:]]
    assert events(pan, "history --last 0") == []
    gus = events(pan, "history --player gus")
    assert gus and all("Gus" in str(e["payload"]) for e in gus)
    assert not [e for e in gus if e["kind"] == "deal" and e["payload"].get("dealer") != "Gus"]  # seats do not count
    assert {e["hand"] for e in events(pan, "history --hand 2 --player ana --last 2")} == {2}
    assert len(events(pan, "history --hand 2 --player ana --last 2")) == 2
    shown = pan("history --player ana --last 2").stdout
    assert shown.count("#") >= 2 and all("Ana" in x for x in shown.splitlines() if x.startswith("#"))


def test_a_mistyped_player_or_count_is_one_line(evening):
    pan = Pan(evening)
    r = pan("history --player zed", code=2)
    assert r.stderr == "Error: no player 'zed' in this session: players: Ana, Ben, Cruz, Gus, Dee, Eli, Fay\n"
    assert pan("history --last many", code=2).stderr.startswith("Error: many is not a number of events")
    assert pan("history --hand 1 --player gus").stdout == "No events about Gus in hand 1.\n"


def test_piped_history_is_one_line_an_event_for_grep(evening):
    r = CliRunner(env={"COLUMNS": "60"}).invoke(app, ["--db", str(evening), "history"])
    lines = r.stdout.splitlines()
    assert any(len(x) > 60 for x in lines)  # not wrapped to the width
    payments = [x for x in lines if x.startswith("        ")]
    assert payments and all(" pay" in x for x in payments)  # a wrapped line would start without one
    assert any(x.startswith("#") and "Ana melds A♦ 2♦ 3♦ 4♦ 5♦ 6♦" in x for x in lines)


def on_a_terminal(args: list[str], env: dict, rows: int, columns: int = 100) -> tuple[int, str]:
    """Run pan on a pseudo-terminal of the given size; its exit status and what the screen showed."""
    import fcntl
    import pty
    import select
    import struct
    import subprocess
    import termios

    from helpers import HANG

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "pancli", *args], stdin=slave, stdout=slave, stderr=slave,
                            env=env, cwd=ROOT, start_new_session=True, preexec_fn=as_from_a_terminal)
    os.close(slave)
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], HANG)
            if not ready:
                break
            try:
                data = os.read(master, 65536)
            except OSError:  # the terminal closed: pan ended
                break
            if not data:
                break
            seen += data
        code = proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return code, seen.decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize(("rows", "paged"), [(10, True), (200, False)])
def test_a_pager_on_a_terminal_only_when_the_history_does_not_fit(evening, tmp_path, rows, paged):
    pager_saw = tmp_path / "paged.txt"
    env = {**os.environ, "TERM": "xterm", "PAGER": f"cat > {pager_saw}"}
    for var in ("COLUMNS", "LINES", "MANPAGER"):
        env.pop(var, None)
    code, screen = on_a_terminal(["--db", str(evening), "history", "--hand", "2"], env, rows)
    assert code == 0, screen
    assert pager_saw.exists() == paged
    if paged:
        assert "Ana melds A♦ 2♦ 3♦ 4♦ 5♦ 6♦" in pager_saw.read_text(encoding="utf-8")
        assert "meld Ana" not in screen
    else:
        assert "Ana melds A♦ 2♦ 3♦ 4♦ 5♦ 6♦" in screen
    code, screen = on_a_terminal(["--db", str(evening), "history", "--hand", "2", "--no-pager"], env, 10)
    assert code == 0 and "Ana melds A♦ 2♦ 3♦ 4♦ 5♦ 6♦" in screen


def test_history_reads_the_night_a_page_at_a_time_and_says_what_its_json_says(evening, monkeypatch):
    """Piped, `pan history` streams: it reads the log a page of events at a time (memory flat in
    the night's length) and writes each event as it is read, in the words `--json` gives."""
    from pancli.app import history_stream
    from pancli.storage.log import EventLog

    said = events(Pan(evening), "history")
    monkeypatch.setattr(history_stream, "PAGE", 7)
    read: list[int] = []
    whole = EventLog.stored_events

    def paged(self, session_id, first_seq=1, last_seq=None, **kw):
        got = whole(self, session_id, first_seq, last_seq, **kw)
        read.append(len(got))
        return got

    monkeypatch.setattr(EventLog, "stored_events", paged)
    r = CliRunner().invoke(app, ["--lang", "en", "--db", str(evening), "history"])
    assert r.exit_code == 0, r.output
    assert len(said) > 7 and read and max(read) <= 7
    heads = [x for x in r.stdout.splitlines() if x.startswith("#")]
    assert [int(x[1:].split()[0]) for x in heads] == [e["seq"] for e in said]
    assert all(x.removesuffix(" (undone)").endswith(" " + e["text"]) for x, e in zip(heads, said))
    assert sum(x.endswith(" (undone)") for x in heads) == sum(e["voided"] for e in said) > 0


@pytest.mark.parametrize("words", ["#{seq} hand {hand} {event}", "{event} {{#}} {seq}/{hand}",
                                   "#{seq}: {hand} {event} {seq}"])
def test_a_history_line_filled_by_place_says_what_its_named_words_say(words):
    by_place = placed(words)
    assert by_place is not None
    for seq, hand, event in ((7, 2, "Ana drops"), (12345, None, "{x} pays"), (3, 100, "")):
        assert by_place.format(seq, hand or "-", event) == words.format(
            seq=f"{seq:<4}", hand=f"{hand or '-':<3}", event=event)


@pytest.mark.parametrize("words", ["#{seq!r} {hand} {event}", "#{seq:>5} {hand} {event}", "{who} {event}",
                                   "#{seq.real} {event}", "{0} {event}", "#{seq"])
def test_a_history_line_with_other_fields_is_filled_by_name(words):
    assert placed(words) is None


@pytest.mark.parametrize("edit", ["json_remove(payload, '$.hand')", "json_set(payload, '$.hand', json('null'))",
                                  "json_set(payload, '$.hand', 'one')"])
def test_a_deal_stored_without_its_hand_number_is_refused_in_one_line_pointing_to_db_check(tmp_path, edit):
    pan = Pan(tmp_path / "pan.db")
    pan("session new fri --players Ana,Ben,Cruz")
    for line in ("deal", "drop cruz", "meld ana 5S 5S 5S"):
        pan(line)
    run_sql(pan.db, f"UPDATE events SET payload = {edit} WHERE kind = 'deal'")  # a hand-edited database
    refused = ["Error: event #1 (deal) cannot be replayed: its stored payload has no valid 'hand': run `pan db check`"]
    assert pan("history --player ana", code=1).output.strip().splitlines() == refused
    assert pan("standings", code=1).output.strip().splitlines() == refused
    assert pan("deal", code=1).output.strip().splitlines() == refused
    # the whole history still reads; and `pan db check` names the event
    assert "Ana melds 5♠ 5♠ 5♠" in pan("history").output
    checked = pan("db check", ok=False)
    assert checked.exit_code != 0 and "event #1 (deal)" in checked.output and "Traceback" not in checked.output
