"""`pan table`: the shell runs the same grammar as `pan`, shows what happened, completes, keeps
history, refuses typos without touching the data, and replays a file of lines."""

from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from pancli.cli import app
from pancli.cli.shell.board import prompt_text
from pancli.cli.shell.completion import completer
from pancli.cli.shell.help import help_text
from pancli.cli.shell.line import words_of
from pancli.cli.shell.prompt import error_fragments, history, history_path
from pancli.cli.shell.script import run_script
from pancli.cli.shell.table_shell import ALIASES, TableShell

from helpers import HANG, PAN, child_env, command_paths, event_count

ROOT = Path(__file__).resolve().parent.parent
TONIGHT = ROOT / "examples" / "tonight.pan"
# Final standings of the sample evening (chips; a chip is worth 0.25).
TONIGHT_NET = {"Ana": 81, "Dee": 34, "Cruz": 15, "Gus": -6, "Eli": -33, "Ben": -43, "Fay": -48}


@pytest.fixture(autouse=True)
def no_db_from_the_environment(monkeypatch):
    monkeypatch.delenv("PANCLI_DB", raising=False)


def cli(db, *words, input=None):
    return CliRunner().invoke(app, ["--db", str(db), *words], input=input, prog_name="pan")


def shell_at(db, **kw) -> TableShell:
    return TableShell(db=str(db), **kw)


def table_rows(db) -> dict:
    """Everything a command can change, without the wall-clock times."""
    conn = sqlite3.connect(db)
    try:
        return {
            "sessions": conn.execute("SELECT id, name, game, players, dealer, rules, chip_value, "
                                     "closed_at IS NOT NULL FROM sessions ORDER BY id").fetchall(),
            "events": conn.execute("SELECT id, session_id, seq, hand, kind, payload, undo_of FROM events "
                                   "ORDER BY id").fetchall(),
            "payments": conn.execute("SELECT * FROM payments ORDER BY id").fetchall(),
            "tallies": conn.execute("SELECT * FROM tallies ORDER BY id").fetchall(),
            # every database has a device id and a signing key of its own (`pan sync`)
            "settings": conn.execute("SELECT * FROM settings WHERE key NOT IN ('device_id', 'device_key') "
                                     "ORDER BY key").fetchall(),
        }
    finally:
        conn.close()


_TIME = re.compile(r"\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d(\+00:00)?)?")


def normal(text: str, db) -> str:
    return _TIME.sub("<time>", text.replace(str(db), "<db>"))


def new_table(sh: TableShell, players="Ana,Ben,Cruz,Dee") -> None:
    r = sh.execute(f"session new fri --players {players} --dealer Dee")
    assert r.ok, r.err


# -- one grammar ------------------------------------------------------------------------------

SCENARIO = [
    "session new fri --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.5",
    "session new sat --players Ana,Ben",
    "session list",
    "session use fri",
    "session show",
    "seat add Eve --after Ben",
    "seat remove Eve",
    "deal",
    "stay ana",
    "drop cruz",
    "meld ana 5s5s5s",
    "drop ben",                                  # refused: play has begun
    "add ana 5s",
    "meld ben AD 2D 3D 4D 5D 6D",
    'split ben 2 "AD 2D 3D" "4D 5D 6D"',
    "meld dee KH KS KC KD",
    "borrow dee --from 4 KD --with QD JD",
    "meld ana 8s8s8s",                           # refused: no eights in the pack
    "meld zed 5s5s5s",                           # refused: no such player
    "meld ana",                                  # refused: missing cards (a usage error)
    "deal now",                                  # refused: an argument too many
    "drop ben zed",                              # refused: the second name is nobody's
    "frob",                                      # refused: no such command
    "spread ana 5s5s5s5s 3h3h3h",
    "foul ana --meld 7",
    "dead ben",
    "board",
    "board --json",
    "undo",
    "history",
    "history --hand 1 --json",
    "standings",
    "standings --json",
    "out ana",                                   # refused: not 11 cards
    "void",
    "chop",                                      # refused: no hand in play
    "deal --dealer ana",
    "drop ben cruz dee",
    "check 5s 5s 5s",
    "db path",
    "session close",
    "session close",                             # refused: closed already
]


