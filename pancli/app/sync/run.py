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
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pancli.app.sync import conflicts, folder as fs
from pancli.app.sync.bring import bring_in, held_unchanged
from pancli.app.sync.device import clean_label, device_label
from pancli.app.sync.folder import Copy
from pancli.app.sync.keys import UNSIGNED, manifest_sound, refusal, trusted_keys
from pancli.app.sync.outcome import Outcome, refuse
from pancli.app.sync.publish import write_own
from pancli.core import signing
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.storage.log import now

if TYPE_CHECKING:
    from pancli.storage.store import Store


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
            if (m.device, m.key) not in reported and manifest_sound(m, keys, out, known, me):
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
            refuse(out, c, known, why)
        elif held_unchanged(store, c):
            done.append(c)  # a 0.2 copy of what is held here: nothing to take (this device's is signed anew)
        else:
            refuse(out, c, known, _("it is not signed (pancli 0.2 wrote it, or someone by hand): a session is "
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


BATCH_SECONDS = 0.25  # the longest a sync holds the database's write lock while bringing sessions in


def _still_held(row: dict[str, Any], lengths: dict[tuple[str | None, str | None], tuple[int, bool]]) -> bool:
    """Whether a file unchanged since the last sync still holds nothing this database lacks: its
    session is held here with at least its events (and closed if it is)."""
    have = lengths.get((row["device"], row["uid"]))
    return have is not None and have[0] >= row["events"] and (have[1] or not row["closed"])




