"""The files of a synced folder, read as a stranger's: what `pan sync` finds there, checked.

Every file is opened without following a link and without blocking (a FIFO or a device swapped
in after the folder was listed is refused, never waited on), checked to be a regular file, and
read whole at most once per sync. An archive is parsed once (TOML), checked (archive_check) and
its signature verified. A file whose size, mtime, change time (ctime) and inode are all as at the
last sync is not opened at all: an edit in place, even one that puts the size and mtime back,
sets the ctime to the time of the edit (only the kernel sets it), and a file replaced, or a folder
put in the folder's place, has another inode. Where the ctime says nothing (Windows, where it is
the creation time) or the file was still changing when last seen (``unchanged``), a file whose end
(its ``[sync]`` table and signature) is the same as at the last sync, with the same size and
mtime, is not read past its end. The database keeps what was last seen of each file
(storage/sync.py ``sync_files``).

The signed form (pancli/data/archive-format.md): an archive `pan sync` writes ends with its
``[sync]`` table, whose ``signed_by`` is the writer's public key, then one comment line,
``# signature: ed25519 <hex>``, the signature of every byte above it. Any TOML reader, pancli
0.2's among them, takes the comment for a comment: the file is still an archive for `pan import`.
A ``device.json`` carries its ``public_key`` and a ``signature`` over the rest of it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pancli.app import archive as arc, archive_check
from pancli.app.archive_check import MAX_BYTES, MAX_STAMP
from pancli.core import signing
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.names import clean_name
from pancli.core.numbers import grouped

DEVICE_FORMAT = "pancli-device"
MANIFEST = "device.json"
MAX_MANIFEST = 64 * 1024
MAX_LABEL = 32
TAIL = 4096                      # the end of an archive read to see whether it changed
SIGNATURE_LINE = b"# signature: ed25519 "
ID = re.compile(r"[0-9a-f]{32}")
_SIGNED_LINE = re.compile(rb"# signature: ed25519 ([0-9a-f]{128})\n\Z")
FUTURE = timedelta(days=1)       # a clock this far ahead of ours is wrong, not early
StillDone = Callable[[dict[str, Any]], bool]  # whether a remembered file's session needs nothing more


SETTLED_NS = 2_000_000_000      # a file changed less than this before it was looked at may still change in that tick


def settled_ctime(st: os.stat_result) -> int | None:
    """The change time to remember of a file, None when it cannot vouch for the file: on Windows
    (st_ctime is the creation time there), or when the file changed so recently that another
    change within the file system's clock tick would leave the same ctime (read again next time)."""
    return settled_ns(st.st_ctime_ns)


def settled_ns(ctime_ns: int) -> int | None:
    """``settled_ctime`` of a file whose change time is ``ctime_ns``."""
    if os.name == "nt" or ctime_ns > time.time_ns() - SETTLED_NS:
        return None
    return ctime_ns


def unchanged(row: dict[str, Any] | None, st: os.stat_result) -> bool:
    """Whether a file is as ``row`` last saw it: its size, mtime, ctime and inode all the same
    (a row without a settled ctime never is)."""
    return row is not None and row.get("ctime_ns") is not None and row["ctime_ns"] == st.st_ctime_ns \
        and row["ino"] == st.st_ino and row["size"] == st.st_size and row["mtime_ns"] == st.st_mtime_ns


class NotRegular(OSError):
    """A path that is a FIFO, a device or a folder where a file was listed."""


