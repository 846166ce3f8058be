"""The club's roster read from the synced folder: every registrar's entry files read as a
stranger's (a file as last seen not opened again), and the roster as this host holds it taken up
with what is new, or folded again from every entry (pancli/app/club.py writes entries and runs
the commands; pancli/app/club_held.py keeps the fold and places the seats).
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pancli.app.club_held import (
    STATE_VERSION,
    Held,
    basis,
    held_of,
    held_summary,
    keep,
    project,
    project_changed,
    project_sessions,
)
from pancli.app.sync.folder import NotRegular, read_bytes, settled_ns, split_signature, why_not_read
from pancli.app.sync.run import folder_of
from pancli.core import club, signing
from pancli.core.club import Entry, Refusal, Roster
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.storage.store import Store

ROSTER = "club"
FILE = re.compile(r"[0-9]{8}(\.sync-conflict-[0-9A-Za-z-]+)?\.json")  # Syncthing keeps a conflict's other side so
MAX_FILES = 100_000


@dataclass
class Folder:
    """What one reading of the folder's rosters found."""

    root: Path
    entries: list[Entry] = field(default_factory=list)       # entries new since the last reading (or changed)
    kept: int = 0                                            # entries as last read (not parsed again): in ``store``
    refused: list[Refusal] = field(default_factory=list)     # files that are no entry (entry = the file)
    errors: list[dict[str, str]] = field(default_factory=list)
    read: list[tuple[str, int, int, bytes | None, str | None, str | None, int | None, int]] = \
        field(default_factory=list)                          # rows to remember (club_files)
    gone: list[str] = field(default_factory=list)            # remembered files no longer there
    store: Store | None = None                               # the database the listing was compared with
    but: list[str] = field(default_factory=list)             # its remembered files that are not kept
    folders: list[tuple[str, int, str]] = field(default_factory=list)  # rows to remember (club_folders)
    folders_gone: list[str] = field(default_factory=list)
    kept_text: str | None = None                             # the kept entries' digests, as ``basis`` joined them

    def basis(self, more: Iterable[str] = ()) -> str:
        """``club_held.basis`` of the kept entries (every entry the store remembers but of the
        files ``but``: SQLite sorts and joins their digests, once a reading) and of ``more``."""
        if self.store is None:
            return basis(more)
        if self.kept_text is None:
            with self.store.snapshot():
                self.kept_text = self.store.club.entries_text(self.but)
        text = self.kept_text
        extra = list(more)
        if extra:
            return basis([*text.split("\n"), *extra] if text else extra)
        return hashlib.sha256(text.encode("ascii")).hexdigest()

    def every_entry(self) -> list[Entry]:
        """Every entry of the folder: the new ones and the kept ones, parsed from what was remembered."""
        if not self.kept or self.store is None:
            return list(self.entries)
        with self.store.snapshot():
            held = self.store.club.entries(self.but)
        return [*self.entries, *(Entry(json.loads(body), digest) for digest, body in held)]


