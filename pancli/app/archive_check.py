"""An archive file checked before anything in it is replayed.

``read_text`` reads the file (size, bytes, encoding) and ``check`` walks the parsed document:
the type of every field of the header, of every event and payment, and of every payload field
(known fields by name, any other as plain bounded data), the names, the chip value and every
number. Anything else is refused with one line naming the place, exit 2, before the database is
touched: a hand-edited or damaged archive never reaches the game cores as the wrong type.
"""

from __future__ import annotations

import errno
import functools
import json
import os
from pathlib import Path
from typing import Any

from pancli.app import toml_reader
from pancli.core.errors import InputError
from pancli.core.i18n import N_, _, ngettext
from pancli.core.ledger import MAX_CHIPS
from pancli.core.money import chip_value
from pancli.core.names import MAX_PLAYER_NAME, MAX_SESSION_NAME, clean_name, clean_players, inert
from pancli.core.numbers import grouped
from pancli.core.payloads import BANK_PAYLOADS, LIST, TABLE, TEXT, TEXTS, WHOLE, YES_NO, Field, first_problem, has_type
from pancli.games import DEFAULT_GAME, GAMES

MAX_BYTES = 64 * 1024 * 1024      # far beyond any evening (300,000 events are ~60 MB of TOML)
MAX_DEPTH = 6                     # payload nesting: a contract's melds are lists of lists
MAX_TEXT = 10_000
MAX_ITEMS = 100_000
MAX_NUMBER = MAX_CHIPS
MAX_STAMP = 64                    # a time (ISO 8601 is 25-32 characters)
MAX_WORD = 64                     # a game's name, an event's kind
MAX_REASON = 1_000                # a payment's reason in English

_HINT = N_("this is not a complete pancli archive; export it again with `pan export`")

_STR, _INT, _BOOL, _STRS, _LIST, _DICT = TEXT, WHOLE, YES_NO, TEXTS, LIST, TABLE


def _bad(where: str, what: str) -> InputError:
    return InputError(_("{where}: {what}").format(where=inert(where), what=inert(what)), _(_HINT))