def test_every_line_means_the_same_in_the_shell_and_on_the_command_line(tmp_path):
    """Each line through CliRunner (`pan LINE`) and through the shell: same output, same status,
    same database afterwards; only a hint names a command without `pan` at the prompt (`pan void`
    is `void` there)."""
    import shlex

    from pancli.cli.shell.line import at_the_table

    a, b = tmp_path / "a" / "pan.db", tmp_path / "b" / "pan.db"
    a.parent.mkdir()
    b.parent.mkdir()
    via_cli = []
    for line in SCENARIO:
        r = cli(a, *shlex.split(line))
        via_cli.append((r.exit_code, at_the_table(normal(r.stdout, a)), at_the_table(normal(r.stderr, a))))
    sh = shell_at(b, board=False)
    via_shell = []
    for line in SCENARIO:
        r = sh.execute(line)
        via_shell.append((r.status, normal(r.out, b), normal(r.err, b)))
    for line, c, s in zip(SCENARIO, via_cli, via_shell):
        # The one difference allowed: a hint names help the way each place gives it.
        s = (s[0], s[1], re.sub(r"`help( [^`]*)?` lists", lambda m: f"`pan{m.group(1) or ''} -h` lists", s[2]))
        assert s == c, line
    assert sum(1 for code, _, _ in via_cli if code != 0) == 11
    assert table_rows(a) == table_rows(b)


def test_a_script_in_groups_stores_what_the_lines_one_by_one_store(tmp_path):
    """The same lines as a script (its lines sharing transactions, each refused one rolled back
    alone) leave the database the command line leaves, and refuse the same lines."""
    import shlex

    a, b = tmp_path / "a" / "pan.db", tmp_path / "b" / "pan.db"
    a.parent.mkdir()
    b.parent.mkdir()
    for line in SCENARIO:
        cli(a, *shlex.split(line))
    script = tmp_path / "night.pan"
    script.write_text("".join(f"{line}\n" for line in SCENARIO))
    r = cli(b, "table", "--script", str(script), "--keep-going")
    assert "11 lines refused." in r.stderr, r.stderr
    assert table_rows(a) == table_rows(b)


def test_a_line_refused_half_way_keeps_nothing_of_it_in_a_group(tmp_path):
    """`drop cruz cruz`: the first drop is stored inside the line's savepoint, the second is
    refused, and the group keeps neither, but keeps the lines around it."""
    db = tmp_path / "pan.db"
    sh = shell_at(db, board=False)
    new_table(sh)
    out, err = io.StringIO(), io.StringIO()
    code = run_script(sh, ["deal", "drop cruz cruz", "d dee", "m ana 5s5s5s"], keep_going=True, out=out, err=err)
    assert code == 1 and "stdin:2: drop cruz cruz" in err.getvalue()
    con = sqlite3.connect(db)
    try:
        kinds = [(k, json.loads(p).get("player")) for k, p in con.execute("SELECT kind, payload FROM events ORDER BY id")]
    finally:
        con.close()
    assert kinds == [("deal", None), ("drop", "Dee"), ("meld", "Ana")]


def commits_of(sh: TableShell, lines: list[str], **kw) -> int:
    """How many write transactions a script's lines commit, counted on the shell's own connection
    (a read's BEGIN … COMMIT is not one)."""
    statements: list[str] = []
    sh.context.open_store().conn.set_trace_callback(statements.append)
    run_script(sh, lines, out=io.StringIO(), err=io.StringIO(), **kw)
    commits, writing = 0, False
    for sql in statements:
        if sql == "BEGIN IMMEDIATE":
            writing = True
        elif sql == "COMMIT":
            commits, writing = commits + writing, False
    return commits


