"""Turning states and payments into what people read: lines, tables, JSON-ready dicts."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import typer

from pancli.core.i18n import N_, _, ngettext, pgettext
from pancli.core.text import one_line, payment_lines
from pancli.core.words import signed, signed_money
from pancli.games import GAMES, game
from pancli.games.protocol import TALLIES

if TYPE_CHECKING:
    from rich.table import Table

    from pancli.app.view_types import StandingsJson
    from pancli.core.ledger import Step
    from pancli.games.protocol import Game

_RED_CARD = re.compile(r"(?:10|[A2-7JQK])[♥♦]")


def show_step(step: Step[Any]) -> None:
    """What one recorded step did, as the table hears it: its lines, then who pays whom and why."""
    # Plain echo, not rich: a recording command should not pay rich's import time. On a
    # terminal, hearts and diamonds are red all the same.
    paint = sys.stdout.isatty()
    for line in step.lines + [f"  {p}" for p in payment_lines(step.payments)]:
        line = one_line(line)  # names come from the log: shown inert
        typer.echo(_RED_CARD.sub(lambda m: typer.style(m.group(0), fg="red"), line) if paint else line)


def markup_cards(cards: Iterable[str]) -> str:
    """Cards by their codes (`5S`, `TH`) as rich markup: suit symbols, hearts and diamonds in red."""
    from pancli.games.frenchpack import SUIT_SYMBOLS  # noqa: PLC0415 the pack: only when melds are drawn

    shown = []
    for c in cards:
        text = c[:-1] + SUIT_SYMBOLS.get(c[-1], c[-1])
        shown.append(f"[red]{text}[/red]" if c[-1] in "HD" else text)
    return " ".join(shown)


# The column headers of the tables, keyed by the column's name in the JSON (which never changes).
COLUMNS = {
    "player": N_("player"), "net": N_("net"), "money": N_("money"), "hands": N_("hands"),
    "won": N_("won"), "dropped": N_("dropped"), "conditions": N_("conditions"), "nights": N_("nights"),
    "place": N_("place"), "points": N_("points"), "word": N_("word"), "letters": N_("letters"), "deals_played": N_("deals played"),
    "deals_won": N_("deals won"), "deals_lost": N_("deals lost"), "games_lost": N_("games lost"),
    "status": N_("status"), "melds": N_("melds"), "down": N_("down"), "this hand": N_("this hand"),
    "date": N_("date"), "session": N_("session"), "running": N_("running"), "game": N_("game"),
    "players": N_("players"), "biggest winner": N_("biggest winner"), "recorded": N_("recorded"),
    "rescored": N_("rescored"), "difference": N_("difference"), "bought": N_("bought"),
    "cashed": N_("cashed"), "cashed out": N_("cashed out"), "holds": N_("holds"), "settles": N_("settles"),
    "drop": N_("drop"), "conds": N_("conds"), "best": N_("best"), "cards": N_("cards"), "kind": N_("kind"),
    "condition": N_("condition"), "worth": N_("worth"), "opponent": N_("opponent"), "rating": N_("rating"),
}


def column(name: str) -> str:
    """A column's header for people: its name in the language in force (a count a newer game
    declares and this table does not know yet: its name, underscores as spaces)."""
    known = COLUMNS.get(name)
    return _(known) if known is not None else name.replace("_", " ")


# The pools the ledger keeps beside the players, as the standings' JSON names them.
POOLS = {"tops": N_("(tops)"), "house": N_("(house)")}


def pool_label(name: str) -> str:
    known = POOLS.get(name)
    return _(known) if known is not None else f"({name})"


def status_words(status: str, stayed: bool) -> str:
    """A player's status in the hand, as the board's JSON says it (``in``, ``dropped``, ``dead``)."""
    if status == "in":
        return pgettext("hand", "in (stays)") if stayed else pgettext("hand", "in")
    if status == "dropped":
        return pgettext("hand", "dropped")
    if status == "dead":
        return pgettext("hand", "dead")
    return status


def result_words(hand: Mapping[str, Any]) -> str:
    """How the hand stands, from the board's JSON ``result`` (English there, for scripts)."""
    result = str(hand.get("result") or "")
    if result == "in play":
        return _("in play")
    if result == "void":
        return pgettext("hand", "void")
    if hand.get("winner") and result == f"won by {hand['winner']}":
        return _("won by {player}").format(player=hand["winner"])
    chopped = re.fullmatch(r"tops chopped by (.+) and (.+)", result)
    if chopped:
        return _("tops chopped by {player} and {other}").format(player=chopped[1], other=chopped[2])
    return result


