"""The data behind what people look at: one builder per view, shared by the CLI's --json and `pan serve`.

Each builder reads the store (inside one read snapshot where it reads more than once) and returns
JSON-ready dicts; the CLI prints or renders them, the web server puts them in a page or in /api/….
So the phone and the terminal always show the same objects.
"""

from __future__ import annotations

from pancli.core.errors import InputError


# -- the table now ---------------------------------------------------------------------------

def board_data(recorder) -> dict:
    """The hand in play as its game shows it: `pan board --json` for Panguingue,
    `pan contract status --json` and `pan polish status --json` for the other two games."""
    return recorder.game.board(recorder.session, recorder.state())


def standings_data(recorder) -> dict:
    """`pan standings --json`."""
    from pancli.cli.render import standings_json

    state, balances, tallies = recorder.totals()
    seats = recorder.game.players(state)
    return standings_json(recorder.session, balances, tallies, seats, recorder.session["chip_value"])


def event_json(e: dict) -> dict:
    """One event of `pan history --json`."""
    return {"seq": e["seq"], "hand": e["hand"], "kind": e["kind"], "payload": e["payload"],
            "created_at": e["created_at"], "voided": e["voided_by"] is not None,
            "undo_of": e["undo_of"], "payments": e["payments"]}


def history_data(store, session: dict, hand: int | None = None, events: list[dict] | None = None) -> dict:
    """`pan history [--hand N] --json`: every event, voided ones and undos included, with its payments
    (or just ``events``, rows as ``Store.all_events`` gives them, for a reader that pages the log)."""
    if events is None:
        events = store.all_events(session["id"], hand)
    return {"session": session["name"], "events": [event_json(e) for e in events]}


# -- settle-up ---------------------------------------------------------------------------------

def settle_result(store, session: dict, chip_value=None):
    """`pan settle`: the settlement (checked to square everyone exactly) and the chip value it is
    priced at: an exact Decimal (``chip_value`` as typed, or the session's), or None."""
    from pancli.app.reports import settle_inputs
    from pancli.core import money
    from pancli.core import settle as st

    if chip_value is not None:
        value = money.chip_value(chip_value)
    else:
        value = money.stored_chip_value(session["chip_value"] or session["rules"].get("unit_value"))
    data = settle_inputs(store, session)
    s = st.settle(data["nets"], data["bank"], value, session["players"])
    if s.banked:
        s.flags = st.negative_stacks(data["moves"])
    if not s.square():
        raise InputError(f"the ledger of '{session['name']}' does not balance (sum {s.total})", "run `pan db check`")
    return s, value


def settle_json(session: dict, s) -> dict:
    """`pan settle --json`."""
    from pancli.core import settle as st

    return {"session": session["name"], **st.to_json(s)}
