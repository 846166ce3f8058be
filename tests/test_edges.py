"""Trust at the edges: names, text shown to people, money, numbers, files and foreign databases.

Each test here is one promise a hostile user once broke."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from pancli.storage.store import Store

from helpers import Pan, db_dump, pan_in_process, run_sql


def run(pan: Pan, *words: str, code: int | None = None):
    """`pan WORDS…` with the words exactly as given (control characters and all)."""
    result = pan_in_process(pan.db, list(words), ok=False)
    if code is not None:
        assert result.exit_code == code, f"pan {words!r} exited {result.exit_code}: {result.output}"
    return result


BAD = "\x1b[31m\u202e\x9b"  # an escape sequence, a bidirectional override, a C1 control


def hidden_in(text: str) -> list[str]:
    return [ch for ch in text if not ch.isprintable() and ch != "\n"]


# -- names ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, why", [
    ("Ana,\x1b[2JBen", "control"), ("Ana,Be\u200bn", "invisible"), ("Ana,Ben\u202e", "invisible"),
    ("Ana,B\x85en", "control"), ("Ana,B\x7fen", "control"), ("Ana,ana", "looks the same"),
    ("Ana,A\u200dna", "invisible"), ("Ana," + "x" * 41, "at most 40"), ("Ana,B\tx", "control"),
])
def test_player_names_are_refused_in_one_line(pan, players, why):
    r = run(pan, "session", "new", "fri", "--players", players, code=2)
    assert why in r.output and len(r.output.strip().splitlines()) == 1
    assert "\x1b" not in r.output and "\u202e" not in r.output


def test_names_are_normalised_and_session_names_checked(pan):
    pan("session new '  fri  ' --players ' Ana , Jose\u0301 ,Ben'")
    assert [p["name"] for p in pan.json("standings")["players"]] == ["Ana", "Jos\u00e9", "Ben"]
    assert pan.json("session show")["name"] == "fri"
    r = run(pan, "session", "new", "a\nb", "--players", "A,B", code=2)
    assert "control" in r.output
    pan("session new " + "s" * 81 + " --players A,B", code=2)
    pan("seat add 'ana'", code=2)
    r = run(pan, "seat", "add", "A\u00adna", code=2)
    assert "invisible" in r.output
    pan("seat add Dee")
    assert "Dee" in pan("standings").output


# -- text shown to people ---------------------------------------------------------------------

def test_markup_in_a_name_is_shown_literally_everywhere(pan, tmp_path):
    pan("session new '[bold]fri' --players '[/red]Ben,[green]Ana,Cruz' --chip-value 0.25")
    pan("deal")
    drop = pan("drop '[/'")
    assert "[/red]Ben drops" in drop.output
    for line in ("standings", "board", "history", "report", "settle", "sessions", "session list", "player '[/red]'"):
        out = pan(line).output
        assert "[/red]Ben" in out, line
    assert "[bold]fri" in pan("standings").output


def _old_database_with_bad_names(path) -> None:
    """A database an older pancli wrote, when any name was taken."""
    from pancli.games import game

    store = Store(path, create=True)
    g = game("panguingue")
    with store.lock():
        sid = store.create_session(f"fri{BAD}", g.name, [f"Ben{BAD}", "Ana"], None,
                                   g.rules_to_dict(g.schema.defaults), 0.25)
        store.set_setting("current_session", str(sid))
    store.close()


def test_text_from_an_old_database_is_made_inert(tmp_path):
    db = tmp_path / "old.db"
    _old_database_with_bad_names(db)
    pan = Pan(db)
    pan("deal")
    pan("drop ben")
    for line in ("standings", "board", "history", "report", "settle", "sessions", "session list", "session show",
                 "undo", "db check"):
        out = pan(line).output
        assert not hidden_in(out), (line, out)
    for line in ("standings", "history", "settle", "report", "sessions"):
        text = pan(line + " --json").stdout
        assert not hidden_in(text), line
        assert "\\u001b" in text and "\\u202e" in text and "\\u009b" in text, line
        json.loads(text)  # still JSON, and the names read back exactly
    assert f"Ben{BAD}" in [p["name"] for p in pan.json("standings")["players"]]


def test_a_printable_text_holds_no_hidden_character():
    """inert shows a printable text as it is: no code point is both printable and hidden."""
    from pancli.core.names import hidden_char, inert

    both = [cp for cp in range(0x110000) if chr(cp).isprintable() == hidden_char(chr(cp))]
    assert both == []
    assert inert("Ana 5♠ 5♥ · +3") == "Ana 5♠ 5♥ · +3"
    assert inert("Ben\u200b") == "Ben\\u200b"


# -- money --------------------------------------------------------------------------------------

def one_line_error(result) -> str:
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "-0.25", "0", "1e300", "1e-9", "abc", "Infinity"])
def test_a_chip_value_is_a_finite_positive_decimal_from_every_entry(pan, tmp_path, value):
    run(pan, "session", "new", "a", "--players", "A,B", "--chip-value", value, code=2)
    pan("session new ok --players A,B --chip-value 0.25")
    before = db_dump(pan.db)
    one_line_error(run(pan, "settle", "--chip-value", value, code=2))
    toml_value = {"Infinity": "inf", "abc": '"abc"', "1e300": "1e300"}.get(value, value)
    if value != "0":  # unit_value = 0 in a rules file means: no money
        rules = tmp_path / "r.toml"
        rules.write_text(f"unit_value = {toml_value}\n")
        one_line_error(run(pan, "session", "new", "b", "--players", "A,B", "--rules", str(rules), code=2))
    assert db_dump(pan.db) == before


def test_settle_rounds_to_the_cent_and_the_check_line_is_true(pan):
    # 0.0125 a chip: +14, -4, -2, -10 (the bank), +2 (the tops) are 17.5, -5, -2.5, -12.5, 2.5 cents
    pan("session new fri --players Ana,Ben,Cruz --chip-value 0.0125")
    pan("buyin ana 10")
    pan("deal")
    pan("drop cruz")
    pan("meld ana 5S 5S 5S")
    data = pan.json("settle")
    assert data["chip_value"] == "0.0125"
    money = {p["name"]: Decimal(p["money"]) for p in data["parties"]}
    assert sum(money.values()) == 0
    for p in data["parties"]:
        assert abs(Decimal(p["money"]) - Decimal(p["balance"]) * Decimal("0.0125")) < Decimal("0.01")
    left = dict(money)
    for t in data["transfers"]:
        assert isinstance(t["money"], str) and Decimal(t["money"]) == Decimal(t["money"]).quantize(Decimal("0.01"))
        left[t["payer"]] += Decimal(t["money"])
        left[t["payee"]] -= Decimal(t["money"])
    assert not any(left.values()), "the payments do not square everyone to the cent"
    assert "Infinity" not in pan("settle --json").stdout and "NaN" not in pan("settle --json").stdout
    assert "everyone is square" in pan("settle").output


@given(st.dictionaries(st.sampled_from("ABCDEFG"), st.integers(-10**9, 10**9), min_size=1),
       st.decimals(min_value=Decimal("0.0001"), max_value=Decimal(1000), places=4))
def test_settle_in_cents_squares_everyone_exactly(nets, value):
    from pancli.core.settle import settle

    nets = dict(nets)
    nets["(tops)"] = -sum(nets.values())
    s = settle(nets, None, value)
    assert s.square()
    assert sum(p.cents for p in s.parties) == 0
    for p in s.parties:
        assert abs(Decimal(p.cents) - Decimal(p.balance) * value * 100) < 1
    assert len(s.transfers) <= max(len(s.parties) - 1, 0)


# -- numbers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, says", [
    ("buyin ana -50", "-50 is not a number of chips"),
    ("cashout ana -1", "-1 is not a number of chips"),
    ("buyin ana 99999999999999999999999", "is not a number of chips"),
    ("buyin ana 1000000001", "is not a number of chips"),
    ("buyin ana 2.5", "2.5 is not a number of chips"),
    ("buyin ana -inf", "-inf is not a number of chips"),
    ("history --hand -1", "-1 is not a hand number"),
    ("history --hand 99999999999999999999999", "is not a hand number"),
    ("rescore --hand x --preset hoyle", "x is not a hand number"),
    ("add ana 5S --to -3", "--to takes a meld number"),
    ("split ana -1 'AS 2S 3S'", "takes a meld number, not '-1'"),
    ("clock --minutes abc", "--minutes"),
    ("polish deal-sizes -3", "-3 is not a number of players"),
])
def test_every_number_option_says_so_in_one_line(pan, line, says):
    pan("session new fri --players Ana,Ben,Cruz")
    pan("deal")
    before = db_dump(pan.db)
    err = one_line_error(pan(line, code=2))
    assert says in err
    assert db_dump(pan.db) == before


def test_contract_points_refuse_a_negative_number(pan):
    pan("session new tue --game contract --players Ana,Ben")
    assert "-5 is not a number of points" in one_line_error(pan("contract left ana --points -5", code=2))


# -- files --------------------------------------------------------------------------------------

WRITERS = ["report --svg {}", "report --html {}", "export -o {}", "export -f json -o {}", "rules init {}"]


def played(pan) -> None:
    pan("session new fri --players Ana,Ben,Cruz --chip-value 0.25")
    pan("deal")
    pan("meld ana 5S 5S 5S")


def _db_files(db) -> dict:
    return {p.name: p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name)}


@pytest.mark.parametrize("writer", WRITERS + ["report --xlsx {}", "db backup {}"])
def test_no_command_writes_over_the_database_however_it_is_named(pan, tmp_path, monkeypatch, writer):
    import os

    played(pan)
    db = tmp_path / "pan.db"
    (tmp_path / "sub").mkdir()
    os.symlink(db, tmp_path / "link.db")
    os.link(db, tmp_path / "hard.db")
    os.symlink(tmp_path / "pan.db-wal", tmp_path / "wal-link")
    monkeypatch.chdir(tmp_path / "sub")
    before = db_dump(db)
    for target in ["../pan.db", str(db), "../link.db", "../hard.db", "../sub/../pan.db", "../pan.db-wal",
                   "../pan.db-shm", "../wal-link"]:
        for force in ("", " --force"):
            r = pan(writer.format(target) + force, code=2)
            assert "database" in one_line_error(r), (writer, target)
    assert db_dump(db) == before
    assert "OK" in pan("db check").output


@pytest.mark.parametrize("writer", WRITERS + ["report --xlsx {}", "db backup {}"])
def test_an_existing_file_is_replaced_only_with_force(pan, tmp_path, writer):
    played(pan)
    target = tmp_path / "keep.txt"
    target.write_text("precious")
    assert "already exists" in one_line_error(pan(writer.format(target), code=2))
    assert target.read_text() == "precious"
    pan(writer.format(target) + " --force")
    assert target.read_bytes() != b"precious" if "backup" not in writer else target.read_bytes()[:6] == b"SQLite"


@pytest.mark.parametrize("writer", WRITERS + ["report --csv {}", "report --xlsx {}", "db backup {}"])
def test_a_path_that_is_not_a_regular_file_is_refused_even_with_force(pan, tmp_path, writer):
    """Renaming a file over a device, a pipe or a socket replaces it (as root, even /dev/full):
    every command that writes a file refuses such a path in one line, --force or not."""
    import os
    import stat

    played(pan)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    os.symlink(fifo, tmp_path / "to-pipe")
    for target in (fifo, tmp_path / "to-pipe"):
        for force in ("", " --force"):
            msg = one_line_error(pan(writer.format(target) + force, code=2))
            assert f"{target} is a named pipe, not a file" in msg, msg
            assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the pipe, not a file put there
    assert not [p for p in os.listdir(tmp_path) if ".partial-" in p]


def test_restore_refuses_a_named_pipe_as_its_output_even_with_force(tmp_path):
    """`pan restore -o` checks its output as every writer does (before Litestream is needed)."""
    import os

    from pancli.app.replicate import restore_target
    from pancli.core.errors import InputError

    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is a named pipe, not a file"):
        restore_target(str(fifo), tmp_path / "pan.db", force=True)


def test_a_dash_is_still_the_standard_output_with_force(pan):
    played(pan)
    assert pan("export -o - --force").output.startswith("# pancli session archive")


def test_a_killed_writers_partial_file_is_removed_by_the_next_write(pan, tmp_path):
    import subprocess
    import sys

    played(pan)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".fri.toml.partial-{int(dead.stdout)}"
    stale.write_text("half an archive")
    pan(f"export -o {tmp_path / 'fri.toml'}")
    assert not stale.exists()
    assert not [p for p in tmp_path.iterdir() if ".partial-" in p.name]
    pan(f"rules init {tmp_path / 'house.toml'}")
    pan(f"report --svg {tmp_path / 'r.svg'}")
    assert not [p for p in tmp_path.iterdir() if ".partial-" in p.name]


# A writer in another process, holding its temporary file until its standard input closes.
PARTIAL_WRITER = """
import sys
from pathlib import Path
from pancli.app.files import write_atomic
def fill(partial):
    partial.write_text("half an archive")
    print(partial, flush=True)
    sys.stdin.read()
