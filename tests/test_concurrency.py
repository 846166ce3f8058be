"""Several `pan` processes recording into one session at the same moment, and readers watching.

The writers are whole `pan table --script -` processes, released together once each has started
(each answers a first `db path` line), then fed their lines: melds, additions and going out for
their own player, and deals that only one of them wins per hand. Afterwards:

* every line a writer reports done is stored once, in that writer's order; nothing else is;
* seq runs 1..n with no gap; no writer ever saw "database is locked" or an internal error;
* the standings equal a serial replay of the stored events through Recorder.record into a new
  database, and every check of test_crash.check_consistent holds;
* every standings and board snapshot a reader took while the writers wrote is exactly the
  standings or board after some prefix of the final log: no reader saw half a command.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from pancli.app.recorder import Recorder
from pancli.app.views import board_json, standings_json
from pancli.games import game
from pancli.storage.store import Store

from helpers import CYCLE, HANG, PAN, check_consistent, child_env, event_count, new_night, pan_process as run_pan

# Each writer's player and one hand of lines for him: 3 + 1 + 4 + 3 = 11 cards, a legal way out.
HANDS = {
    "Ana": ["meld ana 5S 5S 5S", "add ana 5S", "meld ana KH KD KS KC", "out ana 4H 4D 4C"],
    "Ben": ["meld ben 7H 7H 7H", "add ben 7H", "meld ben QH QD QS QC", "out ben 3H 3D 3C"],
    "Cruz": ["meld cruz 2C 3C 4C", "add cruz 5C", "meld cruz JH JD JS JC", "out cruz 6H 6D 6C"],
    "Dee": ["meld dee 6S 6S 6S", "add dee 6S", "meld dee AH AD AS AC", "out dee 2H 2D 2C"],
}
PLAYERS = list(HANDS)

READER = textwrap.dedent("""
    import contextlib, io, os, sys
    from pancli.cli import app
    db, out_path, stop = sys.argv[1:4]
    with open(out_path, "w") as out:
        while not os.path.exists(stop):
            for what in ("standings", "board"):
                buf = io.StringIO()
                with contextlib.redirect_stdout(buf):
                    try:
                        app(["--db", db, what, "--json"], standalone_mode=False)
                    except SystemExit as e:
                        if e.code:
                            raise
                out.write(what + " " + buf.getvalue().strip() + "\\n")
""")


SPACER = "standings --json"  # read between writes: the other writers get the lock, and more snapshots


def writer_lines(player: str, rounds: int) -> list[str]:
    return [x for _ in range(rounds) for line in ["deal", *HANDS[player]] for x in (line, SPACER)]


def payload_key(line: str) -> tuple:
    """What a `pan` line stores: (kind, player, cards)."""
    words = line.split()
    if words[0] == "deal":
        return ("deal", None, ())
    return (words[0], words[1].capitalize(), tuple(words[2:]))


def event_key(ev) -> tuple:
    p = ev.payload
    return (ev.kind, p.get("player") if ev.kind != "deal" else None, tuple(p.get("cards") or ()))


def start_writers(db, players: list[str], rounds: int):
    procs = []
    for player in players:
        proc = subprocess.Popen([*PAN, "--db", str(db), "table", "--script", "-", "--keep-going"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=child_env())
        proc.stdin.write("db path\n")
        proc.stdin.flush()
        procs.append((player, proc))
    for _, proc in procs:  # each has started, opened the database and answered: release them together
        assert proc.stdout.readline().strip() == str(db)
    for player, proc in procs:
        proc.stdin.write("".join(line + "\n" for line in writer_lines(player, rounds)))
        proc.stdin.close()
        proc.stdin = None  # so that communicate() does not flush it
    return procs


def finish_writers(procs, rounds: int) -> tuple[dict[str, list[str]], list[str]]:
    """Wait for the writers; return the lines each reports done, and the standings they printed."""
    with ThreadPoolExecutor(len(procs)) as pool:  # drain every pipe at once: no writer waits on us
        outputs = list(pool.map(lambda pp: pp[1].communicate(timeout=HANG), procs))
    done, seen = {}, []
    for (player, proc), (out, err) in zip(procs, outputs):
        assert proc.returncode in (0, 1), err
        seen += [f"standings {line}" for line in out.splitlines() if line.startswith('{"session"')]
        for bad in ("locked", "busy", "Traceback", "Internal error"):
            assert bad not in err, err
        refused = {int(n) for n in re.findall(r"^stdin:(\d+): ", err, re.M)}
        lines = writer_lines(player, rounds)
        # stdin line 1 is the `db path` that released the writer; its lines start at 2
        assert all(lines[i - 2] != SPACER for i in refused), err
        done[player] = [line for i, line in enumerate(lines, 2) if i not in refused and line != SPACER]
    return done, seen


def prefix_views(db) -> tuple[set, set]:
    """The standings (normalised) and the board after every prefix of the session's log."""
    store = Store(db, create=False)
    try:
        session = store.session("night")
        rec = Recorder(store, session)
        g = game(session.game)
        state = g.new_state(rec.rules, session.players, session.dealer)
        nets: Counter = Counter()
        tallies: dict = {}
        standings, boards = set(), set()

        def remember():
            data = standings_json(session, dict(nets), tallies, g.players(state), session.chip_value)
            standings.add(normal_standings(json.loads(json.dumps(data))))
            boards.add(json.dumps(board_json(session, state), sort_keys=True))

        remember()
        for ev in store.log.effective_events(session.id):
            step = rec._apply(state, ev.payload)
            state = step.state
            for p in step.payments:
                nets[p.payee] += p.chips
                nets[p.payer] -= p.chips
            for t in step.tallies:
                tallies.setdefault(t.player, {}).setdefault(t.stat, 0)
                tallies[t.player][t.stat] += t.amount
            remember()
        return standings, boards
    finally:
        store.close()


