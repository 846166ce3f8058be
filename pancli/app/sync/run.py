"""One history across hosts and tables: `pan sync FOLDER` through any folder a file-sync engine
shares (Syncthing, Nextcloud, a cloud drive, a git repository). pancli only reads and writes
files there.

Identity. Every database has a device id (``settings.device_id``) and an Ed25519 key pair made
once (``settings.device_key``, migration m007; never written to the folder). A new database's id
is derived from its public key (core/signing.device_id_of), so nobody can claim it without the
key, and whoever signs for it with another key is reported as an impostor; a database from
pancli 0.2 keeps its random id, and a host that holds sessions of it from before binds it to its
key the first time it sees a file it signed (trust on first use, as SSH does); any other host
waits for `pan sync trust` (a new id claimed by another key looks the same). Every session has a
global id: the device that records it and a random uid. A session has exactly one writer, its
device; elsewhere it is read-only.

The folder. The one given, else the one of the last sync (``settings.sync_folder``, its whole
path); it is shown as the host typed it (``settings.sync_folder_as_given``) while those words
still name it from the working folder. Each device writes only in its own subfolder, named by
its id::

    FOLDER/<device id>/device.json              who it is (its public key), when it last synced; signed
    FOLDER/<device id>/<name>--<uid>.toml       one archive per session it recorded, open or closed

Each archive is the `pan export` archive (the session's global id in its header) with a
``[sync]`` table at its end holding the archive's fingerprint and the writer's public key, then
the signature of every byte before it (app/sync/folder.py). Files are written whole (a temporary
file renamed over the old one); the same content is never written again, so a second sync
changes no file but the device's own ``device.json`` (the time it last synced).

Trust. A copy of a session is used only if its signature holds under the key pinned for the
session's device (the key its id derives from, the one first seen in its own subfolder of a 0.2
device met before, or one pinned ahead with `pan sync trust`). So a file may be relayed: device C takes A's session from
a file B copied, as long as A signed it. Everything else is reported (file, the device it
claims, why) and changes nothing: an unsigned file (pancli 0.2 wrote it) unless it is a session
held here already, unchanged; a bad signature; a signature by another key (a key that changed
is refused until `pan sync forget` drops the old one). A session this device records is never
extended, replaced or re-published from the folder, whoever signed the copy.

Reading. Every archive in every device's subfolder is read by its content, whatever its file
name (a sync engine's conflict copy, ``*.sync-conflict-*``, is read like any other). Hidden
files (a sync engine's or pancli's temporary files) are skipped; links are never followed; a
file unchanged since the last sync is not parsed again. For each session, every trusted copy is
compared with the one held here (archive.compare): the same or older, nothing to do; newer (the
same events and more), its new events are replayed and appended (archive_import, as `pan import` does); a
contradiction (the session recorded on two devices, a diverging conflict copy) is reported with
both sides and nothing is changed. A copy not yet complete is skipped and read again next time.
An error of the file system (an unreadable subfolder, a file where this device's folder goes)
is one line naming the path and why, and the rest of the sync goes on.
"""

from __future__ import annotations

import os
import re
import socket
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pancli.app import archive as arc, archive_import, files
from pancli.app.files import session_file_name
from pancli.app.sync import conflicts, folder as fs
from pancli.app.sync.folder import MANIFEST, Copy
from pancli.core import signing
from pancli.core.errors import InputError, PanError
from pancli.core.i18n import _
from pancli.core.names import MAX_SESSION_NAME, clean_name
from pancli.core.rows import Session
from pancli.storage.log import now

if TYPE_CHECKING:
    from pancli.storage.store import Store

DEVICE_FORMAT = fs.DEVICE_FORMAT


