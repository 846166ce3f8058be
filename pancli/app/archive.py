"""Session archives: export a session to TOML, JSON or CSV, and rebuild one from an archive.

An archive holds the session header (name, game, start, seats, first dealer, chip value), every
house-rule knob, and every event in order, undo events and timestamps included, each with the
payments it made. Importing re-applies every event through the game core, so the payments are
recomputed and compared with the archive's; the session then reads back identically. The
archive's fingerprint (sha256 of its content) is kept in ``sessions.origin`` so importing the
same archive twice changes nothing.

TOML has no null: a payload key whose value is null is left out and named in the event's
``nulls`` list; an absent ``hand`` or ``undo_of`` is null.

Here an archive is plain data, held whole: `pan sync` reads and writes its files so.
`pan export` writes an archive as it reads the session (archive_write); `pan import` and `pan
sync` replay and store one event at a time (archive_import), to the same outcomes.

Each payment carries its ``code`` and ``params`` (why it was paid, as data; ``params`` may be left
out when empty) beside its English ``reason``. Archives written by pancli 0.1 have no codes: their
payments are compared by players and chips only. The reason text is never compared.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pancli.app import archive_check, archive_write
from pancli.app.replay import same_payment
from pancli.app.views import event_difference, standings_json
from pancli.core.errors import InputError
from pancli.core.i18n import N_, _
from pancli.core.ledger import NO_PARAMS, Params, Payment, canonical_json
from pancli.core.money import amount, chip_value as money_per_chip, chip_value_in, currency as currency_code
from pancli.core.rows import LoggedEvent, Session
from pancli.games import GAMES, game as get_game
from pancli.games.protocol import TALLIES

if TYPE_CHECKING:
    from pancli.storage.store import Store

FORMAT, VERSION, SESSION_KEYS = archive_write.FORMAT, archive_write.VERSION, archive_write.SESSION_KEYS
GLOBAL_ID = re.compile(r"[0-9a-f]{32}")  # a device id or a session uid: 32 lowercase hex digits


# -- from the database -------------------------------------------------------------------

def build(store: Store, session: Session) -> dict[str, Any]:
    """The archive of a session as plain data (None where a value is absent), whole: for a
    session's file of `pan sync`; `pan export` writes it as it reads it (archive_write)."""
    events = list(archive_write.archived_events(iter(store.log.session_log(session.id))))
    return {"format": FORMAT, "version": VERSION, "session": archive_write.header(session),
            "rules": dict(session.rules), "events": events}


def fingerprint(archive: dict[str, Any]) -> str:
    """sha256 of what the archive says about the session (not when or how it was written)."""
    content = {k: archive[k] for k in ("session", "rules", "events")}
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- writing -----------------------------------------------------------------------------

def to_json(archive: dict[str, Any]) -> str:
    out: list[str] = []
    archive_write.write_json(out.append, archive["session"], archive["rules"], len(archive["events"]),
                             iter(archive["events"]))
    return "".join(out)


def to_toml(archive: dict[str, Any], exported_at: str | None = None) -> str:
    out: list[str] = []
    archive_write.write_toml(out.append, archive["session"], archive["rules"], len(archive["events"]),
                             iter(archive["events"]), exported_at)
    return "".join(out)


def to_csv(store: Store, session: Session) -> str:
    """Two tables for spreadsheets, separated by an empty line: every effective payment, then standings.
    Written through core.text.SpreadsheetWriter, as every CSV: a name a spreadsheet would take for a
    formula (``=…``, ``-2+3``) stays text."""
    import io  # noqa: PLC0415 start-up: only `pan export --format csv` writes CSV
    from decimal import Decimal  # noqa: PLC0415

    from pancli.core.text import SpreadsheetWriter  # noqa: PLC0415

    buf = io.StringIO()
    w = SpreadsheetWriter(buf, lineterminator="\n")
    w.writerow(["seq", "hand", "kind", "payer", "payee", "chips", "reason", "created_at"])
    for e in store.log.session_log(session.id):
        if not e.effective:
            continue
        for p in e.payments or ():
            w.writerow([e.seq, e.hand if e.hand is not None else "", e.kind, p.payer, p.payee,
                        p.chips, p.reason, e.created_at])
    w.writerow([])
    chip_value = session.chip_value
    data = standings_json(session, store.log.balances(session.id), store.log.tallies(session.id),
                          session.players, chip_value)
    # the counts its game declares (``Game.tallies``: Panguingue's hands, won, dropped, conditions), then the bank's
    g = GAMES.get(session.game)
    counts = [*dict.fromkeys([*(g.tallies if g is not None else TALLIES), "buyin", "cashout"])]
    cols = ["player", "net"] + (["money"] if chip_value else []) + counts
    w.writerow(cols)
    for r in data["players"]:
        w.writerow([r["name"], r["net"]] + ([Decimal(f"{r['money']:.2f}")] if chip_value else [])
                   + [r.get(k, 0) for k in counts])
    for name, chips in data["pools"].items():
        w.writerow([f"({name})", chips] + ([Decimal(f"{amount(chips, data['chip_value']):.2f}") if data["chip_value"] else ""] if chip_value else []) + [""] * len(counts))
    return buf.getvalue()


