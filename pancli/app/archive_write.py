"""Writing a session's archive as it is read from the store: a segment of events at a time.

An archive is never built whole: the header, then each event as its segment is read, so a night
of hundreds of thousands of events is written in the memory of one segment. The text is exactly
what ``archive.to_toml`` and ``archive.to_json`` make of the whole archive (tests compare the
bytes with exports made before the writer streamed): `pan sync` writes and fingerprints the same
text, and archives already written stay what they are.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from pancli.core.rows import LoggedEvent, Session
from pancli.core.words import plural

if TYPE_CHECKING:
    from pancli.storage.store import Store

FORMAT = "pancli-archive"
VERSION = 1
SESSION_KEYS = ("name", "game", "created_at", "seats", "dealer", "chip_value", "closed_at", "device", "uid",
                "currency", "language")
# Written only when the session has them, so the archive of every other session (and its
# fingerprint) is what it always was.
OPTIONAL_KEYS = ("currency", "language")
SEGMENT = 1000  # events read from the store at a time: their rows are all that is held

Write = Callable[[str], Any]


def stored_events(store: Store, session: Session, segment: int = SEGMENT) -> Iterator[LoggedEvent]:
    """Every event of a session in order, undos included, with its stored payments, read a
    segment at a time (call inside one snapshot, so the segments are of the same log)."""
    last = store.log.last_seq(session.id)
    for first in range(1, last + 1, segment):
        yield from store.log.session_log(session.id, first, first + segment - 1)


def header(session: Session) -> dict[str, Any]:
    """The archive's session table, in the plain form of ``archive.build`` (None where absent)."""
    return {"name": session.name, "game": session.game, "created_at": session.created_at,
            "seats": list(session.players), "dealer": session.dealer,
            "chip_value": session.chip_value, "closed_at": session.closed_at,
            "device": session.device, "uid": session.uid,
            **{k: v for k in OPTIONAL_KEYS if (v := getattr(session, k)) is not None}}


def archived_events(events: Iterator[LoggedEvent]) -> Iterator[dict[str, Any]]:
    """Each event as the archive holds it, in the plain form of ``archive.build``: the writer
    of archive.logged_event's reading (a column of the log that is archived is written here)."""
    params: dict[str, dict[str, Any]] = {}  # parsed once per distinct text: every payer of a condition shares it
    for ev in events:
        payments = []
        for pay in ev.payments or ():
            p: dict[str, Any] = {"payer": pay.payer, "payee": pay.payee, "chips": pay.chips, "reason": pay.reason}
            if pay.code is not None:
                text = pay.params.to_json()
                if text not in params:
                    if len(params) > 4096:  # a night's conditions repeat; a bound all the same
                        params.clear()
                    params[text] = json.loads(text)
                p["code"], p["params"] = pay.code, params[text]
            payments.append(p)
        yield {"seq": ev.seq, "hand": ev.hand, "kind": ev.kind, "created_at": ev.created_at,
               "undo_of": ev.undo_of, "payload": ev.payload, "payments": payments}


# -- TOML --------------------------------------------------------------------------------

def write_toml(write: Write, head: dict[str, Any], rules: dict[str, Any], count: int, events: Iterator[dict[str, Any]],
               exported_at: str | None = None) -> None:
    """The TOML archive of ``count`` events, written piece by piece (``to_toml``'s very text)."""
    # start-up: only a TOML archive needs these (not JSON or CSV export, import, db check)
    import secrets  # noqa: PLC0415

    import tomli_w  # noqa: PLC0415

    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if exported_at:
        doc["exported_at"] = exported_at
    doc["session"] = {k: head[k] for k in SESSION_KEYS if head.get(k) is not None}
    doc["rules"] = rules
    write(f"# pancli session archive: {head['name']} ({head['game']}), {plural(count, 'event')}.\n"
          "# Rebuild it with `pan import FILE`; `pan export --format-doc` describes the format.\n\n")
    if not count:
        write(tomli_w.dumps({**doc, "events": []}))  # an empty array is a plain value, among the first lines
        return
    write(tomli_w.dumps(doc))
    marker = f"payments-{secrets.token_hex(8)}-"  # stands in for each event's payments, written below
    stand_in = re.compile(rf'^payments = "{marker}(\d+)"$', flags=re.M)
    while batch := list(itertools.islice(events, BATCH)):
        write("\n" + _toml_batch(batch, marker, stand_in, tomli_w.dumps))


