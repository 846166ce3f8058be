"""What the dealer records from a phone (`pan serve --dealer`): one action, once.

An action is a small JSON object (``{"key": …, "action": "meld", "player": "ben", "cards": "5S 5S 5S"}``)
naming one of the session's game's declared actions (``Game.actions``, pancli/games/actions.py): its
parameters are read by the readers the command line uses, and its events are built by the same
declaration, through the same Recorder. What is the dealer's own is here: its
key, made on the phone, is stored in the transaction of its events: a retry of the same request
(a dropped Wi-Fi, a double tap) is answered with the words of the first time and records nothing;
the same key sent with another request is refused. A refused action records nothing at all.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pancli.app.parameters import SessionTable, missing, read_values
from pancli.app.recorder import Recorder
from pancli.app.redo import redid, redo, redo_stack
from pancli.core.bank import apply_event
from pancli.core.errors import InputError, MovedOn, PanError, RuleError
from pancli.core.grouping import has_separator
from pancli.core.hints import worded
from pancli.core.i18n import N_, _, ngettext
from pancli.core.rows import Session
from pancli.core.text import one_line, payment_lines
from pancli.core.words import signed, signed_money
from pancli.games import game
from pancli.games.actions import BANK_ACTIONS, CARDS, IN_HAND, MELDS, PLAYER, Action, Param, by_name, read, read_count
from pancli.storage.store import Store

if TYPE_CHECKING:
    from pancli.core.ledger import Step
    from pancli.games.protocol import Game

KEY = re.compile(r"[A-Za-z0-9_-]{8,80}")


class KeyReused(RuleError):
    """The key of an action already recorded, sent with another request."""


def check_session(store: Store, here: Session, body: dict[str, Any]) -> None:
    """Refuses a tap whose ``session`` is not the session ``here`` it would be recorded into."""
    given = body.get("session")
    if not isinstance(given, str) or not given:
        raise InputError(_("this tap does not say which game it was made on"),  # a page from before the upgrade
                         _("reload the dealer page and tap again"))
    if given == here.mark:
        return
    made_on = next((s.name for s in store.sessions() if s.mark == given), None)
    # Translators: the names come after colons, where no case ending is needed
    said = _("the table moved on to another game and nothing was recorded; this tap's game: {session}; "
             "the table's game now: {current}").format(session=made_on, current=here.name) if made_on else \
        _("the table moved on to another game and nothing was recorded; the table's game now: {current}").format(
            current=here.name)
    raise MovedOn(said, _("go to the new game, look, and tap again there"))


# -- reading what the phone sent: each parameter by the reader of its kind (app/parameters.py) --

def values_of(rec: Recorder, action: Action, body: dict[str, Any]) -> dict[str, Any]:
    """The action's parameters from what the phone sent, read as the command line reads them
    (``players`` may name several for an action that takes several)."""
    given = dict(body)
    for p in action.params:
        if missing(given.get(p.name)) and p.kind in (PLAYER, IN_HAND) and p.many:
            given[p.name] = body.get("players")
    return read_values(rec, action, given)


def _number(body: dict[str, Any], name: str) -> int | None:
    value = body.get(name)
    return None if missing(value) else read_count(value, _("an event's number"))


def _cards(rec: Recorder, body: dict[str, Any], name: str) -> list[str]:
    value = body.get(name)
    if missing(value):
        return []
    cards: list[str] = read(Param(name, CARDS, ""), value, SessionTable(rec))
    return cards


def on_phone(game: Game[Any, Any]) -> tuple[Action, ...]:
    """The actions the dealer's phone offers and records for a game: its declared ones that are
    the phone's (``Action.phone``), and the bank's chips bought and cashed only where the game is
    scored in chips (``Game.in_chips``)."""
    return tuple(a for a in game.actions if a.phone and (game.in_chips or a not in BANK_ACTIONS))


def actions_of(rec: Recorder) -> dict[str, Action]:
    return by_name(on_phone(rec.game))


# -- doing one -----------------------------------------------------------------------------------

def digest(body: dict[str, Any]) -> str:
    """What was asked, without its key: a retry must ask exactly this again."""
    asked = {k: v for k, v in body.items() if k != "key"}
    return hashlib.sha256(json.dumps(asked, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def step_lines(steps: Iterable[Step[Any]]) -> list[str]:
    """The words `pan` prints for the steps (cli/render.show_step): each line, then who pays whom."""
    return [one_line(line) for step in steps for line in list(step.lines)
            + [f"  {p}" for p in payment_lines(step.payments)]]


def check_key(key: object) -> str:
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise InputError(_("the action has no key of its own"), _("reload the dealer page and tap again"))
    return key


def answered_before(store: Store, key: str, wanted: str) -> dict[str, Any] | None:
    """The first answer to a tap whose key is already recorded (a retry, a double tap), marked
    replayed; None for a new key. The same key with another request is refused."""
    done = store.actions.find(key)
    if done is None:
        return None
    if done.digest != wanted:
        raise KeyReused(_("this action's key was already used for another action"),
                        _("reload the dealer page and tap again"))
    return {**done.result, "replayed": True}


def perform(store: Store, session: str | None, body: dict[str, Any]) -> dict[str, Any]:
    """Record one action; returns ``{"lines": …, "replayed": False}``, or, for a key already
    recorded with the same request, the first answer with ``"replayed": True``."""
    key = check_key(body.get("key"))
    name = body.get("action")
    wanted = digest(body)
    with store.lock():
        if (first := answered_before(store, key, wanted)) is not None:
            return first
        here = store.session(session)
        check_session(store, here, body)  # never into another game than the one the tap was made on
        rec = Recorder(store, here)
        if name == "undo":
            lines = _undo(rec, body)
        elif name == "redo":
            lines = _redo(rec, body)
        else:
            declared = actions_of(rec)
            action = declared.get(name) if isinstance(name, str) else None
            if action is None:
                known = ", ".join(declared) + ", undo, redo"
                raise InputError(_("{game} has no action {action}").format(game=_(rec.game.title), action=repr(name)),
                                 # Translators: {actions} are action names such as meld, undo, redo, never translated
                                 _("the actions are: {actions}").format(actions=known))
            steps = rec.record_many(action.build(values_of(rec, action, body)))
            lines = step_lines(steps)
            note = worded(rec.game.still_to_record(steps[-1].state))
            if note:
                lines.append(note)
        # "seq": the tap's last event, so the page does not announce it twice (``last_event``)
        result = {"action": name, "lines": lines, "seq": store.log.last_seq(rec.session.id)}
        store.actions.put(key, rec.session.id, wanted, result)
    return {**result, "replayed": False}


def _undo(rec: Recorder, body: dict[str, Any]) -> list[str]:
    expected = _number(body, "seq")
    last = rec.store.log.last_effective(rec.session.id)
    if expected is not None and last is not None and last.seq != expected:
        raise RuleError(_("the last event is now #{seq}: {event}").format(
                            seq=last.seq, event=rec.game.event_words(last.payload)),
                        _("look at what undo will take back, then tap undo again"))
    last, voided = rec.undo()
    undid = rec.game.event_words({"kind": "undo", "undid": last.kind, "seq": last.seq}, last.payload)
    return [undid] + [_("  voided: {payment}").format(payment=p) for p in payment_lines(voided)]  # as `pan undo` says it


def _redo(rec: Recorder, body: dict[str, Any]) -> list[str]:
    expected = _number(body, "seq")
    last = rec.store.log.last_seq(rec.session.id)
    if expected is not None and last != expected:
        raise RuleError(_("the table moved on since the page showed what redo records"),
                        _("look at what redo will record, then tap redo again"))
    done = redo(rec)
    if done is None:
        raise RuleError(_("nothing to redo"), _("redo records again what undo took back, before anything new"))
    payload, steps = done
    return [redid(rec.game, payload)] + step_lines(steps)  # as the shell's `redo` says it


# -- what the dealer looks at before tapping ---------------------------------------------------

def undo_preview(store: Store, session: str | None) -> dict[str, Any]:
    """What undo would take back now: the last effective event and its payments, recording nothing."""
    with store.snapshot():
        s = store.session(session)
        last = store.log.last_effective(s.id)
    if last is None:
        return {"seq": None, "text": _("Nothing to undo in this session."), "payments": []}
    words = game(s.game).event_words(last.payload)
    return {"seq": last.seq, "text": _("Undo takes back #{seq}: {event}").format(seq=last.seq, event=words),
            "payments": payment_lines(last.payments or ())}


def last_event(store: Store, s: Session) -> dict[str, Any] | None:
    """The session's last event, whoever recorded it (an undo too), in words: what the dealer's
    page announces to a screen reader when it was recorded elsewhere (the keyboard, another phone)."""
    seq = store.log.last_seq(s.id)
    if not seq:
        return None
    g = game(s.game)
    event = store.log.session_log(s.id, seq, seq)[0]
    if event.undo_of is None:
        return {"seq": seq, "text": g.event_words(event.payload)}
    undone = store.log.session_log(s.id, event.undo_of, event.undo_of)
    if not undone:  # a damaged log: the replay says so elsewhere
        return None
    return {"seq": seq, "text": g.event_words({"kind": "undo", "undid": undone[0].kind, "seq": undone[0].seq},
                                              undone[0].payload)}


def melds_of(board: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The melds on the table by number, each with its owner (`pan board --json`)."""
    hand = board.get("hand") if isinstance(board.get("hand"), dict) else None
    if not hand and isinstance(board.get("table"), list):  # melds on the table of a game without hands
        return [{"number": m["number"], "owner": m.get("owner"), "cards": m["cards"]}
                for m in board["table"] if isinstance(m, dict) and "number" in m and "cards" in m]
    return [{"number": m["number"], "owner": p["name"], "cards": m["cards"]}
            for p in (hand or {}).get("players", []) for m in p.get("melds", [])]