def test_a_script_commits_its_lines_in_groups(tmp_path, monkeypatch):
    import pancli.cli.shell.script

    # Groups end at 64 lines here, never at 50 ms, however slow the machine.
    monkeypatch.setattr(pancli.cli.shell.script, "GROUP_WAIT", 3600.0)
    db = tmp_path / "pan.db"
    sh = shell_at(db, board=False)
    new_table(sh)
    hand = ["deal", "d cruz", "m ana 5s5s5s", "a ana 5s", "m ben 7d7d7d", "m ana kh kd ks kc", "o ana 4h 4d 4c"]
    lines = hand * 20  # 140 lines, no refusal
    commits = commits_of(sh, lines)
    assert event_count(db) == 140
    assert commits == 3, f"{commits} commits for 140 lines"  # 64 + 64 + 12


def test_a_script_commits_the_lines_before_a_refused_one_and_then_goes_on(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db, board=False)
    new_table(sh)
    both = io.StringIO()  # standard output and error, in the order written
    code = run_script(sh, ["deal", "m ana 5s5s5s", "m ana 8s8s8s", "a ana 5s"], keep_going=True, out=both, err=both)
    assert code == 1
    text = both.getvalue()
    # what the accepted lines said comes before the refusal (their group was committed first)
    assert text.index("as meld 1") < text.index("stdin:3: m ana 8s8s8s") < text.index("Ana adds")
    assert event_count(db) == 3


def test_every_pan_command_is_reachable_in_the_shell_with_the_same_grammar(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db, board=False)
    paths = [p for p in command_paths(get_command(app)) if p[0] != "table"]
    assert ("meld",) in paths and ("session", "new") in paths
    for path in paths:
        c = cli(db, *path, "--help")
        with CliRunner().isolation():  # the help width CliRunner forces
            s = sh.execute(" ".join(path) + " --help")
            h = sh.execute("help " + " ".join(path))
        assert (s.status, s.out) == (c.exit_code, c.stdout), path
        assert h.out == c.stdout, path


def test_aliases_expand_to_the_commands():
    assert ALIASES == {"m": "meld", "a": "add", "d": "drop", "o": "out", "u": "undo", "b": "board", "s": "standings"}
    assert words_of("m ben 5s5s5s") == ["meld", "ben", "5s5s5s"]
    assert words_of("pan d cruz dee") == ["drop", "cruz", "dee"]
    assert words_of('split ana 1 "AD 2D 3D" "4D 5D 6D"  # a comment') == \
        ["split", "ana", "1", "AD 2D 3D", "4D 5D 6D"]


def test_aliases_record_like_the_full_commands(tmp_path):
    full, short = tmp_path / "f.db", tmp_path / "s.db"
    lines = [("deal", "deal"), ("drop cruz", "d cruz"), ("meld ana 5s5s5s", "m ana 5s5s5s"),
             ("add ana 5s", "a ana 5s"), ("undo", "u"), ("meld ben 7h7h7h", "m ben 7h7h7h")]
    for db, pick in ((full, 0), (short, 1)):
        sh = shell_at(db)
        new_table(sh)
        for pair in lines:
            assert sh.execute(pair[pick]).ok
        assert sh.execute("b").out == sh.execute("board").out
        assert sh.execute("s").out == sh.execute("standings").out
    assert table_rows(full) == table_rows(short)


# -- what the shell shows ----------------------------------------------------------------------

