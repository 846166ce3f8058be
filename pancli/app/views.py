"""The data behind what people look at: one builder per view, shared by the CLI's --json and `pan serve`.

Each builder reads the store (inside one read snapshot where it reads more than once) and returns
JSON-ready dicts; the CLI prints or renders them, the web server puts them in a page or in /api/….
So the phone and the terminal always show the same objects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from pancli.core.errors import InputError, PanError
from pancli.core.i18n import _, ngettext, sentence
from pancli.core.ledger import POOLS, Payment
from pancli.core.rows import LoggedEvent, Session
from pancli.core.words import signed
from pancli.games import GAMES, game
from pancli.games.protocol import TALLIES

if TYPE_CHECKING:
    from decimal import Decimal

    from pancli.app.recorder import Recorder
    from pancli.app.view_types import (
        BoardJson,
        EventJson,
        HistoryJson,
        PaymentJson,
        SessionListRow,
        SettleJson,
        StandingsJson,
    )
    from pancli.core.json_types import JsonObject
    from pancli.core.settle import Settlement
    from pancli.storage.store import Store

# -- sessions ----------------------------------------------------------------------------------

def session_list_data(store: Store) -> list[SessionListRow]:
    """`pan session list --json`: every session, the current one marked, and the device that
    records it (one brought in by `pan sync` from another device is read-only here)."""
    with store.snapshot():
        current = store.setting("current_session")
        me = store.sync.device_id()
        labels = {d["id"]: d["label"] for d in store.sync.devices()}
        sessions = store.sessions()
    return [{"name": r.name, "game": r.game, "created_at": r.created_at, "players": list(r.players),
             "closed": bool(r.closed_at), "current": str(r.id) == current, "device": r.device,
             "device_label": labels.get(r.device), "recorded_here": r.device == me} for r in sessions]


# -- the table now ---------------------------------------------------------------------------

def board_json(session: Session, state: object) -> BoardJson:
    """The table in ``state`` as the session's game shows it (``board_data``, from any state)."""
    return game(session.game).board(session, state)


def standings_json(session: Session, balances: dict[str, int], tallies: dict[str, dict[str, int]],
                   players: Sequence[str], chip_value: object) -> StandingsJson:
    from pancli.core.money import amount, shown_chip_value  # noqa: PLC0415 start-up: decimal, not for the board or history

    chip_value = shown_chip_value(chip_value)
    names = list(players) + [p for p in balances if p not in players and p not in POOLS] \
        + [p for p in tallies if p not in players and p not in balances]
    g = GAMES.get(session.game)
    shown = g.tallies if g is not None else TALLIES  # the counts every row shows, 0 when none
    rows: list[JsonObject] = []
    for name in names:
        t = tallies.get(name, {})
        net = balances.get(name, 0)
        row = {"name": name, "net": net, **{stat: t.get(stat, 0) for stat in shown}}
        for stat, value in t.items():
            row.setdefault(stat, value)
        if chip_value:
            row["money"] = amount(net, chip_value, session.currency)
        rows.append(row)
    rows.sort(key=lambda r: -r["net"])
    pools = {p.strip("()"): balances[p] for p in POOLS if balances.get(p)}
    data: StandingsJson = {"session": session.name, "game": session.game, "chip_value": chip_value,
            "players": rows, "pools": pools, "sum": sum(balances.values())}
    if session.currency is not None:
        data["currency"] = session.currency
    ranked = g.standings(session.rules, rows) if g else None
    if ranked:  # a game scored in points or letters: ranked by its own score, with its own columns
        data["players"], data["columns"] = ranked
    return data


def board_data(recorder: Recorder) -> BoardJson:
    """The hand in play as its game shows it: `pan board --json` for Panguingue,
    `pan contract status --json` and `pan polish status --json` for the other two games."""
    return recorder.game.board(recorder.session, recorder.state())


