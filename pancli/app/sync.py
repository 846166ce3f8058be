"""One history across hosts and tables: `pan sync FOLDER` through any folder a file-sync engine
shares (Syncthing, Nextcloud, a cloud drive, a git repository). pancli only reads and writes
files there.

Identity. Every database has a random device id (``settings.device_id``, made once by migration
m006). Every session has a global id: the device that records it and a random uid. A session has
exactly one writer, its device; elsewhere it is read-only.

The folder. Each device writes only in its own subfolder, named by its id::

    FOLDER/<device id>/device.json              who it is, when it last synced, what it holds
    FOLDER/<device id>/<name>--<uid>.toml       one archive per session it recorded, open or closed

Each archive is the `pan export` archive (the session's global id in its header) with a
``[sync]`` table at its very end holding the archive's fingerprint: a file still arriving, cut
short or edited does not match it. Files are written whole (a temporary file renamed over the
old one); the same content is never written again, so a second sync changes no file but the
device's own ``device.json`` (the time it last synced).

Reading. Every archive in every device's subfolder is read by its content, whatever its file
name (a sync engine's conflict copy, ``*.sync-conflict-*``, is read like any other). Hidden
files (a sync engine's or pancli's temporary files) are skipped; links are never followed. For
each session, every copy is compared with the one held here (archive.compare): the same or
older, nothing to do; newer (the same events and more), its new events are replayed and
appended (archive.extend_session); a contradiction (the session recorded on two devices, an
edited file, a diverging conflict copy) is reported with both sides and nothing is changed. A
copy not yet complete is skipped and read again next time.
"""

from __future__ import annotations

import json
import os
import re
import socket
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w

from pancli.app import archive as arc, archive_check, files
from pancli.app.archive_check import MAX_BYTES
from pancli.app.files import session_file_name
from pancli.core.errors import InputError, PanError
from pancli.core.names import MAX_SESSION_NAME, clean_name
from pancli.core.rows import Session
from pancli.storage.log import now

DEVICE_FORMAT = "pancli-device"
MANIFEST = "device.json"
_ID = re.compile(r"[0-9a-f]{32}")


@dataclass
class Copy:
    """One archive found in the folder."""

    path: Path
    archive: dict
    events: list
    label: str | None

    @property
    def global_id(self) -> tuple[str, str]:
        return self.archive["session"]["device"], self.archive["session"]["uid"]

    @property
    def header(self) -> dict:
        return self.archive["session"]


@dataclass
class Outcome:
    """What one sync did and found."""

    folder: str
    device: str
    label: str
    written: list[dict] = field(default_factory=list)      # this device's sessions written: name, events
    unchanged: int = 0                                      # this device's sessions whose file was up to date
    imported: list[dict] = field(default_factory=list)     # name, device, label, events
    extended: list[dict] = field(default_factory=list)     # name, device, label, events (new ones)
    conflicts: list[dict] = field(default_factory=list)    # session, device, seq, why, sides [{where, events}]
    incomplete: list[dict] = field(default_factory=list)   # file, why: read again next time
    refused: list[dict] = field(default_factory=list)      # file, why: links, foreign files

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.refused

    def to_json(self) -> dict:
        return {"folder": self.folder, "device": self.device, "label": self.label, "ok": self.ok,
                "written": self.written, "unchanged": self.unchanged, "imported": self.imported,
                "extended": self.extended, "conflicts": self.conflicts, "incomplete": self.incomplete,
                "refused": self.refused}


# -- this device ---------------------------------------------------------------------------

def default_label() -> str:
    host = socket.gethostname().split(".")[0]
    return re.sub(r"[^\w-]+", "-", host).strip("-")[:32] or "device"


def device_label(store) -> str:
    return store.setting("device_label") or default_label()


def clean_label(label: str) -> str:
    text = clean_name(label, "device")
    if len(text) > 32 or not re.fullmatch(r"\w[\w .-]*", text):
        raise InputError(f"'{text}' is not a device name", "use up to 32 letters, digits, spaces, dots and dashes")
    return text


