"""What several test files share: running `pan` (in this process or as a process), database
digests, the crash-consistency check and the worked-example loop. Test files import from here and
from the support modules beside it (tests/club_hosts.py, tests/dealer_page.py, ...), never from
one another (tests/test_architecture.py holds them to it)."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import signal
import socket
import sqlite3
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from typer.testing import CliRunner

from pancli.app.recorder import Recorder
from pancli.app.views import board_json
from pancli.cli import app
from pancli.core.bank import apply_event
from pancli.core.rows import Session
from pancli.games import game
from pancli.storage.store import Store

runner = CliRunner()


def db_dump(path) -> str:
    """A digest of every row of every table: equal digests mean the database did not change."""
    con = sqlite3.connect(path)
    try:
        return hashlib.sha256("\n".join(con.iterdump()).encode()).hexdigest()
    finally:
        con.close()


def history_digest(path) -> str:
    """A digest of the history a database holds: its sessions, events, payments, tallies and
    running totals (not its settings, nor the devices it has met). A column a migration added
    that holds nothing (a session's currency and house language, m012) is left out, so a database
    from before it digests the same after the upgrade."""
    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    added = ("currency", "language")
    try:
        rows = [repr(tuple(v for k, v in zip(r.keys(), tuple(r)) if not (k in added and v is None)))
                for table in ("sessions", "events", "payments", "tallies", "totals", "hand_totals")
                for r in con.execute(f"SELECT * FROM {table} ORDER BY 1, 2")]
        return hashlib.sha256("\n".join(rows).encode()).hexdigest()
    finally:
        con.close()


def pan_in_process(db, line, ok=True):
    """One `pan` command in-process on a database, as a fresh process would see it."""
    result = runner.invoke(app, ["--db", str(db)] + (shlex.split(line) if isinstance(line, str) else list(line)))
    if ok:
        assert result.exit_code == 0, f"pan {line}: {result.output}"
    return result


class Pan:
    """Runs `pan` commands in-process against one temporary database."""

    def __init__(self, db):
        self.db = str(db)
        self.runner = CliRunner()

    def __call__(self, line: str, ok: bool = True, code: int | None = None):
        result = self.runner.invoke(app, ["--db", self.db, *shlex.split(line)])
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        if code is not None:
            assert result.exit_code == code, f"`pan {line}` exited {result.exit_code}: {result.output}"
        elif ok:
            assert result.exit_code == 0, f"`pan {line}` failed: {result.output}"
        return result

    def json(self, line: str):
        return json.loads(self(line + " --json").stdout)

    def nets(self) -> dict:
        return {p["name"]: p["net"] for p in self.json("standings")["players"]}


def synced(tmp_path):
    """Ben's database holding Ben's friday and Ana's friday, brought in from ana-laptop."""
    ana, ben, shared = tmp_path / "ana.db", tmp_path / "ben.db", tmp_path / "shared"
    for line in ["session new friday --players Ana,Ben,Cruz --dealer Cruz", "deal", "meld ana 5S 5S 5S",
                 f"sync {shared} --create --device-name ana-laptop"]:
        pan_in_process(ana, line)
    pan_in_process(ben, "session new friday --players Ben,Cruz,Dee")
    pan_in_process(ben, f"sync {shared} --device-name ben-laptop")
    return ben


def command_paths(group, prefix=()):
    """Every command path under a click group (`("session", "new")`, …), hidden ones left out."""
    for name in group.list_commands(None):
        cmd = group.get_command(None, name)
        if getattr(cmd, "hidden", False):
            continue
        yield prefix + (name,)
        if hasattr(cmd, "list_commands"):
            yield from command_paths(cmd, prefix + (name,))


PAN = [sys.executable, "-m", "pancli"]
# The longest a test waits for a process, a page or an answer: only a guard against a hang, never a
# measure of speed. A machine busy with other work may take seconds to start Python; a test
# asserts what happened, never how fast (bench/ measures that).
HANG = 300
# Worked example 1 as a loop: every line is legal after the one before, hand after hand
# (A goes out, so F deals again), and each line records exactly one event.
PLAYERS = "A,B,C,D,E,F"
CYCLE = ["deal", "drop f", "meld a 5S 5S 5S", "add a 5S", "meld a KH KD KS KC", "out a 4H 4D 4C"]


def child_env() -> dict:
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # what the child printed is what we read
    env.pop("PANCLI_DB", None)
    return env


def pan_process(db, line: str | list[str], **kw) -> subprocess.CompletedProcess:
    args = line.split() if isinstance(line, str) else line
    return subprocess.run([*PAN, "--db", str(db), *args], capture_output=True, text=True, env=child_env(),
                          timeout=HANG, **kw)


def sql_value(path, sql: str):
    """The first column of the first row a query gives, on a connection of its own (a writer in
    another process may hold the database for a moment)."""
    con = sqlite3.connect(path, timeout=30)
    try:
        return con.execute(sql).fetchone()[0]
    finally:
        con.close()


def run_sql(path, *statements: str) -> None:
    """Change a database file behind pancli's back (or make another program's), committed."""
    con = sqlite3.connect(path)
    try:
        for sql in statements:
            con.execute(sql)
        con.commit()
    finally:
        con.close()


def event_count(path) -> int:
    return sql_value(path, "SELECT count(*) FROM events")


def last_kind(path) -> str:
    return sql_value(path, "SELECT kind FROM events ORDER BY id DESC LIMIT 1")


def replay(store: Store, session: Session):
    """Replay a session's effective events from its first; assert each one is stored whole.

    Returns the final state and the balances the replay computes.
    """
    g = game(session.game)
    rules = g.rules_from_dict(session.rules)
    state = g.new_state(rules, list(session.players), session.dealer)
    nets: Counter = Counter()
    for ev in store.log.effective_events(session.id):
        step = apply_event(g, state, ev.payload)
        state = step.state
        stored = Counter((p.payer, p.payee, p.chips, p.code, p.params.to_json()) for p in ev.payments)
        assert stored == Counter((p.payer, p.payee, p.chips, p.code, p.params.to_json()) for p in step.payments), \
            f"event #{ev.seq} ({ev.kind}) is half recorded: its payments differ from a replay"
        tallies = Counter(tuple(r) for r in store.conn.execute(
            "SELECT player, stat, amount FROM tallies WHERE event_id = ?", [ev.id]))
        assert tallies == Counter((t.player, t.stat, t.amount) for t in step.tallies), \
            f"event #{ev.seq} ({ev.kind}) is half recorded: its tallies differ from a replay"
        for p in step.payments:
            nets[p.payee] += p.chips
            nets[p.payer] -= p.chips
    return state, {k: v for k, v in nets.items() if v}


def check_consistent(path, reported: list[int] = ()) -> dict[str, int]:
    """Everything a crash, a fault or a race must leave true. Returns the event count per session."""
    con = sqlite3.connect(path, timeout=30)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        con.close()
    store = Store(path, create=False)
    try:
        ids = {r[0] for r in store.conn.execute("SELECT id FROM events")}
        assert set(reported) <= ids, "a command that reported success is missing"
        counts = {}
        for session in store.sessions():
            sid = session.id
            seqs = [r[0] for r in store.conn.execute("SELECT seq FROM events WHERE session_id = ? ORDER BY id", [sid])]
            assert seqs == list(range(1, len(seqs) + 1)), "event order has a gap, a duplicate or a reversal"
            balances = {k: v for k, v in store.log.balances(sid).items() if v}
            assert sum(balances.values()) == 0
            state, nets = replay(store, session)
            assert nets == balances, "the stored balances differ from a replay of the log"
            fresh = Recorder(store, session)
            assert board_json(session, fresh.state()) == board_json(session, state), \
                "the board restored from the last checkpoint differs from a full replay"
            counts[session.name] = len(seqs)
        return counts
    finally:
        store.close()


def new_night(path, players: str = PLAYERS, dealer: str = "F", name: str = "night") -> None:
    result = pan_process(path, ["session", "new", name, "--players", players, "--dealer", dealer])
    assert result.returncode == 0, result.stderr


# -- Windows' locks on Linux ----------------------------------------------------------------

class FakeMsvcrt:
    """msvcrt's locking as Windows does it (exclusive, non-blocking, from the file's position,
    OSError when taken), made of POSIX record locks so that it meets other processes' locks."""

    LK_UNLCK, LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK = 0, 1, 2, 3, 4

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        import fcntl

        where = os.lseek(fd, 0, os.SEEK_CUR)
        if mode == self.LK_UNLCK:
            fcntl.lockf(fd, fcntl.LOCK_UN, nbytes, where)
            return
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, nbytes, where)
        except OSError:
            raise PermissionError(13, "Permission denied") from None


