"""A club of 30 hosts, 200 people and 5,000 nights: `pan sync` with nothing new, `pan player`,
`pan versus` and `pan standings --season`, each beside its floor measured in the same run; and the
roster's cost, a sync after one new entry on a chain of thousands beside one on a short chain.
Run by hand; asserts nothing.

    .venv/bin/python bench/bench_club.py [--hosts 30] [--people 200] [--nights 5000]
                                         [--chain 3000] [--runs 5] [--rebuild]

The club is built once and kept under the temporary folder (``pancli-bench-club-…``; --rebuild
makes it again): one night recorded through `pan`, exported, and imported 5,000 times through
pancli's own import path (``archive_import.import_document``) into 30 hosts' databases, four of
the 200 people a night, each typed at the table in one of three spellings ("Player 017",
"player 017", "P017"), the nights spread over three years; each host's `pan sync` writes its
archives to the one folder. Host 0 is the club's registrar: its roster (``club init``, an ``add``
of each person with the alias "P017", and --chain more aliases) is written entry by entry with
the same signing and canonical form `pan club` uses, without folding the roster before each
entry. Host 0 then syncs every other host's nights; it is the host measured. Each run appends
a few alias entries to the kept clubs (the "1 new roster entry" figures), so a roster grows by
--runs + 1 entries a run.

Floors: `pan --version` (the process, the command line and the catalogs loaded) plus, for the
sync, listing the folder (what any sync must look at), and for each report the SQL that gives its
answer, run alone. Goals (issue 41): each under 1 s; a sync after one new roster entry costs the
same on a chain of thousands as on a short one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_startup import child_env, pan_executable, run  # the same process timing as the start-up bench

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pancli.app import (  # noqa: E402
    archive,
    archive_import,
    club as club_app,  # noqa: E402
)
from pancli.core import club, signing  # noqa: E402
from pancli.core.club import Entry, Roster  # noqa: E402
from pancli.storage.migrations import NET  # noqa: E402
from pancli.storage.store import Store  # noqa: E402

SEATS = ("QQA", "QQB", "QQC", "QQD")
NIGHT = ["deal", "drop QQC", "meld QQB 5S 5S 5S", "add QQB 5S", "meld QQA JH QH KH", "meld QQB 2C 3C 4C 5C",
         "out QQB 6D 6H 6C"]
YEARS = (2024, 2025, 2026)


def spellings(j: int) -> list[str]:
    return [f"Player {j:03d}", f"player {j:03d}", f"P{j:03d}"]


def pan_run(pan: list[str], env: dict, db: Path, *args: str) -> str:
    r = subprocess.run([*pan, "--db", str(db), *args], capture_output=True, text=True, env=env)
    if r.returncode not in (0, 1):
        raise SystemExit(f"pan {' '.join(args)} failed: {r.stderr}{r.stdout[-2000:]}")
    return r.stdout


def template(tmp: Path, pan: list[str], env: dict) -> str:
    """The night every night copies, recorded through `pan` and exported, its global id taken out."""
    db = tmp / "template.db"
    pan_run(pan, env, db, "session", "new", "night", "--players", ",".join(SEATS))
    for line in NIGHT:
        pan_run(pan, env, db, *line.split())
    pan_run(pan, env, db, "session", "close")
    text = pan_run(pan, env, db, "export", "night", "--format", "toml", "-o", "-")
    db.unlink()
    return "\n".join(line for line in text.splitlines() if not line.startswith(("device =", "uid =")))


def night_text(plain: str, i: int, nights: int, people: int) -> tuple[str, list[int]]:
    rng = random.Random(i)
    who = rng.sample(range(people), len(SEATS))
    text = plain.replace('name = "night"', f'name = "n{i:05d}"')
    for seat, j in zip(SEATS, who, strict=True):
        text = text.replace(seat, rng.choice(spellings(j)))
    day = i * (365 * len(YEARS)) // nights
    year, doy = YEARS[0] + day // 365, day % 365
    month, mday = 1 + doy // 31 % 12, 1 + doy % 28
    stamp = f"{year}-{month:02d}-{mday:02d}T20:00:00+00:00"
    text = re.sub(r'created_at = "[^"]+"', f'created_at = "{stamp}"', text)
    text = re.sub(r'closed_at = "[^"]+"', f'closed_at = "{stamp[:11]}23:00:00+00:00"', text)
    return text, who


class Chain:
    """This device's roster entries written one after another, as `pan club` writes each (the same
    canonical line and signature), without reading and folding the roster before each."""

    def __init__(self, store: Store, folder: Path) -> None:
        self.me, self.seed = store.sync.device_id(), store.sync.device_key()
        self.key = signing.public_key(self.seed)
        self.folder = folder
        mine = sorted((folder / self.me / club_app.ROSTER).glob("*.json"))
        self.last: Entry | None = None
        if mine:
            body = mine[-1].read_bytes().split(b"\n", 1)[0]
            self.last = Entry(json.loads(body), club.digest(body))
        self.club = self.last.data.get("club") or club.club_id(self.last.data) if self.last else None

    def write(self, kind: str, **fields: object) -> Entry:
        roster = Roster(club=self.club, folded={self.me: self.last} if self.last else {})
        data = club.entry_data(kind, roster, self.me, self.key, "2026-12-07T10:00:00Z", **fields)
        body = club.canonical(data)
        text = body + b"\n# signature: ed25519 " + signing.sign(self.seed, signing.CLUB, body).encode("ascii") + b"\n"
        path = self.folder / self.me / club_app.ROSTER / f"{data['seq']:08d}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text)
        self.last = Entry(data, club.digest(body))
        if kind == "create":
            self.club = club.club_id(data)
        return self.last


def build(where: Path, args: argparse.Namespace, pan: list[str], env: dict) -> None:
    t0 = time.perf_counter()
    where.mkdir(parents=True)
    folder = where / "shared"
    folder.mkdir()
    plain = template(where, pan, env)
    stores = [Store(where / f"host{h:02d}.db") for h in range(args.hosts)]
    try:
        for i in range(args.nights):
            text, _who = night_text(plain, i, args.nights, args.people)
            archive_import.import_document(stores[i % args.hosts], archive.parse(text), make_current=False)
            if i % 500 == 499:
                print(f"  {i + 1} nights imported ({time.perf_counter() - t0:.0f} s)", flush=True)
    finally:
        for s in stores:
            s.close()
    for h in range(args.hosts):  # each host's archives written alone, then put in the one folder
        if h == 0:  # the measured host: its folder is the club's from the start
            pan_run(pan, env, where / "host00.db", "sync", str(folder), "--device-name", "host00")
            continue
        own = where / f"own{h:02d}"
        pan_run(pan, env, where / f"host{h:02d}.db", "sync", str(own), "--create", "--device-name", f"host{h:02d}")
        for device in own.iterdir():
            device.rename(folder / device.name)
        own.rmdir()
    print(f"  {args.hosts} hosts synced their archives ({time.perf_counter() - t0:.0f} s)", flush=True)
    store = Store(where / "host00.db")
    try:
        chain = Chain(store, folder)
        chain.write("create", name="Bench club", label="host00")
        persons = []
        for j in range(args.people):
            pid = f"{j + 1:032x}"
            persons.append(pid)
            chain.write("add", person=pid, name=spellings(j)[0], aliases=[spellings(j)[2]])
        for k in range(args.chain):
            j = k % args.people
            chain.write("alias", person=persons[j], name=f"Pl {j:03d} {k}")
    finally:
        store.close()
    t1 = time.perf_counter()
    pan_run(pan, env, where / "host00.db", "sync", str(folder))
    print(f"  host00's first sync of every night and the roster: {time.perf_counter() - t1:.0f} s; "
          f"built in {time.perf_counter() - t0:.0f} s", flush=True)
    (where / "built").write_text(json.dumps(vars(args)))


def small_club(where: Path, pan: list[str], env: dict, people: int, chain: int) -> Path:
    """A host with a few nights and a roster of ``people`` adds and ``chain`` more aliases."""
    db = where / f"roster{chain}.db"
    folder = where / f"roster{chain}"
    if (where / f"roster{chain}.built").exists():
        return db
    shutil.rmtree(folder, ignore_errors=True)
    db.unlink(missing_ok=True)
    folder.mkdir(parents=True)
    plain = template(where, pan, env)
    store = Store(db)
    try:
        for i in range(20):
            archive_import.import_document(store, archive.parse(night_text(plain, i, 20, people)[0]), make_current=False)
    finally:
        store.close()
    pan_run(pan, env, db, "sync", str(folder), "--device-name", "solo")
    store = Store(db)
    try:
        c = Chain(store, folder)
        c.write("create", name="Short club", label="solo")
        for j in range(people):
            c.write("add", person=f"{j + 1:032x}", name=spellings(j)[0], aliases=[spellings(j)[2]])
        for k in range(chain):
            c.write("alias", person=f"{k % people + 1:032x}", name=f"Pl {k % people:03d} {k}")
    finally:
        store.close()
    pan_run(pan, env, db, "sync", str(folder))
    (where / f"roster{chain}.built").write_text("")
    return db


def timed_sql(db: Path, sql: str, params: list) -> float:
    con = sqlite3.connect(db)
    try:
        t0 = time.perf_counter()
        con.execute(sql, params).fetchall()
        return time.perf_counter() - t0
    finally:
        con.close()


def listing_floor(folder: Path, stat: bool = False) -> float:
    """Listing the folder; with ``stat``, each file's status too (what notices an edit in place)."""
    t0 = time.perf_counter()
    for dirpath, _dirs, files in os.walk(folder):
        if stat:
            for f in files:
                os.lstat(os.path.join(dirpath, f))
    return time.perf_counter() - t0