def safe_label(label: str | None, device: str) -> str:
    """Another device's name as it says it, if it is a sound one; else the start of its id."""
    try:
        return clean_label(label) if label else device[:8]
    except InputError:
        return device[:8]


def archive_file_name(session: Session) -> str:
    """A session's archive in its device's subfolder: its name to read (as `pan export` names
    files) and its uid, which makes it unique."""
    return session_file_name(session.name, f"--{session.uid}.toml")


def sync_text(archive: dict, label: str, written_at: str) -> str:
    """The archive as TOML, ending with the [sync] table that says it is complete."""
    tail = tomli_w.dumps({"sync": {"fingerprint": arc.fingerprint(archive), "events": len(archive["events"]),
                                   "device_label": label, "written_at": written_at}})
    return arc.to_toml(archive) + "\n" + tail


# -- reading the folder -----------------------------------------------------------------------

def _read(path: Path) -> str:
    """A file's text, without following a link (one swapped in after the folder was listed), with
    the checks every archive gets (archive_check: size, binary, UTF-8)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise ValueError(f"larger than {MAX_BYTES // 2**20} MB")
    if b"\x00" in raw:
        raise ValueError("a binary file")
    return raw.decode("utf-8")


def read_copy(path: Path) -> Copy | str | tuple[str]:
    """An archive file: a Copy, a str saying why it is not complete yet (read again next time),
    or a 1-tuple saying why it is refused (complete but not what it claims: edited or damaged)."""
    try:
        text = _read(path)
    except (OSError, ValueError, UnicodeDecodeError) as e:
        return f"cannot be read yet ({getattr(e, 'strerror', None) or e})"
    try:
        raw = archive_check.parse(text, str(path))
    except InputError:
        return "not complete TOML (still arriving, or cut short)"
    tail = raw.get("sync") if isinstance(raw, dict) else None
    if not isinstance(tail, dict) or not isinstance(tail.get("fingerprint"), str):
        return "no [sync] end (still arriving, or cut short)"
    try:
        archive = arc.parse(text, str(path))  # every field checked (archive_check), then its shape
    except InputError as e:
        return (f"not a pancli archive: {e.message}",)
    s = archive["session"]
    if not s.get("device"):
        return ("an archive without a session id (device and uid)",)
    if arc.fingerprint(archive) != tail["fingerprint"]:
        return ("its content does not match its [sync] fingerprint: edited or damaged",)
    label = tail.get("device_label") if isinstance(tail.get("device_label"), str) else None
    return Copy(path, archive, arc.archive_events(archive), label)


def scan(root: Path, out: Outcome) -> tuple[list[Copy], list[dict]]:
    """Every complete archive and device manifest in the devices' subfolders; links refused."""
    copies: list[Copy] = []
    manifests: list[dict] = []
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        if entry.is_symlink():
            out.refused.append({"file": entry.path, "why": "a link: pan sync never follows links"})
            continue
        if not entry.is_dir(follow_symlinks=False) or not _ID.fullmatch(entry.name):
            continue  # not a device's subfolder: left alone
        for f in sorted(os.scandir(entry.path), key=lambda e: e.name):
            if f.name.startswith("."):
                continue  # a temporary file, a sync engine's or ours
            if f.is_symlink():
                out.refused.append({"file": f.path, "why": "a link: pan sync never follows links"})
                continue
            if not f.is_file(follow_symlinks=False):
                continue
            path = Path(f.path)
            if f.name.endswith(".toml"):
                got = read_copy(path)
                if isinstance(got, Copy):
                    copies.append(got)
                elif isinstance(got, tuple):
                    out.refused.append({"file": f.path, "why": got[0]})
                else:
                    out.incomplete.append({"file": f.path, "why": got})
            elif f.name.startswith("device") and f.name.endswith(".json"):
                m = read_manifest(path)
                if m is not None and m["device"] == entry.name:
                    manifests.append(m)
    return copies, manifests


def read_manifest(path: Path) -> dict | None:
    try:
        data = json.loads(_read(path))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("format") != DEVICE_FORMAT or not isinstance(data.get("device"), str) \
            or not _ID.fullmatch(data["device"]):
        return None
    label = data.get("label") if isinstance(data.get("label"), str) else None
    last = data.get("last_sync") if isinstance(data.get("last_sync"), str) else None
    return {"device": data["device"], "label": label, "last_sync": last}