def read_folder(root: Path, store: Store | None = None) -> Folder:
    """Every device's roster entries, each read without following a link, bounded, parsed and its
    signature checked against the key it names (whether that key has the right is the roster's
    to say). A file that ``store`` remembers as an entry and whose size, mtime, ctime and inode
    are all as then is not opened again (kept: an edit in place changes the ctime, a replaced file
    or folder the inode); one whose signed line is the one remembered is not verified again. The
    listing is compared with what was remembered as a whole (lists or sets of tuples, compared in
    C): Python looks only at the files that differ."""
    out = Folder(root, store=store)
    try:
        devices = sorted(os.scandir(root), key=_name)
    except OSError as e:
        out.errors.append({"path": str(root), "why": why_not_read(e)})
        return out
    listed: list[tuple[str, int, int, int, int]] = []   # path, size, mtime_ns, ctime_ns, ino
    by_folder: list[tuple[str, int, int]] = []          # each roster folder listed: its listing's slice
    count = 0
    refused: list[tuple[str, Refusal]] = []             # by path: in the order of the listing
    too_many: list[Refusal] = []
    vanished: set[str] = set()
    for device in devices:
        if not club.DEVICE.fullmatch(device.name) or not device.is_dir(follow_symlinks=False):
            continue
        where = Path(device.path) / ROSTER
        if where.is_symlink():
            refused.append((str(where), Refusal(str(where), "club.link")))
            continue
        if not where.is_dir():
            continue
        try:
            files_here = sorted(os.scandir(where), key=_name)
        except OSError as e:
            out.errors.append({"path": str(where), "why": why_not_read(e)})
            continue
        start = len(listed)
        for f in files_here:
            name = f.name
            if name[0] == "." or not name.endswith(".json"):
                continue  # a temporary file, ours or a sync engine's
            count += 1
            if count > MAX_FILES:
                too_many.append(Refusal(str(where), "club.too_many", {"limit": MAX_FILES}))
                break
            try:
                st = f.stat(follow_symlinks=False)  # before it is read: a change after this shows next time
            except OSError:  # gone since it was listed: the next reading has what replaced it
                vanished.add(f.path)
                continue
            listed.append((f.path, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
        by_folder.append((str(where), start, len(listed)))
        if too_many:
            break
    new, other, rows = listed, set(), {}  # nothing remembered: every file is new
    runs: dict[str, tuple[int, str]] = {}  # each folder's run of files as last seen (club_folders)
    if store is not None:
        with store.snapshot():
            runs = store.club.folders()
            rest, seen = _rest(store, listed, by_folder, runs)
            if seen != rest:  # (equal, in the same order: every file as last seen, nothing else remembered)
                now, then = set(rest), set(seen)
                new = sorted(now - then)      # new or changed since last seen (by path: the listing's order)
                other = {p for p, *_st in then - now}  # remembered and not as last seen: changed, gone, unlisted
                rows = store.club.last_seen(p for p, *_st in new)
            else:
                new = []
    new_paths = {p for p, *_st in new}
    if not too_many:  # a listing cut short says nothing of the files after it
        out.gone = sorted(other - new_paths - vanished)
    touched: set[str] = set()
    for path, size, mtime_ns, ctime_ns, ino in new:
        row = rows.get(path)
        known = row[2] if row is not None else None
        got = _read_entry(Path(path), Path(path).parent.parent.name, known)
        if got is None:
            continue  # taken away since it was listed
        ctime = settled_ns(ctime_ns)
        digest, code = (got.digest, None) if isinstance(got, Entry) else (None, got.code)
        if row != (size, mtime_ns, digest, code, ctime, ino):
            body = club.canonical(got.data) if isinstance(got, Entry) else None
            out.read.append((path, size, mtime_ns, body, digest, code, ctime, ino))
        if isinstance(got, Refusal):
            refused.append((path, got))  # read again every time (its words need all it said); remembered once
        elif known == got.digest:
            touched.add(path)  # the same entry (touched, copied back, still settling)
        else:
            out.entries.append(got)
    out.but = sorted((other | new_paths) - touched)
    out.kept = len(listed) - len(new) + len(touched)
    if store is not None:
        written = {row[0]: row for row in out.read}
        not_kept = set(out.but)
        for folder, start, end in by_folder:  # how far each folder is a run of settled entries now
            k = start
            while k < end and listed[k][0] not in not_kept and (
                    listed[k][0] not in new_paths or _settled_entry(written.get(listed[k][0]))):
                k += 1
            now_known = (k - start, listing_hash(listed[start:k]))
            if runs.get(folder) != now_known:
                out.folders.append((folder, *now_known))
        if not too_many:
            out.folders_gone = sorted(runs.keys() - {folder for folder, _s, _e in by_folder})
    out.refused = [r for _p, r in sorted(refused, key=lambda x: x[0])] + too_many
    return out


def listing_hash(files: list[tuple[str, int, int, int, int]]) -> str:
    """What identifies a run of listed files: their paths, sizes, mtimes, ctimes and inodes
    (serialized by marshal, in C: a Python whose marshal differs sees every folder changed once)."""
    return hashlib.sha256(marshal.dumps(files, 0)).hexdigest()  # version 0: by value alone (no references, no interning)


def _settled_entry(row: tuple[Any, ...] | None) -> bool:
    """Whether a file just read is remembered as an entry with a settled ctime (as last seen next time)."""
    return row is not None and row[4] is not None and row[6] is not None


def _rest(store: Store, listed: list[tuple[str, int, int, int, int]], by_folder: list[tuple[str, int, int]],
          known: dict[str, tuple[int, str]]) -> tuple[list[tuple[str, int, int, int, int]],
                                                      list[tuple[str, int, int, int | None, int | None]]]:
    """The listing and what was last seen, each without the first files of each folder that are
    as they were at the last reading (their run's hash the same): a folder whose chain only grew
    is compared by its new files. Every file is compared when a remembered file belongs to no
    folder known (a database synced before folders were kept, a folder gone)."""
    rest: list[tuple[str, int, int, int, int]] = []
    seen: list[tuple[str, int, int, int | None, int | None]] = []
    listed_here = {where for where, _s, _e in by_folder}
    for where, start, end in by_folder:
        k, h = known.get(where, (0, ""))
        if not (0 < k <= end - start and listing_hash(listed[start:start + k]) == h):
            k = 0
        rest += listed[start + k:end]
        seen += store.club.seen_in(where, listed[start + k - 1][0] if k else None)
    for where in sorted(known.keys() - listed_here):  # a folder no longer listed: every file of it gone
        seen += store.club.seen_in(where, None)
    if len(listed) - len(rest) + len(seen) != store.club.files_count():  # a file of no folder known
        return listed, store.club.seen()
    return rest, seen


def _name(e: os.DirEntry[str]) -> str:
    return e.name


def _read_entry(path: Path, device: str, known: str | None = None) -> Entry | Refusal | None:
    """The entry in a file, read whole; parsed and verified only when its signed line is not the
    one of digest ``known``, remembered as verified."""
    if not FILE.fullmatch(path.name):
        return Refusal(str(path), "club.file_name")
    try:
        raw = read_bytes(path, club.MAX_ENTRY_BYTES + 200)
    except FileNotFoundError:
        return None  # taken away by the sync engine since it was listed: the next reading has it
    except ValueError:
        return Refusal(str(path), "club.too_large", {"limit": club.MAX_ENTRY_BYTES})
    except (NotRegular, OSError):
        return Refusal(str(path), "club.not_a_file")
    body, signature = split_signature(raw)
    if signature is None or not body.endswith(b"\n"):
        return Refusal(str(path), "club.unsigned")
    body = body[:-1]
    if known is not None and known == club.digest(body):
        return Entry(json.loads(body), known)
    data = club.parse(body)
    if isinstance(data, Refusal):
        return Refusal(str(path), data.code, data.params)
    if data["by"] != device or not path.name.startswith(f"{data['seq']:08d}"):
        return Refusal(str(path), "club.misplaced")
    if club.canonical(data) != body:
        return Refusal(str(path), "club.not_canonical")
    if not signing.verify(data["key"], signature, signing.CLUB, body):
        return Refusal(str(path), "club.bad_signature")
    return Entry(data, club.digest(body))


def roster_of(store: Store, folder: str | None = None) -> tuple[Roster, Folder]:
    """The club as the folder says it, for the club this database belongs to (its id is kept on
    first sight, so a second club's entries dropped in the folder never take over); what was read
    is remembered and the roster projected onto this database's seats."""
    roster, read, _summary = read_roster(store, folder, True)
    assert roster is not None
    return roster, read


def read_roster(store: Store, folder: str | None, need: bool) -> tuple[Roster | None, Folder, dict[str, Any]]:
    """The roster, taken up from the fold this database holds (club_held.py) with the entries
    new in the folder, or folded again from every entry when that cannot give the same roster;
    the seats projected again where the roster or the sessions changed. A roster that did not
    change is not even loaded unless ``need`` (or it has refusals or contradictions to say): its
    summary (how many entries, how many pending) is. Unless ``need``, new entries of the kinds
    that touch little (``club.PART_KINDS``) are folded on from the fold held in part: what they
    touch is read and written, not the whole chain's aliases and seats (the roster given back is
    then in part, enough for its refusals and contradictions)."""
    root = folder_of(store, folder)
    with store.snapshot():
        pinned = store.setting("club_id")
        summary = held_summary(store, pinned)
        held = held_of(store) if summary is not None else None
    read = read_folder(root, store)
    same = summary is not None and held is not None and summary["basis"] == read.basis()
    roster: Roster | None = None
    changed = not same or bool(read.entries)
    if not changed:
        assert held is not None and summary is not None
        if need or summary["trouble"]:
            roster = _whole(held)
            changed = roster is None
    taken_up: list[Entry] | None = None  # the entries folded on from the held fold, when it was
    sessions: set[str] = set()           # the sessions whose seats a fold in part was restored with
    if changed:
        if same:
            assert held is not None
            roster, taken_up, sessions = _fold_on(held, read.entries, pinned, need)
        if roster is None:
            roster = club.fold(read.every_entry(), pinned)
    if roster is not None and roster.clubs:
        names = "; ".join(f"{name} ({cid[:8]})" for cid, name in roster.clubs.items())
        raise InputError(_("the folder holds {n} clubs: {names}").format(n=len(roster.clubs), names=names),
                         _("say which is this host's with `pan club join ID`"))
    with store.snapshot():
        marks = store.club.marks()
    if not changed and not read.read and not read.gone and not read.folders and not read.folders_gone \
            and summary is not None and summary["marks"] == marks:
        return roster, read, summary  # nothing new anywhere: nothing written
    with store.lock():
        if pinned is None and roster is not None and roster.club is not None:
            store.set_setting("club_id", roster.club)
        store.club.remember_files(read.read, read.gone)
        store.club.remember_folders(read.folders, read.folders_gone)
        if changed:
            assert roster is not None
            since = summary["marks"] if summary is not None else marks  # the seats held were placed up to
            summary = {"basis": read.basis(e.digest for e in read.entries),
                       "marks": store.club.marks(), "entries": roster.count, "pending": len(roster.pending),
                       "trouble": bool(roster.refused or roster.conflicts)}
            now = keep(store, roster, pinned, summary, sessions,
                       held.small["alias_count"] if taken_up is not None and held is not None else 0)
            if roster.name is not None:
                source: Roster | Held = roster if roster.whole else now
                if taken_up is not None and project_changed(store, source, taken_up):
                    project_sessions(store, source, store.club.changed_since(since))
                else:
                    project(store, roster)
        elif summary is not None and summary["marks"] != marks:
            if held is not None and held.small["name"] is not None:
                project_sessions(store, held, store.club.changed_since(summary["marks"]))
            summary = {**summary, "marks": store.club.marks()}
            store.club.keep_state(pinned or "", STATE_VERSION, json.dumps(summary), None)
    assert summary is not None
    return roster, read, summary


def _whole(held: Held) -> Roster | None:
    try:
        return held.whole()
    except (ValueError, KeyError, TypeError, IndexError):  # a state this pancli cannot take up
        return None


def _fold_on(held: Held, new: list[Entry], pinned: str | None, need: bool) \
        -> tuple[Roster | None, list[Entry] | None, set[str]]:
    """The held fold taken up with the new entries: in part when they (and those still waiting)
    are all of ``club.PART_KINDS`` and no whole roster is needed, else whole; (None, None) when it
    cannot be taken up. Also the entries folded on, and the sessions the part was restored with."""
    try:
        waiting = [Entry(held.small["entries"][i][1], held.small["entries"][i][0]) for i in held.small["waiting"]]
        later = [*new, *waiting]
        if not need and all(e.kind in club.PART_KINDS for e in later):
            part = held.part(str(e.data["session"]) for e in later if e.kind == "attribute")
            roster = club.fold_more(part, new, pinned, whole=False)
            sessions = part["sessions"]
        else:
            roster = club.fold_more(held.state(), new, pinned)
            sessions = set()
    except (ValueError, KeyError, TypeError, IndexError):  # a state this pancli cannot take up
        return None, None, set()
    return (roster, later, sessions) if roster is not None else (None, None, set())

