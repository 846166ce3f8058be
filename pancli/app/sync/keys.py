"""Whose files are trusted: the key each device signs with, and why a copy or a device.json is
refused. A new rule of trust (which copy may be used) goes here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pancli.app.sync import folder as fs
from pancli.app.sync.folder import Copy
from pancli.app.sync.outcome import Outcome, device_name
from pancli.core import signing
from pancli.core.i18n import _

UNSIGNED = "unsigned"


def trusted_keys(root: Path, me: str, key: str, pinned: dict[str, Any], listing: fs.Listing, out: Outcome,
                 known: dict[str, Any], met: set[str | None] | frozenset[str] = frozenset()
                 ) -> tuple[dict[str, str], dict[str, str], set[Any]]:
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
        out.refused.append({"file": str(root / device), "device": device, "device_label": device_name(device, known),
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


def refusal(c: Copy, keys: dict[str, str], me: str, known: dict[str, Any]) -> str | None:
    """Why a copy may not be used (UNSIGNED for a file without a signature), or None."""
    if c.badly_signed:
        return _("its signature does not hold: it was changed after it was signed, or damaged")
    if c.signer is None:
        return UNSIGNED
    want = keys.get(c.device)
    if want is None:
        return _("the key of {device} is not known here yet (it is learnt from that device's "
                 "own subfolder, or pinned with `pan sync trust`)").format(device=device_name(c.device, known))
    if c.signer != want:
        said = _("it claims this device's session but another key signed it ({key}, not {wanted})") \
            if c.device == me else _("it claims {device}'s session but another key signed it ({key}, not {wanted})")
        return said.format(device=device_name(c.device, known), key=signing.key_fingerprint(c.signer),
                           wanted=signing.key_fingerprint(want))
    return None


def manifest_sound(m: fs.Manifest, keys: dict[str, Any], out: Outcome, known: dict[str, Any], me: str) -> bool:
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
            device=device_name(m.device, known), pinned=signing.key_fingerprint(want),
            key=signing.key_fingerprint(m.key or ""), id=m.device[:8])
    out.refused.append({"file": str(m.path), "device": m.device, "device_label": device_name(m.device, known), "why": why})
    return False