def read_text(path: str | os.PathLike[str]) -> str:
    """The archive file's text, or one line saying why it cannot be read."""
    p = Path(path)
    try:
        with open(p, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputError(_("archive {path} does not exist").format(path=p),
                         _("check the path; `pan export` writes sessions/NAME.toml")) from None
    except IsADirectoryError:
        raise InputError(_("{path} is a folder").format(path=p), _("give the archive file")) from None
    except OSError as e:
        why = _("the name is too long for the file system") if e.errno == errno.ENAMETOOLONG else (e.strerror or str(e))
        raise InputError(_("cannot read archive {path}: {why}").format(path=p, why=why), _("check the path")) from None
    if len(raw) > MAX_BYTES:
        raise InputError(_("archive {path} is larger than {mb} MB").format(path=p, mb=MAX_BYTES // 2**20),
                         _("this is not a pancli archive"))
    if b"\x00" in raw:
        raise InputError(_("archive {path} is a binary file").format(path=p),
                         _("give a TOML or JSON archive written by `pan export`"))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(_("archive {path} is not UTF-8 text (byte {byte})").format(path=p, byte=e.start),
                         _("give a TOML or JSON archive")) from None


class KeyTwice(ValueError):
    """A JSON object names one key twice: json.loads would keep the last value silently, where
    both TOML readers refuse the document."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    table = dict(pairs)
    if len(table) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise KeyTwice(key)
            seen.add(key)
    return table


def json_loads(text: str) -> Any:
    """``json.loads``, refusing an object with a key twice (KeyTwice)."""
    return json.loads(text, object_pairs_hook=_once)


def key_twice(where: str, e: KeyTwice) -> InputError:
    return InputError(_("{where} names the key {key} twice in one table").format(
                          where=inert(where), key=inert(json.dumps(e.key)[:80])),
                      _("keep one of them: `pan export` names each key once"))


def parse(text: str, where: str) -> Any:
    """The parsed document (TOML or JSON); a document nested too deep is refused, not a crash."""
    try:
        if text.lstrip().startswith("{"):
            try:
                return json_loads(text)
            except KeyTwice as e:
                raise key_twice(where, e) from None
            except json.JSONDecodeError as e:
                raise InputError(_("{where} is not valid JSON ({error})").format(where=where, error=e),
                                 _("export it again with `pan export`")) from None
        try:
            return toml_reader.loads(text)
        except toml_reader.ERRORS as e:
            if isinstance(e, RecursionError):
                raise
            raise InputError(_("{where} is not valid TOML ({error})").format(
                                 where=where, error=" ".join(str(e).split())[:200]),
                             _("export it again with `pan export`")) from None
    except RecursionError:
        raise InputError(_("{where} is nested too deeply").format(where=where),
                         _("this is not a pancli archive")) from None


def _plain(value: Any, where: str, depth: int = 0) -> None:
    """Plain bounded data: text, whole numbers, true/false, lists and tables of them."""
    if depth > MAX_DEPTH:
        raise _bad(where, _("nested too deeply"))
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > MAX_NUMBER:
            raise _bad(where, _("the number {number} is out of range (at most {most})").format(
                number=str(value)[:30], most=grouped(MAX_NUMBER)))
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise _bad(where, _("a text is too long"))
        return
    # Below, an item that is plainly sound (a text or a number within bounds, not too deep) is
    # passed over without naming its place: only one that needs a closer look is named.
    inner = depth < MAX_DEPTH
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise _bad(where, _("a list is too long"))
        for i, v in enumerate(value):
            if not (inner and _sound(v)):
                _plain(v, f"{where}[{i}]", depth + 1)
        return
    if isinstance(value, dict):
        if len(value) > MAX_ITEMS:
            raise _bad(where, _("a table is too long"))
        for k, v in value.items():
            if not isinstance(k, str):
                raise _bad(where, _("a key is not text"))
            if not (inner and _sound(v)):
                _plain(v, f"{where}.{k}", depth + 1)
        return
    raise _bad(where, _("{type} values are not allowed (a number with a point, or a date?)").format(
        type=type(value).__name__))


def _sound(v: Any) -> bool:
    """A value _plain passes at once, one level down: a text, a number in range, true/false."""
    t = type(v)
    return t is str and len(v) <= MAX_TEXT or t is int and -MAX_NUMBER <= v <= MAX_NUMBER or t is bool


# What a value of the wrong type is told, one whole message per type (core/payloads names them).
_MUST_BE = {TEXT: N_("must be a text, not {value}"), WHOLE: N_("must be a whole number, not {value}"),
            YES_NO: N_("must be a true or false, not {value}"), TEXTS: N_("must be a list of texts, not {value}"),
            LIST: N_("must be a list, not {value}"), TABLE: N_("must be a table, not {value}")}


def _typed(value: Any, kind: str, where: str) -> None:
    if not has_type(value, kind):
        said = _(_MUST_BE[kind]) if kind in _MUST_BE else f"must be a {kind}, not {{value}}"
        raise _bad(where, said.format(value=_shown(value)))


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _field(d: dict[str, Any], key: str, kind: str, where: str, optional: bool = False, limit: int = MAX_TEXT) -> Any:
    """One field of its type; a text at most ``limit`` characters long (every text from a file is
    bounded: a time, a name, a reason)."""
    value = d.get(key)
    # the common case first: a text or a whole number of its type and in bounds
    if kind == _STR and type(value) is str and len(value) <= limit \
            or kind == _INT and type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    if key not in d or d[key] is None:
        if optional:
            return None
        raise _bad(where, _("'{key}' is missing").format(key=key))
    _typed(d[key], kind, f"{where} '{key}'")
    if kind == _INT and abs(d[key]) > MAX_NUMBER:
        raise _bad(where, _("'{key}' = {value} is out of range").format(key=key, value=str(d[key])[:30]))
    if kind == _STR and len(d[key]) > limit:
        raise _bad(where, ngettext("'{key}' is longer than {n} character", "'{key}' is longer than {n} characters",
                                   limit).format(key=key, n=grouped(limit)))
    return d[key]


# Checked in the payload of any game's event: its kind, and chips (a number wherever it appears).
_ANY_GAME = {"kind": Field(TEXT), "chips": Field(WHOLE)}


def payload_fields(game: str, kind: Any) -> dict[str, Field]:
    """The payload fields checked by name in one event: every field the game declares
    (``Game.payloads``), and for the bank's kinds and undo the bank's too. A game that declares
    none has its kind and chips checked."""
    g = GAMES.get(game)
    own = g.payloads.fields if g is not None else {}
    if isinstance(kind, str) and kind in BANK_PAYLOADS.kinds:  # a kind that is no text is refused as such
        return {**own, **BANK_PAYLOADS.fields, **_ANY_GAME}
    return {**own, **_ANY_GAME}


def payloads_markdown() -> str:
    """The payload of every kind of event, game by game, as each game declares it (appended to
    the archive format's reference by `pan export --format-doc`)."""
    lines = ["", "## Event payloads", "",
             "Every payload has `kind` (text). The fields of each kind, as each game declares them beside its",
             "engine; a field marked `?` may be null (left out, and named in `nulls`, in TOML). Any other field",
             "is kept as plain data.", ""]
    for title, payloads in [("Every game: the bank and undo", BANK_PAYLOADS)] + [
            (g.title, g.payloads) for g in GAMES.values() if g.payloads.kinds]:
        lines += [f"### {title}", "", "| kind | fields |", "|---|---|"]
        for kind, fields in payloads.kinds.items():
            shown = ", ".join(f"`{name}` ({f.type}{'?' if f.nullable else ''})" for name, f in fields.items())
            lines.append(f"| `{kind}` | {shown or '(none)'} |")
        lines.append("")
    return "\n".join(lines)


def check_payload(payload: Any, where: str, game: str | None = None) -> None:
    """One event's payload: plain bounded data, and every field the game declares of its type."""
    if not isinstance(payload, dict):
        raise _bad(where, _("the payload must be a table, not {value}").format(value=_shown(payload)))
    _plain(payload, _("{where} payload").format(where=where))
    wrong = first_problem(payload_fields(game or DEFAULT_GAME, payload.get("kind")), payload)
    if wrong is not None:
        key, value, f = wrong
        _typed(value, f.type, _("{where} payload '{key}'").format(where=where, key=key))
    if payload.get("kind") == "seat_add":
        try:
            clean_name(payload.get("player"), "player")
        except InputError as e:
            raise _bad(where, e.message) from None


def check(data: Any, where: str) -> None:
    """Every field of the parsed archive has its type; names, chip value and numbers are sound."""
    if not isinstance(data, dict):
        raise _bad(where, _("not a pancli archive (no format line)"))
    s = data.get("session")
    if not isinstance(s, dict):
        return  # the format and version lines are checked by the archive reader, with their own words
    at = f"{where} [session]"
    _field(s, "name", _STR, at, limit=MAX_SESSION_NAME)
    _field(s, "game", _STR, at, limit=MAX_WORD)
    _field(s, "created_at", _STR, at, limit=MAX_STAMP)
    _field(s, "closed_at", _STR, at, optional=True, limit=MAX_STAMP)
    _field(s, "dealer", _STR, at, optional=True, limit=MAX_PLAYER_NAME)
    for key in ("device", "uid"):  # their form (32 hex digits) is the archive reader's to say
        _field(s, key, _STR, at, optional=True, limit=MAX_WORD)
    _field(s, "seats", _STRS, at)
    try:
        if clean_name(s["name"], "session") != s["name"] or len(s["name"]) > MAX_SESSION_NAME:
            raise _bad(at, _("the session name '{name}' has spaces around it or is not normalised").format(
                name=s["name"]))
        if not _seats_normalised(tuple(s["seats"])):
            raise _bad(at, _("a seat's name has spaces around it or is not normalised"))
    except InputError as e:
        raise _bad(at, e.message) from None
    cv = s.get("chip_value")
    if cv is not None and not (cv == 0 and not isinstance(cv, bool)):
        if not isinstance(cv, (int, float)) or isinstance(cv, bool):
            raise _bad(at, _("'chip_value' must be a number, not {value}").format(value=_shown(cv)))
        try:
            chip_value(cv, "chip_value")
        except InputError as e:
            raise _bad(at, e.message) from None
    rules = data.get("rules")
    if rules is not None:
        if not isinstance(rules, dict):
            raise _bad(where, _("[rules] must be a table, not {value}").format(value=_shown(rules)))
        for k, v in rules.items():
            if isinstance(v, float) or _sound(v):
                continue  # a money knob (the rules schema checks it), or a plain text or number
            _plain(v, f"{where} [rules] {k}", 1)
    events = data.get("events", [])
    if events is None:
        return
    if not isinstance(events, list):
        raise _bad(where, _("'events' must be a list, not {value}").format(value=_shown(events)))
    if len(events) > 10 * MAX_ITEMS:
        raise _bad(where, _("too many events"))  # a whole document; a streamed one holds one event at a time
    for i, ev in enumerate(events):
        check_event(ev, _("{where} event {n}").format(where=where, n=i + 1), s["game"])


@functools.lru_cache(maxsize=64)
def _seats_normalised(seats: tuple[str, ...]) -> bool:
    """Whether the seats are each a sound name as written (clean_players; InputError when one
    cannot be a name): once per table, however many of its sessions a sync reads."""
    return clean_players(seats) == list(seats)


def check_event(ev: Any, at: str, game: str) -> None:
    """One event of an archive of ``game``: its fields, its payload and its payments."""
    if type(ev) is dict and _plainly_sound(ev, at, game):
        return
    check_event_fields(ev, at, game)


def check_event_fields(ev: Any, at: str, game: str) -> None:
    """check_event, one field after the other: the first wrong one is named."""
    if not isinstance(ev, dict):
        raise _bad(at, _("not a table"))
    _field(ev, "seq", _INT, at)
    _field(ev, "kind", _STR, at, limit=MAX_WORD)
    _field(ev, "created_at", _STR, at, limit=MAX_STAMP)
    _field(ev, "hand", _INT, at, optional=True)
    _field(ev, "undo_of", _INT, at, optional=True)
    if "payload_json" in ev:
        text = _field(ev, "payload_json", _STR, at)
        try:
            payload = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            raise _bad(at, _("payload_json is not JSON")) from None
    else:
        payload = _field(ev, "payload", _DICT, at)
        nulls = _field(ev, "nulls", _STRS, at, optional=True)
        if nulls is not None and len(nulls) > 100:
            raise _bad(at, _("too many nulls"))
    check_payload(payload, at, game)
    payments = ev.get("payments")
    if payments is None:
        return
    if not isinstance(payments, list):
        raise _bad(at, _("'payments' must be a list, not {value}").format(value=_shown(payments)))
    for p in payments:
        if not isinstance(p, dict):
            raise _bad(at, _("a payment is not a table"))
        for key in ("payer", "payee"):
            _field(p, key, _STR, _("{where} payment").format(where=at), limit=MAX_PLAYER_NAME)
        _field(p, "reason", _STR, _("{where} payment").format(where=at), limit=MAX_REASON)
        _field(p, "code", _STR, _("{where} payment").format(where=at), optional=True, limit=MAX_WORD)
        if p.get("params") is not None:
            _field(p, "params", _DICT, _("{where} payment").format(where=at))
            _plain(p["params"], _("{where} payment params").format(where=at), 1)
        chips = _field(p, "chips", _INT, _("{where} payment").format(where=at))
        if chips <= 0:
            raise _bad(_("{where} payment").format(where=at), _("'chips' = {chips} is not above 0").format(chips=chips))


def _whole(v: Any) -> bool:
    return type(v) is int and -MAX_NUMBER <= v <= MAX_NUMBER


def _text(v: Any, limit: int) -> bool:
    return type(v) is str and len(v) <= limit


def _plainly_sound(ev: dict[str, Any], at: str, game: str) -> bool:
    """Whether an event passes every check of check_event, seen at a glance (its fields of
    exactly their types, within their bounds): True; or False, and check_event looks again,
    one field after the other, to say what is wrong. It accepts nothing check_event refuses
    (tests/test_archive.py compares the two), and it raises only what check_event would raise
    first: a field is looked into (check_payload, _plain) only once all before it are sound."""
    if not (_whole(ev.get("seq")) and _text(ev.get("kind"), MAX_WORD) and _text(ev.get("created_at"), MAX_STAMP)):
        return False
    hand, undo_of, payload, nulls = ev.get("hand"), ev.get("undo_of"), ev.get("payload"), ev.get("nulls")
    if hand is not None and not _whole(hand) or undo_of is not None and not _whole(undo_of) \
            or "payload_json" in ev or type(payload) is not dict:
        return False
    if nulls is not None and not (type(nulls) is list and len(nulls) <= 100 and all(type(x) is str for x in nulls)):
        return False
    check_payload(payload, at, game)
    payments = ev.get("payments")
    if payments is None:
        return True
    if type(payments) is not list:
        return False
    for p in payments:
        if type(p) is not dict:
            return False
        code, params = p.get("code"), p.get("params")
        if not (_text(p.get("payer"), MAX_PLAYER_NAME) and _text(p.get("payee"), MAX_PLAYER_NAME)
                and _text(p.get("reason"), MAX_REASON) and (code is None or _text(code, MAX_WORD))):
            return False
        if params is not None:
            if type(params) is not dict:
                return False
            _plain(params, _("{where} payment params").format(where=at), 1)
        chips = p.get("chips")
        if not (type(chips) is int and 0 < chips <= MAX_NUMBER):
            return False
    return True