def redo_preview(store: Store, session: str | None) -> dict[str, Any]:
    """What redo would record again now, recording nothing."""
    with store.snapshot():
        s = store.session(session)
        stack = redo_stack(store, s.id)
        seq = store.log.last_seq(s.id)
    if not stack:
        return {"seq": None, "text": _("Nothing to redo.")}
    return {"seq": seq, "text": _("Redo records again: {event}").format(event=game(s.game).event_words(stack[-1]))}


def dealer_table(store: Store, session: str | None) -> dict[str, Any]:
    """The seats in order, who is still in the hand, each player's melds by number."""
    from pancli.app.views import board_data  # noqa: PLC0415 the board, built as `pan board --json` does

    rec = Recorder(store, store.session(session))
    state = rec.state()
    board: Mapping[str, Any] = board_data(rec)  # any game's board, read as open JSON
    hand = board.get("hand") if isinstance(board.get("hand"), dict) else None
    melds = melds_of(board)
    return {**in_view(rec, state, board, hand),
            "session": rec.session.name, "session_uid": rec.session.mark, "game": rec.session.game, "title": _(rec.game.title),
            "status": rec.game.status(state), "contract": board.get("contract"), "melds": melds,
            "seats": rec.game.players(state), "players": rec.game.players(state),
            "in_hand": list(rec.game.active_players(state)), "hand_open": bool(rec.game.hand_open(state)),
            "hand": hand, "actions": [a.describe() for a in on_phone(rec.game)],
            "pack": list(rec.game.pack), "checks_cards": getattr(rec.game, "verdict", None) is not None,
            "checks_melds": melds_judged(rec.game),
            "still_to_record": worded(rec.game.still_to_record(state)) or None, "undo": undo_preview(store, session),
            "redo": redo_preview(store, session), "last": last_event(store, rec.session), "current": _current_name(store)}


