"""What `pan sync` says of a contradiction: which event (or which part of the session) the copies
differ in, how each copy has it in the game's words, and what the host can do next.

A conflict (app/sync.py, bring_in) compares this database's copy of a session with copies found in
the folder, all signed by the key of the device that records the session. Two copies that disagree
were recorded apart: the database copied to another machine and used there too, a backup restored
over newer events, or a sync engine that kept an older version as a conflict copy. Nothing is
changed on either side; these words let the host find out which copy is right.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pancli.app.rescore import LogEvent
from pancli.core.errors import PanError
from pancli.core.i18n import N_
from pancli.core.text import payment_lines
from pancli.core.words import listed, plural
from pancli.games import game as game_of

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject

# What a session's header holds, as the table says it (archive.HEADER_KEYS, and when it closed).
FIELD_WORDS = {"game": "the game", "created_at": "when the session started", "seats": "the players",
               "dealer": "the first dealer", "chip_value": "the value of a chip",
               "closed_at": "when the session was closed",
               "currency": N_("the currency"), "language": N_("the house language")}
# How file-sync engines name the copy they keep when two versions of a file meet.
CONFLICT_COPY_MARKS = (".sync-conflict-", "conflicted copy", "(conflict")


def event_said(game: str, events: list[LogEvent], seq: int | None) -> str | None:
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


def side(where: str, header: JsonObject, events: list[LogEvent], seq: int | None, field: str | None,
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
    """How a copy is named in a sentence: "here", "in ana-laptop's copy", "in the folder's copy"."""
    if s["where"] == HERE:
        return "here"
    files = [x for x in sides if x["where"] != HERE]
    writer = s.get("device_label")
    if len(files) > 1:
        return f"in the folder's {'first' if s is files[0] else 'second'} copy"
    if writer and writer != my_label:
        return f"in {writer}'s copy"
    return "in the folder's copy"


def _value_words(field: str, value: object) -> str:
    if value is None or value == "":
        return "none"
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
        total = plural(s["events"], "event")
        if field:
            line = f"{name.capitalize()}, {FIELD_WORDS.get(field, field)}: {_value_words(field, s['value'])}"
        elif s["event"] is None:
            ends = f"it ends at #{s['last']}" if s["last"] else "it holds no event"
            line = f"{name.capitalize()}, {ends}" + (" and the session is closed" if s["closed"] else "")
        else:
            line = f"#{seq} {name}: {s['event']}"
            if same_words and len(hands) > 1:
                line += f" in hand {s['hand']}" if s["hand"] else " between hands"
            elif same_words:
                line += f"; {'; '.join(s['payments'])}" if s["payments"] else "; no one pays"
            line += f" ({total} in all)"
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
        which = "The folder's copy" if len(files) == 1 else f"The {'first' if i == 0 else 'second'} copy"
        lines.append(f"{which} is {where}")
    return lines


def _next(c: JsonObject) -> list[str]:
    """What the host can do, in the case at hand."""
    here = next((s["session"] for s in c["sides"] if s["where"] == HERE), None)
    engine_copy = any(mark in Path(s["where"]).name for s in c["sides"] if s["where"] != HERE
                      for mark in CONFLICT_COPY_MARKS)
    export = f"`pan export {here} -o -` prints this database's copy in the form of the folder's files"
    if c.get("ahead"):
        return ["Nothing was changed: a session this device records is never taken from the folder, and "
                "its file there is not written while the folder holds more of it.",
                "If this database was restored from an older backup, restore a newer one (`pan restore`); "
                "if not, another copy of this database recorded those events."]
    if c.get("this_device"):
        return ["Nothing was changed, here or in the folder. That copy was signed with this device's key: "
                "another copy of this database (on another machine?) recorded it.",
                f"This device records {here}: keep recording here. Its file is not written to the folder "
                f"while that copy is there; once it is moved out of the folder, the next sync writes it. "
                f"To compare, {export}."]
    device = c["device_label"]
    lines = ["Nothing was changed, here or in the folder, and "
             + (f"no new event of {here} is brought in while the copies disagree." if here else
                "the session is not brought in while the copies disagree.")]
    ask = f"Only {device} records this session: ask its host which copy is the one recorded there."
    lines.append(ask + (f" To compare, {export}." if here else ""))
    if engine_copy:
        lines.append("A conflict copy the sync engine kept can be removed from the folder once the right "
                     "copy is known; then sync again.")
    return lines


def conflict_text(c: JsonObject, my_label: str, folder: tuple[str, str]) -> list[str]:
    """The sentences a conflict is reported in: what differs, each copy's version, where the
    folder's copies are and what to do (``folder``: its whole path and as the host typed it)."""
    seq, field = c.get("seq"), c.get("field")
    whose = "this device" if c.get("this_device") else c["device_label"]
    if c.get("ahead"):
        what = "the folder holds more of it than this database"
    elif seq is not None:
        what = f"the copies differ from event #{seq} on"
    elif field:
        what = f"the copies differ in {FIELD_WORDS.get(field, field)}"
    else:
        what = c["why"]
    head = f"Conflict in session {c['session']}, recorded on {whose} ({c['device'][:8]}): {what}."
    if not field and seq is None:
        return [head, *_next(c)]
    return [head, *_versions(c, my_label), *_files(c, folder), *_next(c)]