def test_after_every_change_the_compact_board_follows(tmp_path):
    sh = shell_at(tmp_path / "pan.db")
    new_table(sh)
    deal = sh.execute("deal")
    assert deal.changed and deal.board[0].startswith("hand 1 · Dee deals · Ana eldest")
    sh.execute("d cruz")
    r = sh.execute("m ana 5s5s5s")
    assert r.ok and r.changed
    assert "Ana melds 5♠ 5♠ 5♠ as meld 1" in r.out and "Ben, Dee pay Ana 4 each" in r.out  # payments with reasons
    assert 1 <= len(r.board) <= 3
    assert r.board[0] == "hand 1 · Dee deals · Ana eldest · tops 2 · in play"
    assert r.board[1] == "in: Ana +8 [meld 1: 5♠5♠5♠ worth 4] · Ben -4 · Dee -4 | Cruz dropped -2"
    assert r.board[2] == "night: Ana +8 · Cruz -2 · Ben -4 · Dee -4"
    assert r.text().endswith("night: Ana +8 · Cruz -2 · Ben -4 · Dee -4\n")
    look = sh.execute("b")
    assert look.ok and not look.changed and look.board == [] and "Ana" in look.out
    assert prompt_text(sh) == "fri · hand 1> "


def test_a_refused_line_changes_nothing_and_says_why(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    sh.execute("deal")
    sh.execute("m ana 5s5s5s")
    before = table_rows(db)
    refused = {
        "m ben 8s8s8s": "not in the Pan pack",
        "m zed 5s5s5s": "no player 'zed'",
        "d ben": "cannot drop: play has begun",
        "m ben 5h5h5c": "not",
        'split ana 1 "5S 5S': "no closing quotation",
        "meld ana": "Missing argument",
        "frob 1 2": "no command 'frob'",
        "a ana 7h": "cannot be added",
        "o ben": "going out needs 11",
        "table": "at the table already",
        "deal": "still being played",
    }
    for line, why in refused.items():
        r = sh.execute(line)
        assert not r.ok and not r.changed and r.board == [], line
        assert "Error" in r.err and why in r.err, line
        frags = error_fragments(r)
        assert frags[0][0] == "class:error" and frags[0][1].startswith("✗ Error")
        assert frags[-1][1].strip() == "Nothing was recorded by that line."
    assert table_rows(db) == before


def test_undo_is_one_word_away(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    sh.execute("deal")
    sh.execute("m ana 5s5s5s")
    r = sh.execute("m ben 7d7d7d")
    assert "Ben +2" in r.board[1]
    u = sh.execute("u")
    assert u.ok and u.changed and u.out.startswith("Undid #3: Ben melds 7♦ 7♦ 7♦")
    assert "voided: Ana, Cruz, Dee pay Ben 2 each" in u.out
    assert "Ben -4" in u.board[1] and "7♦" not in u.board[1]
    assert sh.execute("u").ok and sh.execute("u").ok   # the meld, then the deal
    nothing = sh.execute("u")
    assert not nothing.ok and "nothing to undo" in nothing.err


def test_help_lists_the_commands_with_their_aliases(tmp_path):
    sh = shell_at(tmp_path / "pan.db")
    text = sh.execute("help").out
    for line in ("meld (m)", "add (a)", "drop (d)", "out (o)", "undo (u)", "board (b)", "standings (s)",
                 "deal", "history", "session …", "seat …"):
        assert line in text
    assert "\n  table " not in text
    assert "Usage: pan meld" in sh.execute("help m").out


def test_quit_leaves_with_nothing_lost(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    for line in ("deal", "d cruz", "m ana 5s5s5s"):
        assert sh.execute(line).ok
    assert sh.execute("quit").quit and sh.execute("exit").quit
    assert not sh.execute("quit now").quit
    data = json.loads(cli(db, "standings", "--json").stdout)
    assert {p["name"]: p["net"] for p in data["players"]} == {"Ana": 8, "Ben": -4, "Dee": -4, "Cruz": -2}


def test_every_accepted_line_is_committed_before_the_next(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    for n, line in enumerate(("deal", "d cruz", "m ana 5s5s5s"), 1):
        assert sh.execute(line).ok
        assert event_count(db) == n  # another connection sees it at once


def test_the_shell_follows_writes_from_another_process(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    sh.execute("deal")
    other = subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), "meld", "ben", "7d7d7d"],
                           capture_output=True, text=True, cwd=ROOT)
    assert other.returncode == 0, other.stderr
    r = sh.execute("m ana 5s5s5s")
    assert r.ok and "Ben +2 [meld 1: 7♦7♦7♦ worth 2]" in r.board[1] and "Ana +10 [meld 2: 5♠5♠5♠ worth 4]" in r.board[1]


def test_a_line_reads_names_another_process_seated(tmp_path):
    """The shell keeps the session's state between lines but looks at the log again at each line:
    a name seated by another terminal since the last line makes `an` ambiguous at once."""
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    assert sh.execute("board").ok
    for words in (["seat", "add", "Anabel"], ["deal"]):
        other = subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *words],
                               capture_output=True, text=True, cwd=ROOT)
        assert other.returncode == 0, other.stderr
    r = sh.execute("m an 5s5s5s")
    assert not r.ok and "could be Ana, Anabel" in r.err
    assert event_count(db) == 2  # the seat and the deal: nothing of the refused line