def _current_name(store: Store) -> str | None:
    """The session the table is at now (`pan session new`/`use`), for a page of a named one."""
    try:
        return store.session(None).name
    except PanError:
        return None


def in_view(rec: Recorder, state: object, board: Mapping[str, Any], hand: dict[str, Any] | None) -> dict[str, Any]:
    """What the dealer keeps in view: tonight's standings (chips, or the game's own columns),
    the tops, who deals, the order declarations go in, and the winner once the hand is over."""
    from pancli.app.views import standings_data  # noqa: PLC0415 as `pan standings --json` has them

    table = standings_data(rec)
    columns = [c for c in table.get("columns") or [] if c != "place"]
    chips = rec.game.in_chips and not columns
    currency = table.get("currency")
    rows = [{"name": r["name"], "chips": r["net"] if chips else None,
             "text": signed(r["net"]) if chips else " · ".join(
                 _column(c).format(value=r.get(c) if r.get(c) not in ("", None) else "-") for c in columns),
             # the money too, in the session's currency, as every face writes it
             "money": signed_money(r["money"], zero="+0.00", currency=currency)
             if chips and r.get("money") is not None else None}
            for r in table.get("players", [])]
    seats = rec.game.players(state)
    order = list(seats)
    if hand and hand.get("eldest") in seats:  # declarations go from the eldest hand
        i = seats.index(hand["eldest"])
        order = seats[i:] + seats[:i]
    ended = hand if hand and hand.get("over") else {}
    return {"standings": rows, "chips": chips, "order": order,
            "tops": hand.get("tops") if hand else (table.get("pools") or {}).get("tops"),
            "deals": _who_deals(rec, state, board, hand),
            "winner": ended.get("winner"), "result": rec.game.result_words(ended["result"]) if ended.get("result") else None}