@dataclass
class Outcome:
    """What one sync did and found."""

    folder: str                                             # as the host typed it (shown_folder), to show
    device: str
    label: str
    path: str = ""                                          # the folder's whole path
    written: list[dict] = field(default_factory=list)      # this device's sessions written: name, events
    unchanged: int = 0                                      # this device's sessions whose file was up to date
    imported: list[dict] = field(default_factory=list)     # name, device, label, events
    extended: list[dict] = field(default_factory=list)     # name, device, label, events (new ones)
    conflicts: list[dict] = field(default_factory=list)    # session, device, seq, why, sides [{where, events}]
    incomplete: list[dict] = field(default_factory=list)   # file, why: read again next time
    refused: list[dict] = field(default_factory=list)      # file, device it claims, why: links, unsigned, forged
    errors: list[dict] = field(default_factory=list)       # path, why: what the file system refused
    pinned: list[dict] = field(default_factory=list)       # device, label, key: keys seen for the first time
    skipped: int = 0                                        # files unchanged since the last sync, not parsed

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.refused and not self.errors

    def to_json(self) -> dict:
        return {"folder": self.path, "folder_shown": self.folder, "device": self.device, "label": self.label,
                "ok": self.ok, "written": self.written, "unchanged": self.unchanged, "imported": self.imported,
                "extended": self.extended, "conflicts": self.conflicts, "incomplete": self.incomplete,
                "refused": self.refused, "errors": self.errors, "pinned": self.pinned, "skipped": self.skipped}


# -- this device ---------------------------------------------------------------------------

def default_label() -> str:
    host = socket.gethostname().split(".")[0]
    return re.sub(r"[^\w-]+", "-", host).strip("-")[:32] or "device"


def device_label(store: Store) -> str:
    return store.setting("device_label") or default_label()


def clean_label(label: str) -> str:
    text = clean_name(label, "device")
    if len(text) > 32 or not re.fullmatch(r"\w[\w .-]*", text):
        raise InputError(_("'{name}' is not a device name").format(name=text),
                         _("use up to 32 letters, digits, spaces, dots and dashes"))
    return text


def archive_file_name(session: Session) -> str:
    """A session's archive in its device's subfolder: its name to read (as `pan export` names
    files) and its uid, which makes it unique."""
    return session_file_name(session.name, f"--{session.uid}.toml")


def sync_text(archive: dict, label: str, written_at: str, seed: bytes) -> str:
    """The archive as TOML, ending with the [sync] table that says it is complete and who wrote
    it, and the signature of all of it."""
    tail = fs.sync_tail(archive, label, written_at, signing.public_key(seed))
    return fs.signed(arc.to_toml(archive) + "\n" + tail, seed)


def write_atomic(path: Path, text: str) -> None:
    """Whole or not at all (app/files.py: a hidden temporary file beside it, flushed, renamed over
    it, the folder flushed; a temporary file left by a killed sync is removed by the next one)."""
    files.write_atomic(path, text)


# -- the sync -----------------------------------------------------------------------------------

def folder_of(store: Store, folder: str | None, create: bool = False) -> Path:
    """The folder to sync with: the one given, else the one used last time."""
    given = folder or store.setting("sync_folder")
    if not given:
        raise InputError(_("no folder given, and this database has not synced before"), "pan sync FOLDER")
    root = Path(given).expanduser()
    if create and not root.exists() and not root.is_symlink():
        try:
            root.mkdir()
        except OSError as e:
            raise InputError(_("cannot create {folder}: {why}").format(folder=root, why=e.strerror or e),
                             _("create it yourself")) from None
    if not root.is_dir():
        raise InputError(_("no folder {folder}").format(folder=root),
                         _("give the folder your file-sync engine shares, or --create to start one"))
    root = root.resolve()
    db = Path(os.path.realpath(store.path))
    if root == db.parent or root in db.parents:
        raise InputError(_("the database {db} is inside the synced folder {folder}").format(db=db, folder=root),
                         _("a sync engine would copy it half-written: keep the database out of the folder"))
    return root


def shown_folder(given: str | None, root: str | None) -> str | None:
    """The synced folder as the host typed it (``shared``), while those words still name it from
    here; else its whole path (a relative folder remembered from another working folder)."""
    if not given or not root:
        return root
    try:
        same = Path(given).expanduser().resolve() == Path(root)
    except (OSError, RuntimeError):
        same = False
    return given if same else root


