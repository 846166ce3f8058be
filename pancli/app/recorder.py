"""Recording a session: load its state from the log, apply one event, store it, all in one transaction."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from pancli.app.replay import Replay, cannot_replay
from pancli.core.bank import apply_event
from pancli.core.errors import InputError, PanError, RuleError
from pancli.core.hints import Hint
from pancli.core.i18n import N_, _
from pancli.core.ledger import Payment
from pancli.core.names import check_new_player, typed_key
from pancli.core.payloads import BANK_PAYLOADS
from pancli.core.rows import LoggedEvent, Session
from pancli.games import game
from pancli.storage.store import Store

if TYPE_CHECKING:
    from pancli.core.ledger import Step


def resolve_player(names: list[str], text: str, anywhere: bool = False) -> str:
    """A player by name, case-insensitively, or by a unique prefix (`an` → Ana), accents and
    width aside (`lukasz` → Łukasz, `ＡＮＡ` → Ana); two players that fit are named, never
    guessed. ``anywhere``: ``names`` are the players of every session."""
    wanted = text.strip().lower()
    exact = [n for n in names if n.lower() == wanted]
    if exact:
        return exact[0]
    # Then as a keyboard without the name's letters types it: `lukasz` is Łukasz, `ＡＮＡ` Ana.
    typed = typed_key(wanted) if wanted else ""
    keys = {n: typed_key(n) for n in names} if typed else {}
    matches = [n for n in keys if keys[n] == typed]
    if not matches and typed:
        matches = [n for n in keys if keys[n].startswith(typed)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(_("'{text}' could be {players}").format(text=text, players=", ".join(matches)),
                         _("type more of the name"))
    by_lower = {n.lower(): n for n in names}
    close = difflib.get_close_matches(wanted, by_lower, n=1) if wanted else []
    listed = _("players: {players}").format(players=", ".join(names))
    hint = _("did you mean {player}? ({players})").format(player=by_lower[close[0]], players=listed) if close else listed
    said = _("no player '{text}' in any session") if anywhere else _("no player '{text}' in this session")
    raise InputError(said.format(text=text), hint)


class Recorder:
    """One session's log, with its state cached between commands of a long-running shell."""

    def __init__(self, store: Store, session: Session) -> None:
        self.store = store
        self.session = session
        self.game = game(session.game)
        self.rules = self.game.rules_from_dict(session.rules)
        self._state: Any = None
        self._last_id = -1
        self._writable = False
        # `pan table` looks at the log once a line (``look_again``): until the next line the
        # cached state is taken as current, following this Recorder's own events. Writing is
        # never trusted to it: record_many reads the session's last event under the write lock.
        self.steady = False
        self._current = False

    # -- state ---------------------------------------------------------------------------

    def _load(self, last: int | None = None) -> Any:
        sid = self.session.id
        if last is None:
            last = self.store.log.last_event_id(sid)
        if self._state is not None and last == self._last_id:
            return self._state
        # The log from the last effective checkpoint on (restored as the state before it), undos
        # included, through the one replay.
        g = self.game
        checkpoint = self.store.log.last_effective(sid, g.checkpoint_kind) if g.checkpoint_kind else None
        start = None
        if checkpoint is not None:
            try:
                start = g.restore(self.rules, checkpoint.payload)
            except PanError as err:  # what the checkpoint remembers is not stored: a hand-edited database
                raise RuleError(cannot_replay(checkpoint.seq, checkpoint.kind, err.message),
                                _("run `pan db check`")) from None
        rows = self.store.log.session_log(sid, checkpoint.seq if checkpoint else 1)  # no undo reaches past it
        replay = Replay(g, self.rules, self.session.players, self.session.dealer, strict=True, worded=False,
                        start=start)
        for e in rows:  # a replay: no lines for people
            replay.step(e)
        state = replay.state
        self._state, self._last_id = state, last
        return state

    def _apply(self, state: Any, event: dict[str, Any], worded: bool = True) -> Step[Any]:
        return apply_event(self.game, state, event, worded)

    def look_again(self) -> None:
        """The next look at the state reads the log again (another process may have written)."""
        self._current = False

    def state(self) -> Any:
        if self._current:
            return self._state
        with self.store.snapshot():
            state = self._load()
        self._current = self.steady
        return state

    def standing(self) -> tuple[Any, dict[str, int]]:
        """The state with the session's net chips, read from one snapshot."""
        sid = self.session.id
        if self._current:
            return self._state, self.store.log.balances(sid)
        with self.store.snapshot():
            state = self._load()
            balances = self.store.log.balances(sid)
        self._current = self.steady
        return state, balances

    def totals(self) -> tuple[Any, dict[str, int], dict[str, dict[str, int]]]:
        """The state with the session's net chips and tallies, all read from one snapshot."""
        sid = self.session.id
        with self.store.snapshot():
            return self._load(), self.store.log.balances(sid), self.store.log.tallies(sid)

    # -- writing -------------------------------------------------------------------------

    def check_writable(self) -> None:
        """Only a session's own device records into it: one brought in by `pan sync` from another
        device is read-only here (its new events come with the next sync)."""
        if self._writable:
            return  # neither the session's device nor this database's ever changes
        device = self.session.device
        if device and device != self.store.sync.device_id():
            label = {d["id"]: d["label"] for d in self.store.sync.devices()}.get(device) or device[:8]
            raise RuleError(_("session '{name}' is recorded on {device}; here it is read-only").format(
                                name=self.session.name, device=label),
                            Hint("session.other_device", N_("record on that device; the next sync brings its events here")))
        self._writable = True

    def _check_open(self) -> tuple[int, int]:
        """Refuse to record into a session that is not this device's or is closed; otherwise
        its last event's id and seq, read in the same query."""
        self.check_writable()
        closed, last_id, last_seq = self.store.session_tail(self.session.id)
        if closed:
            raise RuleError(_("session '{name}' is closed").format(name=self.session.name),
                            Hint("session.closed", N_("start a new session")))
        return last_id, last_seq

    def record(self, event: dict[str, Any]) -> Step[Any]:
        """Apply and store one event; returns the core's Step. Nothing is stored if it is refused."""
        return self.record_many([event])[0]

    def record_many(self, events: list[dict[str, Any]], worded: bool = True) -> list[Step[Any]]:
        """Several events as one command (`pan drop cruz dee`): all are stored, or none. Without
        ``worded`` the steps have no lines for people (what is stored is the same)."""
        steps: list[Step[Any]] = []
        with self.store.lock():
            last_id, seq = self._check_open()
            state = self._load(last_id)
            for event in events:
                if event.get("kind") == "seat_add":  # a new name: clean, and unlike every seated one
                    event = {**event, "player": check_new_player(event.get("player"), self.game.players(state))}
                step = self._apply(state, event, worded)
                payload = self.game.enrich(state, event, step)
                self._check_payload(payload)
                hand = self.game.hand_number(step.state)
                seq += 1
                event_id = self.store.log.append(self.session.id, LoggedEvent(
                    seq, event["kind"], payload, hand, payments=tuple(step.payments), tallies=tuple(step.tallies)))
                state = step.state
                steps.append(step)
        # Cached only once committed: if COMMIT fails (a full disk), the id is free again and the
        # next event another process stores under it must not be mistaken for this one. (In a
        # script's group the commit comes later; a group that fails to commit ends the script.)
        self._state, self._last_id = state, event_id
        self._current = self.steady
        return steps

    def _check_payload(self, payload: dict[str, Any]) -> None:
        """What is stored is what the game declares (``Game.payloads``), so that its archive
        passes the check every import makes: a payload that does not is a bug, not a table's
        mistake, and nothing is stored."""
        payloads = BANK_PAYLOADS if payload.get("kind") in BANK_PAYLOADS.kinds else self.game.payloads
        wrong = payloads.problem(payload)
        if wrong is not None:
            key, value, field = wrong
            raise TypeError(f"{self.game.title} would store a {payload.get('kind')} event whose '{key}' is "
                            f"{value!r}, not a {field.type} as its payloads declare")

    def undo(self) -> tuple[LoggedEvent, tuple[Payment, ...]]:
        """Void the last effective event with its payments; returns it and the payments voided."""
        with self.store.lock():
            _open, seq = self._check_open()
            sid = self.session.id
            last = self.store.log.last_effective(sid)
            if last is None:
                raise RuleError(_("nothing to undo in this session"), _("record something first"))
            voided = last.payments or ()
            self.store.log.append(sid, LoggedEvent(seq + 1, "undo", {"kind": "undo", "undid": last.kind, "seq": last.seq},
                                                   last.hand, undo_of=last.seq))
            self._state, self._current = None, False
        return last, voided

    # -- reading -------------------------------------------------------------------------

    def players(self) -> list[str]:
        return self.game.players(self.state())

    def player(self, text: str) -> str:
        return resolve_player(self.players(), text)