# A game's own standings column with its value, as the dealer's page shows it ("points 12").
_COLUMNS = {"points": N_("points {value}"), "deals_played": N_("deals played {value}"),
            "deals_won": N_("deals won {value}"), "deals_lost": N_("deals lost {value}"), "word": N_("word {value}")}


def _column(name: str) -> str:
    return _(_COLUMNS[name]) if name in _COLUMNS else name.replace("_", " ") + " {value}"


def _who_deals(rec: Recorder, state: object, board: Mapping[str, Any], hand: dict[str, Any] | None) -> str | None:
    """Who deals, in a sentence: the hand in play's dealer and eldest, or who deals the next."""
    if hand and not hand.get("over") and hand.get("dealer"):
        return _("{dealer} deals, {eldest} is eldest.").format(dealer=hand["dealer"], eldest=hand["eldest"]) \
            if hand.get("eldest") else _("{dealer} deals.").format(dealer=hand["dealer"])
    if board.get("next_dealer"):
        return _("{dealer} deals next.").format(dealer=board["next_dealer"])
    if isinstance(board.get("dealer"), str) and not board.get("over"):
        return _("{dealer} deals.").format(dealer=board["dealer"])
    if not any(a.name == "deal" and not any(p.required for p in a.params) for a in rec.game.actions):
        return None  # no deal that takes nothing: who deals next is not for the page to guess
    try:  # a game with hands: the next deal, as it would be dealt now (pure: records nothing)
        nxt = rec.game.board(rec.session, rec.game.apply(state, {"kind": "deal"}).state).get("hand")
    except PanError:  # no deal now (the game is over)
        return None
    if isinstance(nxt, dict) and nxt.get("dealer"):
        return _("Next hand: {dealer} deals, {eldest} is eldest.").format(dealer=nxt["dealer"], eldest=nxt["eldest"])
    return None


def judge_cards(store: Store, session: str | None, body: dict[str, Any]) -> dict[str, Any]:
    """`pan check` for the cards on the picker, under the session's house rules: legal or not,
    and what it pays; with ``onto`` (a meld's cards) the addition to it. Records nothing."""
    rec = Recorder(store, store.session(session))
    if missing(body.get("cards")):
        raise InputError(_("the action has no cards"), _("choose the cards first"))
    if isinstance(body.get("cards"), str) and has_separator([body["cards"]]):
        return _judge_melds(rec, body)
    judged = getattr(rec.game, "verdict", None)
    if judged is None:
        raise InputError(_("{game} has no card check here").format(game=rec.game.title),
                         _("choose the cards and tap the action: recording it checks them"))
    onto = _cards(rec, body, "onto")
    cards = tuple(_cards(rec, body, "cards"))
    said: dict[str, Any] = judged(cards, rec.rules, tuple(onto) or None)
    player = body.get("player")
    if onto or said.get("valid") or not isinstance(player, str):
        return said
    return _as_addition(rec, judged, cards, player) or said


def melds_judged(game: Game[Any, Any]) -> bool:
    """Whether the dealer's page can have melds with / between them judged live: the game has a
    picker action that takes several melds (a split, a contract's lay, going out with new melds)."""
    return any(_takes_melds(a) for a in on_phone(game))


def _takes_melds(action: Action) -> bool:
    return action.face() == "picker" and any(p.kind == MELDS for p in action.params)