def test_a_database_that_cannot_answer_is_one_line_not_a_traceback(tmp_path):
    """The look at the log a line begins with meets a connection that is gone: the line says so
    in one line and records nothing, the shell goes on."""
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    sh.context.store.conn.close()
    r = sh.execute("deal")
    assert r.status == 2 and r.err.startswith("Error: database error in ") and "nothing was recorded" in r.err
    assert "Traceback" not in r.err


def test_the_shell_follows_the_session_another_process_makes_current(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db, board=False)
    new_table(sh)
    assert sh.execute("deal").ok
    other = subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), "session", "new", "sat",
                            "--players", "Eve,Gus"], capture_output=True, text=True, cwd=ROOT)
    assert other.returncode == 0, other.stderr
    assert sh.execute("deal").ok  # recorded into sat, now the current session
    con = sqlite3.connect(db)
    try:
        assert con.execute("SELECT s.name, count(*) FROM events e JOIN sessions s ON s.id = e.session_id "
                           "GROUP BY s.name ORDER BY s.name").fetchall() == [("fri", 1), ("sat", 1)]
    finally:
        con.close()


def test_a_named_session_is_kept_while_another_is_current(tmp_path):
    db = tmp_path / "pan.db"
    assert cli(db, "session", "new", "fri", "--players", "Ana,Ben").exit_code == 0
    assert cli(db, "session", "new", "sat", "--players", "Cruz,Dee").exit_code == 0
    sh = shell_at(db, session="fr")
    assert prompt_text(sh) == "fri> "
    assert sh.execute("deal").ok and sh.execute("m ana 5s5s5s").ok
    assert json.loads(cli(db, "standings", "--json", "--session", "fri").stdout)["players"][0]["net"] == 4
    assert json.loads(cli(db, "board", "--json").stdout)["hand"] is None  # sat, the current one


# -- completion and history ------------------------------------------------------------------------

def completions(sh: TableShell, text: str) -> list[str]:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    return [c.text for c in completer(sh).get_completions(Document(text), CompleteEvent(completion_requested=True))]


