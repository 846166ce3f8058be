"""What `pan sync` says of a contradiction: which event (or which part of the session) the copies
differ in, how each copy has it in the game's words, and what the host can do next.

A conflict (app/sync/run.py, bring_in) compares this database's copy of a session with copies found in
the folder, all signed by the key of the device that records the session. Two copies that disagree
were recorded apart: the database copied to another machine and used there too, a backup restored
over newer events, or a sync engine that kept an older version as a conflict copy. Nothing is
changed on either side; these words let the host find out which copy is right.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pancli.core.errors import PanError
from pancli.core.i18n import N_, _, ngettext
from pancli.core.text import payment_lines
from pancli.core.words import listed
from pancli.games import game as game_of

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject
    from pancli.core.rows import LoggedEvent

# What a session's header holds, as the table says it (archive.HEADER_KEYS, and when it closed):
# each copy's version of a field, and the copies differing in it, one whole sentence each.
FIELD_VERSIONS = {
    "game": N_("{copy}, the game: {value}"),
    "created_at": N_("{copy}, when the session started: {value}"),
    "seats": N_("{copy}, the players: {value}"),
    "dealer": N_("{copy}, the first dealer: {value}"),
    "chip_value": N_("{copy}, the value of a chip: {value}"),
    "closed_at": N_("{copy}, when the session was closed: {value}"),
    "currency": N_("{copy}, the currency: {value}"),
    "language": N_("{copy}, the house language: {value}"),
}
FIELDS_DIFFER = {
    "game": N_("the copies differ in the game"),
    "created_at": N_("the copies differ in when the session started"),
    "seats": N_("the copies differ in the players"),
    "dealer": N_("the copies differ in the first dealer"),
    "chip_value": N_("the copies differ in the value of a chip"),
    "closed_at": N_("the copies differ in when the session was closed"),
    "currency": N_("the copies differ in the currency"),
    "language": N_("the copies differ in the house language"),
}
# How file-sync engines name the copy they keep when two versions of a file meet.
CONFLICT_COPY_MARKS = (".sync-conflict-", "conflicted copy", "(conflict")


def event_said(game: str, events: list[LoggedEvent], seq: int | None) -> str | None:
    """Event ``seq`` of a copy in its game's words (an undo with what it took back); None when
    the copy has no such event."""
    by_seq = {e.seq: e for e in events}
    e = by_seq.get(seq) if seq is not None else None
    if e is None:
        return None
    undone = by_seq.get(e.undo_of) if e.undo_of is not None else None
    try:
        return game_of(game).event_words(e.payload, undone.payload if undone else None)
    except (PanError, KeyError, TypeError, ValueError, AttributeError):  # a game or payload this pancli does not know
        return e.kind


def side(where: str, header: JsonObject, events: list[LoggedEvent], seq: int | None, field: str | None,
         writer: str | None = None) -> JsonObject:
    """One copy of a conflict: where it is, how many events it holds, and its version of what
    differs (event ``seq`` in words, or the header ``field``)."""
    by_seq = {e.seq: e for e in events}
    e = by_seq.get(seq) if seq is not None else None
    out = {"where": where, "session": header.get("name"), "events": len(events),
           "last": events[-1].seq if events else 0, "closed": bool(header.get("closed_at")),
           "event": event_said(header.get("game") or "", events, seq),
           "hand": e.hand if e else None,
           "payments": payment_lines(e.payments) if e and e.payments else [],
           "value": header.get(field) if field else None}
    if writer is not None or where != HERE:
        out["device_label"] = writer
    return out


HERE = "this database"


def _copy_name(s: JsonObject, sides: list[JsonObject], my_label: str) -> str:
    """Where a copy is, as a sentence says it: "here", "in ana-laptop's copy", "in the folder's
    copy" (the sentences around it are whole messages with a {copy} that is always a place)."""
    if s["where"] == HERE:
        return _("here")
    files = [x for x in sides if x["where"] != HERE]
    writer = s.get("device_label")
    if len(files) > 1:
        return _("in the folder's first copy") if s is files[0] else _("in the folder's second copy")
    if writer and writer != my_label:
        return _("in {device}'s copy").format(device=writer)
    return _("in the folder's copy")


def _value_words(field: str, value: object) -> str:
    if value is None or value == "":
        return _("none")
    if field == "seats" and isinstance(value, list):
        return listed(str(v) for v in value)
    return str(value)