# -- writing ------------------------------------------------------------------------------------

def write_atomic(path: Path, text: str) -> None:
    """Whole or not at all (app/files.py: a hidden temporary file beside it, flushed, renamed over
    it, the folder flushed; a temporary file left by a killed sync is removed by the next one)."""
    files.write_atomic(path, text)


# -- the sync -----------------------------------------------------------------------------------

def folder_of(store, folder: str | None, create: bool = False) -> Path:
    """The folder to sync with: the one given, else the one used last time."""
    given = folder or store.setting("sync_folder")
    if not given:
        raise InputError("no folder given, and this database has not synced before", "pan sync FOLDER")
    root = Path(given).expanduser()
    if create and not root.exists() and not root.is_symlink():
        try:
            root.mkdir()
        except OSError as e:
            raise InputError(f"cannot create {root}: {e.strerror or e}", "create it yourself") from None
    if not root.is_dir():
        raise InputError(f"no folder {root}", "give the folder your file-sync engine shares, or --create to start one")
    root = root.resolve()
    db = Path(os.path.realpath(store.path))
    if root == db.parent or root in db.parents:
        raise InputError(f"the database {db} is inside the synced folder {root}",
                         "a sync engine would copy it half-written: keep the database out of the folder")
    return root


def sync(store, folder: str | None = None, label: str | None = None, create: bool = False) -> Outcome:
    root = folder_of(store, folder, create)
    with store.lock():
        if label:
            store.set_setting("device_label", clean_label(label))
        me = store.sync.device_id()
        mine = device_label(store)
        store.set_setting("sync_folder", str(root))
    out = Outcome(str(root), me, mine)
    own_dir = root / me
    if own_dir.is_symlink():
        raise InputError(f"{own_dir} is a link", "pan sync never follows links; remove it and sync again")
    copies, manifests = scan(root, out)
    seen = now()
    with store.lock():
        for m in manifests:
            store.sync.note_device(m["device"], safe_label(m["label"], m["device"]), m["last_sync"], seen)
    labels = {m["device"]: safe_label(m["label"], m["device"]) for m in manifests if m["label"]}
    groups: dict[tuple[str, str], list[Copy]] = {}
    for c in copies:
        groups.setdefault(c.global_id, []).append(c)
    conflicted: set[tuple[str, str]] = set()
    for gid, group in groups.items():
        if not bring_in(store, gid, group, labels, out):
            conflicted.add(gid)
    written_at = now()
    own_dir.mkdir(exist_ok=True)
    on_disk = {c.path.name: arc.fingerprint(c.archive) for c in copies if c.path.parent == own_dir}
    events = 0
    for s in store.sync.sessions_of_device(me):
        data = arc.build(store, s)
        events += len(data["events"])
        if (me, s.uid) in conflicted:
            continue  # its file contradicts this database: left for the group to look at
        name = archive_file_name(s)
        if on_disk.get(name) == arc.fingerprint(data):
            out.unchanged += 1
            continue
        write_atomic(own_dir / name, sync_text(data, mine, written_at))
        out.written.append({"name": s.name, "events": len(data["events"]), "file": str(own_dir / name)})
    own = store.sync.sessions_of_device(me)
    write_atomic(own_dir / MANIFEST, json.dumps(
        {"format": DEVICE_FORMAT, "version": 1, "device": me, "label": mine, "last_sync": written_at,
         "sessions": len(own), "events": events}, indent=1) + "\n")
    with store.lock():
        store.sync.note_device(me, mine, written_at, written_at)
    return out


def _sides(held: Session | None, held_events: int, copies: list[Copy]) -> list[dict]:
    sides = []
    if held is not None:
        sides.append({"where": "this database", "session": held.name, "events": held_events})
    sides += [{"where": str(c.path), "session": c.header["name"], "events": len(c.events),
               "device_label": c.label} for c in copies]
    return sides