def sync(store: Store, folder: str | None = None, label: str | None = None, create: bool = False) -> Outcome:
    root = folder_of(store, folder, create)
    with store.lock():
        if label:
            store.set_setting("device_label", clean_label(label))
        me = store.sync.device_id()
        mine = device_label(store)
        seed = store.sync.device_key()
        given = folder or store.setting("sync_folder_as_given")  # the two are kept together
        store.set_setting("sync_folder", str(root))
        store.set_setting("sync_folder_as_given", given)
    out = Outcome(shown_folder(given, str(root)) or str(root), me, mine, str(root))
    own_dir = root / me
    if own_dir.is_symlink():
        raise InputError(_("{folder} is a link").format(folder=own_dir),
                         _("pan sync never follows links; remove it and sync again"))
    with store.snapshot():
        pinned = store.sync.pinned_keys()
        remembered = store.sync.seen_files()
        lengths = store.sync.held_lengths()
        known = {d["id"]: d["label"] for d in store.sync.devices()}
    listing = fs.scan(root, me, remembered, lambda row: _still_held(row, lengths), datetime.now(UTC))
    out.incomplete += listing.incomplete
    out.refused += listing.refused
    out.errors += listing.errors
    out.skipped = len(listing.skipped)
    met = {device for device, _uid in lengths}  # sessions held of it: met before it signed, or forgotten since
    keys, first_seen, reported = trusted_keys(root, me, signing.public_key(seed), pinned, listing, out, known, met)
    seen = now()
    with store.lock():
        for device, key in first_seen.items():
            store.sync.pin_key(device, key, seen)
            out.pinned.append({"device": device, "key": key, "fingerprint": signing.key_fingerprint(key)})
        for m in listing.manifests:
            if (m.device, m.key) not in reported and _manifest_sound(m, keys, out, known, me):
                store.sync.note_device(m.device, m.label or m.device[:8], m.last_sync, seen)
                known[m.device] = m.label or known.get(m.device)
    for p in out.pinned:  # named as its device.json says, else as its archives do
        p["label"] = known.get(p["device"]) or next((fs.safe_label(c.label) for c in listing.copies if c.device ==
                                                     p["device"] and fs.safe_label(c.label)), None) or p["device"][:8]
    groups: dict[tuple[str, str], list[Copy]] = {}
    done: list[Copy] = []  # copies that hold nothing this database lacks once this sync is over
    for c in listing.copies:
        why = refusal(c, keys, me, known)
        if (c.device, c.signer) in reported:
            continue  # said once for the device, in trusted_keys
        if why is None:
            groups.setdefault(c.global_id, []).append(c)
        elif why is not UNSIGNED:
            _refuse(out, c, known, why)
        elif held_unchanged(store, c):
            done.append(c)  # a 0.2 copy of what is held here: nothing to take (this device's is signed anew)
        else:
            _refuse(out, c, known, _("it is not signed (pancli 0.2 wrote it, or someone by hand): a session is "
                                     "taken only from a file its device signed"))
    conflicted: set[tuple[str, str]] = set()
    pending = list(groups.items())
    while pending:
        # Sessions are brought in a batch to a transaction (each alone undone on a refusal):
        # one commit for many sessions, not one each, holding the lock a moment at most.
        started = time.monotonic()
        with store.lock():
            while pending and time.monotonic() - started < BATCH_SECONDS:
                gid, group = pending.pop(0)
                if bring_in(store, gid, group, known, out, me):
                    done += group
                else:
                    conflicted.add(gid)
    write_own(store, own_dir, me, mine, seed, listing, groups, conflicted, done, out)
    for found in out.conflicts:
        found["text"] = conflicts.conflict_text(found, mine, (str(root), out.folder))
    return out


UNSIGNED = "unsigned"
BATCH_SECONDS = 0.25  # the longest a sync holds the database's write lock while bringing sessions in


def _still_held(row: dict, lengths: dict) -> bool:
    """Whether a file unchanged since the last sync still holds nothing this database lacks: its
    session is held here with at least its events (and closed if it is)."""
    have = lengths.get((row["device"], row["uid"]))
    return have is not None and have[0] >= row["events"] and (have[1] or not row["closed"])


