"""Reading an archive file an event at a time, in the memory of one event however long the night.

`pan export` writes one event a table (TOML: a ``[[events]]`` line opens each; JSON, indented by
one space: each event is the object at the second level), and never a line break inside a
string (TOML strings are escaped on one line; JSON has none). So the file is split at those
lines and each piece parsed alone, with the same parser, to the same values a parse of the whole
would give. A piece that is not what the writer makes (a hand-edited file: another layout, an
event table spelled otherwise, a multi-line string) stops the split: such a file is read whole,
as every archive once was, within archive_check.MAX_BYTES.

Every piece is bounded (MAX_EVENT_BYTES), and every value is checked by archive_check as it comes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from pancli.app import archive_check, toml_reader
from pancli.core.errors import InputError
from pancli.core.i18n import _

MAX_EVENT_BYTES = 1 << 20  # one event's text; the largest pancli writes is a few kilobytes
MAX_HEADER_BYTES = 1 << 20  # the session and its rules
BLOCK = 1 << 20

_HEAD = {"format", "version", "session", "rules"}  # what `pan export` writes before the events
_TOML_EVENT = b"\n[[events]]\n"
_JSON_FIRST = b'\n "events": [\n  {\n'
_JSON_NEXT = b"\n  },\n  {\n"
_JSON_END = (b"\n  }\n ]\n}\n", b"\n  }\n ]\n}")


class NotWritersShape(Exception):
    """The file is not laid out as `pan export` writes it: read it whole instead. ``why`` says
    what was found, for a file too large to read whole."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


@dataclass
class Source:
    """An archive being read: its header (format, version, session, rules) and its events."""

    where: str
    header: Any
    events: Iterator[Any]
    streamed: bool  # read a piece at a time (False: parsed whole)


def open_archive(path: str | os.PathLike[str]) -> Source:
    """The archive at ``path``, split into events as `pan export` wrote it, or else read whole."""
    p = Path(path)
    f = _open(p)
    started, why = False, ""
    try:
        is_json = f.read(64).lstrip().startswith(b"{")
        f.seek(0)
        pieces = _pieces(f, p, _JSON_FIRST if is_json else _TOML_EVENT, _JSON_NEXT if is_json else _TOML_EVENT,
                         b"" if is_json else b"\n")
        raw, _end = next(pieces)
        header = _json_header(raw, p) if is_json else _toml_piece(raw, _("its header"))
        if not isinstance(header, dict) or "events" in header or not _HEAD <= set(header):
            raise NotWritersShape(_("its header is not the one `pan export` writes"))
        started = True
    except NotWritersShape as e:
        why = e.why
    finally:
        if not started:  # the file is the events' reader's to close from here on
            f.close()
    if not started:
        return whole(p, why)
    return Source(str(p), header, _events(f, pieces, is_json), streamed=True)