def board_table(data: Mapping[str, Any], game: Game[Any, Any]) -> Table | str:
    """The board of a game that plays in hands (``data["hand"]``, as ``PanguingueBoard`` shapes
    it), its melds in words by the game."""
    from rich.table import Table  # noqa: PLC0415 rich: only when the board is drawn

    hand = data["hand"]
    if hand is None:
        return _("Session {session}: no hand dealt yet. Seats: {seats}.").format(
            session=data["session"], seats=", ".join(data["seats"]))
    from rich.text import Text  # noqa: PLC0415 rich: only when the board is drawn

    title = _("{session} · hand {number} · {dealer} deals, {eldest} eldest · tops {tops} · {result}").format(
        session=data["session"], number=hand["number"], dealer=hand["dealer"], eldest=hand["eldest"],
        tops=hand["tops"], result=result_words(hand))
    table = Table(title=title, title_justify="left", show_lines=False)
    for col in ("player", "status", "melds", "down", "this hand"):
        table.add_column(column(col), justify="right" if col in ("down", "this hand") else "left")
    for p in hand["players"]:
        melds = "\n".join(
            # Translators: {cards} are card symbols such as 5♠ in markup; keep [bold]…[/bold]
            _("meld {number}: {cards}, {condition}, worth [bold]{worth}[/bold]").format(
                number=m["number"], cards=markup_cards(m["cards"]), condition=game.meld_words(m), worth=m["worth"])
            if m["worth"] else _("meld {number}: {cards}").format(number=m["number"], cards=markup_cards(m["cards"]))
            for m in p["melds"]) or "-"
        status = status_words(p["status"], p["stayed"])
        # The melds cell is markup of its own (red hearts, the worth in bold): cards and condition
        # words only, never a name; every other cell is a plain string, shown literally.
        table.add_row(p["name"], status, Text.from_markup(melds), str(p["melded"]), signed(p['chips_this_hand'], zero="+0"))
    return table

def standings_table(data: StandingsJson) -> Table:
    from rich.table import Table  # noqa: PLC0415 rich: only when standings are drawn

    from pancli.cli.output import styled  # noqa: PLC0415 rich consoles: only when standings are drawn

    table = Table(title=_("Standings · {session}").format(session=data["session"]), title_justify="left")
    if "columns" in data:
        return _score_table(table, data)
    g = GAMES.get(data["game"])
    counts = list(g.tallies if g is not None else TALLIES)  # the counts its game declares
    cols = ["player", "net"] + (["money"] if data["chip_value"] else []) + counts
    for col in cols:
        table.add_column(column(col), justify="left" if col == "player" else "right")
    for r in data["players"]:
        net = styled((signed(r["net"]), "green" if r["net"] > 0 else ("red" if r["net"] < 0 else None)))
        cells = [r["name"], net] + ([signed_money(r["money"], zero="+0.00", currency=data.get("currency"))] if data["chip_value"] else []) + [
            str(r.get(c, 0)) for c in counts]
        table.add_row(*cells)
    for name, chips in data["pools"].items():
        table.add_row(pool_label(name), signed(chips, zero="+0"), *([""] * (len(cols) - 2)))
    return table

def season_table(data: Mapping[str, Any]) -> Table:
    """Standings over a season: every session of one game, every device."""
    from rich.table import Table  # noqa: PLC0415 rich: only when a season is drawn

    from pancli.cli.output import styled  # noqa: PLC0415 rich consoles: only when a season is drawn

    title = _("Season") if data["season"] == "all" else _("Season {year}").format(year=data["season"])
    if not game(data["game"]).at_top:  # a season of another game says which, as its --game did
        title += f" · {data['game']}"
    n, d = data["sessions"], data["devices"]
    sessions = ngettext("{n} session", "{n} sessions", n).format(n=n)
    devices = ngettext("{n} device", "{n} devices", d).format(n=d)
    table = Table(title=f"{title} · {sessions} · {devices}", title_justify="left")
    if "columns" in data:  # scored in points or letters: its place, then its own count for the chips
        first, *rest = data["columns"] or ["nights"]
        cols = ["place", "player", first, "nights", *(c for c in rest if c != "nights")]
        for col in cols:
            table.add_column(column(col), justify="left" if col == "player" else "right")
        for r in data["players"]:
            table.add_row(*(r["name"] if c == "player" else
                            count_cell(c, r.get(c, 0)) for c in cols))
        return table
    from pancli.app.reports import season_tallies_of  # noqa: PLC0415 the app layer: only a season's table

    counts = season_tallies_of(data["game"])  # the counts its game adds up over a season
    for col in ("player", "net", "nights", *counts):
        table.add_column(column(col), justify="left" if col == "player" else "right")
    for r in data["players"]:
        net = styled((signed(r["net"]), "green" if r["net"] > 0 else ("red" if r["net"] < 0 else None)))
        table.add_row(r["name"], net, str(r["nights"]), *(str(r[c]) for c in counts))
    return table

def count_cell(stat: str, value: Any) -> str:
    """One count in a table's cell: points with their sign, as the standings write them."""
    return signed(value) if stat == "points" and value else str(value)


def _score_table(table: Table, data: StandingsJson) -> Table:
    """Standings of a game scored in points or letters: place, player, the game's own columns."""
    cols = data["columns"]
    table.add_column(column("place"), justify="right")
    table.add_column(column("player"))
    for col in cols:
        table.add_column(column(col), justify="right")
    for r in data["players"]:
        cells = []
        for col in cols:
            value = r.get(col, 0)
            cells.append(count_cell(col, value) if value != "" else "-")
        table.add_row(str(r.get("place", "")), r["name"], *cells)
    return table