write_atomic(Path(sys.argv[1]), fill)
"""


@pytest.mark.parametrize("platform", ["posix", "windows"])
def test_a_live_writers_partial_is_left_alone_and_no_process_is_signalled(tmp_path, monkeypatch, platform):
    """Whether a temporary file's writer is alive is asked of the lock it holds, never with
    os.kill (on Windows, os.kill(pid, 0) ends the process); the Windows path runs on a stand-in
    msvcrt made of POSIX locks (helpers.FakeMsvcrt)."""
    import subprocess
    import sys

    from pancli.app.files import remove_stale_partials

    from helpers import HANG, as_on_windows, child_env

    writer = subprocess.Popen([sys.executable, "-c", PARTIAL_WRITER, str(tmp_path / "fri.toml")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=child_env())
    try:
        partial = Path(writer.stdout.readline().strip())
        assert partial.read_text() == "half an archive"
        signalled: list[int] = []

        def clean_up() -> None:
            with monkeypatch.context() as m:
                if platform == "windows":
                    as_on_windows(m)
                m.setattr("os.kill", lambda pid, sig: signalled.append(pid))
                remove_stale_partials(tmp_path)

        clean_up()
        assert partial.exists(), "a live writer's file was removed"
        writer.kill()
        writer.wait(timeout=HANG)
        clean_up()
        assert not signalled, "the clean-up signalled a process"
        assert not [p for p in tmp_path.iterdir() if ".partial-" in p.name], "a killed writer's file stayed"
    finally:
        if writer.poll() is None:
            writer.kill()


def test_a_partial_named_for_a_pid_now_used_by_another_process_is_removed(pan, tmp_path):
    """A process id is reused: the file's writer is gone though a process of that id lives."""
    import os

    played(pan)
    stale = tmp_path / f".fri.toml.partial-{os.getppid()}"
    stale.write_text("half an archive")
    pan(f"export -o {tmp_path / 'fri.toml'}")
    assert not stale.exists()


