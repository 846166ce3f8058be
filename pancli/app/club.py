"""The club's roster in the synced folder: reading every registrar's entries as a stranger's,
writing this device's next one, and the registrar's commands (`pan club …`).

Each device writes its entries in its own subfolder of the folder `pan sync` shares,
``<folder>/<device>/club/<number>.json``: one line of canonical JSON (pancli/core/club.py) and
the signature line archives end with, ``# signature: ed25519 <hex>``, over that line. Files are
written once, never rewritten: a new entry is a new file, made whole or not at all, refused if its
number is taken. `pan sync` leaves the ``club`` subfolders alone, so pancli 0.3 syncs beside it.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from pancli.app import files
from pancli.app.club_read import ROSTER, Folder, read_folder, read_roster, roster_of
from pancli.app.sync.device import device_label
from pancli.app.sync.devices import find_device
from pancli.app.sync.outcome import Outcome
from pancli.app.sync.run import folder_of, sync
from pancli.core import club, signing
from pancli.core.club import Entry, Refusal, Roster
from pancli.core.errors import InputError
from pancli.core.i18n import N_, _
from pancli.core.names import clean_name
from pancli.storage.log import now
from pancli.storage.store import Store


def in_folder(root: Path) -> bool:
    """Whether any device of the folder has written a roster (a host syncing it joins the club on
    first sight, as it pins a device's key)."""
    try:
        names = os.listdir(root)
    except OSError:
        return False
    return any(club.DEVICE.fullmatch(n) and (root / n / ROSTER).is_dir() for n in names)


def join(store: Store, ref: str, folder: str | None = None) -> dict[str, Any]:
    """This host belongs to the club ``ref`` (its id, or its first 8 digits) of the folder."""
    root = folder_of(store, folder)
    read = read_folder(root)
    creates = {club.club_id(e.data): str(e.data["name"]) for e in read.entries if e.kind == "create" and e.seq == 1}
    text = ref.strip().lower()
    found = [cid for cid in creates if len(text) >= 8 and cid.startswith(text)]
    if len(found) != 1:
        names = "; ".join(f"{name} ({cid[:8]})" for cid, name in creates.items()) or _("none")
        raise InputError(_("no club '{ref}' in the folder (clubs there: {names})").format(ref=ref, names=names),
                         _("give the first 8 digits of its id, as `pan club show` prints it on a member's host"))
    with store.lock():
        store.set_setting("club_id", found[0])
        if folder and not store.setting("sync_folder"):
            store.set_setting("sync_folder", str(root))
            store.set_setting("sync_folder_as_given", folder)
    roster_of(store, folder)  # the seats held here counted for persons at once
    return {"club": found[0], "name": creates[found[0]]}


def sync_host(store: Store, folder: str | None = None, label: str | None = None, create: bool = False) -> Outcome:
    """`pan sync`: the sessions (pancli/app/sync.py), then, on a club's host or in a club's folder,
    the roster read again, so that the seats of the sessions just brought in count for persons."""
    out = sync(store, folder, label, create)
    root = folder_of(store, folder)
    if store.setting("club_id") or in_folder(root):
        out.club = after_sync(store, str(root))
        out.refused += out.club.pop("refused")
    return out


def after_sync(store: Store, folder: str) -> dict[str, Any]:
    """The roster read again after a sync: what it holds, its contradictions and its refusals
    (each ``{file, why}`` as the sync's own)."""
    from pancli.app.club_words import refusal_text  # noqa: PLC0415 words only when said

    try:
        roster, read, summary = read_roster(store, folder, False)
    except InputError as e:
        return {"entries": 0, "new": 0, "conflicts": [], "pending": 0, "refused": [{"file": folder, "why": str(e)}]}
    refused = [{"file": r.entry, "why": refusal_text(r)[0]} for r in [*read.refused, *(roster.refused if roster else [])]]
    return {"entries": summary["entries"], "new": len(read.entries),
            "conflicts": conflict_lines(store, roster) if roster else [],
            "pending": summary["pending"], "refused": refused}


def conflict_lines(store: Store, roster: Roster) -> list[str]:
    """Each contradiction in one line, both sides, sessions by the names they have here."""
    from dataclasses import replace  # noqa: PLC0415

    from pancli.app.club_words import conflict_text  # noqa: PLC0415 words only when said

    if not roster.conflicts:
        return []
    place = _places(roster)
    lines = []
    for c in roster.conflicts:
        device, _sep, uid = str(c.params["session"]).partition("/")
        with store.snapshot():
            s = store.sync.session_by_global_id(device, uid)
        named = replace(c, params={**c.params, "session_name": s.name if s else c.params["session"]})
        lines.append(conflict_text(named, roster.display, place))
    return lines


def _places(roster: Roster) -> dict[str, str]:
    """Each side of a contradiction as a person reads it: "entry 3 of kasia" (an entry's id is
    its device and its number)."""
    labels = {d: r["label"] or d[:8] for d, r in roster.registrars.items()}
    places = {}
    for i in {side for c in roster.conflicts for side in (c.first, c.second)}:
        device, _sep, seq = i.partition(":")
        places[i] = _("entry {n} of {device}").format(n=int(seq), device=labels.get(device, device[:8]))
    return places


def _me(store: Store) -> tuple[str, bytes, str]:
    with store.snapshot():
        me, seed = store.sync.device_id(), store.sync.device_key()
    return me, seed, signing.public_key(seed)


def write_entry(store: Store, read: Folder, roster: Roster, kind: str, **fields: Any) -> Entry:
    """This device's next entry, signed and written whole; refused, with nothing written, when
    the roster would not count it (so what is written counts wherever it is read with what this
    host read), or when another run took its number meanwhile."""
    me, seed, key = _me(store)
    data = club.entry_data(kind, roster, me, key, now(), **fields)
    body = club.canonical(data)
    parsed = club.parse(body)
    if isinstance(parsed, Refusal):  # a name too long or not printable: said before anything is written
        raise ClubRefusal(Refusal(f"{me}:{data['seq']}", parsed.code, parsed.params))
    entry = Entry(data, club.digest(body))
    # the roster read, taken up with this entry: what every entry folded again would give
    trial = club.fold_more(club.state(roster, roster.club), [entry], roster.club) if roster.whole else None
    if trial is None:
        trial = club.fold([*read.every_entry(), entry], roster.club)
    if entry.id not in trial.accepted:
        refusal = next((r for r in trial.refused if r.entry == entry.id), Refusal(entry.id, "club.pending"))
        raise ClubRefusal(refusal, device_label(store), roster.name or "")
    text = body + b"\n" + b"# signature: ed25519 " + signing.sign(seed, signing.CLUB, body).encode("ascii") + b"\n"
    _write_new(read.root / me / ROSTER / f"{data['seq']:08d}.json", text)
    return entry


def _write_new(path: Path, text: bytes) -> None:
    """``text`` at ``path``, whole, only if no file has that name (two runs at once: one wins)."""
    with files.partial_file(path, mkdir=True) as partial:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, text)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(partial, path)
        except FileExistsError:
            raise InputError(_("another entry of this device was written at the same moment"),
                             _("run the command again")) from None