def _versions(c: JsonObject, my_label: str) -> list[str]:
    """Each copy's version of what differs, a sentence each."""
    seq, field, sides = c.get("seq"), c.get("field"), c["sides"]
    lines = []
    words = [s["event"] for s in sides if s["event"] is not None]
    same_words = len(words) > 1 and len(set(words)) == 1
    hands = {s["hand"] for s in sides if s["event"] is not None}
    for s in sides:
        name = _copy_name(s, sides, my_label)
        total = ngettext("{n} event in all", "{n} events in all", s["events"]).format(n=s["events"])
        if field:
            said = _(FIELD_VERSIONS[field]) if field in FIELD_VERSIONS else "{copy}, " + field + ": {value}"
            line = said.format(copy=name.capitalize(), value=_value_words(field, s["value"]))
        elif s["event"] is None:
            if s["last"]:
                said = _("{copy}, it ends at #{last} and the session is closed") if s["closed"] \
                    else _("{copy}, it ends at #{last}")
            else:
                said = _("{copy}, it holds no event and the session is closed") if s["closed"] \
                    else _("{copy}, it holds no event")
            line = said.format(copy=name.capitalize(), last=s["last"])
        else:
            # Translators: {copy} is where the copy is ("here", "in ana-laptop's copy"); {event} is the event in words
            if same_words and len(hands) > 1:
                said = _("#{seq} {copy}: {event} in hand {hand} ({total})") if s["hand"] \
                    else _("#{seq} {copy}: {event} between hands ({total})")
            elif same_words:
                said = _("#{seq} {copy}: {event}; {payments} ({total})") if s["payments"] \
                    else _("#{seq} {copy}: {event}; no one pays ({total})")
            else:
                said = _("#{seq} {copy}: {event} ({total})")
            line = said.format(seq=seq, copy=name, event=s["event"], hand=s["hand"],
                               payments="; ".join(s["payments"]), total=total)
        lines.append(line + ".")
    return lines


def _files(c: JsonObject, folder: tuple[str, str]) -> list[str]:
    """Where the folder's copies are, named from the folder as the host typed it (no full stop
    after a file's name, which a host may copy)."""
    root, shown = folder
    files = [s for s in c["sides"] if s["where"] != HERE]
    lines = []
    for i, s in enumerate(files):
        path = Path(s["where"])
        try:
            where = str(Path(shown) / path.relative_to(root))
        except ValueError:
            where = str(path)
        if len(files) == 1:
            said = _("The folder's copy is {file}")
        else:
            said = _("The first copy is {file}") if i == 0 else _("The second copy is {file}")
        lines.append(said.format(file=where))
    return lines


def _next(c: JsonObject) -> list[str]:
    """What the host can do, in the case at hand."""
    here = next((s["session"] for s in c["sides"] if s["where"] == HERE), None)
    engine_copy = any(mark in Path(s["where"]).name for s in c["sides"] if s["where"] != HERE
                      for mark in CONFLICT_COPY_MARKS)
    if c.get("ahead"):
        return [_("Nothing was changed: a session this device records is never taken from the folder, and "
                  "its file there is not written while the folder holds more of it."),
                _("If this database was restored from an older backup, restore a newer one (`pan restore`); "
                  "if not, another copy of this database recorded those events.")]
    if c.get("this_device"):
        return [_("Nothing was changed, here or in the folder. That copy was signed with this device's key: "
                  "another copy of this database (on another machine?) recorded it."),
                _("This device records {session}: keep recording here. Its file is not written to the folder "
                  "while that copy is there; once it is moved out of the folder, the next sync writes it. "
                  "To compare, `pan export {session} -o -` prints this database's copy in the form of the "
                  "folder's files.").format(session=here)]
    device = c["device_label"]
    lines = [_("Nothing was changed, here or in the folder, and no new event of {session} is brought in while "
               "the copies disagree.").format(session=here) if here else
             _("Nothing was changed, here or in the folder, and the session is not brought in while the copies "
               "disagree.")]
    if here:
        lines.append(_("Only {device} records this session: ask its host which copy is the one recorded there. "
                       "To compare, `pan export {session} -o -` prints this database's copy in the form of the "
                       "folder's files.").format(device=device, session=here))
    else:
        lines.append(_("Only {device} records this session: ask its host which copy is the one recorded "
                       "there.").format(device=device))
    if engine_copy:
        lines.append(_("A conflict copy the sync engine kept can be removed from the folder once the right "
                       "copy is known; then sync again."))
    return lines


def conflict_text(c: JsonObject, my_label: str, folder: tuple[str, str]) -> list[str]:
    """The sentences a conflict is reported in: what differs, each copy's version, where the
    folder's copies are and what to do (``folder``: its whole path and as the host typed it)."""
    seq, field = c.get("seq"), c.get("field")
    if c.get("ahead"):
        what = _("the folder holds more of it than this database")
    elif seq is not None:
        what = _("the copies differ from event #{seq} on").format(seq=seq)
    elif field:
        what = _(FIELDS_DIFFER[field]) if field in FIELDS_DIFFER else "the copies differ in " + field
    else:
        what = c["why"]
    said = _("Conflict in session {session}, recorded on this device ({id}): {what}.") if c.get("this_device") \
        else _("Conflict in session {session}, recorded on {device} ({id}): {what}.")
    head = said.format(session=c["session"], device=c["device_label"], id=c["device"][:8], what=what)
    if not field and seq is None:
        return [head, *_next(c)]
    return [head, *_versions(c, my_label), *_files(c, folder), *_next(c)]