def test_no_command_writes_over_another_databases_wal_or_lock_file(pan, tmp_path):
    from helpers import run_sql

    played(pan)
    other = tmp_path / "other.db"
    run_sql(other, "PRAGMA journal_mode = WAL", "CREATE TABLE t (x)")
    for suffix in ("-wal", "-shm", "-journal", ".lock"):
        target = tmp_path / f"other.db{suffix}"
        msg = one_line_error(pan(f"export -o {target} --force", code=2))
        assert f"is the {suffix} file of the database {other}" in msg
        assert not target.exists() or suffix in ("-wal", "-shm")
    assert "is the database's pan.db.lock file" in one_line_error(pan(f"export -o {tmp_path / 'pan.db.lock'}", code=2))


def test_a_name_too_long_for_the_file_system_is_one_line(pan, tmp_path):
    played(pan)
    for writer in WRITERS:
        one_line_error(pan(writer.format(tmp_path / ("x" * 300 + ".txt")), code=2))


def test_default_export_paths_are_distinct_and_readable(pan, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = ["a/b", "a b", "a:b", "a-b", "..", ".", "Пятница", "金曜日", "a\\b", "fri"]
    for n in names:
        run(pan, "session", "new", n, "--players", "A,B", code=0)
        run(pan, "export", n, code=0)
    files = sorted(p.name for p in (tmp_path / "sessions").iterdir())
    assert len(files) == len(names)
    assert {"Пятница.toml", "金曜日.toml", "fri.toml", "a-b.toml"} <= set(files)
    assert all(p.startswith(("a-b~", "session~", "a-b.", "Пят", "金", "fri")) for p in files), files


# -- a closed or broken standard output ------------------------------------------------------

def test_a_closed_or_broken_standard_output_shows_no_traceback(tmp_path):
    import subprocess

    from helpers import HANG, PAN, Pan, child_env

    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new fri --players Ana,Ben,Cruz")
    for _ in range(40):  # enough history that the output outlasts a pipe's buffer
        pan("deal")
        pan("void")
    base = " ".join([*PAN, "--db", str(db)])
    for line in ("history", "history --json", "report", "standings", "export -o -", "rules show"):
        piped = subprocess.run(f"{base} {line} | head -c1 >/dev/null", shell=True, capture_output=True,
                               text=True, env=child_env(), timeout=HANG)
        closed = subprocess.run(f"{base} {line} >&-", shell=True, capture_output=True, text=True,
                                env=child_env(), timeout=HANG)
        for r in (piped, closed):
            assert "Traceback" not in r.stderr and "Exception" not in r.stderr, (line, r.stderr)
            assert r.stderr == "", (line, r.stderr)  # a reader that went away is no error


def test_any_other_os_error_is_one_line_naming_the_path_never_silent(tmp_path):
    """pan's top level once took every OSError for a closed standard output and exited 1 with
    nothing said."""
    import subprocess

    from helpers import HANG, PAN, Pan, child_env

    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new fri --players Ana,Ben,Cruz")
    pan("deal")
    too_long = tmp_path / ("x" * 300 + ".db")
    r = subprocess.run([*PAN, "--db", str(too_long), "standings"], capture_output=True, text=True,
                       env=child_env(), timeout=HANG)
    assert r.returncode == 2 and r.stdout == ""
    [line] = r.stderr.splitlines()
    assert line.startswith(f"Error: cannot use {too_long}: File name too long"), line
    for words in (["history"], ["standings", "--json"], ["session", "list"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([*PAN, "--db", str(db), *words], stdout=full, stderr=subprocess.PIPE, text=True,
                               env=child_env(), timeout=HANG)
        assert r.returncode == 2, (words, r.stderr)
        assert r.stderr == "Error: cannot write to standard output (/dev/full): No space left on device\n", words


# -- malformed archives ------------------------------------------------------------------------

from pathlib import Path  # noqa: E402

from hypothesis import HealthCheck  # noqa: E402

ARCHIVES = Path(__file__).parent / "fixtures" / "v0_1" / "archives"


def _imported_or_refused(db, path) -> str:
    """Import an archive: whole (exit 0), or exit 2 with one line and the database unchanged."""
    from helpers import pan_in_process

    before = db_dump(db)
    r = pan_in_process(db, ["import", str(path), "--json"], ok=False)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    if r.exit_code == 0:
        return "imported"
    assert r.exit_code == 2, r.output
    one_line_error(r)
    assert db_dump(db) == before, "a refused import changed the database"
    return "refused"


def _mutations():
    def paths(node, at=()):
        yield at
        if isinstance(node, dict):
            for k, v in node.items():
                yield from paths(v, at + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from paths(v, at + (i,))
    return paths


REPLACEMENTS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.sampled_from([2**63, -2**63 - 1, 10**30, 0, -1]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.sampled_from(["", "\x1b[2J", "[/red]x", "5S", "Ana", "a" * 5000]),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.recursive(st.integers(), lambda c: st.lists(c, max_size=2), max_leaves=3),
)


MUTATION = dict(derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
ARCHIVE_NAMES = st.sampled_from(sorted(p.name for p in ARCHIVES.glob("*.json")))


@settings(max_examples=60, **MUTATION)
@given(name=ARCHIVE_NAMES, data=st.data())
def test_mutated_archives_are_imported_whole_or_refused_in_one_line(tmp_path_factory, name, data):
    mutate_and_import(tmp_path_factory, name, data)


@pytest.mark.slow
@settings(max_examples=400, **MUTATION)
@given(name=ARCHIVE_NAMES, data=st.data())
def test_many_mutated_archives(tmp_path_factory, name, data):
    mutate_and_import(tmp_path_factory, name, data)


def mutate_and_import(tmp_path_factory, name, data):
    original = json.loads((ARCHIVES / name).read_text(encoding="utf-8"))
    doc = json.loads(json.dumps(original))
    every = list(_mutations()(doc))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.sampled_from(every[1:]))
        parent = doc
        try:
            for k in at[:-1]:
                parent = parent[k]
            action = data.draw(st.sampled_from(["replace", "delete", "nest", "number"]))
            if action == "delete":
                del parent[at[-1]]
            elif action == "nest":
                parent[at[-1]] = [[[[[[[[parent[at[-1]]]]]]]]]]
            elif action == "number":
                parent[at[-1]] = data.draw(st.sampled_from([10**19, -10**19, 1.5, float("inf"), -7]))
            else:
                parent[at[-1]] = data.draw(REPLACEMENTS)
        except (KeyError, IndexError, TypeError):
            continue
    folder = tmp_path_factory.mktemp("m")
    path = folder / "a.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    db = folder / "pan.db"
    Pan(db)("session new other --players X,Y")
    _imported_or_refused(db, path)


@pytest.mark.parametrize("content", [
    b"\x00\x01\x02binary", b"\xff\xfe\xfa not utf-8", b"[" * 100_000, b"{" + b'"a":[' * 50_000,
    b"a = " + b"[" * 100_000, b'format = "pancli-archive"\nversion = 1\n[session]\nname = 5\n',
])
def test_broken_archive_files_give_one_line(tmp_path, content):
    path = tmp_path / "a.toml"
    path.write_bytes(content)
    db = tmp_path / "pan.db"
    Pan(db)("session new fri --players A,B")
    assert _imported_or_refused(db, path) == "refused"
    assert _imported_or_refused(db, tmp_path / ("x" * 300 + ".toml")) == "refused"
    assert _imported_or_refused(db, tmp_path) == "refused"


def test_an_archive_with_wrong_types_is_refused_before_replay(tmp_path):
    doc = json.loads((ARCHIVES / "friday.json").read_text(encoding="utf-8"))
    db = tmp_path / "pan.db"
    Pan(db)("session new x --players A,B")
    for change in (lambda d: d["events"][2]["payload"].__setitem__("cards", 5),
                   lambda d: d["events"][2]["payload"].__setitem__("player", ["x"]),
                   lambda d: d["session"].__setitem__("chip_value", 1e300),
                   lambda d: d["session"].__setitem__("seats", ["A\x1b[2J", "B"]),
                   lambda d: d["events"][1].__setitem__("hand", "one")):
        bad = json.loads(json.dumps(doc))
        change(bad)
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        assert _imported_or_refused(db, path) == "refused"


# -- other programs' databases -----------------------------------------------------------------

def _foreign_databases(tmp_path) -> list:
    plain = tmp_path / "notes.db"
    run_sql(plain, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",
            "INSERT INTO notes (text) VALUES ('keep me')")
    other = tmp_path / "other-sqlite-utils.db"  # another program that also uses sqlite-utils migrations
    run_sql(other, "CREATE TABLE _sqlite_migrations (id INTEGER PRIMARY KEY, migration_set TEXT, name TEXT, "
                   "applied_at TEXT)",
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('theirs', 'm001', 'x')",
            "CREATE TABLE things (id INTEGER PRIMARY KEY)")
    return [plain, other]


READERS = ["standings", "sessions", "session list", "history", "report", "settle", "db status", "db check",
           "board", "player ana", "export -o -", "undo", "deal", "seat add Eve", "buyin ana 5"]


def test_another_programs_database_is_never_changed(tmp_path):
    for db in _foreign_databases(tmp_path):
        before = db.read_bytes()
        pan = Pan(db)
        for line in READERS + ["session new fri --players Ana,Ben", f"import {ARCHIVES / 'friday.toml'}"]:
            r = pan(line, ok=False)
            assert r.exit_code == 2, (db.name, line, r.output)
            one_line_error(r)
            assert db.read_bytes() == before, (db.name, line)
        assert not Path(str(db) + "-wal").exists() or Path(str(db) + "-wal").stat().st_size == 0


def test_a_new_database_is_made_only_by_session_new_or_import(tmp_path):
    for line in READERS:
        db = tmp_path / "new.db"
        r = Pan(db)(line, ok=False)
        assert r.exit_code == 2 and not db.exists(), line
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    Pan(empty)("standings", code=2)
    assert empty.read_bytes() == b""
    Pan(empty)("session new fri --players Ana,Ben")
    Pan(tmp_path / "imported.db")(f"import {ARCHIVES / 'friday.toml'}")