class ClubRefusal(InputError):
    """An entry this device was about to write that the roster would refuse."""

    def __init__(self, refusal: Refusal, device: str | None = None, club_name: str = "") -> None:
        from pancli.app.club_words import refusal_text  # noqa: PLC0415 words only when said

        super().__init__(*refusal_text(refusal, device, club_name))
        self.refusal = refusal


# -- the registrar's commands ---------------------------------------------------------------------

def init(store: Store, folder: str | None, name: str) -> dict[str, Any]:
    roster, read = roster_of(store, folder)
    if roster.name is not None:
        raise InputError(_("this folder already holds the club {name}").format(name=roster.name),
                         _("one club a folder: `pan club show` lists it"))
    name = clean_name(name)
    entry = write_entry(store, read, roster, "create", name=name, label=device_label(store)[:club.MAX_NAME])
    with store.lock():
        store.set_setting("club_id", club.club_id(entry.data))
        if folder and not store.setting("sync_folder"):  # the club's folder is the one to sync with
            store.set_setting("sync_folder", str(read.root))
            store.set_setting("sync_folder_as_given", folder)
    return {"club": club.club_id(entry.data), "name": name, "entry": entry.id}


def _need_club(store: Store) -> tuple[Roster, Folder]:
    roster, read = roster_of(store)
    if roster.name is None:
        raise InputError(_("no club in the synced folder yet"), _("start one with `pan club init NAME`"))
    return roster, read


def _people(roster: Roster, ids: list[str]) -> str:
    """Persons as `pan club show` lists them, told apart by their ids: "Ana (96635d), Ana B. (3702bd)"."""
    return ", ".join(f"{roster.display(p)} ({p[:6]})" for p in ids)


def person(roster: Roster, ref: str) -> str:
    """The one person ``ref`` names (an id, its first 6 digits, a name or an alias)."""
    found = roster.find(ref)
    if len(found) == 1:
        return found[0]
    if not found:
        raise InputError(_("no person '{ref}' in the club").format(ref=ref),
                         _("add them with `pan club add NAME`, or see `pan club show`"))
    raise InputError(_("'{ref}' may be any of: {names}").format(ref=ref, names=_people(roster, found)),
                     _("give the person's id as `pan club show` lists it"))