def as_on_windows(monkeypatch) -> None:
    """pancli's locks take the path they take on Windows (msvcrt), on this machine's locks."""
    from pancli.storage import dblock

    monkeypatch.setattr(dblock, "WINDOWS", True)
    monkeypatch.setitem(sys.modules, "msvcrt", FakeMsvcrt())


# -- `pan serve` as a process -------------------------------------------------------------

def free_port() -> int:
    """A port of this machine nobody listens on now: a server restarted on it keeps its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db, *args, host: str = "127.0.0.1", environ: dict | None = None, **popen):
    """`pan serve` on a free port of ``host`` (127.0.0.1), and the address it printed first.
    ``environ``: more variables for it (PANCLI_LOCALE_DIR); ``popen``: more for subprocess.Popen
    (a preexec_fn that lowers a limit)."""
    env = dict(os.environ, PANCLI_DB=str(db), PYTHONUNBUFFERED="1", **(environ or {}))
    proc = subprocess.Popen([sys.executable, "-m", "pancli", "serve", "--host", host, "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=Path(__file__).resolve().parent.parent, **popen)
    first = proc.stdout.readline().strip()
    assert first.startswith(f"http://{host}:"), (first, proc.stderr.read() if proc.poll() is not None else "")
    return proc, first


def stop_server(proc) -> tuple[int, str, str]:
    """Ctrl-C, then everything the server printed after its first line. The pipes are read through
    their file objects (both at once, so that neither fills), not with communicate(), which reads
    the descriptors and would drop what start_server's readline() buffered past the first line."""
    proc.send_signal(signal.SIGINT)
    with ThreadPoolExecutor(2) as pool:
        out, err = pool.submit(proc.stdout.read), pool.submit(proc.stderr.read)
        out, err = out.result(timeout=HANG), err.result(timeout=HANG)
    proc.wait(timeout=HANG)
    return proc.returncode, out, err