def test_tab_completes_commands_players_cards_and_options(tmp_path):
    sh = shell_at(tmp_path / "pan.db")
    new_table(sh)
    sh.execute("deal")
    sh.execute("d cruz")
    sh.execute("m ana ah2h3h")
    assert completions(sh, "me") == ["meld"]
    assert completions(sh, "st") == ["stay", "standings"]
    assert "quit" in completions(sh, "") and "session" in completions(sh, "")
    assert completions(sh, "m ") == ["Ana", "Ben", "Dee"]            # who is in (Cruz dropped)
    assert completions(sh, "meld b") == ["Ben"]
    assert completions(sh, "d a") == ["Ana"]
    assert completions(sh, "drop ana ") == ["Ben", "Dee"]             # not twice
    assert completions(sh, "m ben 5") == ["5S", "5H", "5D", "5C"]
    assert completions(sh, "m ben 5s5s") == ["5s5s5s", "5s5s6S"]      # a set, or the rope goes on
    assert len(completions(sh, "m ben ")) == 40
    assert completions(sh, "a ana 4h --") == ["--to", "--help"]
    assert completions(sh, "a ana 4h --to ") == ["1"]
    assert completions(sh, "split ana ") == ["1"]
    assert completions(sh, "borrow ana --") == ["--from", "--with", "--help"]
    assert completions(sh, "deal --dealer ") == ["Ana", "Ben", "Cruz", "Dee"]
    assert completions(sh, "session ") == ["new", "list", "show", "use", "close"]
    assert completions(sh, "session use ") == ["fri"]
    assert completions(sh, "seat remove c") == ["Cruz"]
    assert completions(sh, "seat add ") == []
    assert {"session", "seat"} <= set(completions(sh, "help se"))
    assert completions(sh, "standings --session f") == ["fri"]