PLAYER_SQL = """SELECT p.session_id, SUM(CASE WHEN p.payee = c.seat THEN p.chips ELSE -p.chips END)
FROM club_seats c JOIN payments p ON p.session_id = c.session_id AND (p.payee = c.seat OR p.payer = c.seat)
WHERE c.person = ? GROUP BY p.session_id"""
VERSUS_SQL = """SELECT p.session_id, p.payer, p.payee, p.chips, p.code FROM club_seats a
JOIN club_seats b ON b.session_id = a.session_id AND b.person = ?
JOIN payments p ON p.session_id = a.session_id AND ((p.payer = a.seat AND p.payee = b.seat) OR (p.payer = b.seat AND p.payee = a.seat))
WHERE a.person = ?"""
SEASON_SQL = """SELECT coalesce(c.person, lower(t.player)), count(*), SUM(t.amount) FROM sessions s
JOIN totals t ON t.session_id = s.id AND t.stat = ?
LEFT JOIN club_seats c ON c.session_id = s.id AND c.seat = t.player
WHERE s.created_at LIKE ? GROUP BY 1"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", type=int, default=30)
    ap.add_argument("--people", type=int, default=200)
    ap.add_argument("--nights", type=int, default=5000)
    ap.add_argument("--chain", type=int, default=3000, help="aliases after the adds: the roster's chain length")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rebuild", action="store_true")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be 1 or more (the first round, untimed, only warms up)")
    env, pan = child_env(), pan_executable()
    where = Path(tempfile.gettempdir()) / f"pancli-bench-club-{args.hosts}-{args.people}-{args.nights}-{args.chain}"
    if args.rebuild or not (where / "built").exists():
        shutil.rmtree(where, ignore_errors=True)
        print(f"building the club in {where}", flush=True)
        build(where, args, pan, env)
    db, folder = where / "host00.db", where / "shared"
    con = sqlite3.connect(db)
    persons = [r[0] for r in con.execute("SELECT person, count(*) FROM club_seats WHERE person IS NOT NULL "
                                         "GROUP BY person ORDER BY 2 DESC, 1 LIMIT 2")]
    names = dict(con.execute("SELECT id, name FROM club_persons").fetchall())
    sessions = con.execute("SELECT count(*) FROM sessions").fetchone()[0]
    con.close()
    a, b = persons
    year = str(YEARS[1])
    short_db = small_club(where, pan, env, 20, 0)
    long_db = small_club(where, pan, env, args.people, args.chain)
    keys = ("sync", "player", "versus", "season", "pan --version", "listing", "player sql", "versus sql",
            "season sql", "big new entry", "short new entry", "long new entry", "short listing", "long listing")
    times: dict[str, list[float]] = {k: [] for k in keys}
    for round_ in range(args.runs + 1):  # the first round warms the page cache and bytecode, untimed
        got = {
            "sync": run([*pan, "--db", str(db), "sync", str(folder)], env),
            "listing": listing_floor(folder),
            "player": run([*pan, "--db", str(db), "player", names[a]], env),
            "player sql": timed_sql(db, PLAYER_SQL, [a]),
            "versus": run([*pan, "--db", str(db), "versus", names[a], names[b]], env),
            "versus sql": timed_sql(db, VERSUS_SQL, [b, a]),
            "season": run([*pan, "--db", str(db), "standings", "--season", year], env),
            "season sql": timed_sql(db, SEASON_SQL, [NET, f"{year}%"]),
            "pan --version": run([*pan, "--version"], env),
        }
        for label, path in (("big new entry", db), ("short new entry", short_db), ("long new entry", long_db)):
            root = folder if path == db else path.with_suffix("")  # rosterN.db syncs with rosterN/, wherever the club was copied
            store = Store(path)
            try:
                Chain(store, root).write("alias", person=persons[0] if path == db else f"{1:032x}",
                                         name=f"Extra {round_} {time.time_ns()}")
            finally:
                store.close()
            got[label] = run([*pan, "--db", str(path), "sync", str(root)], env)
        got["short listing"] = listing_floor(short_db.with_suffix(""), stat=True)
        got["long listing"] = listing_floor(long_db.with_suffix(""), stat=True)
        if round_:
            for k, v in got.items():
                times[k].append(v)
    med = {k: statistics.median(v) for k, v in times.items()}
    start = med["pan --version"]
    entries = sum(1 for _ in folder.glob("*/club/*.json"))
    print(f"a club of {args.hosts} hosts, {args.people} people, {sessions} nights held by the measured host, "
          f"a roster of {entries} entries; median of {args.runs} runs, {pan[0]}")
    print(f"  pan sync, nothing new        {med['sync']:6.2f} s   floor, pan --version + listing the folder: "
          f"{start + med['listing']:.2f} s")
    print(f"  pan player (most nights)     {med['player']:6.2f} s   floor, pan --version + the SQL of its nets: "
          f"{start + med['player sql']:.2f} s")
    print(f"  pan versus                   {med['versus']:6.2f} s   floor, pan --version + the SQL of the payments "
          f"between: {start + med['versus sql']:.2f} s")
    print(f"  pan standings --season {year}  {med['season']:6.2f} s   floor, pan --version + the SQL of the season's "
          f"nets: {start + med['season sql']:.2f} s")
    print(f"  pan sync after 1 new roster entry: the club above {med['big new entry']:.2f} s; "
          f"a host of 20 nights with a chain of {20 + 1} entries {med['short new entry']:.2f} s, "
          f"with a chain of {args.people + args.chain + 1} {med['long new entry']:.2f} s")
    print(f"    floors, pan --version + listing the roster's folder and each file's status: "
          f"short {start + med['short listing']:.2f} s, "
          f"long {start + med['long listing']:.2f} s")


if __name__ == "__main__":
    main()