def _name(device: str, known: dict) -> str:
    return known.get(device) or device[:8]


def _refuse(out: Outcome, c: Copy, known: dict, why: str) -> None:
    out.refused.append({"file": str(c.path), "device": c.device, "device_label": _name(c.device, known), "why": why})


def trusted_keys(root: Path, me: str, key: str, pinned: dict, listing: fs.Listing, out: Outcome,
                 known: dict, met: set[str | None] | frozenset[str] = frozenset()
                 ) -> tuple[dict[str, str], dict[str, str], set]:
    """Every device's key to check signatures with, the ones seen here for the first time, and
    the (device, key) pairs already reported in one line (their files are not reported again).

    An id derived from a key is only ever held by that key: wherever a file signed by it is
    found, it is pinned, in place of any other key pinned at first sight, and every other key
    signing for that id is an impostor's. Trust on first use (the one key that signed the files
    in the device's own subfolder) is for the random ids of pancli 0.1 and 0.2 alone, which only
    a database that met the device before it signed (``met``: sessions of it are held here, taken
    unsigned from pancli 0.2 or kept after `pan sync forget`) can tell from a new device's id claimed by someone else; elsewhere
    such a key waits for `pan sync trust`. Two keys claiming an id at first sight bind it to neither."""
    keys = dict(pinned)
    keys[me] = key
    offers: dict[str, set[str]] = {}
    for device, signer, own in [(c.device, c.signer, c.where == c.device) for c in listing.copies if c.signer] \
            + [(m.device, m.key, True) for m in listing.manifests if m.key]:
        assert signer is not None  # filtered above; for mypy
        if device != me and (own or signing.device_id_of(signer) == device):
            offers.setdefault(device, set()).add(signer)
    first: dict[str, str] = {}
    reported: set[tuple[str, str]] = set()

    def report(device: str, why: str) -> None:
        out.refused.append({"file": str(root / device), "device": device, "device_label": _name(device, known),
                            "why": why})

    for device, offered in offers.items():
        derived = next((k for k in offered if signing.device_id_of(k) == device), None)
        held = keys.get(device)
        if derived is not None:
            if held == derived:
                continue  # pinned before: any other key is refused file by file (refusal)
            first[device] = derived
            others = sorted(offered - {derived} | ({held} if held else set()))
            if others:
                reported.update((device, k) for k in others)
                report(device, _("an impostor signs files for this device with the key {keys}: its id comes "
                                 "from the key {key}, the only one that can hold it; those files are refused").format(
                    keys=", ".join(signing.key_fingerprint(k) for k in others), key=signing.key_fingerprint(derived)))
        elif held is not None:
            continue  # a key pinned already is checked copy by copy (refusal)
        elif len(offered) > 1:
            report(device, _("{n} different keys sign files for this device, seen here for the first "
                             "time; pin the right one with `pan sync trust {device} --key KEY`").format(
                n=len(offered), device=device[:8]))
        elif device in met:
            first[device] = next(iter(offered))
        else:
            [k] = offered
            reported.add((device, k))
            report(device, _("signed by {key}, not the key its id comes from: refused (a device of pancli 0.2? "
                             "check that key with its owner, then `pan sync trust {device}`)").format(
                key=signing.key_fingerprint(k), device=device))
    keys.update(first)
    return keys, first, reported


def refusal(c: Copy, keys: dict[str, str], me: str, known: dict) -> str | None:
    """Why a copy may not be used (UNSIGNED for a file without a signature), or None."""
    if c.badly_signed:
        return _("its signature does not hold: it was changed after it was signed, or damaged")
    if c.signer is None:
        return UNSIGNED
    want = keys.get(c.device)
    if want is None:
        return _("the key of {device} is not known here yet (it is learnt from that device's "
                 "own subfolder, or pinned with `pan sync trust`)").format(device=_name(c.device, known))
    if c.signer != want:
        said = _("it claims this device's session but another key signed it ({key}, not {wanted})") \
            if c.device == me else _("it claims {device}'s session but another key signed it ({key}, not {wanted})")
        return said.format(device=_name(c.device, known), key=signing.key_fingerprint(c.signer),
                           wanted=signing.key_fingerprint(want))
    return None