def test_history_is_kept_next_to_the_database(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    assert history_path(sh.db) == tmp_path / "pan.db.history"
    h = history(sh)
    h.append_string("deal")
    h.append_string("m ana 5s5s5s")
    again = history(shell_at(db))
    assert list(again.load_history_strings())[:2] == ["m ana 5s5s5s", "deal"]  # newest first


# -- scripts ---------------------------------------------------------------------------------------

def test_a_quiet_script_stores_what_a_worded_one_stores(tmp_path):
    """--quiet records without wording the lines nobody reads: every stored row (the payments'
    reasons too) is the same as when the lines are shown."""
    quiet, worded = tmp_path / "quiet.db", tmp_path / "worded.db"
    assert cli(quiet, "table", "--script", str(TONIGHT), "--quiet").exit_code == 0
    shown = cli(worded, "table", "--script", str(TONIGHT))
    assert shown.exit_code == 0 and "pays" in shown.stdout
    assert table_rows(quiet) == table_rows(worded)


def test_the_sample_evening_replays_to_its_standings(tmp_path):
    db = tmp_path / "tonight.db"
    r = cli(db, "table", "--script", str(TONIGHT), "--quiet")
    assert r.exit_code == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout.startswith("Standings · tonight")
    data = json.loads(cli(db, "standings", "--json").stdout)
    assert {p["name"]: p["net"] for p in data["players"]} == TONIGHT_NET
    assert data["sum"] == 0 and data["pools"] == {}
    ana = next(p for p in data["players"] if p["name"] == "Ana")
    assert (ana["won"], ana["money"]) == (2, "20.25")
    rows = table_rows(db)
    kinds = [e[4] for e in rows["events"]]
    assert kinds.count("deal") == 9 and kinds.count("out") == 8
    for kind in ("drop", "meld", "add", "split", "borrow", "undo", "seat_add"):
        assert kind in kinds


def test_the_sample_evening_is_a_real_evening():
    lines = [x for x in TONIGHT.read_text().splitlines() if x.strip() and not x.startswith("#")]
    assert len(lines) > 60
    players = re.search(r"--players (\S+)", lines[0]).group(1).split(",")
    assert 6 <= len(players) <= 7


def test_stdin_without_a_terminal_runs_as_a_script(tmp_path):
    db = tmp_path / "pan.db"
    proc = subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), "table"], cwd=ROOT,
                          stdin=TONIGHT.open(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Ben goes out: 4 from each payer" in proc.stdout and "Undid #" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1].startswith("└")  # the standings table ends it
    assert "Ana" in proc.stdout.split("Standings · tonight")[1]


SCRIPT = """\
# a short night
session new fri --players Ana,Ben,Cruz

deal
m ana 5s5s5s
m ben 8s8s8s
m ben 7d7d7d
"""


def test_a_script_stops_at_the_first_refused_line(tmp_path):
    db, path = tmp_path / "pan.db", tmp_path / "night.pan"
    path.write_text(SCRIPT)
    r = cli(db, "table", "--script", str(path))
    assert r.exit_code == 1
    assert f"{path}:6: m ben 8s8s8s" in r.stderr and "not in the Pan pack" in r.stderr
    assert "Stopped at line 6" in r.stderr
    assert "as meld 1" in r.stdout and "Standings · fri" in r.stdout
    assert event_count(db) == 2  # deal and Ana's meld; Ben's 7s never ran


def test_keep_going_runs_every_line_and_still_fails(tmp_path):
    db, path = tmp_path / "pan.db", tmp_path / "night.pan"
    path.write_text(SCRIPT)
    r = cli(db, "table", "--script", str(path), "--keep-going", "--quiet")
    assert r.exit_code == 1
    assert ":6: m ben 8s8s8s" in r.stderr and "1 line refused." in r.stderr
    assert "melds" not in r.stdout and r.stdout.startswith("Standings · fri")
    assert event_count(db) == 3


def test_a_script_from_stdin_via_the_runner(tmp_path):
    db = tmp_path / "pan.db"
    r = cli(db, "table", "-q", input=SCRIPT.replace("m ben 8s8s8s\n", ""))
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("Standings · fri")


def read_until(proc, text: str) -> str:
    """The child's output up to the first line holding ``text`` (HANG seconds at most)."""
    import queue
    import threading

    lines: queue.Queue = queue.Queue()

    def read():
        got = ""
        while line := proc.stdout.readline():
            got += line
            if text in line:
                break
        lines.put(got)

    threading.Thread(target=read, daemon=True).start()
    return lines.get(timeout=HANG)


def test_a_piped_line_is_reported_done_while_the_pipe_stays_open(tmp_path):
    """A line whose next line has not come is committed and reported without waiting for more
    lines or for the end of the input, and only once another connection can read it."""
    db = tmp_path / "pan.db"
    proc = subprocess.Popen([*PAN, "--db", str(db), "table", "--script", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(), cwd=ROOT)
    try:
        proc.stdin.write("session new fri --players Ana,Ben,Cruz\ndeal\n")
        proc.stdin.flush()
        assert "Hand 1" in read_until(proc, "Hand 1")
        assert event_count(db) == 1
        proc.stdin.write("m ana 5s5s5s\n")
        proc.stdin.flush()
        assert "as meld 1" in read_until(proc, "Ana melds")
        assert event_count(db) == 2
    finally:
        out, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 0, err


def test_a_missing_script_is_an_error(tmp_path):
    r = cli(tmp_path / "pan.db", "table", "--script", str(tmp_path / "nope.pan"))
    assert r.exit_code == 2 and "cannot read" in r.stderr


def test_table_on_an_unknown_session_is_refused(tmp_path):
    db = tmp_path / "pan.db"
    cli(db, "session", "new", "fri", "--players", "Ana,Ben")
    r = cli(db, "table", "sunday", "-q", input="")
    assert r.exit_code == 2 and "no session named 'sunday'" in r.stderr


def test_the_shell_does_not_load_prompt_toolkit_for_a_script(tmp_path):
    code = ("import sys; from pancli.cli import main; sys.argv = ['pan', '--db', sys.argv[1], 'table', '-q']; "
            "import atexit; atexit.register(lambda: print('PT' if 'prompt_toolkit' in sys.modules else 'no PT', "
            "file=sys.stderr)); main()")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "pan.db")], input=SCRIPT.replace(
        "m ben 8s8s8s\n", ""), capture_output=True, text=True, cwd=ROOT, env={**os.environ})
    assert proc.returncode == 0, proc.stderr
    assert "no PT" in proc.stderr