def standings_data(recorder: Recorder) -> StandingsJson:
    """`pan standings --json`."""
    state, balances, tallies = recorder.totals()
    seats = recorder.game.players(state)
    return standings_json(recorder.session, balances, tallies, seats, recorder.session.chip_value)


def payment_json(event_id: int, p: Payment) -> PaymentJson:
    """One payment of an event of `pan history --json` (code and params null if stored by pancli 0.1)."""
    return {"event_id": event_id, "payer": p.payer, "payee": p.payee, "chips": p.chips, "reason": p.reason,
            "code": p.code, "params": None if p.code is None else p.params.plain()}


def event_json(e: LoggedEvent, text: str, undo_id: int | None = None) -> EventJson:
    """One event of `pan history --json`; ``text``: the event in words (``event_texts``);
    ``undo_id``: for an undo, the row id of the event it voids (as the history has always named it)."""
    return {"seq": e.seq, "hand": e.hand, "kind": e.kind, "text": text, "payload": e.payload,
            "created_at": cast(str, e.created_at), "voided": e.voided_by is not None,
            "undo_of": undo_id, "payments": [payment_json(cast(int, e.id), p) for p in e.payments or ()]}


def event_difference(game_name: str, seq: int, ours: JsonObject, theirs: JsonObject) -> str:
    """Why two copies of event ``seq`` are not the same, in the game's words: `event #5 differs:
    here Ana melds J♥ Q♥ K♥, in the archive Dee melds 4♥ 4♦ 4♣`."""
    def said(payload: JsonObject) -> str:
        try:
            return game(game_name).event_words(payload)
        except (PanError, KeyError, TypeError, ValueError, AttributeError):  # a kind or game this pancli lacks
            return str(payload.get("kind", _("an event"))) if isinstance(payload, dict) else _("an event")

    a, b = said(ours), said(theirs)
    if a != b:
        return _("event #{seq} differs: here {ours}, in the archive {theirs}").format(seq=seq, ours=a, theirs=b)
    return _("event #{seq} ({event}) differs in its hand or its payments").format(seq=seq, event=a)


def event_texts(store: Store, session: Session, events: Sequence[LoggedEvent]) -> list[str]:
    """Each event in words, as its game says it (an undo with what it took back)."""
    g = game(session.game)
    payloads = {e.seq: e.payload for e in events}
    missing = [e.undo_of for e in events if e.undo_of is not None and e.undo_of not in payloads]
    if missing:
        payloads.update(store.log.payloads_by_seq(session.id, missing))
    return [g.event_words(e.payload, payloads.get(e.undo_of) if e.undo_of is not None else None) for e in events]


def history_data(store: Store, session: Session, hand: int | None = None,
                 events: list[LoggedEvent] | None = None) -> HistoryJson:
    """`pan history [--hand N] --json`: every event, voided ones and undos included, with its payments
    and its words (or just ``events``, as ``store.log.session_log`` gives them, for a reader that
    pages the log)."""
    if events is None:
        events = store.log.session_log(session.id) if hand is None else store.log.hand_events(session.id, hand)
    texts = event_texts(store, session, events)
    ids = {e.seq: e.id for e in events}
    missing = [e.undo_of for e in events if e.undo_of is not None and e.undo_of not in ids]
    if missing:
        ids.update(store.log.ids_of(session.id, missing))
    return {"session": session.name, "events": [event_json(e, t, ids.get(e.undo_of) if e.undo_of is not None else None)
                                                for e, t in zip(events, texts)]}


def names_player(payload: JsonObject, player: str) -> bool:
    """Whether an event is about the player: named as who acts, deals, goes out, loses, or as a
    key of what it records per player (the seating list names everyone, so it does not count)."""
    def holds(value: object) -> bool:
        if isinstance(value, str):
            return value == player
        if isinstance(value, dict):
            return player in value or any(holds(v) for v in value.values())
        if isinstance(value, (list, tuple)):
            return any(holds(v) for v in value)
        return False

    return any(holds(v) for k, v in payload.items() if k not in ("kind", "seats"))