def _manifest_sound(m: fs.Manifest, keys: dict, out: Outcome, known: dict, me: str) -> bool:
    """Whether a device.json may tell its device's name and last sync: signed by its pinned key,
    or unsigned from a device that has never signed anything here (pancli 0.2)."""
    want = keys.get(m.device)
    if m.key is not None and m.key == want:
        return True
    if m.key is None and not m.badly_signed:
        return want is None  # unsigned where the key is known: a leftover of 0.2, ignored
    if m.badly_signed:
        why = _("its signature does not hold: it was changed after it was signed, or damaged")
    elif m.device == me:
        why = _("it claims this device but another key signed it ({key})").format(
            key=signing.key_fingerprint(m.key or ""))
    elif want is None:  # two keys claimed the device at first sight: reported with them
        return False
    else:
        why = _("the key of {device} changed (pinned {pinned}, this file {key}): refused; if it really has a "
                "new key, `pan sync forget {id}` and sync again").format(
            device=_name(m.device, known), pinned=signing.key_fingerprint(want),
            key=signing.key_fingerprint(m.key or ""), id=m.device[:8])
    out.refused.append({"file": str(m.path), "device": m.device, "device_label": _name(m.device, known), "why": why})
    return False


def held_unchanged(store: Store, c: Copy) -> bool:
    """Whether an unsigned copy is of a session held here, the same or older (nothing to take)."""
    with store.snapshot():
        held = store.sync.session_by_global_id(*c.global_id)
        if held is None:
            return False
        mine = store.log.session_log(held.id)
    return arc.compare(arc.session_header(held), mine, c.header, c.events)["relation"] in ("same", "older")


def _row(path: Path, c_or_session: tuple[str, str | None], events: int, closed: bool, fingerprint: str, size: int,
         mtime_ns: int, tail: str | None) -> dict[str, Any] | None:
    if tail is None:
        return None
    device, uid = c_or_session
    return {"path": str(path), "size": size, "mtime_ns": mtime_ns, "tail": tail, "device": device, "uid": uid,
            "events": events, "closed": int(closed), "fingerprint": fingerprint}


def write_own(store: Store, own_dir: Path, me: str, mine: str, seed: bytes, listing: fs.Listing,
              groups: dict[tuple[str, str], list[Copy]], conflicted: set[tuple[str, str]], done: list[Copy], out: Outcome) -> None:
    """This device's sessions written to its subfolder (those whose file is not up to date), its
    device.json, and what was seen of each file remembered for the next sync."""
    rows = list(listing.skipped) + [r for c in done if (r := _row(c.path, c.global_id, len(c.events), bool(c.header.get("closed_at")),
                                          c.fingerprint, c.size, c.mtime_ns, c.tail))]
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
        lengths = store.sync.held_lengths()
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
        row = _row(path, (me, s.uid), count, closed, fp, st.st_size, st.st_mtime_ns, fs.tail_key(raw[-fs.TAIL:]))
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
    with store.lock():
        store.sync.forget_files([p for p in store.sync.seen_files() if p not in kept])
        store.sync.remember_files(rows)
        store.sync.note_device(me, mine, written_at, written_at)


def _report_conflict(out: Outcome, held: Session | None, mine: list, gid: tuple[str, str], label: str,
                     how: dict, copies: list[Copy], me: str) -> None:
    """A contradiction between copies of one session, each copy's version of it in words
    (app/sync/conflicts.py)."""
    device, uid = gid
    seq, field_ = how.get("seq"), how.get("field")
    sides = []
    if held is not None:
        sides.append(conflicts.side(conflicts.HERE, arc.session_header(held), mine, seq, field_))
    sides += [conflicts.side(str(c.path), c.header, c.events, seq, field_, fs.safe_label(c.label)) for c in copies]
    out.conflicts.append({"session": held.name if held else copies[0].header["name"], "device": device,
                          "device_label": label, "uid": uid, "this_device": device == me,
                          "ahead": bool(how.get("ahead")), "seq": seq, "field": field_,
                          "why": _("the copies differ from event #{seq} on").format(seq=seq) if seq and not how.get("ahead")
                          else how["why"],
                          "sides": sides})