def catalog_tool():
    """scripts/catalogs.py, the tool that keeps the catalogs, as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("catalogs", Path(__file__).resolve().parent.parent / "scripts"
                                                  / "catalogs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Table:
    """`pan` in one language against one temporary database, as piped output 80 columns wide:
    ``pan("standings", "pl")`` is what it printed, its exit code checked."""

    def __init__(self, db):
        self.db = str(db)

    def __call__(self, line: str, lang: str = "en", code: int = 0, stdin: str | None = None) -> str:
        result = CliRunner().invoke(app, ["--db", self.db, "--lang", lang, *shlex.split(line)], input=stdin,
                                    prog_name="pan", env={"COLUMNS": "80"})
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert result.exit_code == code, f"`pan {line}` exited {result.exit_code}: {result.output}"
        return result.output


# -- a night of each game, six players with long names (the phone pages' widths) ----------------

TWELVE = ["Konstantinos", "Maximilianus", "Władysławowa", "Christabella", "Aleksandrina", "Łukaszewicza"]
FORTY = ["Konstantinos Papadopoulos-Wiśniewski Jr.", "Maximilianus Augustinus von Habsburg-Lot",
         "Władysławowa Brzęczyszczykiewiczówna-Kos", "Christabella Montgomery-Fitzwilliam III",
         "Aleksandrina Konstantinowna Rimska-Korsa", "Łukaszewiczówna-Brzęczyszczykiewiczówna1"]


def three_games(db, names: list[str]) -> dict[str, str]:
    """Six players with these names at a contract game (a lay-down), a Polish Pan game (a deal
    lost) and a Panguingue hand in play (a drop, two melds, an undone meld): the session of each
    game by its game's name. The Panguingue session is left current."""
    pan = Pan(db)
    word = {n: n.split()[0].split("-")[0].lower() for n in names}  # a unique start of each name
    seated = ",".join(names)
    pan(f'session new cards --game contract --players "{seated}"')
    pan(f"contract lay {word[names[0]]} 7S 7H 7D / QC QD QS")
    pan(f'session new polski --game polish --players "{seated}"')
    pan(f"polish lost {word[names[1]]}")
    pan(f'session new pan --players "{seated}" --dealer "{names[5]}"')
    for line in ["deal", f"drop {word[names[3]]}", f"meld {word[names[0]]} 5S 5S 5S", f"meld {word[names[1]]} AH 2H 3H",
                 f"meld {word[names[2]]} KC KC KC", "undo"]:
        pan(line)
    return {"panguingue": "pan", "contract": "cards", "polish": "polski"}


