"""The typed payloads (pancli/core/events.py) say what the declarations say (pancli/core/payloads.py
and each game's PAYLOADS): the same kinds, the same fields, of the same types."""

from __future__ import annotations

import subprocess
import sys
import types
import typing
from typing import Any, Literal, NotRequired, Union, get_args, get_origin

import pytest

from pancli.core import events
from pancli.core.payloads import BANK_PAYLOADS, LIST, TABLE, TEXT, TEXTS, WHOLE, YES_NO, Payloads
from pancli.games import GAMES, game

# A field a declaration does not let be null, which an event may still be stored without.
ABSENT_AT_TIMES = {("panguingue", "deal", "seats"), ("contract", "hand", "cards"), ("contract", "deal", "contracts")}


def _declared() -> list[tuple[str, Payloads, dict[str, type]]]:
    return [("bank", BANK_PAYLOADS, events.BANK_TYPES)] + [
        (name, game(name).payloads, events.GAME_TYPES[name]) for name in ("panguingue", "contract", "polish")]


def _matches(annotation: Any, type_: str) -> bool:
    origin, args = get_origin(annotation), get_args(annotation)
    if type_ == TEXT:
        return annotation is str
    if type_ == WHOLE:
        return annotation is int
    if type_ == YES_NO:
        return annotation is bool
    if type_ == TEXTS:
        return origin is list and args == (str,)
    if type_ == LIST:
        return origin is list
    if type_ == TABLE:
        return origin is dict
    raise AssertionError(type_)


def _unwrap(annotation: Any) -> tuple[Any, bool, bool]:
    """(the type, whether it may be absent, whether it may be None)."""
    absent = get_origin(annotation) is NotRequired
    if absent:
        (annotation,) = get_args(annotation)
    if get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        assert len(rest) == 1, annotation
        return rest[0], absent, True
    return annotation, absent, False


def test_every_game_of_the_registry_with_payloads_has_its_types():
    for name, g in GAMES.items():
        if g.payloads.kinds and name in ("panguingue", "contract", "polish"):
            assert name in events.GAME_TYPES


@pytest.mark.parametrize(("owner", "payloads", "typed"), _declared(), ids=lambda x: x if isinstance(x, str) else "")
def test_each_kind_has_a_typed_payload_with_the_declared_fields(owner, payloads, typed):
    assert set(typed) == set(payloads.kinds), owner
    for kind, fields in payloads.kinds.items():
        hints = typing.get_type_hints(typed[kind], include_extras=True)
        assert hints.pop("kind") == Literal[kind], (owner, kind)
        assert set(hints) == set(fields), (owner, kind)
        for name, f in fields.items():
            annotation, absent, nullable = _unwrap(hints[name])
            assert _matches(annotation, f.type), (owner, kind, name, hints[name], f)
            assert nullable == f.nullable, (owner, kind, name)
            if f.nullable:  # absent and null are the same
                assert absent, (owner, kind, name)
            else:
                assert absent == ((owner, kind, name) in ABSENT_AT_TIMES), (owner, kind, name)


def test_the_builders_make_events_of_their_declared_kinds_with_only_declared_fields():
    """What each action builds, from values as read, has the typed payload's fields and no other."""
    samples: dict[str, Any] = {"player": "Ana", "dealer": None, "cards": ["AD", "2D", "3D"], "to": None,
                               "meld": 1, "into": [["AD", "2D", "3D"], ["4D", "5D", "6D"]], "from": 1,
                               "with": ["4D", "5D"], "melds": [["AD", "2D", "3D"]], "after_discard": False,
                               "after": None, "chips": 5, "discard": None, "points": None, "out": "Ana",
                               "hands": {"Ben": "KC KD", "Cruz": 24}, "contracts": {"Ana": "7S 7H 7D + QC QD QS"}}
    for name in ("panguingue", "contract", "polish"):
        for action in game(name).actions:
            values = {p.name: samples[p.name] for p in action.params}
            if action.name in ("stay", "drop", "dead"):
                values["player"] = ["Ana", "Ben"]
            built = action.build(values)
            assert built, action
            for event in built:
                kinds = events.GAME_TYPES[name] | events.BANK_TYPES
                assert event["kind"] in action.kinds, action
                allowed = set(typing.get_type_hints(kinds[event["kind"]]))
                assert set(event) <= allowed, (action, set(event) - allowed)
                required = kinds[event["kind"]].__required_keys__  # type: ignore[attr-defined]
                assert required <= set(event), (action, required - set(event))


def test_the_types_cost_nothing_at_start_up():
    """Only the type checker reads them: no command's start-up imports the module."""
    code = ("import sys, pancli.cli, pancli.games.panguingue.actions, pancli.games.contract.actions, "
            "pancli.games.polish.actions, pancli.games.panguingue.engine; "
            "print('pancli.core.events' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_views_give_the_shapes_their_types_say(tmp_path):
    """`pan session list --json` and `pan history --json`, on a real database: each row, event
    and payment has the fields of its TypedDict (pancli/app/view_types.py) and no other."""
    import json

    from pancli.app import view_types

    from helpers import pan_in_process

    db = tmp_path / "pan.db"
    pan_in_process(db, "session new night --players Ana,Ben,Cruz --dealer Ana")
    pan_in_process(db, "deal")
    pan_in_process(db, "meld ben 7S 7H 7D")
    pan_in_process(db, "undo")
    rows = json.loads(pan_in_process(db, "session list --json").output)
    history = json.loads(pan_in_process(db, "history --json").output)

    def fields(t: type) -> set[str]:
        return set(typing.get_type_hints(t))

    assert rows and all(set(r) == fields(view_types.SessionListRow) for r in rows)
    assert len(history["events"]) == 3
    assert all(set(e) == fields(view_types.EventJson) for e in history["events"])
    payments = [p for e in history["events"] for p in e["payments"]]
    assert payments and all(set(p) == fields(view_types.PaymentJson) for p in payments)


def test_the_standings_give_the_shape_their_type_says(tmp_path):
    """`pan standings --json`, in chips and in points: the fields of StandingsJson, the game's
    own columns only where it ranks by its own score."""
    import json

    from pancli.app import view_types

    from helpers import pan_in_process

    hints = typing.get_type_hints(view_types.StandingsJson)
    required = view_types.StandingsJson.__required_keys__  # type: ignore[attr-defined]
    db = tmp_path / "pan.db"
    pan_in_process(db, "session new night --players Ana,Ben,Cruz --dealer Ana")
    pan_in_process(db, "deal")
    chips = json.loads(pan_in_process(db, "standings --json").output)
    assert required <= set(chips) <= set(hints) and "columns" not in chips
    pan_in_process(db, "session new polish --game polish --players Ana,Ben")
    pan_in_process(db, "polish lost ana")
    letters = json.loads(pan_in_process(db, "standings --json").output)
    assert set(letters) == set(hints) - {"currency"}  # a session's currency only when it has one
    pan_in_process(db, "session new euros --players Ana,Ben --currency EUR --chip-value 0.05")
    assert set(json.loads(pan_in_process(db, "standings --json").output)) == set(hints) - {"columns"}