def grant(store: Store, device_ref: str) -> dict[str, Any]:
    roster, read = _need_club(store)
    device, label = find_device(store, device_ref, itself=(
        N_("that is this device"), N_("a device is made a registrar by a registrar, on their own device")))
    if device in roster.registrars and roster.registrars[device]["upto"] is None:
        raise InputError(_("{device} is a registrar of the club already").format(device=label or device[:8]),
                         _("`pan club show` lists the registrars"))
    with store.snapshot():
        key = store.sync.pinned_keys().get(device)
    if key is None:
        raise InputError(_("the key of {device} is not known here yet").format(device=label or device[:8]),
                         _("sync with the folder once that device has synced, then grant it"))
    entry = write_entry(store, read, roster, "grant", device=device, device_key=key,
                        label=clean_name(label or device[:8])[:club.MAX_NAME])
    return {"device": device, "label": label or device[:8], "fingerprint": signing.key_fingerprint(key),
            "entry": entry.id}


def revoke(store: Store, device_ref: str) -> dict[str, Any]:
    roster, read = _need_club(store)
    device, label = find_device(store, device_ref, itself=(
        N_("a registrar cannot revoke itself"), N_("another registrar can, on their own device")))
    shown = label or device[:8]
    if device not in roster.registrars:
        raise InputError(_("{device} is not a registrar of the club").format(device=shown),
                         _("`pan club show` lists the registrars"))
    if roster.registrars[device]["upto"] is not None:
        raise InputError(_("{device} was revoked as registrar already").format(device=shown),
                         _("`pan club show` lists the registrars"))
    last = roster.heads.get(device, 0)
    entry = write_entry(store, read, roster, "revoke", device=device, upto=last)
    return {"device": device, "label": shown, "upto": last, "entry": entry.id}


def _not_taken(roster: Roster, names: list[str], pid: str | None, shared: bool) -> bool:
    """Refuses a name that already means someone else (unless ``shared``: two people really go
    by it, and a seat typed so counts for neither), or that already means this very person;
    whether one of the names is shared."""
    lead = roster.leader(pid) if pid else None
    said = False
    for n in names:
        found = roster.named(n)
        means = [found] if isinstance(found, str) else found or []
        others = [p for p in means if p != lead]
        if others and not shared:
            fix = _("give another name; if two people really go by it, add `--shared` (a seat typed so then "
                    "counts for neither until it is attributed with `pan club attribute`)")
        elif means and not others:
            fix = _("nothing to do")
        else:
            said = said or bool(others)
            continue
        raise InputError(_("{name} is already a name of {person}").format(
            name=n, person=_people(roster, others or means)), fix)
    return said


def add(store: Store, name: str, aliases: list[str], shared: bool = False) -> dict[str, Any]:
    roster, read = _need_club(store)
    name = clean_name(name)
    also = [clean_name(a) for a in aliases]
    _not_taken(roster, list(dict.fromkeys([name, *also])), None, shared)
    pid = secrets.token_hex(16)
    entry = write_entry(store, read, roster, "add", person=pid, name=name, aliases=also)
    return {"person": pid, "name": name, "aliases": also, "entry": entry.id}


def alias(store: Store, ref: str, name: str, shared: bool = False) -> dict[str, Any]:
    roster, read = _need_club(store)
    pid = person(roster, ref)
    given_too = _not_taken(roster, [clean_name(name)], pid, shared)
    entry = write_entry(store, read, roster, "alias", person=pid, name=clean_name(name))
    return {"person": pid, "name": roster.display(pid), "alias": clean_name(name), "shared": given_too,
            "entry": entry.id}


def attribute(store: Store, ref: str, session_name: str, seat: str) -> dict[str, Any]:
    roster, read = _need_club(store)
    pid = person(roster, ref)
    with store.snapshot():
        s = store.session(session_name)
    folded = club.folded_name(seat)
    seated = next((p for p in s.players if club.folded_name(p) == folded), None)
    if seated is None:
        raise InputError(_("nobody sat as '{seat}' in {session}").format(seat=seat, session=s.name),
                         _("the seats were: {names}").format(names=", ".join(s.players)))
    if s.device is None or s.uid is None:
        raise InputError(_("{session} has no global id yet").format(session=s.name), _("run `pan sync` once"))
    entry = write_entry(store, read, roster, "attribute", person=pid, session=f"{s.device}/{s.uid}",
                        seat=seated)
    return {"person": pid, "name": roster.display(pid), "session": s.name, "seat": seated, "entry": entry.id}