def open_regular(path: Path) -> int:
    """A descriptor of a regular file, opened without following a link or blocking."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    regular = False
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    finally:
        if not regular:
            os.close(fd)
    if not regular:
        raise NotRegular(_("{path} is not a regular file").format(path=path))
    return fd


def read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    return read_with_stat(path, limit)[0]


def read_with_stat(path: Path, limit: int = MAX_BYTES) -> tuple[bytes, os.stat_result]:
    """A whole file (at most ``limit`` bytes), with the checks every archive gets (no NUL byte),
    and its size and times as they were when it was read."""
    with os.fdopen(open_regular(path), "rb") as f:
        st = os.fstat(f.fileno())
        raw = f.read(limit + 1)
    if len(raw) > limit:
        raise ValueError(_("larger than {kb} KB").format(kb=grouped(limit // 2**10)))
    if b"\x00" in raw:
        raise ValueError(_("a binary file"))
    return raw, st


def read_tail(path: Path, size: int) -> bytes:
    with os.fdopen(open_regular(path), "rb") as f:
        f.seek(max(0, size - TAIL))
        return f.read(TAIL)


def tail_key(tail: bytes) -> str | None:
    """What identifies an archive's end: a digest of its ``[sync]`` table and signature line
    (None when the end has no [sync] table: it is read whole every time)."""
    at = tail.rfind(b"\n[sync]\n")
    if at < 0:
        return None
    return hashlib.sha256(tail[at:]).hexdigest()


def why_not_read(e: BaseException) -> str:
    if isinstance(e, NotRegular):
        return _("it is not a regular file (a FIFO or a device?)")
    return getattr(e, "strerror", None) or str(e)


# -- signed text --------------------------------------------------------------------------------

def signed(text: str, seed: bytes) -> str:
    """The text followed by its signature line."""
    body = text.encode("utf-8")
    return text + (SIGNATURE_LINE + signing.sign(seed, signing.ARCHIVE, body).encode("ascii")).decode("ascii") + "\n"


def split_signature(raw: bytes) -> tuple[bytes, str | None]:
    """The signed bytes and the signature of a file ending with a signature line; else the whole
    file and None."""
    start = raw.rfind(b"\n", 0, len(raw) - 1) + 1
    m = _SIGNED_LINE.match(raw, start)
    if not m:
        return raw, None
    return raw[:start], m[1].decode("ascii")


def signed_by_device(path: Path, device: str, key: str | None, fingerprint: str) -> bool:
    """Whether the archive file at ``path`` is an archive of content ``fingerprint`` that
    ``device`` signed: its signature line holds for the key pinned for it (``key``), or, none
    pinned, for a key that id derives from; and its signed [sync] table names that fingerprint.
    Read whole, within MAX_BYTES (a larger file proves nothing)."""
    try:
        raw = read_bytes(path)
    except (OSError, ValueError, InputError):
        return False
    body, signature = split_signature(raw)
    start = body.rfind(b"\n[sync]\n")
    if signature is None or start < 0:
        return False
    try:
        tail = archive_check.parse(body[start:].decode("utf-8"), str(path)).get("sync")
    except (InputError, UnicodeDecodeError, AttributeError):
        return False
    signer = tail.get("signed_by") if isinstance(tail, dict) else None
    if not isinstance(signer, str) or not signing.KEY.fullmatch(signer) or tail.get("fingerprint") != fingerprint:
        return False
    if key is not None and signer != key or key is None and signing.device_id_of(signer) != device:
        return False
    return signing.verify(signer, signature, signing.ARCHIVE, body)


def sync_tail(archive: dict[str, Any], label: str, written_at: str, key: str) -> str:
    import tomli_w  # noqa: PLC0415 start-up: only sync writes its table

    return tomli_w.dumps({"sync": {"fingerprint": arc.fingerprint(archive), "events": len(archive["events"]),
                                   "device_label": label, "written_at": written_at, "signed_by": key}})


# -- archives -------------------------------------------------------------------------------------

@dataclass
class Copy:
    """One archive found in the folder, read and checked."""

    path: Path
    where: str              # the device subfolder it was found in
    archive: dict[str, Any]
    events: list[Any]
    label: str | None       # the writer's name for itself, as its [sync] table says
    fingerprint: str
    signer: str | None      # the public key whose signature holds; None when unsigned
    badly_signed: bool      # a signature that does not hold
    size: int = 0
    mtime_ns: int = 0
    tail: str | None = None
    ctime_ns: int | None = None     # settled_ctime of the file as read
    ino: int = 0

    @property
    def device(self) -> str:
        device: str = self.archive["session"]["device"]
        return device

    @property
    def global_id(self) -> tuple[str, str]:
        return self.archive["session"]["device"], self.archive["session"]["uid"]

    @property
    def header(self) -> dict[str, Any]:
        header: dict[str, Any] = self.archive["session"]
        return header


def _text(value: object, limit: int) -> str | None:
    return value if isinstance(value, str) and len(value) <= limit else None


def read_copy(path: Path, where: str, raw: bytes) -> Copy | str | tuple[str]:
    """An archive file's bytes: a Copy, a str saying why it is not complete yet (read again next
    time), or a 1-tuple saying why it is refused (complete but not what it claims)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _("not UTF-8 text (still arriving, or cut short)")
    try:
        data = archive_check.parse(text, str(path))  # the one parse of this file in this sync
    except InputError:
        return _("not complete TOML (still arriving, or cut short)")
    tail = data.get("sync") if isinstance(data, dict) else None
    if not isinstance(tail, dict) or not isinstance(tail.get("fingerprint"), str):
        return _("no [sync] end (still arriving, or cut short)")
    try:
        archive = arc.from_document(data, str(path))  # every field checked (archive_check), then its shape
    except InputError as e:
        return (_("not a pancli archive: {why}").format(why=e.message),)
    if not archive["session"].get("device"):
        return (_("an archive without a session id (device and uid)"),)
    fp = arc.fingerprint(archive)
    if fp != tail["fingerprint"]:
        return (_("its content does not match its [sync] fingerprint: edited or damaged"),)
    body, signature = split_signature(raw)
    key = _text(tail.get("signed_by"), 64)
    signer, bad = None, False
    if signature is not None or key is not None:
        if key is not None and signature is not None and signing.verify(key, signature, signing.ARCHIVE, body):
            signer = key
        else:
            bad = True
    return Copy(path, where, archive, arc.archive_events(archive), _text(tail.get("device_label"), 64), fp,
                signer, bad)