def whole(path: Path, why: str | None = None) -> Source:
    """The archive read and parsed whole, as before it streamed: within archive_check.MAX_BYTES."""
    if why is not None and _size(path) > archive_check.MAX_BYTES:
        raise InputError(_("archive {path} is larger than {mb} MB and {why}").format(
                             path=path, mb=archive_check.MAX_BYTES // 2**20, why=why),
                         _("export it again with `pan export`: pancli reads its own archives of any size"))
    data = archive_check.parse(archive_check.read_text(path), str(path))
    if not isinstance(data, dict):
        return Source(str(path), data, iter(()), streamed=False)
    events = data.get("events", [])
    if events is None or isinstance(events, list):
        data.pop("events", None)  # otherwise archive_check refuses it, in its own words
    return Source(str(path), data, iter(events if isinstance(events, list) else ()), streamed=False)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _open(p: Path) -> BinaryIO:
    try:
        if p.is_dir():
            raise IsADirectoryError
        return open(p, "rb")
    except OSError:
        archive_check.read_text(p)  # says why, in the words it always did
        raise


def _pieces(f: BinaryIO, p: Path, first: bytes, sep: bytes, lead: bytes) -> Iterator[tuple[bytes, int]]:
    """The header, then each event's text, with where each starts in the file: the bytes before
    ``first``, then between ``sep`` markers; the last runs to the end of the file. A piece over
    its bound, or a zero byte, stops the split."""
    buf, pos, scan = lead, 0, 0
    base = -len(lead)  # where buf[0] lies in the file
    marker, limit = first, MAX_HEADER_BYTES
    while True:
        i = buf.find(marker, scan)
        if i >= 0:
            if i - pos > limit:
                raise NotWritersShape(_("a part of it is longer than {mb} MB").format(mb=limit // 2**20))
            yield buf[pos:i], base + pos
            pos = i + len(marker)
            scan = pos - 1  # the marker's closing line break may open the next one
            marker, limit = sep, MAX_EVENT_BYTES
            continue
        if len(buf) - pos > limit:
            raise NotWritersShape(_("a part of it is longer than {mb} MB").format(mb=limit // 2**20))
        try:
            block = f.read(BLOCK)
        except OSError as e:
            raise InputError(_("cannot read archive {path}: {why}").format(path=p, why=e.strerror or e), _("check the file")) from None
        if not block:
            if len(buf) - pos > limit:
                raise NotWritersShape(_("a part of it is longer than {mb} MB").format(mb=limit // 2**20))
            yield buf[pos:], base + pos
            return
        if b"\x00" in block:
            raise InputError(_("archive {path} is a binary file").format(path=p),
                             _("give a TOML or JSON archive written by `pan export`"))
        scan = max(pos, len(buf) - len(marker) + 1) - pos
        base += pos
        buf, pos = buf[pos:] + block, 0


def _decoded(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotWritersShape(_("{where} is not UTF-8 text (byte {byte})").format(where=where, byte=e.start)) from None


def _toml_piece(raw: bytes, where: str) -> Any:
    try:
        return toml_reader.loads(_decoded(raw, where))
    except toml_reader.ERRORS as e:
        raise NotWritersShape(_("{where} is not valid TOML ({error})").format(where=where, error=_one_line(e))) from None


def _one_line(e: Exception) -> str:
    return " ".join(str(e).split())[:200]


def _json_header(raw: bytes, p: Path) -> Any:
    try:
        header = archive_check.json_loads(_decoded(raw, _("its header")) + '\n "events": []\n}')
    except archive_check.KeyTwice as e:
        raise archive_check.key_twice(_("archive {path}").format(path=p), e) from None
    except (ValueError, RecursionError):
        raise NotWritersShape(_("its header is not the one `pan export` writes")) from None
    if isinstance(header, dict) and header.get("events") == []:
        del header["events"]  # the one added to close it (a second one would stay, and be refused)
    return header


def _events(f: BinaryIO, pieces: Iterator[tuple[bytes, int]], is_json: bool) -> Iterator[Any]:
    """Each event's table, parsed alone; the file is closed when they end."""
    try:
        yield from (_json_events(pieces, f.name) if is_json else _toml_events(pieces))
    finally:
        f.close()


def _toml_events(pieces: Iterator[tuple[bytes, int]]) -> Iterator[Any]:
    tail: set[str] = set()
    for n, (raw, at) in enumerate(pieces, 1):
        doc = _toml_piece(b"[[events]]\n" + raw, _("event {n} (byte {at})").format(n=n, at=at))
        events = doc.get("events")
        others = set(doc) - {"events"}
        if not isinstance(events, list) or len(events) != 1 or others - {"sync"} or others & tail:
            raise NotWritersShape(_("event {n} (byte {at}) is not one table as `pan export` writes it").format(n=n, at=at))
        tail |= others  # `pan sync`'s [sync] table, after the last event
        yield events[0]


def _json_events(pieces: Iterator[tuple[bytes, int]], p: str) -> Iterator[Any]:
    ended = False
    for n, (raw, at) in enumerate(pieces, 1):
        if ended:
            raise NotWritersShape(_("event {n} (byte {at}) follows the end of the events").format(n=n, at=at))
        for end in _JSON_END:
            if raw.endswith(end):
                raw, ended = raw[:-len(end)], True
                break
        try:
            ev = archive_check.json_loads("{\n" + _decoded(raw, _("event {n} (byte {at})").format(n=n, at=at)) + "\n}")
        except archive_check.KeyTwice as e:
            raise archive_check.key_twice(_("archive {path} event {n} (byte {at})").format(path=p, n=n, at=at), e) from None
        except (ValueError, RecursionError) as e:
            raise NotWritersShape(_("event {n} (byte {at}) is not valid JSON ({error})").format(n=n, at=at, error=_one_line(e))) from None
        yield ev
    if not ended:
        raise NotWritersShape(_("its events do not end as `pan export` ends them"))