def merge(store: Store, ref: str, other_ref: str) -> dict[str, Any]:
    roster, read = _need_club(store)
    pid, other = person(roster, ref), person(roster, other_ref)
    if pid == other:
        raise InputError(_("{name} is already one person").format(name=roster.display(pid)),
                         _("`pan club show` lists who is merged"))
    together = sat_together(store, roster, pid, other)
    if together is not None:
        raise InputError(_("{name} and {other} sat at the same table in {session}: two people").format(
            name=roster.display(pid), other=roster.display(other), session=together),
            _("attribute the seat that is wrong with `pan club attribute`"))
    entry = write_entry(store, read, roster, "merge", person=pid, other=other)
    return {"person": pid, "name": roster.display(pid), "other": other, "other_name": roster.display(other),
            "entry": entry.id}


def unmerge(store: Store, ref: str, other_ref: str) -> dict[str, Any]:
    roster, read = _need_club(store)
    a, b = _ids(roster, ref), _ids(roster, other_ref)
    found = [mid for mid, (p, o) in roster.merges.items() if p in a and o in b or p in b and o in a]
    if not found:
        name, other = (roster.persons[next(iter(ids))].name if len(ids) == 1 else typed
                       for ids, typed in ((a, ref), (b, other_ref)))
        raise InputError(_("no merge of {name} and {other} to undo").format(name=name, other=other),
                         _("`pan club show` lists the merges"))
    mid = found[-1]
    entry = write_entry(store, read, roster, "unmerge", merge=mid)
    p, o = roster.merges[mid]
    return {"merge": mid, "person": p, "other": o, "name": roster.persons[p].name,
            "other_name": roster.persons[o].name, "entry": entry.id}


def _ids(roster: Roster, ref: str) -> set[str]:
    """Every person id ``ref`` may name before merges (a merged-in person by its own name)."""
    folded = club.folded_name(ref)
    ids = {p.id for p in roster.persons.values() if club.folded_name(p.name) == folded or p.id.startswith(ref)}
    return ids | {p for n, p, _by, _given in roster.aliases if n == folded}


def retire(store: Store, ref: str) -> dict[str, Any]:
    roster, read = _need_club(store)
    pid = person(roster, ref)
    if roster.persons[pid].retired:
        raise InputError(_("{name} is retired already").format(name=roster.display(pid)), _("nothing to do"))
    entry = write_entry(store, read, roster, "retire", person=pid)
    return {"person": pid, "name": roster.display(pid), "entry": entry.id}


def sat_together(store: Store, roster: Roster, a: str, b: str) -> str | None:
    """The name of a session of this database where ``a`` and ``b`` (persons, as they resolve
    now) both had a seat; None if none."""
    me = _me(store)[0]
    with store.snapshot():
        sessions = store.sessions()
    want = {roster.leader(a), roster.leader(b)}
    for s in sessions:
        gid = f"{s.device}/{s.uid}"
        seated = {roster.seat(gid, p, me) for p in s.players}
        if want <= {x for x in seated if isinstance(x, str)}:
            return s.name
    return None


def show(store: Store) -> dict[str, Any]:
    """The club as this host reads it: registrars, persons with their names and merges, conflicts,
    the seats more than one person may have sat in, and refused entries."""
    roster, read = _need_club(store)
    from pancli.app.club_words import refusal_text  # noqa: PLC0415 words only when shown

    persons = []
    given = roster.given_names(lead=True)
    for p in sorted(roster.persons.values(), key=lambda p: p.order):
        if roster.leader(p.id) != p.id:
            continue
        members = roster.members(p.id)
        names = list(dict.fromkeys(given.get(p.id, [])))
        persons.append({"person": p.id, "name": p.name, "retired": p.retired, "aliases": names,
                        "merged": [m for m in members if m != p.id]})
    with store.snapshot():
        unsure = store.club.ambiguous_seats()
        held = store.club.sessions_of(sid for sid, _seat, _persons in unsure)
    return {
        "club": roster.club, "name": roster.name,
        "registrars": [{"device": d, "label": r["label"], "fingerprint": signing.key_fingerprint(r["key"]),
                        "revoked_after": r["upto"]} for d, r in sorted(roster.registrars.items())],
        "persons": persons,
        "merges": [{"merge": m, "person": p, "other": o} for m, (p, o) in roster.merges.items()],
        "conflicts": [{"code": c.code, "first": c.first, "second": c.second, **c.params, "text": text}
                      for c, text in zip(roster.conflicts, conflict_lines(store, roster), strict=True)],
        "refused": [{"entry": r.entry, "code": r.code, "why": refusal_text(r)[0]}
                    for r in [*read.refused, *roster.refused]],
        "seasons": [{"name": name, "sessions": len(fps)} for name, fps in sorted(roster.seasons.items())],
        "ambiguous": [{"session": held[sid].name, "seat": seat,
                       "persons": [{"person": q, "name": roster.display(q)} for q in persons if q in roster.persons]}
                      for sid, seat, persons in unsure],
        "pending": roster.pending,
        "entries": roster.count,
    }
