"""The devices known here: `pan sync --status`, `pan sync trust` and `pan sync forget`."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pancli.app.sync import folder as fs
from pancli.app.sync.device import device_label
from pancli.app.sync.folder import MANIFEST
from pancli.app.sync.run import shown_folder
from pancli.core import signing
from pancli.core.errors import InputError
from pancli.core.i18n import N_, _
from pancli.storage.log import now

if TYPE_CHECKING:
    from pancli.storage.store import Store


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


_ITSELF = (N_("that is this device"), N_("its own key needs no pinning; give another device"))


def find_device(store: Store, ref: str, known_only: bool = True,
                itself: tuple[str, str] = _ITSELF) -> tuple[str, str | None]:
    """A device named by its id, the start of it (8 digits or more) or its name: (id, name);
    ``itself``, what is wrong and what to do, when it names this device."""
    text = ref.strip().lower()
    with store.snapshot():
        devices = {d["id"]: d["label"] for d in store.sync.devices()}
        devices.update({r["device"]: devices.get(r["device"]) for r in store.sync.contributions()})
        me = store.sync.device_id()
    if text == me or (len(text) >= 8 and me.startswith(text)) or text == device_label(store).lower():
        raise InputError(_(itself[0]), _(itself[1]))
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