# -- reading -----------------------------------------------------------------------------

def load(path: str | Path) -> dict[str, Any]:
    """Read an archive file (TOML or JSON) into the plain form `build` makes; checks its shape."""
    return parse(archive_check.read_text(path), str(path))


def parse(text: str, where: str | None = None) -> dict[str, Any]:
    """An archive's text read and checked: every field's type (archive_check), then its shape."""
    where = _("archive") if where is None else where
    return from_document(archive_check.parse(text, where), where)


def from_document(data: Any, where: str | None = None) -> dict[str, Any]:
    """A parsed archive document checked (archive_check) and put in the plain form `build` makes."""
    where = _("archive") if where is None else where
    archive_check.check(data, where)
    return _normalise(data, where)


def _bad(where: str, what: str) -> InputError:
    return InputError(_("{where}: {what}").format(where=where, what=what),
                      _("this is not a complete pancli archive; export it again with `pan export`"))


def _get(d: dict[str, Any], key: str, types: type | tuple[type, ...], where: str, required: bool = True) -> Any:
    value = d.get(key)
    if type(value) is types:  # the common case: exactly of the one type asked for
        return value
    if key not in d or d[key] is None:
        if required:
            raise _bad(where, _("'{key}' is missing").format(key=key))
        return None
    value = d[key]
    allowed = types if isinstance(types, tuple) else (types,)
    if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
        raise _bad(where, _("'{key}' = {value} has the wrong type").format(key=key, value=repr(value)))
    return value


def _normalise(data: Any, where: str) -> dict[str, Any]:
    head = normalise_header(data, where)
    events = [normalise_event(ev, _("{where} event {n}").format(where=where, n=i + 1), i + 1, where)
              for i, ev in enumerate(_get(data, "events", list, where, required=False) or [])]
    return {**head, "events": events}