def bring_in(store: Store, gid: tuple[str, str], group: list[Copy], known: dict[str, Any], out: Outcome, me: str) -> bool:
    """The trusted copies in the folder of one session, against the one held here: import it,
    extend it, or report a contradiction (and change nothing). A session of this device's is
    only compared: a copy that holds more than this database is reported, never taken. False
    when something was reported."""
    device, uid = gid
    label = known.get(device) or next((fs.safe_label(c.label) for c in group if fs.safe_label(c.label)), None) \
        or device[:8]
    with store.snapshot():
        held = store.sync.session_by_global_id(device, uid)
        mine = store.log.session_log(held.id) if held else []
    if device == me and held is None:
        for c in group:
            _refuse(out, c, known, _("it is a session of this device that this database does not hold (restored "
                                     "from an older backup?): it is never taken from the folder"))
        return False
    newer: list[Copy] = []
    for c in group:
        if held is None:
            newer.append(c)
            continue
        how = arc.compare(arc.session_header(held), mine, c.header, c.events)
        if how["relation"] == "conflict":
            _report_conflict(out, held, mine, gid, label, how, [c], me)
            return False
        if how["relation"] == "newer":
            newer.append(c)
    if not newer:
        return True
    if device == me:
        assert held is not None  # refused above
        why = _("the folder holds more of this device's session than this database (restored from an older "
                "backup?); it is never taken from the folder")
        _report_conflict(out, held, mine, gid, label, {"seq": (mine[-1].seq if mine else 0) + 1, "ahead": True,
                                                       "why": why}, newer, me)
        return False
    newer.sort(key=lambda c: (len(c.events), bool(c.header.get("closed_at"))))
    for a, b in zip(newer, newer[1:]):
        how = arc.compare(a.header, a.events, b.header, b.events)
        if how["relation"] == "conflict":
            _report_conflict(out, held, mine, gid, label, how, [a, b], me)
            return False
    best = newer[-1]
    try:
        # signed by its device (refusal() said so): the import need not check it again
        name = unused_name(store, best.header["name"], label, device) if held is None else None
        got = archive_import.import_document(store, best.archive, as_name=name, make_current=False,
                                             where=str(best.path), signed_by=device, fingerprint=best.fingerprint)
        if held is None and got["status"] == "imported":
            out.imported.append({"name": got["name"], "device": device, "device_label": label,
                                 "events": len(best.events)})
        elif held is not None and got["status"] == "extended":
            out.extended.append({"name": held.name, "device": device, "device_label": label,
                                 "events": got["events"]})
    except PanError as e:  # the copy does not replay to what it says (edited), or a race
        _refuse(out, best, known, e.message)
        return False
    except (TypeError, KeyError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as e:
        # a value the archive checks let through but a game core cannot take (as `pan import` says)
        _refuse(out, best, known, _("it holds an event pancli cannot replay ({error})").format(error=type(e).__name__))
        return False
    return True


def unused_name(store: Store, name: str, label: str, device: str) -> str:
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


# -- status, trust and forget -------------------------------------------------------------------

def status(store: Store) -> dict[str, Any]:
    """Each device known here: what it has contributed, its key's fingerprint (to compare aloud),
    when it was first and last seen and when it says it last synced."""
    with store.snapshot():
        me = store.sync.device_id()
        devices = {d["id"]: d for d in store.sync.devices()}
        rows = {r["device"]: r for r in store.sync.contributions()}
        label = device_label(store)
        folder = store.setting("sync_folder")
        given = store.setting("sync_folder_as_given")
        my_key = signing.public_key(store.sync.device_key())
    out = []
    for dev in sorted(set(rows) | set(devices)):
        r, d = rows.get(dev, {}), devices.get(dev, {})
        key = my_key if dev == me else d.get("public_key")
        out.append({"device": dev, "label": label if dev == me else d.get("label"), "this": dev == me,
                    "key": key, "fingerprint": signing.key_fingerprint(key) if key else None,
                    "sessions": r.get("sessions", 0), "events": r.get("events", 0),
                    "last_event": r.get("last_event"), "first_seen": d.get("first_seen"),
                    "last_seen": d.get("seen_at"), "last_sync": d.get("last_sync")})
    out.sort(key=lambda o: (not o["this"], o["label"] or "", o["device"]))
    return {"device": me, "label": label, "folder": folder, "folder_shown": shown_folder(given, folder),
            "key": my_key, "fingerprint": signing.key_fingerprint(my_key), "devices": out}


def find_device(store: Store, ref: str, known_only: bool = True) -> tuple[str, str | None]:
    """A device named by its id, the start of it (8 digits or more) or its name: (id, name)."""
    text = ref.strip().lower()
    with store.snapshot():
        devices = {d["id"]: d["label"] for d in store.sync.devices()}
        devices.update({r["device"]: devices.get(r["device"]) for r in store.sync.contributions()})
        me = store.sync.device_id()
    if text == me or (len(text) >= 8 and me.startswith(text)) or text == device_label(store).lower():
        raise InputError(_("that is this device"), _("its own key needs no pinning; give another device"))
    found = [d for d, label in devices.items() if d == text or (len(text) >= 8 and d.startswith(text))
             or (label or "").lower() == text]
    if len(found) == 1:
        return found[0], devices[found[0]]
    if len(found) > 1:
        raise InputError(_("'{ref}' names {n} devices").format(ref=ref, n=len(found)),
                         _("give more of its id (`pan sync --status --json`)"))
    if not known_only and fs.ID.fullmatch(text):
        return text, None
    raise InputError(_("no device '{ref}' is known here").format(ref=ref),
                     _("give its id or name as `pan sync --status` lists it (a new device: its whole id)"))


def trust(store: Store, ref: str, key: str | None = None) -> dict[str, Any]:
    """Pin a device's public key: the one given (ahead of its first file), else the one its
    signed device.json in the sync folder offers now (after a key change, say)."""
    device, label = find_device(store, ref, known_only=False)
    if key is not None:
        key = key.strip().lower()
        if not signing.KEY.fullmatch(key):
            raise InputError(_("'{key}' is not a public key").format(key=key[:70]),
                             _("give the 64 hex digits `pan sync --status --json` shows on that device as its key"))
    else:
        folder = store.setting("sync_folder")
        if not folder:
            raise InputError(_("this database has not synced yet, so no key is on offer"), _("give one with --key KEY"))
        path = Path(folder) / device / MANIFEST
        try:
            m = fs.read_manifest(path, fs.read_bytes(path, fs.MAX_MANIFEST), datetime.now(UTC))
        except (OSError, ValueError) as e:
            raise InputError(_("cannot read {path}: {why}").format(path=path, why=fs.why_not_read(e)),
                             _("give the key with --key KEY")) from None
        if m is None or m.key is None or m.device != device:
            raise InputError(_("{path} offers no signed key").format(path=path),
                             _("sync on that device first, or give the key with --key KEY"))
        key = m.key
        label = label or m.label
    with store.snapshot():
        old = store.sync.pinned_keys().get(device)
    with store.lock():
        store.sync.pin_key(device, key, now())
    return {"device": device, "label": label or device[:8], "key": key, "fingerprint": signing.key_fingerprint(key),
            "replaced": signing.key_fingerprint(old) if old and old != key else None}


def forget(store: Store, ref: str) -> dict[str, Any]:
    """Drop a device and its pinned key (a lost laptop); its sessions held here stay, read-only.
    Its next signed file is taken as a first sight."""
    device, label = find_device(store, ref)
    with store.lock():
        store.sync.forget_device(device)
        sessions = len(store.sync.sessions_of_device(device))
    return {"device": device, "label": label or device[:8], "sessions": sessions}