# -- every language the pages serve (issue 40) --------------------------------------------------

# The languages the rules came in and the cardrooms speak. A test of every catalog runs over the
# shipped ones (pancli/locale) and, for one of these not shipped yet, over a stand-in compiled in the
# test's folder: the .pot with a few lines in that language (its name, the tabs, the pages' footer,
# the closest language's line), so that a page in its script (Cyrillic, kanji and kana) is tested
# before its catalog merges, and by the real catalog once it has.
STAND_INS = {
    "bg": {("the name of this language", "English"): "Български",
           ("tab", "Table"): "Маса", ("tab", "History"): "История", ("tab", "Settle"): "Сметка",
           ("tab", "Sessions"): "Вечери",
           (None, "A read-only view of the table."): "Масата, както се вижда: само за четене.",
           (None, "This page is in English, the closest we have to your language ({language})."):
               "Тази страница е на български: от нашите езици той е най-близо до вашия ({language})."},
    "ja": {("the name of this language", "English"): "日本語",
           ("tab", "Table"): "テーブル", ("tab", "History"): "履歴", ("tab", "Settle"): "精算",
           ("tab", "Sessions"): "セッション",
           (None, "A read-only view of the table."): "これはテーブルの様子を見るための読み取り専用のページです。",
           (None, "This page is in English, the closest we have to your language ({language})."):
               "このページは日本語で表示しています。お使いの言語（{language}）に最も近い言語です。",
           (None, "{payers} pay {payee} {chips} each: {reason}"): "{payers}は{payee}にそれぞれ{chips}を支払います：{reason}",
           (None, "one-suit valle set in spades"): "スペードだけでそろえたバジェのセット"},
    "es": {("the name of this language", "English"): "Español",
           ("tab", "Table"): "Mesa", ("tab", "History"): "Historial", ("tab", "Settle"): "Cuentas",
           ("tab", "Sessions"): "Sesiones",
           (None, "A read-only view of the table."): "La mesa, solo para leer.",
           (None, "This page is in English, the closest we have to your language ({language})."):
               "Esta página está en español, el idioma más cercano al suyo ({language}) que tenemos."},
}