def normalise_header(data: Any, where: str) -> dict[str, Any]:
    """The archive's format, version, session and rules, checked (archive_check.check first)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(where, _("no format = \"{format}\" line").format(format=FORMAT))
    version = data.get("version")
    if version != VERSION:
        raise InputError(_("{where}: archive version {version} is not one this pancli reads ({known})").format(
                             where=where, version=repr(version), known=VERSION),
                         _("upgrade pancli, or export it again"))
    s = _get(data, "session", dict, where)
    session = {
        "name": _get(s, "name", str, f"{where} [session]"),
        "game": _get(s, "game", str, f"{where} [session]"),
        "created_at": _get(s, "created_at", str, f"{where} [session]"),
        "seats": _get(s, "seats", list, f"{where} [session]"),
        "dealer": _get(s, "dealer", str, f"{where} [session]", required=False),
        "chip_value": _get(s, "chip_value", (int, float), f"{where} [session]", required=False),
        "closed_at": _get(s, "closed_at", str, f"{where} [session]", required=False),
        "device": _get(s, "device", str, f"{where} [session]", required=False),
        "uid": _get(s, "uid", str, f"{where} [session]", required=False),
    }
    for key in ("device", "uid"):  # the session's global id (archives from pancli 0.1 have none)
        if session[key] is not None and not GLOBAL_ID.fullmatch(session[key]):
            raise _bad(f"{where} [session]", _("'{key}' must be 32 lowercase hex digits").format(key=key))
    if (session["device"] is None) != (session["uid"] is None):
        raise _bad(f"{where} [session]", _("'device' and 'uid' go together"))
    if session["chip_value"]:  # checked by archive_check; stored as REAL, exact through repr (core/money)
        session["chip_value"] = float(money_per_chip(session["chip_value"], "chip_value"))
    if not all(isinstance(x, str) for x in session["seats"]):
        raise _bad(f"{where} [session]", _("seats must be names"))
    rules = _get(data, "rules", dict, where)
    optional_fields(s, session, f"{where} [session]")
    return {"format": FORMAT, "version": VERSION, "session": session, "rules": rules}


def normalise_event(ev: Any, at: str, seq: int, where: str) -> dict[str, Any]:
    """One event (archive_check.check_event first), the ``seq``-th of its archive ``where``
    (``at`` names the event in it)."""
    if not isinstance(ev, dict):
        raise _bad(at, _("not a table"))
    if "payload_json" in ev:
        try:
            payload = json.loads(_get(ev, "payload_json", str, at))
        except json.JSONDecodeError:
            raise _bad(at, _("payload_json is not JSON")) from None
    else:
        payload = dict(_get(ev, "payload", dict, at))
        for key in _get(ev, "nulls", list, at, required=False) or []:
            payload[key] = None
    payments: list[dict[str, Any]] = []
    for p in _get(ev, "payments", list, at, required=False) or []:
        if not isinstance(p, dict):
            raise _bad(at, _("a payment is not a table"))
        pay = {"payer": _get(p, "payer", str, at), "payee": _get(p, "payee", str, at),
               "chips": _get(p, "chips", int, at), "reason": _get(p, "reason", str, at)}
        code = _get(p, "code", str, at, required=False)
        if code is not None:  # pancli 0.1 wrote no codes: such a payment is compared by players and chips
            pay["code"], pay["params"] = code, dict(_get(p, "params", dict, at, required=False) or {})
        elif p.get("params") is not None:
            raise _bad(at, _("a payment has params but no code"))
        payments.append(pay)
    event = {"seq": _get(ev, "seq", int, at), "hand": _get(ev, "hand", int, at, required=False),
             "kind": _get(ev, "kind", str, at), "created_at": _get(ev, "created_at", str, at),
             "undo_of": _get(ev, "undo_of", int, at, required=False), "payload": payload,
             "payments": None if ev.get("payments") is None else payments}
    if payload.get("kind") != event["kind"]:
        raise _bad(at, _("kind '{kind}' but the payload says {said}").format(
            kind=event["kind"], said=repr(payload.get("kind"))))
    if event["seq"] != seq:
        raise _bad(where, _("event {n} has seq {seq}; events must be numbered 1, 2, 3 … in order").format(
            n=seq, seq=event["seq"]))
    return event


# -- importing ---------------------------------------------------------------------------

def archived_payment(p: dict[str, Any]) -> Payment:
    """A payment as an archive holds it (its reason as written; no code in an archive from pancli 0.1).
    Its params are kept as their canonical text, the one form they are compared in (checked
    plain data: the text Params(p["params"]).to_json() gives)."""
    code = p.get("code")
    params = NO_PARAMS if code is None or not p.get("params") else Params.from_json(canonical_json(p["params"]))
    return Payment(p["payer"], p["payee"], p["chips"], code, params, said=p.get("reason") or "")


def logged_event(ev: dict[str, Any]) -> LoggedEvent:
    """An event as an archive holds it (checked: archive_check), as the log holds it: the reader
    of archive_write.archived_events' writing. No tallies (an archive holds none); no payments
    when the archive has none."""
    return LoggedEvent(ev["seq"], ev["kind"], ev["payload"], ev["hand"], ev["created_at"], ev["undo_of"],
                       payments=None if ev["payments"] is None else tuple([archived_payment(p) for p in ev["payments"]]))


def archive_events(archive: dict[str, Any]) -> list[LoggedEvent]:
    return [logged_event(e) for e in archive["events"]]


def rules_of(game: str, data: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """A game's rules from their stored form, checked, and their stored form as this pancli
    writes it; the same rules are read once however many sessions of a sync share them."""
    key = (game, repr(data))  # plain data (archive_check): the same text is the same rules
    got = _RULES.get(key)
    if got is None:
        g = get_game(game)
        rules = g.rules_from_dict(data)
        got = (rules, g.rules_to_dict(rules))
        if len(_RULES) >= 16:
            _RULES.clear()
        _RULES[key] = got
    return got[0], dict(got[1])


_RULES: dict[tuple[str, str], tuple[Any, dict[str, Any]]] = {}  # rules are frozen: one object serves every session


def import_target(store: Store, header: dict[str, Any], as_name: str | None) -> tuple[str, str | None, str | None, Session | None]:
    """Where an archive with ``header`` goes: the name it is stored under, the global id it keeps
    (none for a copy imported ``as_name`` beside the session it carries), and the session held
    here under that id, which it is merged into (None: a new session)."""
    name = (as_name or header["name"]).strip()
    if not name:
        raise InputError(_("a session needs a name"), _("give one with --as NAME"))
    device, uid = header.get("device"), header.get("uid")
    if device:
        with store.snapshot():
            held = store.sync.session_by_global_id(device, cast(str, uid))  # with a device, a uid (normalise_header)
        if held is not None:
            if as_name is None:
                return name, device, uid, held
            device = uid = None  # a copy under another name: a new session of this device's
    return name, device, uid, None


# -- one session, two copies: the same, one extending the other, or a contradiction --------

HEADER_KEYS = ("game", "created_at", "seats", "dealer", "chip_value", "currency", "language")  # what a session never changes


def same_event(a: LoggedEvent, b: LoggedEvent) -> bool:
    """Whether two copies of an event are the same: seq, kind, hand, payload and what it undoes,
    and its payments by players, chips, code and parameters (by players and chips alone where a
    copy predates codes), never by their English reason."""
    if (a.seq, a.kind, a.hand, a.undo_of) != (b.seq, b.kind, b.hand, b.undo_of) or a.payload != b.payload:
        return False
    if a.payments is None or b.payments is None:
        return True
    if len(a.payments) != len(b.payments):
        return False
    return all(same_payment(x, y, either_old=True) for x, y in zip(a.payments, b.payments))


def differing_header(mine: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """The first of the keys a session never changes (HEADER_KEYS) in which two copies differ."""
    return next((key for key in HEADER_KEYS if mine.get(key) != theirs.get(key)), None)


def header_conflict(key: str) -> str:
    # Translators: {field} is an archive key such as seats or chip_value, never translated
    return _("the sessions differ in {field}").format(field=key)


# Why two copies contradict each other, translated where shown (compare, archive_import).
CLOSED_APART = N_("the sessions were closed at different times")
CLOSED_BEFORE = N_("it was closed before events this copy holds")


def outcome(mine_count: int, mine_closed: str | None, their_count: int, their_closed: str | None) -> tuple[str, str | None]:
    """How a copy of ``their_count`` events stands to mine of ``mine_count``, the events the two
    hold both being the same (and the headers): ``same``, ``older`` (mine holds its events and
    more), ``newer`` (it holds mine and more, or only closes the session) or ``conflict``, with
    why. The one statement of these rules: `pan sync` words and orders copies by them (compare),
    `pan import` and sync's import present, extend or refuse by them."""
    if mine_closed and their_closed and mine_closed != their_closed:
        return "conflict", CLOSED_APART
    if their_count > mine_count:
        return "newer", None
    if their_count < mine_count:
        if their_closed and not mine_closed:
            return "conflict", CLOSED_BEFORE
        return "older", None
    if their_closed and not mine_closed:
        return "newer", None
    return "same", None