BATCH = 200  # events written by one call of tomli_w (its text is that of each written alone)


def _toml_batch(batch: list[dict[str, Any]], marker: str, stand_in: re.Pattern[str], dumps: Callable[[dict[str, Any]], str]) -> str:
    tables = [toml_event(ev, f"{marker}{i}") for i, ev in enumerate(batch)]
    return stand_in.sub(lambda m: toml_payments(batch[int(m[1])]["payments"]), dumps({"events": tables}))


def _has_none(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_none(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_none(v) for v in value)
    return False


def toml_event(ev: dict[str, Any], marker: str) -> dict[str, Any]:
    """An event as its TOML table holds it: no nulls (``nulls`` names them, or the payload is
    kept as JSON text where a null is nested), payments stood in for by ``marker``."""
    out: dict[str, Any] = {"seq": ev["seq"]}
    if ev["hand"] is not None:
        out["hand"] = ev["hand"]
    out["kind"] = ev["kind"]
    out["created_at"] = ev["created_at"]
    if ev["undo_of"] is not None:
        out["undo_of"] = ev["undo_of"]
    payload = ev["payload"]
    if any(_has_none(v) for v in payload.values() if v is not None):
        out["payload_json"] = json.dumps(payload, ensure_ascii=False)
    else:
        nulls = [k for k, v in payload.items() if v is None]
        if nulls:
            out["nulls"] = nulls
        out["payload"] = {k: v for k, v in payload.items() if v is not None}
    out["payments"] = marker if ev["payments"] else []
    return out


@functools.lru_cache(maxsize=4096)
def _toml_scalar(value: str | int | float | bool, kind: type) -> str:
    import tomli_w  # noqa: PLC0415 start-up: only a TOML archive is written with it

    return tomli_w.dumps({"v": value})[4:].rstrip("\n")


def _toml_inline(value: Any) -> str:
    """A value as one line of TOML: inline tables and arrays, however long."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{k if _BARE_KEY.fullmatch(k) else _toml_scalar(k, str)} = {_toml_inline(v)}"
                                for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_inline(v) for v in value) + "]"
    kind: type = type(value)  # a plain `type`: mypy takes type[Any] for unhashable (python/mypy#11470)
    return _toml_scalar(value, kind)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_payments(payments: list[dict[str, Any]]) -> str:
    """An event's payments, one inline table a line (tomli_w would spread a payment whose params
    hold a list over a dozen lines)."""
    lines = []
    for p in payments:
        p = {k: v for k, v in p.items() if not (k == "params" and not v)}  # empty params are left out
        lines.append(f"    {_toml_inline(p)},\n")
    return "payments = [\n" + "".join(lines) + "]"



# -- JSON --------------------------------------------------------------------------------

def write_json(write: Write, head: dict[str, Any], rules: dict[str, Any], count: int, events: Iterator[dict[str, Any]]) -> None:
    """The JSON archive, written piece by piece (``to_json``'s very text: indented by one space)."""
    doc = {"format": FORMAT, "version": VERSION, "session": head, "rules": rules, "events": []}
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    if not count:
        write(text + "\n")
        return
    write(text[:-len("[]\n}")] + "[\n")
    for i, ev in enumerate(events):
        # JSON text never holds a raw line break (it is escaped), so each line can be indented
        body = json.dumps(ev, ensure_ascii=False, indent=1).replace("\n", "\n  ")
        write(("  " if i == 0 else ",\n  ") + body)
    write("\n ]\n}\n")


def export(store: Store, session: Session, fmt: str, write: Write, exported_at: str | None = None,
           segment: int = SEGMENT) -> None:
    """A session's archive (``fmt`` toml or json) written through ``write``, a piece at a time;
    the store is read in one snapshot."""
    with store.snapshot():
        count = store.log.last_seq(session.id)
        events = archived_events(stored_events(store, session, segment))
        if fmt == "toml":
            write_toml(write, header(session), dict(session.rules), count, events, exported_at)
        else:
            write_json(write, header(session), dict(session.rules), count, events)