def pick_events(events: list[EventJson], player: str | None = None, last: int | None = None) -> list[EventJson]:
    """`pan history --player NAME --last N`: the events about the player, then the last N of them."""
    if player is not None:
        events = [e for e in events if names_player(e["payload"], player)]
    if last is not None:
        events = events[-last:] if last else []
    return events


# -- settle-up ---------------------------------------------------------------------------------

def settle_result(store: Store, session: Session, chip_value: object = None) -> tuple[Settlement, Decimal | None]:
    """`pan settle`: the settlement (checked to square everyone exactly) and the chip value it is
    priced at: an exact Decimal (``chip_value`` as typed, or the session's), or None."""
    # start-up: decimal and the reports, only for settling up
    from pancli.app.reports import settle_inputs  # noqa: PLC0415
    from pancli.core import money, settle as st  # noqa: PLC0415

    value = (money.chip_value(chip_value) if chip_value is not None
             else money.stored_chip_value(session.chip_value or session.rules.get("unit_value")))
    if value is not None and session.currency is not None:  # in its whole minor units, or refused
        value = money.chip_value_in(value, session.currency, "--chip-value" if chip_value is not None else None)
    data = settle_inputs(store, session)
    s = st.settle(data["nets"], data["bank"], value, list(session.players), session.currency)
    if s.banked:
        s.flags = st.negative_stacks(data["moves"])
    if not s.square():
        raise InputError(_("the ledger of '{name}' does not balance (sum {total})").format(name=session.name, total=s.total),
                         _("run `pan db check`"))
    return s, value


def settle_json(session: Session, s: Settlement) -> SettleJson:
    """`pan settle --json`."""
    from pancli.core import settle as st  # noqa: PLC0415 start-up: decimal, only for settling up

    return {"session": session.name, **st.to_json(s)}


def chips_to_settle(session: Session, s: Settlement) -> bool:
    """Whether settle-up has chips to settle: a game played for chips (``Game.in_chips``), or a
    game scored in points or letters where chips were bought at the bank or changed hands."""
    g = GAMES.get(session.game)
    return g is None or g.in_chips or s.banked or any(p.balance for p in s.parties)


def no_chips_words(session: Session, standings: StandingsJson, result: str | None) -> list[str]:
    """What settle-up says of a night with no chips to settle (``chips_to_settle``): that, once,
    and the night in the game's own terms: each player's score in place order, and the result."""
    g = game(session.game)
    # Translators: {game} is a game's title ("Polish Pan"); settle-up of a game scored in points or letters
    lines = [_("{game} is not played for chips: nothing to settle.").format(game=_(g.title))]
    said = standing_words(standings)
    if said:
        # Translators: followed by each player's score in place order: "Ana +23 points, Cruz -24 points"
        lines.append(sentence(_("Standings: {players}."), players=", ".join(said)))
    if result:
        lines.append(result)
    return lines


def standing_words(standings: Mapping[str, Any]) -> list[str]:
    """A game scored in its own terms, player by player in their places: 'Ana 12 points',
    'Piotr PO' (the letters of the Polish word), 'Ola no letters' (``standings``: a StandingsJson,
    or its columns and the players to say)."""
    columns = standings.get("columns") or []
    out = []
    for r in standings["players"]:
        if "word" in columns and r["word"]:
            out.append(_("{player} {letters}").format(player=r["name"], letters=r["word"]))
        elif "word" in columns:
            out.append(_("{player} no letters").format(player=r["name"]))
        elif "points" in columns:
            out.append(ngettext("{player} {points} point", "{player} {points} points", abs(r["points"])).format(
                player=r["name"], points=signed(r["points"])))
        else:
            out.append(f"{r['name']} {signed(r['net'])}")
    return out