def compare(mine: dict[str, Any], mine_events: list[LoggedEvent], theirs: dict[str, Any], their_events: list[LoggedEvent]) -> dict[str, Any]:
    """How the copy ``theirs`` stands to ``mine`` (session headers and event logs), by
    ``outcome``: ``same``, ``older``, ``newer`` or ``conflict``, with ``seq`` the first event
    that differs (None when the headers differ: ``field`` names the one) and ``why``.
    """
    key = differing_header(mine, theirs)
    if key is not None:
        return {"relation": "conflict", "seq": None, "field": key, "why": header_conflict(key)}
    for a, b in zip(mine_events, their_events):
        if not same_event(a, b):
            return {"relation": "conflict", "seq": a.seq,
                    "why": event_difference(mine.get("game") or "", a.seq, a.payload, b.payload)}
    relation, why = outcome(len(mine_events), mine.get("closed_at"), len(their_events), theirs.get("closed_at"))
    if why == CLOSED_APART:
        return {"relation": relation, "seq": None, "field": "closed_at", "why": _(CLOSED_APART)}
    if why == CLOSED_BEFORE:
        return {"relation": relation, "seq": their_events[-1].seq + 1 if their_events else 1, "why": _(CLOSED_BEFORE)}
    return {"relation": relation, "seq": None, "why": None}


def session_header(session: Session) -> dict[str, Any]:
    """A stored session's header in the archive's terms."""
    return {"name": session.name, "game": session.game, "created_at": session.created_at,
            "seats": list(session.players), "dealer": session.dealer, "chip_value": session.chip_value,
            "closed_at": session.closed_at, "currency": session.currency, "language": session.language}


# -- a session's currency and house language ---------------------------------------------------

def optional_fields(s: dict[str, Any], session: dict[str, Any], where: str) -> None:
    """The archive's currency and house language into ``session``, only when it has them (so an
    archive without them keeps its fingerprint): each a code this pancli knows, written as it
    writes it, and the chip value a whole number of the currency's minor units."""
    from pancli.app.sessions import known_language  # noqa: PLC0415 the one list of languages

    for key in archive_write.OPTIONAL_KEYS:
        value = _get(s, key, str, where, required=False)
        if value is None:
            continue
        try:
            known = currency_code(value, key) if key == "currency" else known_language(value, key)
        except InputError as e:
            raise _bad(where, e.message) from None
        if known != value:
            raise _bad(where, _("'{key}' = {value} is not written as pancli writes it ({known})").format(
                key=key, value=repr(value[:40]), known=repr(known)))
        session[key] = known
    if session.get("currency") and session["chip_value"]:
        try:
            chip_value_in(money_per_chip(session["chip_value"], "chip_value"), session["currency"], "chip_value")
        except InputError as e:
            raise _bad(where, e.message) from None
