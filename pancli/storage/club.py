"""SQL for the club (`pan club`): what was last read of each roster file, and the roster as
folded, projected onto this database's sessions (pancli/app/club.py decides what it means).

One part of a ``Store``, over its connection.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from pancli.core.rows import Session
from pancli.storage.mapping import SESSION_COLUMNS, session_row

# SQLite's NOCASE: the ASCII letters folded, nothing else (the seat column's collation)
_NOCASE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class ClubQueries:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn  # the Store's

    def seen(self) -> list[tuple[str, int, int, int | None, int | None]]:
        """What was last seen of each roster file, as plain tuples (path, size, mtime_ns, ctime_ns,
        ino; by path) that a listing compares with in C (no row of each file made in Python); the
        ctime None where the file is no entry (a refusal is read again every time) or its ctime
        was not settled: such a row is never a file as last seen."""
        cur = self.conn.cursor()
        cur.row_factory = None  # tuples, not sqlite3.Row
        return cur.execute("SELECT path, size, mtime_ns, CASE WHEN digest IS NOT NULL THEN ctime_ns END, ino "
                           "FROM club_files ORDER BY path").fetchall()

    def seen_in(self, folder: str, after: str | None) -> list[tuple[str, int, int, int | None, int | None]]:
        """``seen`` of the files of one folder (a device's roster), of those after ``after`` only."""
        cur = self.conn.cursor()
        cur.row_factory = None
        low, high = after or folder + os.sep, folder + chr(ord(os.sep) + 1)  # every path of the folder: folder/…
        return cur.execute("SELECT path, size, mtime_ns, CASE WHEN digest IS NOT NULL THEN ctime_ns END, ino "
                           "FROM club_files WHERE path > ? AND path < ? ORDER BY path", [low, high]).fetchall()

    def files_count(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM club_files").fetchone()[0])

    def folders(self) -> dict[str, tuple[int, str]]:
        """Each roster folder's files as last seen that were all settled entries, in order: how
        many, and the hash of their listing (``club_read.listing_hash``); {} when nothing was kept
        by folder yet (every file's row is then compared, ``seen``)."""
        return {r[0]: (r[1], r[2]) for r in self.conn.execute("SELECT path, files, listing FROM club_folders")}

    def remember_folders(self, rows: Iterable[tuple[str, int, str]], gone: Iterable[str]) -> None:
        self.conn.executemany("DELETE FROM club_folders WHERE path = ?", [[p] for p in gone])
        self.conn.executemany("INSERT OR REPLACE INTO club_folders (path, files, listing) VALUES (?, ?, ?)", rows)

    def last_seen(self, paths: Iterable[str]) -> dict[str, tuple[int, int, str | None, str | None, int | None, int | None]]:
        """What was last seen of these files (the few a listing found new or changed): size,
        mtime_ns, digest, refusal, ctime_ns, ino."""
        return {r[0]: (r[1], r[2], r[3], r[4], r[5], r[6]) for r in self.conn.execute(
            "SELECT path, size, mtime_ns, digest, refusal, ctime_ns, ino FROM club_files "
            "WHERE path IN (SELECT value FROM json_each(?))", [json.dumps(list(paths), ensure_ascii=False)])}

    def entries_text(self, but: Iterable[str] = ()) -> str:
        """The digest of every entry remembered but those of the files ``but``, each once, sorted,
        one a line (what ``club_held.basis`` hashes), joined by SQLite."""
        row = self.conn.execute(
            "SELECT group_concat(digest, char(10)) FROM (SELECT DISTINCT digest FROM club_files WHERE digest IS NOT NULL "
            "AND path NOT IN (SELECT value FROM json_each(?)) ORDER BY digest)",
            [json.dumps(list(but), ensure_ascii=False)]).fetchone()
        return row[0] or ""

    def entries(self, but: Iterable[str] = ()) -> list[tuple[str, bytes]]:
        """Each entry remembered but those of the files ``but``: its digest and signed line, by file."""
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT digest, body FROM club_files WHERE digest IS NOT NULL "
            "AND path NOT IN (SELECT value FROM json_each(?)) ORDER BY path", [json.dumps(list(but), ensure_ascii=False)])]

    def remember_files(self, rows: Iterable[tuple[str, int, int, bytes | None, str | None, str | None, int | None, int]],
                       gone: Iterable[str]) -> None:
        self.conn.executemany("DELETE FROM club_files WHERE path = ?", [[p] for p in gone])
        self.conn.executemany("INSERT OR REPLACE INTO club_files (path, size, mtime_ns, body, digest, refusal, "
                              "ctime_ns, ino) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def state(self) -> tuple[str, str, str] | None:
        """The roster as last folded: (club, version, summary); its whole state by ``state_text``."""
        row = self.conn.execute("SELECT club, version, summary FROM club_state WHERE id = 1").fetchone()
        return (row[0], row[1], row[2]) if row else None

    def state_text(self) -> str | None:
        row = self.conn.execute("SELECT state FROM club_state WHERE id = 1").fetchone()
        return row[0] if row else None

    def keep_state(self, club: str, version: str, summary: str, state: str | None) -> None:
        """The roster as folded now (``state`` None: only its summary changed)."""
        if state is None:
            self.conn.execute("UPDATE club_state SET summary = ? WHERE id = 1", [summary])
        else:
            self.conn.execute("INSERT OR REPLACE INTO club_state (id, club, version, summary, state) "
                              "VALUES (1, ?, ?, ?, ?)", [club, version, summary, state])

    def keep_parts(self, aliases: Sequence[Sequence[str]], start: int,
                   seats: Iterable[Sequence[Any]], sessions: Iterable[str] | None) -> None:
        """The held fold's aliases from number ``start`` on, and its seats: of these sessions
        only, or (``sessions`` None) of every session."""
        self.conn.execute("DELETE FROM club_held_aliases WHERE n >= ?", [start])
        self.conn.executemany("INSERT INTO club_held_aliases (n, folded, person, by, given) VALUES (?, ?, ?, ?, ?)",
                              [(start + i, *a) for i, a in enumerate(aliases)])
        if sessions is None:
            self.conn.execute("DELETE FROM club_held_seats")
        else:
            self.conn.execute("DELETE FROM club_held_seats WHERE session IN (SELECT value FROM json_each(?))",
                              [json.dumps(sorted(set(sessions)))])
        self.conn.executemany("INSERT INTO club_held_seats (session, seat, person, digest, entry) VALUES (?, ?, ?, ?, ?)",
                              [(s, seat, person, digest, json.dumps(data, ensure_ascii=False))
                               for s, seat, person, digest, data in seats])

    def held_aliases(self, names: Iterable[str] | None = None, persons: Iterable[str] | None = None) \
            -> list[list[str]]:
        """The held fold's aliases (folded, person, by, given) in the order folded: every one, or
        those of these folded names and of these persons."""
        if names is None and persons is None:
            rows = self.conn.execute("SELECT folded, person, by, given FROM club_held_aliases ORDER BY n")
        else:
            rows = self.conn.execute(
                "SELECT folded, person, by, given FROM club_held_aliases WHERE folded IN (SELECT value FROM json_each(?)) "
                "OR person IN (SELECT value FROM json_each(?)) ORDER BY n",
                [json.dumps(sorted(set(names or ())), ensure_ascii=False), json.dumps(sorted(set(persons or ())))])
        return [list(r) for r in rows]

    def held_seats(self, sessions: Iterable[str] | None = None) -> list[list[Any]]:
        """The held fold's seats (session, folded seat, person, the attributing entry's digest and
        data): of every session, or of these."""
        if sessions is None:
            rows = self.conn.execute("SELECT session, seat, person, digest, entry FROM club_held_seats")
        else:
            rows = self.conn.execute("SELECT session, seat, person, digest, entry FROM club_held_seats "
                                     "WHERE session IN (SELECT value FROM json_each(?))", [json.dumps(sorted(set(sessions)))])
        return [[s, seat, person, digest, json.loads(entry)] for s, seat, person, digest, entry in rows]

    def marks(self) -> list[int]:
        """The newest session and event of this database: a projection made at these marks holds
        every seat of every session up to them (sessions and events are only ever added)."""
        row = self.conn.execute("SELECT (SELECT coalesce(max(id), 0) FROM sessions), "
                                "(SELECT coalesce(max(id), 0) FROM events)").fetchone()
        return [row[0], row[1]]

    def changed_since(self, marks: list[int]) -> list[int]:
        """The sessions new, or with new events, since ``marks``."""
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM sessions WHERE id > ? UNION SELECT DISTINCT session_id FROM events WHERE id > ?", marks)]

    def project_sessions(self, ids: Iterable[int], seats: Iterable[tuple[int, str, str | None, list[str] | None]]) -> None:
        """``project``'s seats for these sessions only (the persons as they are)."""
        wanted = sorted(set(ids))
        self.conn.execute("DELETE FROM club_seats WHERE session_id IN (SELECT value FROM json_each(?))",
                          [json.dumps(wanted)])
        rows: dict[tuple[int, str], tuple[str, str | None, str | None]] = {}
        for sid, seat, person, amb in seats:
            rows[(sid, seat.translate(_NOCASE))] = (seat, person, json.dumps(amb) if amb else None)
        self.conn.executemany("INSERT OR REPLACE INTO club_seats (session_id, seat, person, ambiguous) "
                              "VALUES (?, ?, ?, ?)", [(sid, *row) for (sid, _k), row in rows.items()])

    def seats_to_place(self) -> list[tuple[int, str | None, str | None, str]]:
        """Every seat of every session held here: (session id, its device, its uid, the name typed
        there), from the seating and from whoever has a running total (a seat taken later)."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT s.id, s.device, s.uid, p.value FROM sessions s, json_each(s.players) p "
            "UNION SELECT s.id, s.device, s.uid, t.player FROM sessions s JOIN totals t ON t.session_id = s.id")]

    def project(self, persons: Iterable[tuple[str, str, str, bool, list[str]]],
                seats: Iterable[tuple[int, str, str | None, list[str] | None]]) -> None:
        """The roster in force from now on: every person and every seat the club knows (what was
        there and is not any more taken away; only the rows that differ written, so a sync that
        changed nothing writes nothing)."""
        self.project_persons(persons)
        self._place(self.conn.execute("SELECT session_id, seat, person, ambiguous FROM club_seats"), seats)

    def project_persons(self, persons: Iterable[tuple[str, str, str, bool, list[str]]], every: bool = True) -> None:
        """``project``'s persons alone: every person (one not among them taken away), or (``every``
        False) these persons only."""
        want_persons = {p: (n, lead, int(r), json.dumps(names, ensure_ascii=False)) for p, n, lead, r, names in persons}
        have_persons = {r[0]: tuple(r[1:]) for r in self.conn.execute(
            "SELECT id, name, leader, retired, names FROM club_persons" + ("" if every else
            " WHERE id IN (SELECT value FROM json_each(?))"), [] if every else [json.dumps(sorted(want_persons))])}
        if every:
            self.conn.executemany("DELETE FROM club_persons WHERE id = ?",
                                  [[p] for p in have_persons if p not in want_persons])
        self.conn.executemany("INSERT OR REPLACE INTO club_persons (id, name, leader, retired, names) "
                              "VALUES (?, ?, ?, ?, ?)",
                              [(p, *v) for p, v in want_persons.items() if have_persons.get(p) != v])

    def _place(self, have_rows: Iterable[Any], seats: Iterable[tuple[int, str, str | None, list[str] | None]]) -> None:
        """The seats ``have_rows`` (rows of club_seats) become ``seats``: only the rows that differ written."""
        want: dict[tuple[int, str], tuple[str, str | None, str | None]] = {}
        for sid, seat, person, amb in seats:  # a seat given twice in other cases: the last stands, as REPLACE did
            want[(sid, seat.translate(_NOCASE))] = (seat, person, json.dumps(amb) if amb else None)
        have = {(r[0], r[1].translate(_NOCASE)): (r[1], r[2], r[3]) for r in have_rows}
        self.conn.executemany("DELETE FROM club_seats WHERE session_id = ? AND seat = ?",
                              [(sid, row[0]) for (sid, k), row in have.items()
                               if (sid, k) not in want or want[(sid, k)][0] != row[0]])
        self.conn.executemany("INSERT OR REPLACE INTO club_seats (session_id, seat, person, ambiguous) "
                              "VALUES (?, ?, ?, ?)",
                              [(sid, *row) for (sid, k), row in want.items() if have.get((sid, k)) != row])

    def seat_names(self) -> set[str]:
        """Every name typed at a seat of a session held here, once each."""
        return {r[0] for r in self.conn.execute(
            "SELECT DISTINCT p.value FROM sessions s, json_each(s.players) p UNION SELECT DISTINCT player FROM totals")}

    def seats_named(self, names: Iterable[str]) -> list[tuple[int, str | None, str | None, str]]:
        """``seats_to_place`` of the seats typed with one of these names only."""
        wanted = json.dumps(sorted(set(names)), ensure_ascii=False)
        return [tuple(r) for r in self.conn.execute(
            "WITH names(name) AS (SELECT value FROM json_each(?)) "
            "SELECT s.id, s.device, s.uid, p.value FROM sessions s, json_each(s.players) p "
            "WHERE p.value IN (SELECT name FROM names) "
            "UNION SELECT s.id, s.device, s.uid, t.player FROM totals t JOIN sessions s ON s.id = t.session_id "
            "WHERE t.player IN (SELECT name FROM names)", [wanted])]

    def project_named(self, names: Iterable[str], seats: Iterable[tuple[int, str, str | None, list[str] | None]]) -> None:
        """``project``'s seats typed with these names only (every other seat as it is)."""
        wanted = json.dumps(sorted(set(names)), ensure_ascii=False)
        self._place(self.conn.execute("SELECT session_id, seat, person, ambiguous FROM club_seats "
                                      "WHERE seat IN (SELECT value FROM json_each(?))", [wanted]), seats)

    def persons(self) -> list[dict[str, Any]]:
        return [{"id": r[0], "name": r[1], "leader": r[2], "retired": bool(r[3]), "names": json.loads(r[4])}
                for r in self.conn.execute("SELECT id, name, leader, retired, names FROM club_persons")]

    def ambiguous_seats(self, session_ids: Iterable[int] | None = None) -> list[tuple[int, str, list[str]]]:
        """(session id, seat, the persons it may be) of every seat more than one person of the
        club may have sat in (of these sessions only, given them), in the order held."""
        if session_ids is None:
            rows = self.conn.execute("SELECT session_id, seat, ambiguous FROM club_seats "
                                     "WHERE ambiguous IS NOT NULL ORDER BY session_id, seat")
        else:
            rows = self.conn.execute(
                "SELECT c.session_id, c.seat, c.ambiguous FROM json_each(?) ids JOIN club_seats c "
                "ON c.session_id = ids.value WHERE c.ambiguous IS NOT NULL ORDER BY c.session_id, c.seat",
                [json.dumps(sorted(set(session_ids)))])
        return [(r[0], r[1], json.loads(r[2])) for r in rows]

    def seats_of(self, person: str) -> list[tuple[int, str]]:
        """(session id, seat name) of every seat that counts for a person (a leader)."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT session_id, seat FROM club_seats WHERE person = ? ORDER BY session_id", [person])]

    def sessions_of(self, ids: Iterable[int]) -> dict[int, Session]:
        """The sessions of these ids (a person's nights, not every session of the club)."""
        return {s.id: s for s in map(session_row, self.conn.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
            [json.dumps(sorted(set(ids)))]))}

    def seats_at(self, ids: Iterable[int]) -> list[tuple[int, str | None, str | None, str]]:
        """``seats_to_place`` of these sessions only."""
        wanted = json.dumps(sorted(set(ids)))
        return [tuple(r) for r in self.conn.execute(
            "WITH ids(id) AS (SELECT value FROM json_each(?)) "
            "SELECT s.id, s.device, s.uid, p.value FROM ids JOIN sessions s ON s.id = ids.id, json_each(s.players) p "
            "UNION SELECT s.id, s.device, s.uid, t.player FROM ids JOIN sessions s ON s.id = ids.id "
            "JOIN totals t ON t.session_id = s.id", [wanted])]

    def seat_persons(self, session_ids: Iterable[int] | None = None) -> dict[tuple[int, str], str]:
        """(session id, seat folded to lower case) -> the person who sat there."""
        if session_ids is None:
            rows = self.conn.execute("SELECT session_id, seat, person FROM club_seats WHERE person IS NOT NULL")
        else:
            rows = self.conn.execute(
                "SELECT c.session_id, c.seat, c.person FROM json_each(?) ids JOIN club_seats c "
                "ON c.session_id = ids.value WHERE c.person IS NOT NULL", [json.dumps(sorted(set(session_ids)))])
        return {(r[0], r[1].lower()): r[2] for r in rows}

    # -- closed seasons (`pan club season close`): a projection of the roster, as the seats are ----

    def project_seasons(self, seasons: dict[str, list[str]]) -> None:
        """The closed seasons in force from now on (only the seasons that differ rewritten)."""
        have: dict[str, set[str]] = {}
        for name, fp in self.conn.execute("SELECT name, fingerprint FROM club_seasons"):
            have.setdefault(name, set()).add(fp)
        want = {name: {"", *fps} for name, fps in seasons.items()}
        changed = [name for name in {*have, *want} if have.get(name) != want.get(name)]
        self.conn.executemany("DELETE FROM club_seasons WHERE name = ?", [[name] for name in changed])
        self.conn.executemany("INSERT INTO club_seasons (name, fingerprint) VALUES (?, ?)",
                              [(name, fp) for name in changed if name in want for fp in sorted(want[name])])

    def closed_season(self, name: str) -> set[str] | None:
        """The fingerprints a closed season counts; None when the club has not closed it."""
        fps = {r[0] for r in self.conn.execute("SELECT fingerprint FROM club_seasons WHERE name = ?", [name])}
        return fps - {""} if fps else None

    def closed_seasons(self) -> dict[str, int]:
        """Each closed season and how many sessions it counts."""
        return {r[0]: r[1] for r in self.conn.execute(
            "SELECT name, count(*) - 1 FROM club_seasons GROUP BY name ORDER BY name")}

    def archive_files(self) -> list[tuple[str, str, str, str, int, int]]:
        """Each archive file `pan sync` last wrote or read in the folder: (the session's device,
        its uid, the file, the file's content fingerprint, the events it holds, whether closed)."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT device, uid, path, fingerprint, events, closed FROM sync_files")]

    def held_events(self, session_ids: Iterable[int]) -> dict[int, int]:
        """The events held here of each of these sessions (its last seq, as `pan sync` counts them)."""
        return {r[0]: r[1] for r in self.conn.execute(
            "SELECT ids.value, coalesce((SELECT max(seq) FROM events e WHERE e.session_id = ids.value), 0) "
            "FROM json_each(?) ids", [json.dumps(sorted(set(session_ids)))])}
