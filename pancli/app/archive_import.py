"""`pan import` of an archive file as it is read: one event at a time, in one transaction.

Each event is checked (archive_check), replayed strictly through the game core, compared with
what the archive says it paid, and stored, before the next is read; the archive's fingerprint is
summed as the events pass. Memory holds the current hand and the one before, never the night: an
undo that reaches further back reads the events it needs from the session being stored (which
holds every event so far, in the same transaction). Only then is it known whether the archive is
here already, under which name it goes, or whether it contradicts a session held here; a refusal
at any point rolls the whole import back, so the database is as it was.

The outcomes: imported, present (the same archive, or the same session and no newer), extended
(the same session with more events; of a session another device records, only from a file that
device signed), or refused with one line saying why. `pan sync`, which reads each file whole to
check its signature, imports through the same path (``import_document``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pancli.app import archive_check, archive_read, archive_write
from pancli.app.archive import (
    differing_header,
    header_conflict,
    import_target,
    logged_event,
    normalise_event,
    normalise_header,
    outcome,
    rules_of,
    same_event,
    session_header,
)
from pancli.app.replay import Replay, Replayed, first_difference, gc_paused
from pancli.app.sync import folder as sync_folder
from pancli.app.views import event_difference
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.rows import LoggedEvent, Session
from pancli.games import game as get_game

if TYPE_CHECKING:
    from pancli.games.protocol import Game
    from pancli.storage.store import Store


class _Done(Exception):
    """Ends the transaction without a change: the outcome is known (the archive is here already)."""

    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__(result.get("status"))
        self.result = result


def read(path: str | Path) -> Checked:
    """The archive at ``path`` opened, its header checked; its events are read as they are imported."""
    return Checked(archive_read.open_archive(path), Path(path))


def import_file(store: Store, arc: Checked | str | Path, as_name: str | None = None, make_current: bool = True) -> dict[str, Any]:
    """Rebuild the archived session (a file, or one ``read`` opened) in the store (see the
    module's words); returns {"status": "imported"|"present"|"extended", "name", "fingerprint", ...}."""
    if not isinstance(arc, Checked):
        arc = read(arc)
    try:
        return import_source(store, arc, as_name, make_current)
    except archive_read.NotWritersShape as e:  # part-way: rolled back; read it whole, as it always was
        whole = Checked(archive_read.whole(arc.path, e.why), arc.path)
        return import_source(store, whole, as_name, make_current)


def import_document(store: Store, archive: dict[str, Any], as_name: str | None = None, make_current: bool = True,
                    where: str = "archive", signed_by: str | None = None, fingerprint: str | None = None) -> dict[str, Any]:
    """``import_file`` of an archive read and checked whole already (``archive.from_document``:
    `pan sync` reads each file so): the same replay, outcomes and refusals. ``signed_by``: the
    device whose signature the caller verified; ``fingerprint``: the archive's, if known."""
    return import_source(store, Document(archive, where, signed_by, fingerprint), as_name, make_current)


class Checked:
    """An archive's header checked and normalised at once, its events as they are read."""

    fingerprint: str | None = None  # the archive's, when the caller knows it already

    def __init__(self, source: archive_read.Source, path: Path) -> None:
        self.source: archive_read.Source | None = source
        self.where, self.path = source.where, path
        self.signed_by: str | None = None  # the device whose signature a caller verified
        archive_check.check(source.header, self.where)
        head = normalise_header(source.header, self.where)
        self.session: dict[str, Any] = head["session"]
        self.rules: dict[str, Any] = head["rules"]

    def events(self) -> Iterator[dict[str, Any]]:
        game = self.session["game"]
        assert self.source is not None  # a Document has its events read already
        for i, raw in enumerate(self.source.events):
            at = _("{where} event {n}").format(where=self.where, n=i + 1)
            archive_check.check_event(raw, at, game)
            yield normalise_event(raw, at, i + 1, self.where)


class Document(Checked):
    """An archive checked and normalised whole already (archive.from_document), as ``Checked``."""

    def __init__(self, archive: dict[str, Any], where: str, signed_by: str | None, fingerprint: str | None) -> None:
        self.source, self.where, self.path = None, where, Path(where)
        self.session, self.rules, self._events = archive["session"], archive["rules"], archive["events"]
        self.signed_by, self.fingerprint = signed_by, fingerprint

    def events(self) -> Iterator[dict[str, Any]]:
        return iter(self._events)


class Fingerprint:
    """``archive.fingerprint``, summed an event at a time: sha256 of the sorted compact JSON of
    {"events", "rules", "session"}, whose events come first."""

    def __init__(self) -> None:
        self._h = hashlib.sha256(b'{"events":[')
        self._first = True

    def add(self, event: dict[str, Any]) -> None:
        self._h.update((b"" if self._first else b",") + _compact(event))
        self._first = False

    def done(self, session: dict[str, Any], rules: dict[str, Any]) -> str:
        self._h.update(b'],"rules":' + _compact(rules) + b',"session":' + _compact(session) + b"}")
        return "sha256:" + self._h.hexdigest()


class _Known(Fingerprint):
    """The fingerprint of an archive its reader summed already: nothing to sum again."""

    def __init__(self, fingerprint: str) -> None:
        self._fingerprint = fingerprint

    def add(self, event: dict[str, Any]) -> None:
        pass

    def done(self, session: dict[str, Any], rules: dict[str, Any]) -> str:
        return self._fingerprint


def _compact(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def stored_fingerprint(store: Store, session: Session, without_global_id: bool = False) -> str:
    """The fingerprint of the archive `pan export` would write of a stored session, read a
    segment at a time (``without_global_id``: as an archive from before global ids says it)."""
    fp = Fingerprint()
    for ev in archive_write.archived_events(archive_write.stored_events(store, session)):
        fp.add(ev)
    head = archive_write.header(session)
    if without_global_id:
        head.update(device=None, uid=None)
    return fp.done(head, dict(session.rules))


# -- the import ------------------------------------------------------------------------------

def import_source(store: Store, arc: Checked, as_name: str | None = None, make_current: bool = True) -> dict[str, Any]:
    s = arc.session
    name, device, uid, held = import_target(store, s, as_name)
    if held is not None:
        return _merge(store, held, arc)
    g = get_game(s["game"])
    rules, rules_dict = rules_of(g.name, arc.rules)
    try:
        with store.lock(), gc_paused():
            # under a name no one types until the outcome is known; the transaction hides it
            sid = store.create_session(f"importing {secrets.token_hex(8)}", g.name, list(s["seats"]), s["dealer"],
                                       rules_dict, s["chip_value"], created_at=s["created_at"],
                                       currency=s.get("currency"), language=s.get("language"))
            fp, count = _replay_into(store, sid, g, rules, arc, iter(()), 0)
            present = store.session_from(fp)
            if present:
                raise _Done({"status": "present", "name": present, "fingerprint": fp})
            existing = store.session_named(name)
            if existing:
                if stored_fingerprint(store, existing, without_global_id=not s.get("device")) == fp:
                    raise _Done({"status": "present", "name": existing.name, "fingerprint": fp})
                raise InputError(_("a different session named '{name}' exists already").format(name=existing.name),
                                 _("import this one under another name with --as NAME"))
            # with a device, a uid (archive.normalise_header)
            if device and store.sync.session_by_global_id(device, cast(str, uid)) is not None:
                raise InputError(_("session '{name}' was brought in by another pancli just now").format(name=name),
                                 _("run it again"))
            store.name_imported(sid, name, fp, device, uid)
            if s["closed_at"]:
                store.set_closed(sid, s["closed_at"])
            if make_current:
                store.set_setting("current_session", str(sid))
    except _Done as done:
        return done.result
    return {"status": "imported", "name": name, "fingerprint": fp, "events": count}


def _merge(store: Store, session: Session, arc: Checked) -> dict[str, Any]:
    """The archive of a session held here: present when the same or older, its new events
    appended when it holds the same ones and more; refused when it contradicts the session."""
    theirs = arc.session

    def contradiction(why: str) -> InputError:
        return InputError(_("the archive contradicts session '{name}' held here: {why}").format(
                              name=session.name, why=why),
                          _("nothing was changed; the two copies were recorded apart"))

    key = differing_header(session_header(session), theirs)
    if key is not None:
        raise contradiction(header_conflict(key))
    g = get_game(session.game)
    rules = rules_of(g.name, arc.rules)[0]
    try:
        with store.lock(), gc_paused():
            held = store.log.last_seq(session.id)
            mine = archive_write.stored_events(store, session)  # read as far as the first `held`
            fp, count = _replay_into(store, session.id, g, rules, arc, mine, held, contradiction)
            closed, their_closed = store.closed_at(session.id), theirs["closed_at"]
            relation, why = outcome(held, closed, count, their_closed)
            if why is not None:
                raise contradiction(_(why))  # one of archive's N_-marked reasons
            if relation != "newer":  # the same, or older
                raise _Done({"status": "present", "name": session.name, "fingerprint": fp})
            if session.device != store.sync.device_id() and not proven(store, session, arc, fp):
                raise _unproven(store, session, arc)
            if their_closed and not closed:
                store.set_closed(session.id, their_closed)
    except _Done as done:
        return done.result
    return {"status": "extended", "name": session.name, "fingerprint": fp, "events": count - held}


def proven(store: Store, session: Session, arc: Checked, fp: str) -> bool:
    """Whether the device that records ``session`` signed the archive (of content ``fp``) that
    would extend it here: only that device writes it (`pan sync` checks the same of every file)."""
    if arc.signed_by is not None:  # checked already, by the caller that read the file
        return arc.signed_by == session.device
    if not session.device:
        return False
    key = store.sync.pinned_keys().get(session.device)
    return sync_folder.signed_by_device(arc.path, session.device, key, fp)


def _unproven(store: Store, session: Session, arc: Checked) -> InputError:
    label = next((d["label"] for d in store.sync.devices() if d["id"] == session.device and d["label"]), None)
    who = repr(label) if label else (session.device or "")[:8]
    return InputError(_("{where} would extend session '{name}', recorded by device {device}, which did not "
                        "sign it").format(where=arc.where, name=session.name, device=who),
                      _("nothing was changed; bring it in with `pan sync`, or as a copy with --as NAME"))


def _replay_into(store: Store, sid: int, g: Game[Any, Any], rules: Any, arc: Checked, mine: Iterator[LoggedEvent], held: int,
                 contradiction: Callable[[str], InputError] | None = None) -> tuple[str, int]:
    """Every event of the archive replayed strictly and compared with what it says it paid; those
    after the first ``held`` appended to session ``sid``, whose first ``held`` events, ``mine``,
    must be the same ones. Returns the archive's fingerprint and its number of events."""
    fp = Fingerprint() if arc.fingerprint is None else _Known(arc.fingerprint)
    s = arc.session
    count = 0
    pending: list[Replayed] = []  # replayed, to be stored a batch at a time (in the caller's transaction)

    def store_pending() -> None:
        if pending:
            store.log.append_many(sid, [r.logged() for r in pending])
            pending.clear()

    history = StoredHistory(store, sid, g.checkpoint_kind, store_pending)
    replay = Replay(g, rules, s["seats"], s["dealer"], strict=True, worded=False, history=history)

    for ev in arc.events():
        fp.add(ev)
        count += 1
        theirs = logged_event(ev)
        if count <= held:
            ours = next(mine)
            if not same_event(ours, theirs) and contradiction is not None:
                raise contradiction(event_difference(s["game"], ours.seq, ours.payload, theirs.payload))
        r = replay.step(theirs)
        diff = first_difference([r], {theirs.seq: {"payload": theirs.payload, "payments": theirs.payments}})
        if diff:
            raise InputError(_("the archive does not match what pancli computes: {difference}").format(difference=diff),
                             _("nothing was imported; was the archive edited by hand?"))
        if count > held:
            pending.append(r)
            if len(pending) >= _BATCH:
                store_pending()
    store_pending()
    return fp.done(s, arc.rules), count


# Events stored in one go (EventLog.append_many): a few statements a batch, not five an event,
# and no more of the archive held at once than a batch.
_BATCH = 512



# -- what a bounded replay reads back --------------------------------------------------------

class StoredHistory:
    """The events of the session being stored, for an undo that reaches past what the replay
    holds; ``store_pending`` stores those replayed but not stored yet, before any is read."""

    def __init__(self, store: Store, sid: int, checkpoint_kind: str | None, store_pending: Callable[[], None]) -> None:
        self.store, self.sid, self.checkpoint_kind, self.store_pending = store, sid, checkpoint_kind, store_pending

    def effective_before(self, seq: int) -> tuple[list[Replayed], bool]:
        self.store_pending()
        rows, more = self.store.log.effective_before(self.sid, seq, self.checkpoint_kind)
        return [Replayed(e, e.payload, e.hand) for e in rows], more

    def effective_tail(self, seq: int, limit: int) -> list[Replayed]:
        self.store_pending()
        return [Replayed(e, e.payload, e.hand) for e in self.store.log.effective_tail(self.sid, seq, limit)]

    def state(self, seq: int, before_seq: int) -> tuple[str, bool] | None:
        self.store_pending()
        return self.store.log.event_state(self.sid, seq, before_seq)
