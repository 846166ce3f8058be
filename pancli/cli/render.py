"""Turning states and payments into what people read: lines, tables, JSON-ready dicts."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

import typer

from pancli.core.text import one_line, payment_lines
from pancli.core.words import plural, signed, signed_money

_RED_CARD = re.compile(r"(?:10|[A2-7JQK])[♥♦]")


def show_step(step) -> None:
    """What one recorded step did, as the table hears it: its lines, then who pays whom and why."""
    # Plain echo, not rich: a recording command should not pay rich's import time. On a
    # terminal, hearts and diamonds are red all the same.
    paint = sys.stdout.isatty()
    for line in step.lines + [f"  {p}" for p in payment_lines(step.payments)]:
        line = one_line(line)  # names come from the log: shown inert
        typer.echo(_RED_CARD.sub(lambda m: typer.style(m.group(0), fg="red"), line) if paint else line)


def markup_cards(cards) -> str:
    """Cards by their codes (`5S`, `TH`) as rich markup: suit symbols, hearts and diamonds in red."""
    from pancli.games.frenchpack import SUIT_SYMBOLS

    shown = []
    for c in cards:
        text = c[:-1] + SUIT_SYMBOLS.get(c[-1], c[-1])
        shown.append(f"[red]{text}[/red]" if c[-1] in "HD" else text)
    return " ".join(shown)


def board_table(data: dict, game):
    """The board of a game that plays in hands (``data["hand"]``), its melds in words by the game."""
    from rich.table import Table

    hand = data["hand"]
    if hand is None:
        return f"Session {data['session']}: no hand dealt yet. Seats: {', '.join(data['seats'])}."
    from rich.text import Text

    table = Table(title=f"{data['session']} · hand {hand['number']} · {hand['dealer']} deals, "
                        f"{hand['eldest']} eldest · tops {hand['tops']} · {hand['result']}",
                  title_justify="left", show_lines=False)
    for col in ("player", "status", "melds", "down", "this hand"):
        table.add_column(col, justify="right" if col in ("down", "this hand") else "left")
    for p in hand["players"]:
        melds = "\n".join(
            f"meld {m['number']}: {markup_cards(m['cards'])}"
            + (f", {game.meld_words(m)}, worth [bold]{m['worth']}[/bold]" if m["worth"] else "")
            for m in p["melds"]) or "-"
        status = p["status"] + (" (stays)" if p["stayed"] and p["status"] == "in" else "")
        # The melds cell is markup of its own (red hearts, the worth in bold): cards and condition
        # words only, never a name; every other cell is a plain string, shown literally.
        table.add_row(p["name"], status, Text.from_markup(melds), str(p["melded"]), signed(p['chips_this_hand'], zero="+0"))
    return table

def standings_table(data: Mapping[str, Any]):
    from rich.table import Table

    from pancli.cli.output import styled

    table = Table(title=f"Standings · {data['session']}", title_justify="left")
    if "columns" in data:
        return _score_table(table, data)
    from pancli.games import GAMES
    from pancli.games.protocol import TALLIES

    g = GAMES.get(data["game"])
    counts = list(g.tallies if g is not None else TALLIES)  # the counts its game declares
    cols = ["player", "net"] + (["money"] if data["chip_value"] else []) + counts
    for col in cols:
        table.add_column(col.replace("_", " "), justify="left" if col == "player" else "right")
    for r in data["players"]:
        net = styled((signed(r["net"]), "green" if r["net"] > 0 else ("red" if r["net"] < 0 else None)))
        cells = [r["name"], net] + ([signed_money(r["money"], zero="+0.00", currency=data.get("currency"))] if data["chip_value"] else []) + [
            str(r.get(c, 0)) for c in counts]
        table.add_row(*cells)
    for name, chips in data["pools"].items():
        table.add_row(f"({name})", signed(chips, zero="+0"), *([""] * (len(cols) - 2)))
    return table

def season_table(data: dict):
    """Standings over a season: every session of one game, every device."""
    from rich.table import Table

    from pancli.cli.output import styled

    title = "Season" + ("" if data["season"] == "all" else f" {data['season']}")
    from pancli.games import game

    if not game(data["game"]).at_top:  # a season of another game says which, as its --game did
        title += f" · {data['game']}"
    n, d = data["sessions"], data["devices"]
    table = Table(title=f"{title} · {plural(n, 'session')} · {plural(d, 'device')}",
                  title_justify="left")
    for col in ("player", "net", "nights", "hands", "won"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in data["players"]:
        net = styled((signed(r["net"]), "green" if r["net"] > 0 else ("red" if r["net"] < 0 else None)))
        table.add_row(r["name"], net, str(r["nights"]), str(r["hands"]), str(r["won"]))
    return table

def _score_table(table, data: Mapping[str, Any]):
    """Standings of a game scored in points or letters: place, player, the game's own columns."""
    cols = data["columns"]
    table.add_column("place", justify="right")
    table.add_column("player")
    for col in cols:
        table.add_column(col.replace("_", " "), justify="right")
    for r in data["players"]:
        cells = []
        for col in cols:
            value = r.get(col, 0)
            cells.append(signed(value) if col == "points" and value else (str(value) if value != "" else "-"))
        table.add_row(str(r.get("place", "")), r["name"], *cells)
    return table