def bring_in(store, gid: tuple[str, str], group: list[Copy], labels: dict, out: Outcome) -> bool:
    """The copies in the folder of one session, against the one held here: import it, extend it,
    or report a contradiction (and change nothing). False on a contradiction."""
    device, uid = gid
    label = safe_label(labels.get(device) or next((c.label for c in group if c.label), None), device)
    with store.snapshot():
        held = store.sync.session_by_global_id(device, uid)
        rows = store.log.session_log(held.id) if held else None
        mine = arc.log_events(store, held, rows) if held else []
    newer: list[Copy] = []
    for c in group:
        if held is None:
            newer.append(c)
            continue
        how = arc.compare(arc.session_header(held), mine, c.header, c.events)
        if how["relation"] == "conflict":
            out.conflicts.append({"session": held.name, "device": device, "device_label": label, "uid": uid,
                                  "seq": how["seq"], "why": how["why"], "sides": _sides(held, len(mine), [c])})
            return False
        if how["relation"] == "newer":
            newer.append(c)
    if not newer:
        return True
    newer.sort(key=lambda c: (len(c.events), bool(c.header.get("closed_at"))))
    for a, b in zip(newer, newer[1:]):
        how = arc.compare(a.header, a.events, b.header, b.events)
        if how["relation"] == "conflict":
            out.conflicts.append({"session": held.name if held else a.header["name"], "device": device,
                                  "device_label": label, "uid": uid, "seq": how["seq"], "why": how["why"],
                                  "sides": _sides(held, len(mine), [a, b])})
            return False
    best = newer[-1]
    try:
        if held is None:
            name = unused_name(store, best.header["name"], label, device)
            got = arc.import_archive(store, best.archive, as_name=name, make_current=False)
            if got["status"] == "imported":
                out.imported.append({"name": got["name"], "device": device, "device_label": label,
                                     "events": len(best.events)})
        else:
            got = arc.extend_session(store, held, best.archive, rows)
            out.extended.append({"name": held.name, "device": device, "device_label": label,
                                 "events": got["events"]})
    except PanError as e:  # the copy does not replay to what it says (edited), or a race
        out.refused.append({"file": str(best.path), "why": e.message})
        return False
    except (TypeError, KeyError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as e:
        # a value the archive checks let through but a game core cannot take (as `pan import` says)
        out.refused.append({"file": str(best.path), "why": f"it holds an event pancli cannot replay ({type(e).__name__})"})
        return False
    return True


def unused_name(store, name: str, label: str, device: str) -> str:
    """The session's own name, or, taken here by another session, the name with its device's
    (shortened to fit a session name's length)."""
    def fit(suffix: str) -> str:
        return name[:MAX_SESSION_NAME - len(suffix)] + suffix

    with store.snapshot():
        for candidate in (name, fit(f"@{label}"), fit(f"@{label}-{device[:6]}")):
            if not store.sync.name_taken(candidate):
                return candidate
        n = 2
        while store.sync.name_taken(fit(f"@{label}-{device[:6]}-{n}")):
            n += 1
    return fit(f"@{label}-{device[:6]}-{n}")


# -- status -------------------------------------------------------------------------------------

def status(store) -> dict:
    """What each device has contributed to this database, and when it last synced."""
    with store.snapshot():
        me = store.sync.device_id()
        devices = {d["id"]: d for d in store.sync.devices()}
        rows = store.sync.contributions()
        label = device_label(store)
        folder = store.setting("sync_folder")
    out = []
    for r in rows:
        d = devices.get(r["device"], {})
        out.append({"device": r["device"], "label": label if r["device"] == me else d.get("label"),
                    "this": r["device"] == me, "sessions": r["sessions"], "events": r["events"],
                    "last_event": r["last_event"], "last_sync": d.get("last_sync")})
    for dev, d in devices.items():
        if not any(o["device"] == dev for o in out):
            out.append({"device": dev, "label": label if dev == me else d["label"], "this": dev == me,
                        "sessions": 0, "events": 0, "last_event": None, "last_sync": d["last_sync"]})
    out.sort(key=lambda o: (not o["this"], o["label"] or "", o["device"]))
    return {"device": me, "label": label, "folder": folder, "devices": out}