# -- device manifests ------------------------------------------------------------------------------

@dataclass
class Manifest:
    path: Path
    device: str
    label: str | None
    last_sync: str | None
    key: str | None = None          # the public key whose signature holds
    badly_signed: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def manifest_text(data: dict[str, Any], seed: bytes) -> str:
    """A device.json: its fields, its public key and the signature of both."""
    body = dict(data, public_key=signing.public_key(seed))
    body["signature"] = signing.sign(seed, signing.MANIFEST, _canonical(body))
    return json.dumps(body, indent=1) + "\n"


def _canonical(data: dict[str, Any]) -> bytes:
    return json.dumps({k: v for k, v in data.items() if k != "signature"}, sort_keys=True,
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def sound_time(value: object, now: datetime) -> str | None:
    """A time another device says, if it is one and not from a clock far ahead of ours."""
    text = _text(value, MAX_STAMP)
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return text if when <= now + FUTURE else None


def read_manifest(path: Path, raw: bytes, now: datetime) -> Manifest | None:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != DEVICE_FORMAT or not isinstance(data.get("device"), str) \
            or not ID.fullmatch(data["device"]):
        return None
    m = Manifest(path, data["device"], safe_label(data.get("label")), sound_time(data.get("last_sync"), now))
    key, signature = _text(data.get("public_key"), 64), _text(data.get("signature"), 128)
    if key is not None or signature is not None:
        if key is not None and signature is not None and signing.verify(key, signature, signing.MANIFEST,
                                                                       _canonical(data)):
            m.key = key
        else:
            m.badly_signed = True
    return m


def safe_label(label: object) -> str | None:
    """Another device's name for itself, if it is a sound one (else None: its id is shown)."""
    if not isinstance(label, str) or len(label) > MAX_LABEL * 4:
        return None
    try:
        text = clean_name(label, "device")
    except InputError:
        return None
    return text if len(text) <= MAX_LABEL and re.fullmatch(r"\w[\w .-]*", text) else None


# -- the listing --------------------------------------------------------------------------------

@dataclass
class Listing:
    """What one sync found in the folder."""

    copies: list[Copy] = field(default_factory=list)         # archives read, checked and verified
    skipped: list[dict[str, Any]] = field(default_factory=list)        # unchanged since last time (sync_files rows)
    manifests: list[Manifest] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)              # every archive path listed
    incomplete: list[dict[str, Any]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    remembered: dict[str, dict[str, Any]] = field(default_factory=dict)  # what the database held before


def _entries(path: str, listing: Listing) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as e:
        listing.errors.append({"path": path, "why": why_not_read(e)})
        return []


def scan(root: Path, me: str, remembered: dict[str, dict[str, Any]], still_done: StillDone,
         now: datetime) -> Listing:
    """Every archive and device manifest in the devices' subfolders; links refused; a file
    unchanged since the last sync (``remembered``, and ``still_done(row)`` says its session is
    held here as far as it goes) not read past its end."""
    out = Listing(remembered=remembered)
    for entry in _entries(str(root), out):
        if entry.name.startswith("."):
            continue
        try:
            if entry.is_symlink():
                out.refused.append({"file": entry.path, "why": _("a link: pan sync never follows links")})
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError as e:
            out.errors.append({"path": entry.path, "why": why_not_read(e)})
            continue
        if not ID.fullmatch(entry.name):
            continue  # not a device's subfolder: left alone
        if not is_dir:
            if entry.name == me:
                out.errors.append({"path": entry.path, "why": _("it is a file where this device's folder belongs; "
                                                                "move it away and sync again")})
            continue
        for f in _entries(entry.path, out):
            _list_file(f, entry.name, out, remembered, still_done, now)
    return out


def _list_file(f: os.DirEntry[str], where: str, out: Listing, remembered: dict[str, dict[str, Any]],
               still_done: StillDone, now: datetime) -> None:
    name = f.name
    if name.startswith("."):
        return  # a temporary file, a sync engine's or ours
    try:
        if f.is_symlink():
            out.refused.append({"file": f.path, "why": _("a link: pan sync never follows links")})
            return
        if not f.is_file(follow_symlinks=False):
            return
        st = f.stat(follow_symlinks=False)
        if name.endswith(".toml"):
            out.seen.add(f.path)
            row = remembered.get(f.path)
            if row is not None and unchanged(row, st) and still_done(row):  # not opened: nothing about it changed
                out.skipped.append(row)
                return
            _list_archive(Path(f.path), st, where, out, row, still_done)
        elif name.startswith("device") and name.endswith(".json"):
            path = Path(f.path)
            m = read_manifest(path, read_bytes(path, MAX_MANIFEST), now)
            if m is not None and m.device == where:
                out.manifests.append(m)
    except (OSError, ValueError) as e:
        out.errors.append({"path": f.path, "why": why_not_read(e)})


def _list_archive(path: Path, st: os.stat_result, where: str, out: Listing, row: dict[str, Any] | None,
                  still_done: StillDone) -> None:
    key = None
    if row is not None and row["size"] == st.st_size and row["mtime_ns"] == st.st_mtime_ns:
        with contextlib.suppress(OSError):
            key = tail_key(read_tail(path, st.st_size))
        if key == row["tail"] and still_done(row):
            out.skipped.append({**row, "ctime_ns": settled_ctime(st), "ino": st.st_ino})
            return
    try:
        raw, st = read_with_stat(path)
    except FileNotFoundError:  # replaced or removed by the sync engine since it was listed
        out.incomplete.append({"file": str(path), "why": _("it went away while being read")})
        return
    except OSError as e:
        out.errors.append({"path": str(path), "why": why_not_read(e)})
        return
    except ValueError as e:
        out.refused.append({"file": str(path), "why": str(e)})
        return
    got = read_copy(path, where, raw)
    if isinstance(got, Copy):
        got.size, got.mtime_ns, got.tail = st.st_size, st.st_mtime_ns, tail_key(raw[-TAIL:])
        got.ctime_ns, got.ino = settled_ctime(st), st.st_ino
        out.copies.append(got)
    elif isinstance(got, tuple):
        out.refused.append({"file": str(path), "why": got[0]})
    else:
        out.incomplete.append({"file": str(path), "why": got})