def every_language(folder) -> tuple[Path, list[str]]:
    """A locale folder for PANCLI_LOCALE_DIR with every shipped catalog and a stand-in for each of
    bg, ja and es not shipped, and the codes of its languages other than English."""
    import shutil

    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    shipped = Path(__file__).resolve().parent.parent / "pancli" / "locale"
    target = Path(folder) / "locale"
    codes = []
    for mo in sorted(shipped.glob("*/LC_MESSAGES/pancli.mo")):
        code = mo.parent.parent.name
        (target / code / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(mo, target / code / "LC_MESSAGES" / "pancli.mo")
        codes.append(code)
    for code, lines in STAND_INS.items():
        if code in codes:
            continue
        with (shipped / "pancli.pot").open("rb") as f:
            template = read_po(f)
        catalog = Catalog(locale=code, domain="pancli")
        for m in template:
            if m.id and (m.context, m.id) in lines:
                catalog.add(m.id, lines[(m.context, m.id)], context=m.context)
        (target / code / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
        with (target / code / "LC_MESSAGES" / "pancli.mo").open("wb") as f:
            write_mo(f, catalog)
        codes.append(code)
    return target, sorted(codes)


def every_language_code() -> list[str]:
    """The languages `every_language` gives, known before it is built (for parametrize): English,
    each shipped catalog, and bg, ja and es."""
    shipped = Path(__file__).resolve().parent.parent / "pancli" / "locale"
    return ["en", *sorted({mo.parent.parent.name for mo in shipped.glob("*/LC_MESSAGES/pancli.mo")} | set(STAND_INS))]


def two_nights(tmp_path) -> Pan:
    pan = Pan(tmp_path / "x.db")
    pan("session new one --players Ana,Ben,Cruz --dealer Cruz --chip-value 0.25")
    pan("deal")
    pan("drop Ana")
    pan("session new two --players Dee,Eve,Fay --dealer Fay")
    pan("deal")
    pan("drop Dee")
    return pan


def forge_an_undo_of_the_other_sessions_event(pan: Pan) -> None:
    """Session two's next event: an undo whose target is session one's event of seq 2 (the drop),
    while session two's own seq 2 is its last effective event."""
    one = sql_value(pan.db, "SELECT id FROM sessions WHERE name = 'one'")
    two = sql_value(pan.db, "SELECT id FROM sessions WHERE name = 'two'")
    target = sql_value(pan.db, f"SELECT id FROM events WHERE session_id = {one} AND seq = 2")
    run_sql(pan.db, "INSERT INTO events (session_id, seq, hand, kind, payload, created_at, undo_of) "
                    f"SELECT {two}, 3, hand, 'undo', '{{\"kind\": \"undo\"}}', created_at, {target} "
                    f"FROM events WHERE session_id = {two} AND seq = 2")


def limit_files(n: int):
    """A child process's pre-exec: its open-file limit set to ``n`` (a server's bounds follow it)."""
    import resource  # POSIX only, and only for the servers started under a limit

    def preexec():
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    return preexec


def port_of(url: str) -> int:
    return int(url.split(":")[2].split("/")[0])


def token_of(url: str) -> str:
    return url.split("token=")[1]


def border_offsets(line: str, ambiguous: int) -> list[int]:
    """The cell offset of each border of a table's line (| in a row, + and | in a rule), measured
    as a terminal whose ambiguous characters take ``ambiguous`` cells draws them."""
    from wcwidth import wcwidth

    out, at = [], 0
    borders = "|+" if set(line) <= set("|+-=") else "|"
    for ch in line:
        if ch in borders:
            out.append(at)
        at += max(0, wcwidth(ch, ambiguous_width=ambiguous))
    return out


def tables_line_up(text: str, ambiguous: int) -> list[str]:
    """The lines of each bordered table (a run of lines starting with | or +) whose borders are
    not at the cells of its first row's: every row's | (and a rule's +) at the same offsets, every
    edge at the same two."""
    bad: list[str] = []
    table: list[list[int]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith(("|", "+")):
            table.append(border_offsets(line, ambiguous))
            if line.startswith("|") and set(line) <= set("|+-="):
                table[-1].append(-1)  # a rule between rows: its + where the rows' | are
            continue
        rows = [o for o in table if o[-1] != -1 and len(o) > 2] or table
        if table:
            first = rows[0]
            for offsets in table:
                cut = offsets[:-1] if offsets[-1] == -1 else offsets
                if (cut[0], cut[-1]) != (first[0], first[-1]) or (len(cut) > 2 and cut != first):
                    bad.append(repr(offsets))
        table = []
    return bad


def as_from_a_terminal() -> None:
    """The shell starts as a terminal starts it: with the hang-up and interrupt signals at their
    defaults, even when the tests run under `nohup` or from a background job (which ignore them,
    and a child would inherit that)."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


PEAK = """import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, code)"""


def peak_mb(db, *args) -> int:
    """`pan` run as a process of its own; the most memory it held, in MB."""
    out = subprocess.run([sys.executable, "-c", PEAK, *PAN, "--db", str(db), *args], capture_output=True,
                         text=True, env=child_env(), timeout=20 * HANG, check=True).stdout.split()
    assert out[1] == "0", f"pan {' '.join(args)} failed"
    return int(out[0])
