"""This device's sessions written to its own subfolder, signed, with its device.json, and what
was seen of each file remembered for the next sync."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pancli.app import archive as arc, files
from pancli.app.files import session_file_name
from pancli.app.sync import folder as fs
from pancli.app.sync.folder import MANIFEST, Copy
from pancli.app.sync.outcome import Outcome
from pancli.core import signing
from pancli.core.errors import PanError
from pancli.core.rows import Session
from pancli.storage.log import now

if TYPE_CHECKING:
    from pancli.storage.store import Store

DEVICE_FORMAT = fs.DEVICE_FORMAT


def archive_file_name(session: Session) -> str:
    """A session's archive in its device's subfolder: its name to read (as `pan export` names
    files) and its uid, which makes it unique."""
    return session_file_name(session.name, f"--{session.uid}.toml")


def sync_text(archive: dict[str, Any], label: str, written_at: str, seed: bytes) -> str:
    """The archive as TOML, ending with the [sync] table that says it is complete and who wrote
    it, and the signature of all of it."""
    tail = fs.sync_tail(archive, label, written_at, signing.public_key(seed))
    return fs.signed(arc.to_toml(archive) + "\n" + tail, seed)


def write_atomic(path: Path, text: str) -> None:
    """Whole or not at all (app/files.py: a hidden temporary file beside it, flushed, renamed over
    it, the folder flushed; a temporary file left by a killed sync is removed by the next one)."""
    files.write_atomic(path, text)


def _row(path: Path, c_or_session: tuple[str, str | None], events: int, closed: bool, fingerprint: str, size: int,
         mtime_ns: int, tail: str | None, ctime_ns: int | None, ino: int) -> dict[str, Any] | None:
    if tail is None:
        return None
    device, uid = c_or_session
    return {"path": str(path), "size": size, "mtime_ns": mtime_ns, "tail": tail, "device": device, "uid": uid,
            "events": events, "closed": int(closed), "fingerprint": fingerprint, "ctime_ns": ctime_ns, "ino": ino}


def write_own(store: Store, own_dir: Path, me: str, mine: str, seed: bytes, listing: fs.Listing,
              groups: dict[tuple[str, str], list[Copy]], conflicted: set[tuple[str, str]], done: list[Copy], out: Outcome) -> None:
    """This device's sessions written to its subfolder (those whose file is not up to date), its
    device.json, and what was seen of each file remembered for the next sync."""
    rows = list(listing.skipped) + [r for c in done if (r := _row(c.path, c.global_id, len(c.events), bool(c.header.get("closed_at")),
                                          c.fingerprint, c.size, c.mtime_ns, c.tail, c.ctime_ns, c.ino))]
    on_disk = {c.path.name: c.fingerprint for c in done if c.path.parent == own_dir and c.signer is not None
               and c.device == me}
    unchanged_rows = {Path(r["path"]).name: r for r in listing.skipped if r["device"] == me
                      and Path(r["path"]).parent == own_dir}
    writable = True
    try:
        own_dir.mkdir(exist_ok=True)
    except OSError as e:
        if not any(err["path"] == str(own_dir) for err in out.errors):
            out.errors.append({"path": str(own_dir), "why": fs.why_not_read(e)})
        writable = False
    written_at = now()
    events = sessions = 0
    with store.snapshot():
        lengths = store.sync.held_lengths(me)
        own = store.sync.sessions_of_device(me)
    for s in own:
        count, closed = lengths.get((me, s.uid), (0, False))
        events += count
        sessions += 1
        if (me, s.uid) in conflicted or not writable:
            continue  # its file contradicts this database: left for the group to look at
        name = archive_file_name(s)
        row = unchanged_rows.get(name)
        if row is not None and row["events"] == count and bool(row["closed"]) == closed:
            out.unchanged += 1
            continue
        data = arc.build(store, s)
        fp = arc.fingerprint(data)
        if on_disk.get(name) == fp:
            out.unchanged += 1
            continue
        path = own_dir / name
        text = sync_text(data, mine, written_at, seed)
        try:
            write_atomic(path, text)
            st = os.stat(path, follow_symlinks=False)
        except (PanError, OSError) as e:
            out.errors.append({"path": str(path), "why": getattr(e, "message", None) or fs.why_not_read(e)})
            continue
        out.written.append({"name": s.name, "events": len(data["events"]), "file": str(path)})
        raw = text.encode("utf-8")
        row = _row(path, (me, s.uid), count, closed, fp, st.st_size, st.st_mtime_ns, fs.tail_key(raw[-fs.TAIL:]),
                   fs.settled_ctime(st), st.st_ino)
        if row:
            rows.append(row)
    if writable:
        manifest = fs.manifest_text({"format": DEVICE_FORMAT, "version": 2, "device": me, "label": mine,
                                     "last_sync": written_at, "sessions": sessions, "events": events}, seed)
        try:
            write_atomic(own_dir / MANIFEST, manifest)
        except PanError as e:
            out.errors.append({"path": str(own_dir / MANIFEST), "why": e.message})
    kept = {r["path"] for r in rows}
    changed = [r for r in rows if listing.remembered.get(r["path"]) != r]  # a sync that found nothing new writes none
    with store.lock():
        store.sync.forget_files([p for p in store.sync.seen_paths() if p not in kept])
        store.sync.remember_files(changed)
        store.sync.note_device(me, mine, written_at, written_at)