def _judge_melds(rec: Recorder, body: dict[str, Any]) -> dict[str, Any]:
    """Several melds on the picker (``/`` between them), judged before anything is recorded: onto a
    chosen meld (``meld``), what the action that rearranges it would do (a split); otherwise each
    new meld by the game's own check, or, for a game without one, what its action that takes
    several melds would do (the contract game's lay). Records nothing."""
    melds = read(Param("cards", MELDS, ""), body["cards"], SessionTable(rec))
    if not melds:
        raise InputError(_("the action has no cards"), _("choose the cards first"))
    onto = body.get("meld") is not None
    fitting = [a for a in on_phone(rec.game) if _takes_melds(a)
               and any(p.onto and p.required for p in a.params) == onto]
    judged = getattr(rec.game, "verdict", None)
    if not onto and judged is not None:
        said = [judged(tuple(m), rec.rules, None) for m in melds]
        # Translators: {number} counts the new melds on the card picker, 1, 2, 3; {verdict} is the check's sentence
        text = "\n".join(_("new meld {number}: {verdict}").format(number=i, verdict=v["text"])
                          for i, v in enumerate(said, 1))
        return {"valid": all(v.get("valid") for v in said), "text": text,
                "pays": sum(int(v.get("pays") or 0) for v in said)}
    if not fitting:
        raise InputError(_("{game} has no card check here").format(game=_(rec.game.title)),
                         _("choose the cards and tap the action: recording it checks them"))
    return _dry_run(rec, fitting[0], body)


def _dry_run(rec: Recorder, action: Action, body: dict[str, Any]) -> dict[str, Any]:
    """What the action would record with the picker's player, melds and meld, applied to the table
    as it is now and kept nowhere: ``valid`` and the words `pan` would print, or why it is refused."""
    given: dict[str, Any] = {}
    for i, p in enumerate(action.params):
        if i == 0 and p.kind in (PLAYER, IN_HAND):
            given[p.name] = body.get("player")
        elif p.kind == MELDS:
            given[p.name] = body.get("cards")
        elif p.onto:
            given[p.name] = body.get("meld")
    try:
        if missing(given.get(action.params[0].name)):
            raise InputError(_("choose who first: tap a name above the cards"), "")
        state = rec.state()
        lines: list[str] = []
        for event in action.build(values_of(rec, action, given)):
            step = apply_event(rec.game, state, event)
            state = step.state
            lines += step_lines([step])
    except PanError as e:
        return {"valid": False, "text": _("not legal: {reason}").format(reason=one_line(e.message)),
                "pays": 0}
    # Translators: {lines} is what recording the tap would say, e.g. "Ana lays down the contract: …"
    return {"valid": True, "text": _("legal: {lines}").format(lines=" ".join(line.strip() for line in lines)),
            "pays": 0}


def _as_addition(rec: Recorder, judged: Callable[..., dict[str, Any]], cards: tuple[str, ...],
                 player: str) -> dict[str, Any] | None:
    """No meld chosen and not a meld of their own: what Add does with the cards, which puts
    them on the one of the player's melds they fit."""
    from pancli.app.views import board_data  # noqa: PLC0415 the board, built as `pan board --json` does

    fits = []
    for meld in melds_of(board_data(rec)):
        if str(meld["owner"]).casefold() == player.casefold():
            ruling = judged(cards, rec.rules, tuple(meld["cards"]))
            if ruling.get("valid"):
                fits.append((meld["number"], ruling))
                player = str(meld["owner"])  # as the table spells it
    if len(fits) == 1:
        number, ruling = fits[0]
        # Translators: {ruling} is the check's own sentence about the cards
        said = ngettext("Add puts it on meld {number}: {ruling}", "Add puts them on meld {number}: {ruling}",
                        len(cards))
        return {**ruling, "text": said.format(number=number, ruling=ruling["text"]), "onto": number}
    if fits:
        listed = str(fits[0][0])
        for n, _ruling in fits[1:]:
            listed = _("{melds} and {meld}").format(melds=listed, meld=n)
        # Translators: {melds} are meld numbers such as "2 and 3"
        said = ngettext("It fits {player}'s melds {melds}: tap the one to add it to",
                        "They fit {player}'s melds {melds}: tap the one to add them to", len(cards))
        return {"valid": True, "text": said.format(player=player, melds=listed), "pays": 0}
    return None


__all__ = ["KeyReused", "MovedOn", "PanError", "perform", "undo_preview", "dealer_table", "judge_cards"]
