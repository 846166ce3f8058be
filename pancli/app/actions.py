"""What the dealer records from a phone (`pan serve --dealer`): one action, once.

An action is a small JSON object (``{"key": …, "action": "meld", "player": "ben", "cards": "5S 5S 5S"}``)
turned into the very events the matching `pan` command records, through the same Recorder. Its
key, made on the phone, is stored in the transaction of its events: a retry of the same request
(a dropped Wi-Fi, a double tap) is answered with the words of the first time and records nothing;
the same key sent with another request is refused. A refused action records nothing at all.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

from pancli.app.recorder import Recorder
from pancli.core.errors import InputError, PanError, RuleError
from pancli.core.grouping import meld_texts
from pancli.core.ledger import MAX_CHIPS
from pancli.core.text import one_line, payment_lines
from pancli.games import game
from pancli.storage.store import Store

KEY = re.compile(r"[A-Za-z0-9_-]{8,80}")


class KeyReused(RuleError):
    """The key of an action already recorded, sent with another request."""


# -- reading what the phone sent ----------------------------------------------------------------

def _text(body: dict, name: str, required: bool = True) -> str | None:
    value = body.get(name)
    if value is None or value == "":
        if required:
            raise InputError(f"the action has no {name}", f"choose the {name} first")
        return None
    if not isinstance(value, str):
        raise InputError(f"the {name} must be text, not {type(value).__name__}", f"send the {name} as words")
    return value


def _number(body: dict, name: str, required: bool = True, low: int = 1, high: int = 100_000) -> int | None:
    value = body.get(name)
    if value is None or value == "":
        if required:
            raise InputError(f"the action has no {name}", f"choose the {name} first")
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit():
        raise InputError(f"the {name} {value!r} is not a whole number", f"give the {name} as a number")
    n = int(value)
    if not low <= n <= high:
        raise InputError(f"the {name} {n} is out of range", f"give a number from {low} to {high}")
    return n


def _names(body: dict) -> list[str]:
    value = body.get("players", body.get("player"))
    names = [value] if isinstance(value, str) else value
    if not names or not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise InputError("the action names no player", "choose the players first")
    return names


def _cards(rec: Recorder, body: dict, name: str = "cards", required: bool = True) -> list[str]:
    value = body.get(name)
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    text = _text({name: value}, name, required)
    return list(rec.game.read_cards(text, rec.rules)) if text else []


def _melds(rec: Recorder, body: dict, name: str) -> list[str]:
    """Several melds: a list of card texts, or one text with / between the melds."""
    value = body.get(name)
    texts = value if isinstance(value, list) else [_text(body, name) or ""]
    if not all(isinstance(t, str) for t in texts):
        raise InputError(f"the {name} must be melds of cards", "write each meld's cards, e.g. AD 2D 3D")
    parts = meld_texts(texts, each_word_a_meld=isinstance(value, list))
    return [" ".join(rec.game.read_cards(t, rec.rules)) for t in parts if t.strip()]


def _player(rec: Recorder, body: dict) -> str:
    return rec.player(_names(body)[0])


# -- the actions: each builds the events its `pan` command records ------------------------------

def _deal(rec, body):
    dealer = _text(body, "dealer", required=False)
    return [{"kind": "deal", "dealer": rec.player(dealer) if dealer else None}]


def _each(kind: str):
    def build(rec, body):
        return [{"kind": kind, "player": rec.player(n)} for n in _names(body)]
    return build


def _meld(rec, body):
    return [{"kind": "meld", "player": _player(rec, body), "cards": _cards(rec, body)}]


def _add(rec, body):
    return [{"kind": "add", "player": _player(rec, body), "cards": _cards(rec, body),
             "to": _number(body, "to", required=False)}]


def _split(rec, body):
    return [{"kind": "split", "player": _player(rec, body), "meld": _number(body, "meld"),
             "into": _melds(rec, body, "into")}]


def _borrow(rec, body):
    return [{"kind": "borrow", "player": _player(rec, body), "from": _number(body, "from"),
             "cards": _cards(rec, body), "with": _cards(rec, body, "with")}]


def _spread(rec, body):
    return [{"kind": "spread", "player": _player(rec, body), "melds": _melds(rec, body, "melds")}]


def _out(rec, body):
    return [{"kind": "out", "player": _player(rec, body), "cards": _cards(rec, body, required=False),
             "to": _number(body, "to", required=False)}]


def _foul(rec, body):
    return [{"kind": "foul", "player": _player(rec, body), "after_discard": body.get("after_discard") is True,
             "meld": _number(body, "meld", required=False)}]


def _plain(kind: str):
    return lambda rec, body: [{"kind": kind}]


def _bank(kind: str):
    def build(rec, body):
        return [{"kind": kind, "player": _player(rec, body), "chips": _number(body, "chips", high=MAX_CHIPS)}]
    return build


def _join(rec, body):
    after = _text(body, "after", required=False)
    return [{"kind": "seat_add", "player": _text(body, "player"), "after": rec.player(after) if after else None}]


def _contract_codes(text: str) -> list[str]:
    from pancli.games.contract.engine import parse_cards  # noqa: PLC0415 the contract game, only when played

    return [c.code for c in parse_cards(text)]


def _contract_lay(rec, body):
    from pancli.games.contract.engine import parse_melds  # noqa: PLC0415 the contract game, only when played

    value = body.get("melds")
    texts = value if isinstance(value, list) else [_text(body, "melds") or ""]
    laid = [[c.code for c in m] for m in parse_melds(meld_texts(texts, each_word_a_meld=isinstance(value, list)))]
    if not laid:
        raise InputError("no melds given", "write the contract, e.g. 7S 7H 7D / QC QD QS")
    return [{"kind": "contract", "player": _player(rec, body), "melds": laid}]


def _contract_layoff(rec, body):
    return [{"kind": "lay_off", "player": _player(rec, body), "meld": _number(body, "meld"),
             "cards": _contract_codes(_text(body, "cards") or "")}]


def _contract_out(rec, body):
    from pancli.games.contract.engine import parse_card  # noqa: PLC0415 the contract game, only when played

    discard = _text(body, "discard", required=False)
    return [{"kind": "out", "player": _player(rec, body), "discard": parse_card(discard).code if discard else None}]


def _contract_left(rec, body):
    who = _player(rec, body)
    points = _number(body, "points", required=False, low=0)
    if points is not None:
        return [{"kind": "hand", "player": who, "points": points}]
    return [{"kind": "hand", "player": who, "cards": _contract_codes(_text(body, "cards") or "")}]


def contract_pending(state) -> str | None:
    """What the table still has to tell pancli about the contract deal in play (after `out`)."""
    if state.over or state.out is None:
        return None
    done = {x.player for x in state.leftovers}
    missing = [p for p in state.players if p != state.out and p not in done]
    if missing:
        return f"Still to record: the cards left of {', '.join(missing)} (`pan contract left NAME CARDS`)."
    return None


def _polish_lost(rec, body):
    return [{"kind": "deal", "loser": _player(rec, body)}]


Build = Callable[[Recorder, dict], list[dict]]
BANK = {"buyin": _bank("buyin"), "cashout": _bank("cashout")}
ACTIONS: dict[str, dict[str, Build]] = {
    "panguingue": {
        "deal": _deal, "stay": _each("stay"), "drop": _each("drop"), "meld": _meld, "add": _add,
        "split": _split, "borrow": _borrow, "spread": _spread, "out": _out, "foul": _foul,
        "dead": _each("dead"), "void": _plain("void"), "chop": _plain("chop"),
        "join": _join, "leave": _each("seat_remove"), **BANK,
    },
    "contract": {"lay": _contract_lay, "layoff": _contract_layoff, "out": _contract_out,
                 "left": _contract_left, **BANK},
    "polish": {"lost": _polish_lost, "nolose": lambda rec, body: [{"kind": "deal", "loser": None}], **BANK},
}


# -- doing one -----------------------------------------------------------------------------------

def digest(body: dict) -> str:
    """What was asked, without its key: a retry must ask exactly this again."""
    asked = {k: v for k, v in body.items() if k != "key"}
    return hashlib.sha256(json.dumps(asked, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def step_lines(steps) -> list[str]:
    """The words `pan` prints for the steps (cli/render.show_step): each line, then who pays whom."""
    return [one_line(line) for step in steps for line in list(step.lines)
            + [f"  {p}" for p in payment_lines(step.payments)]]


def check_key(key) -> str:
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise InputError("the action has no key of its own", "reload the dealer page and tap again")
    return key


def perform(store: Store, session: str | None, body: dict) -> dict:
    """Record one action; returns ``{"lines": …, "replayed": False}``, or, for a key already
    recorded with the same request, the first answer with ``"replayed": True``."""
    key = check_key(body.get("key"))
    name = body.get("action")
    wanted = digest(body)
    with store.lock():
        done = store.actions.find(key)
        if done is not None:
            if done.digest != wanted:
                raise KeyReused("this action's key was already used for another action",
                                "reload the dealer page and tap again")
            return {**done.result, "replayed": True}
        rec = Recorder(store, store.session(session))
        if name == "undo":
            lines = _undo(rec, body)
        else:
            build = ACTIONS.get(rec.session.game, {}).get(name) if isinstance(name, str) else None
            if build is None:
                known = ", ".join(ACTIONS.get(rec.session.game, {})) + ", undo"
                raise InputError(f"{rec.game.title} has no action {name!r}", f"the actions are: {known}")
            steps = rec.record_many(build(rec, body))
            lines = step_lines(steps)
            note = contract_pending(steps[-1].state) if rec.session.game == "contract" else None
            if note:
                lines.append(note)
        result = {"action": name, "lines": lines}
        store.actions.put(key, rec.session.id, wanted, result)
    return {**result, "replayed": False}


def _undo(rec: Recorder, body: dict) -> list[str]:
    expected = _number(body, "seq", required=False)
    last = rec.store.log.last_effective(rec.session.id)
    if expected is not None and last is not None and last.seq != expected:
        raise RuleError(f"the last event is now #{last.seq}: {rec.game.event_words(last.payload)}",
                        "look at what undo will take back, then tap undo again")
    last, voided = rec.undo()
    undid = rec.game.event_words({"kind": "undo", "undid": last.kind, "seq": last.seq}, last.payload)
    return [undid] + [f"  voided: {p}" for p in payment_lines(voided)]  # as `pan undo` says it


# -- what the dealer looks at before tapping ---------------------------------------------------

def undo_preview(store: Store, session: str | None) -> dict:
    """What undo would take back now: the last effective event and its payments, recording nothing."""
    with store.snapshot():
        s = store.session(session)
        last = store.log.last_effective(s.id)
    if last is None:
        return {"seq": None, "text": "Nothing to undo in this session.", "payments": []}
    words = game(s.game).event_words(last.payload)
    return {"seq": last.seq, "text": f"Undo takes back #{last.seq}: {words}",
            "payments": payment_lines(last.payments)}


def dealer_table(store: Store, session: str | None) -> dict:
    """The seats in order, who is still in the hand, each player's melds by number."""
    from pancli.app.views import board_data  # noqa: PLC0415 the board, built as `pan board --json` does

    rec = Recorder(store, store.session(session))
    state = rec.state()
    board = board_data(rec)
    hand = board.get("hand") if isinstance(board.get("hand"), dict) else None
    return {"session": rec.session.name, "game": rec.session.game, "seats": rec.game.players(state),
            "in_hand": list(rec.game.active_players(state)), "hand_open": bool(rec.game.hand_open(state)),
            "hand": hand, "actions": [*ACTIONS.get(rec.session.game, {}), "undo"],
            "undo": undo_preview(store, session)}


def judge_cards(store: Store, session: str | None, body: dict) -> dict:
    """`pan check` for the cards on the picker, under the session's house rules: legal or not,
    and what it pays; with ``onto`` (a meld's cards) the addition to it. Records nothing."""
    rec = Recorder(store, store.session(session))
    judged = getattr(rec.game, "verdict", None)
    if judged is None:
        raise InputError(f"{rec.game.title} has no card check here", "check its cards with the CLI")
    onto = _cards(rec, body, "onto", required=False)
    return judged(tuple(_cards(rec, body)), rec.rules, tuple(onto) or None)


__all__ = ["ACTIONS", "KeyReused", "PanError", "perform", "undo_preview", "dealer_table", "judge_cards"]