# -- redo, clear, help, the end of a hand, standard input ----------------------------------------

def test_hints_at_the_prompt_name_the_commands_as_typed_there_and_what_undo_takes_back(tmp_path):
    sh = shell_at(tmp_path / "pan.db", board=False)
    new_table(sh, "Ana,Tito,Cruz,Dee")
    assert sh.execute("deal").ok and sh.execute("drop tito").ok
    r = sh.execute("m tito 5s5s5s")
    assert "if the drop was a mistake, `undo` takes it back" in r.err and "`pan " not in r.err
    assert sh.execute("m ana 5s5s5s").ok
    r = sh.execute("m tito 5h5h5h")
    assert "`undo` takes back the last event first: the drop is 2 undos back" in r.err
    r = cli(tmp_path / "pan.db", "meld", "tito", "5h5h5h")
    assert "`pan undo` takes back the last event first" in r.stderr


def test_redo_puts_back_what_undo_took_back(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    assert sh.execute("deal").ok
    assert sh.execute("m ana 5s5s5s").ok
    assert sh.execute("m ben kh kh kh").ok
    before = cli(db, "standings", "--json").stdout
    assert sh.execute("u").ok and sh.execute("u").ok
    r = sh.execute("redo")
    assert r.ok and "Redid: Ana melds 5♠ 5♠ 5♠" in r.out and "as meld 1" in r.out
    r = sh.execute("redo")
    assert r.ok and "Ben melds K♥ K♥ K♥ as meld 2" in r.out
    assert cli(db, "standings", "--json").stdout == before
    r = sh.execute("redo")
    assert r.status == 1 and "nothing to redo" in r.err


def test_redo_is_forgotten_once_something_new_is_recorded(tmp_path):
    db = tmp_path / "pan.db"
    sh = shell_at(db)
    new_table(sh)
    assert sh.execute("deal").ok and sh.execute("m ana 5s5s5s").ok and sh.execute("u").ok
    assert sh.execute("m ben kh kh kh").ok
    r = sh.execute("redo")
    assert r.status == 1 and "nothing to redo" in r.err


def test_the_end_of_a_hand_says_who_won_what_moved_and_who_deals_next(tmp_path):
    sh = shell_at(tmp_path / "pan.db")
    new_table(sh)
    for line in ("deal", "d cruz", "m ben 5s5s5s", "a ben 5s", "m ben 2c3c4c5c"):
        assert sh.execute(line).ok, line
    r = sh.execute("o ben 6d6h6c")
    assert r.ok, r.err
    text = "".join(r.board)
    assert "Hand 1 is over: won by Ben." in text
    assert "Moved this hand: Ben +" in text and "Cruz -2" in text
    assert "Next hand: Ana deals, Ben is eldest" in text
    assert not any("is over" in x for x in sh.execute("b").board)  # only when the hand ends


def test_clear_and_help_are_the_shells_own(tmp_path):
    sh = shell_at(tmp_path / "pan.db")
    assert sh.execute("clear").clear
    r = sh.execute("help out")
    whole = "Go out: checks the 11-card layout and pays the settlement (base, conditions again, tops)."
    assert r.ok and whole in " ".join(r.out.split())
    assert all(len(line) <= 80 for line in help_text(sh, width=80).splitlines())


def test_help_in_a_script_prints_the_list(tmp_path):
    r = cli(tmp_path / "pan.db", "table", "--script", "-", input="help\n")
    assert r.exit_code == 0 and "Commands (the same as `pan COMMAND`" in r.stdout


def test_standard_input_that_is_not_a_terminal_is_explained(tmp_path):
    r = cli(tmp_path / "pan.db", "table", input="")
    assert r.exit_code == 0
    assert r.stderr.strip() == ("pan table: standard input is not a terminal, so its lines are run as a script "
                                "(`pan table --help` explains).")
    assert cli(tmp_path / "pan.db", "table", "-q", input="").stderr == ""
