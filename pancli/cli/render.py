"""Turning states and payments into what people read: lines, tables, JSON-ready dicts."""

from __future__ import annotations

from collections import OrderedDict

from pancli.core.ledger import POOLS


def payment_lines(payments) -> list[str]:
    """Payments grouped as a dealer calls them: 'Ben, Cruz pay Ana 4 each: reason'."""
    groups: OrderedDict = OrderedDict()
    for p in payments:
        payer, payee, chips, reason = (p.payer, p.payee, p.chips, p.reason) if hasattr(p, "payer") else (
            p["payer"], p["payee"], p["chips"], p["reason"])
        groups.setdefault((payee, chips, reason), []).append(payer)
    lines = []
    for (payee, chips, reason), payers in groups.items():
        if len(payers) == 1:
            lines.append(f"{payers[0]} pays {payee} {chips}: {reason}")
        else:
            lines.append(f"{', '.join(payers)} pay {payee} {chips} each: {reason}")
    return lines


def board_json(session: dict, state) -> dict:
    from pancli.games import game

    return game(session["game"]).board(session, state)


def board_table(data: dict):
    from rich.table import Table

    from pancli.games.panguingue import conditions
    from pancli.games.panguingue.cards import markup_cards

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
            f"#{m['number']} {markup_cards(m['cards'])}"
            + (f"  [bold]{m['worth']}[/bold] {conditions.describe(m['condition'], m['cards'])}" if m["worth"] else "")
            for m in p["melds"]) or "-"
        status = p["status"] + (" (stays)" if p["stayed"] and p["status"] == "in" else "")
        # The melds cell is markup of its own (red hearts, the worth in bold): cards and condition
        # words only, never a name; every other cell is a plain string, shown literally.
        table.add_row(p["name"], status, Text.from_markup(melds), str(p["melded"]), f"{p['chips_this_hand']:+d}")
    return table


def standings_json(session: dict, balances: dict, tallies: dict, players: list[str], chip_value) -> dict:
    from pancli.core.money import amount, shown_chip_value

    chip_value = shown_chip_value(chip_value)
    names = list(players) + [p for p in balances if p not in players and p not in POOLS] \
        + [p for p in tallies if p not in players and p not in balances]
    rows = []
    for name in names:
        t = tallies.get(name, {})
        net = balances.get(name, 0)
        row = {"name": name, "net": net, "hands": t.get("hands", 0), "won": t.get("won", 0),
               "dropped": t.get("dropped", 0), "conditions": t.get("conditions", 0)}
        for stat, value in t.items():
            row.setdefault(stat, value)
        if chip_value:
            row["money"] = amount(net, chip_value)
        rows.append(row)
    rows.sort(key=lambda r: -r["net"])
    pools = {p.strip("()"): balances[p] for p in POOLS if balances.get(p)}
    data = {"session": session["name"], "game": session["game"], "chip_value": chip_value,
            "players": rows, "pools": pools, "sum": sum(balances.values())}
    from pancli.games import GAMES

    g = GAMES.get(session["game"])
    ranked = g.standings(session["rules"], rows) if g else None
    if ranked:  # a game scored in points or letters: ranked by its own score, with its own columns
        data["players"], data["columns"] = ranked
    return data


def standings_table(data: dict):
    from rich.table import Table

    from pancli.cli.common import styled

    table = Table(title=f"Standings · {data['session']}", title_justify="left")
    if "columns" in data:
        return _score_table(table, data)
    cols = ["player", "net"] + (["money"] if data["chip_value"] else []) + ["hands", "won", "dropped", "conditions"]
    for col in cols:
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in data["players"]:
        net = styled((f"{r['net']:+d}" if r["net"] else "0", "green" if r["net"] > 0 else ("red" if r["net"] < 0 else None)))
        cells = [r["name"], net] + ([f"{r['money']:+.2f}"] if data["chip_value"] else []) + [
            str(r["hands"]), str(r["won"]), str(r["dropped"]), str(r["conditions"])]
        table.add_row(*cells)
    for name, chips in data["pools"].items():
        table.add_row(f"({name})", f"{chips:+d}", *([""] * (len(cols) - 2)))
    return table


def season_table(data: dict):
    """Standings over a season: every session of one game, every device."""
    from rich.table import Table

    from pancli.cli.common import styled

    title = "Season" + ("" if data["season"] == "all" else f" {data['season']}")
    if data["game"] != "panguingue":
        title += f" · {data['game']}"
    n, d = data["sessions"], data["devices"]
    table = Table(title=f"{title} · {n} session{'s' if n != 1 else ''} · {d} device{'s' if d != 1 else ''}",
                  title_justify="left")
    for col in ("player", "net", "nights", "hands", "won"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in data["players"]:
        net = styled((f"{r['net']:+d}" if r["net"] else "0", "green" if r["net"] > 0 else ("red" if r["net"] < 0 else None)))
        table.add_row(r["name"], net, str(r["nights"]), str(r["hands"]), str(r["won"]))
    return table


def _score_table(table, data: dict):
    """Standings of a game scored in points or letters: place, player, the game's own columns."""
    cols = data["columns"]
    table.add_column("#", justify="right")
    table.add_column("player")
    for col in cols:
        table.add_column(col.replace("_", " "), justify="right")
    for r in data["players"]:
        cells = []
        for col in cols:
            value = r.get(col, 0)
            cells.append(f"{value:+d}" if col == "points" and value else (str(value) if value != "" else "-"))
        table.add_row(str(r.get("place", "")), r["name"], *cells)
    return table