def normal_standings(data: dict):
    assert data["sum"] == 0
    assert sum(r["net"] for r in data["players"]) + sum(data["pools"].values()) == 0
    rows = {(r["name"], r["net"], r["hands"], r["won"], r["dropped"], r["conditions"]) for r in data["players"]}
    return (frozenset(r for r in rows if any(r[1:])), frozenset((k, v) for k, v in data["pools"].items() if v))


def serial_replay_standings(db, tmp_path) -> dict:
    """Record the stored events one by one into a new database through Recorder.record."""
    src = Store(db, create=False)
    session = src.session("night")
    events = src.log.effective_events(session.id)
    src.close()
    dst = Store(tmp_path / "serial.db")
    with dst.lock():
        dst.create_session("night", session.game, session.players, session.dealer, session.rules, None)
    rec = Recorder(dst, dst.session("night"))
    for ev in events:
        payload = dict(ev.payload)
        if payload["kind"] == "deal":  # what enrich added; the recorder decides it again
            payload = {"kind": "deal", "dealer": None}
        rec.record(payload)
    try:
        return dst.log.balances(rec.session.id), dst.log.tallies(rec.session.id)
    finally:
        dst.close()


def run_race(tmp_path, writers: int, rounds: int, whole_readers: int) -> int:
    """Returns how often the stored order switches from one writer's player to another's."""
    db = tmp_path / "race.db"
    assert run_pan(db, ["session", "new", "night", "--players", ",".join(PLAYERS), "--dealer", "Dee"]).returncode == 0
    reader_script = tmp_path / "reader.py"
    reader_script.write_text(READER)
    snapshots, stop = tmp_path / "snapshots.txt", tmp_path / "stop"
    reader = subprocess.Popen([sys.executable, str(reader_script), str(db), str(snapshots), str(stop)],
                              env=child_env(), stderr=subprocess.PIPE, text=True)
    procs = start_writers(db, PLAYERS[:writers], rounds)
    outside = []
    for _ in range(whole_readers):  # whole `pan` processes reading while the writers write
        for what in ("standings", "board"):
            r = run_pan(db, [what, "--json"])
            assert r.returncode == 0, r.stderr
            outside.append(f"{what} {r.stdout.strip()}")
    done, seen_by_writers = finish_writers(procs, rounds)
    stop.touch()
    _, reader_err = reader.communicate(timeout=HANG)
    assert reader.returncode == 0, reader_err

    # Every reported line is stored once, in each writer's order, and nothing else is.
    counts = check_consistent(db)
    store = Store(db, create=False)
    events = store.log.effective_events(store.session("night").id)
    store.close()
    assert counts["night"] == len(events), "the race should have no undo"
    stored = [event_key(ev) for ev in events]
    reported = [payload_key(line) for lines in done.values() for line in lines]
    assert Counter(stored) == Counter(reported), "an event was lost, duplicated or invented"
    for player, lines in done.items():
        mine = [k for k in stored if k[1] == player]
        assert mine == [payload_key(line) for line in lines if not line.startswith("deal")]
    assert sum(1 for k in stored if k[0] == "out") >= 1, "no hand was finished: the race proved little"
    writers_in_order = [k[1] for k in stored if k[1]]
    switches = sum(1 for a, b in zip(writers_in_order, writers_in_order[1:]) if a != b)

    # The final standings equal a serial replay through the recorder.
    store = Store(db, create=False)
    sid = store.session("night").id
    final = store.log.balances(sid), store.log.tallies(sid)
    store.close()
    assert serial_replay_standings(db, tmp_path) == final

    # No reader ever saw half a command.
    standings, boards = prefix_views(db)
    seen = snapshots.read_text().splitlines() + outside + seen_by_writers
    assert len(seen_by_writers) == sum(len(writer_lines(p, rounds)) // 2 for p in done)
    for line in seen:
        what, _, text = line.partition(" ")
        data = json.loads(text)
        if what == "standings":
            assert normal_standings(data) in standings, f"a reader saw standings no prefix of the log gives: {text}"
        else:
            assert json.dumps(data, sort_keys=True) in boards, f"a reader saw a board no prefix gives: {text}"
    return switches


def test_writers_race_and_readers_see_whole_commands(tmp_path):
    run_race(tmp_path, writers=3, rounds=4, whole_readers=1)


def test_two_writers(tmp_path):
    run_race(tmp_path, writers=2, rounds=3, whole_readers=0)


def test_a_command_gets_in_while_a_script_streams_in_groups(tmp_path):
    """A piped `pan table` holds the write lock one group at a time: a command from another
    terminal records while the script is still being fed, without waiting for its end."""
    db = tmp_path / "pan.db"
    new_night(db)
    proc = subprocess.Popen([*PAN, "--db", str(db), "table", "night", "--script", "-", "--quiet"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=child_env())
    stop = threading.Event()

    def feed():
        sent = 0
        try:
            while not stop.is_set():
                if sent - event_count(db) > 200:  # a short backlog: the script ends soon after the feed
                    time.sleep(0.005)
                    continue
                proc.stdin.write("".join(f"{CYCLE[(sent + k) % len(CYCLE)]}\n" for k in range(12)))
                proc.stdin.flush()
                sent += 12
        except (BrokenPipeError, OSError, ValueError):
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        deadline = time.monotonic() + HANG  # a hang guard, not a bound on speed
        while event_count(db) < 100 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        other = run_pan(db, ["session", "new", "other", "--players", "X,Y"])
        assert other.returncode == 0, other.stderr
        assert proc.poll() is None, proc.stderr.read()  # still being fed: the command did not wait for its end
    finally:
        stop.set()
        feeder.join(timeout=HANG)
        proc.stdin.close()
        proc.stdin = None  # so that communicate() does not flush it
        _, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 0, err
    assert "Error" not in err and "Traceback" not in err, err
    check_consistent(db)


def run_creators(tmp_path, rounds: int, n: int = 4) -> None:
    """n processes create the same new database at once, each with its own session."""
    for r in range(rounds):
        db = tmp_path / f"new{r}.db"
        procs = [subprocess.Popen([*PAN, "--db", str(db), "session", "new", f"s{i}", "--players", "A,B,C"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
                 for i in range(n)]
        for proc in procs:
            out, err = proc.communicate(timeout=HANG)
            assert proc.returncode == 0 and "Traceback" not in err, err
        store = Store(db, create=False)
        assert sorted(s.name for s in store.sessions()) == [f"s{i}" for i in range(n)]
        store.close()
        check_consistent(db)


def test_processes_create_one_database_at_once(tmp_path):
    run_creators(tmp_path, rounds=1)


@pytest.mark.slow
def test_four_writers_long_race(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    switches = run_race(tmp_path / "a", writers=4, rounds=30, whole_readers=4)
    print(f"the writers took turns {switches} times")
    assert switches > 8, "the writers hardly interleaved: the race proved little"
    run_creators(tmp_path / "b", rounds=8)
