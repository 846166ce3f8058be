"""Another device's session brought in from its trusted copies: imported, extended, or its
contradiction reported with both sides (and nothing changed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pancli.app import archive as arc, archive_import
from pancli.app.sync import conflicts, folder as fs
from pancli.app.sync.folder import Copy
from pancli.app.sync.outcome import Outcome, refuse
from pancli.core.errors import PanError
from pancli.core.i18n import _
from pancli.core.names import MAX_SESSION_NAME
from pancli.core.rows import Session

if TYPE_CHECKING:
    from pancli.storage.store import Store


def held_unchanged(store: Store, c: Copy) -> bool:
    """Whether an unsigned copy is of a session held here, the same or older (nothing to take)."""
    with store.snapshot():
        held = store.sync.session_by_global_id(*c.global_id)
        if held is None:
            return False
        mine = store.log.session_log(held.id)
    return arc.compare(arc.session_header(held), mine, c.header, c.events)["relation"] in ("same", "older")


def _report_conflict(out: Outcome, held: Session | None, mine: list[Any], gid: tuple[str, str], label: str,
                     how: dict[str, Any], copies: list[Copy], me: str) -> None:
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
            refuse(out, c, known, _("it is a session of this device that this database does not hold (restored "
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
        refuse(out, best, known, e.message)
        return False
    except (TypeError, KeyError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as e:
        # a value the archive checks let through but a game core cannot take (as `pan import` says)
        refuse(out, best, known, _("it holds an event pancli cannot replay ({error})").format(error=type(e).__name__))
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
