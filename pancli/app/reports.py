"""Reports over the ledger: one evening at a glance, the score sheet, the season, the list of sessions
(a player's career: app/career.py).

Each report has a reading part (the running totals the store keeps per player and per hand, and
a few grouped SQL queries, never a replay) and a pure part that shapes the rows; the CLI only
renders the result.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import accumulate
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypedDict

from pancli.app.recorder import Recorder
from pancli.app.seasons import counted
from pancli.core.bank import BANK_KINDS
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.ledger import POOLS
from pancli.core.money import amount, shown_chip_value
from pancli.core.names import name_key
from pancli.core.rows import Session
from pancli.games import DEFAULT_GAME, GAMES
from pancli.games.protocol import TALLIES
from pancli.storage.migrations import NET

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject
    from pancli.games.protocol import Game
    from pancli.storage.store import Store

SPARKS = "▁▂▃▄▅▆▇█"

# -- reading -----------------------------------------------------------------------------

def session_report(store: Store, session: Session) -> JsonObject:
    """Everything `pan report` shows, as JSON-ready data."""
    sid = session.id
    with store.snapshot():
        deltas = store.log.hand_nets(sid)
        tallies = store.log.tallies(sid)
        last_hand = store.queries.hands_played(sid)
    cond = {p: t["condition_chips"] for p, t in tallies.items() if t.get("condition_chips")}
    report = build_report(session, deltas, tallies, cond, last_hand)
    g = GAMES.get(session.game)
    if g is None or g.in_chips:
        return report
    sheet = g.sheet(Recorder(store, session).state()) if g.sheet_shows != "chips" else None
    return in_own_terms(report, g, session, sheet)


def build_report(session: Session, deltas: dict[tuple[int, str], int], tallies: dict[str, dict[str, int]],
                 cond: dict[str, int], last_hand: int) -> JsonObject:
    """Shape the per-hand chips into the report (pure)."""
    chip_value = shown_chip_value(session.chip_value)
    names = [p for p in session.players]
    # in the order they first come (a long night has 150,000 deltas: each looked at once, in C)
    for p in [*dict.fromkeys(map(itemgetter(1), deltas)), *tallies]:
        if p not in names and p not in POOLS:
            names.append(p)
    hands = max(last_hand, max(map(itemgetter(0), deltas), default=0))
    per: dict[str, list[int]] = {n: [0] * (hands + 1) for n in names}
    pools: dict[str, int] = defaultdict(int)
    for (h, p), d in deltas.items():
        if p in POOLS:
            pools[p] += d
        else:
            per[p][h] += d
    rows: list[JsonObject] = []
    biggest = None
    counts = tallies_of(session.game)  # the counts its game declares; conditions with their chips
    for n in names:
        by_hand = per[n]
        running = list(accumulate(by_hand[1:]))
        total = running[-1] if running else 0
        # the first hand of the most won and of the most lost (a long night has 10,000 of them)
        best_h = max(range(1, hands + 1), key=by_hand.__getitem__) if hands else None
        worst_h = min(range(1, hands + 1), key=by_hand.__getitem__) if hands else None
        total += by_hand[0]  # payments outside any hand, if a game makes them
        t = tallies.get(n, {})
        row: JsonObject = {
            "name": n, "net": total, "money": amount(total, chip_value, session.currency) if chip_value else None,
            **{stat: t.get(stat, 0) for stat in counts},
            **({"condition_chips": cond.get(n, 0)} if "conditions" in counts else {}),
            "largest_hand": {"hand": best_h, "chips": by_hand[best_h]} if best_h and by_hand[best_h] > 0 else None,
            "worst_hand": {"hand": worst_h, "chips": by_hand[worst_h]} if worst_h and by_hand[worst_h] < 0 else None,
            "buyin": t.get("buyin", 0), "cashout": t.get("cashout", 0),
            "running": running,
        }
        if row["largest_hand"] and (biggest is None or row["largest_hand"]["chips"] > biggest["chips"]):
            biggest = {"player": n, **row["largest_hand"]}
        rows.append(row)
    rows.sort(key=lambda r: (-r["net"], r["name"]))
    pool_out = {p.strip("()"): v for p, v in pools.items() if v}
    return {"session": session.name, "game": session.game, "date": session.created_at[:10],
            "created_at": session.created_at, "closed": bool(session.closed_at),
            "chip_value": chip_value, "hands": hands, "players": rows, "pools": pool_out,
            "largest_hand": biggest,
            "sum": sum(r["net"] for r in rows) + sum(pool_out.values()),
            **({"currency": session.currency} if session.currency is not None else {})}


def in_own_terms(report: JsonObject, g: Game[Any, Any], session: Session, sheet: JsonObject | None) -> JsonObject:
    """The report of a night of a game not played for chips (``Game.in_chips`` false), as its
    standings and its score sheet say it (pure): the players ranked and placed by the game's own
    score, the columns its standings show (``columns``), each player's running score deal by
    deal (``running``: points, or the letters held), the deals scored and the result."""
    seats = {name: i for i, name in enumerate(session.players)}  # a tie in seating order, as the standings
    rows = sorted((dict(r) for r in report["players"]), key=lambda r: seats.get(r["name"], len(seats)))
    ranked = g.standings(session.rules, rows) if rows else None
    rows, columns = ranked if ranked else (sorted(rows, key=lambda r: r["name"].lower()), list(g.tallies))
    deals = report["hands"]
    if sheet is not None:
        deals = len(sheet["rows"])
        seat = {name: i for i, name in enumerate(sheet["players"])}
        for r in rows:
            i = seat.get(r["name"])
            r["running"] = [] if i is None else [row["running"][i] for row in sheet["rows"] if row["running"]]
    return {**report, "players": rows, "columns": columns, "deals": deals,
            "round": sheet["round"] if sheet else "deal", "unit": sheet["unit"] if sheet else None,
            "result": sheet["result"] if sheet else None}


# -- the night's score sheet -------------------------------------------------------------

def sheet_grid(store: Store, session: Session) -> JsonObject:
    """The night on one sheet, in what its game's sheet shows (``Game.sheet_shows``): each hand's
    chips for each player (seating order) and the totals, read from the ledger; or the game's own
    score per deal (points, letters), from its state. What `pan report --html` and `--csv` write
    (with the settle-up) and the settle-up page shows."""
    g = GAMES.get(session.game)
    if g is not None and g.sheet_shows != "chips":
        own = g.sheet(Recorder(store, session).state())
        return {"session": session.name, "game": session.game, "date": session.created_at[:10], **own,
                "outside": None, "money": None, "chip_value": None}
    with store.snapshot():
        deltas = store.log.hand_nets(session.id)
        last_hand = store.queries.hands_played(session.id)
    return build_sheet(session, deltas, last_hand)


def build_sheet(session: Session, deltas: dict[tuple[int, str], int], last_hand: int) -> JsonObject:
    """Hands x players from the per-hand chips (pure); a hand nobody won or lost chips in stays a row."""
    names = list(session.players)
    for p in dict.fromkeys(map(itemgetter(1), deltas)):
        if p not in names and p not in POOLS:
            names.append(p)
    hands = max(last_hand, max(map(itemgetter(0), deltas), default=0))
    grid = [[deltas.get((h, n), 0) for n in names] for h in range(1, hands + 1)]
    rows = [{"number": h, "note": None, "scores": chips, "running": None} for h, chips in enumerate(grid, 1)]
    outside = [deltas.get((0, n), 0) for n in names]
    totals = [sum(chips[i] for chips in grid) + outside[i] for i in range(len(names))]
    chip_value = shown_chip_value(session.chip_value)
    return {"session": session.name, "game": session.game, "date": session.created_at[:10],
            "unit": "chips", "round": "hand", "signed": True, "note_label": None,
            "caption": _("chips won (+) and lost (-) by each player"), "result": None,
            "players": names, "rows": rows, "outside": outside if any(outside) else None, "totals": totals,
            "money": [amount(t, chip_value, session.currency) for t in totals] if chip_value else None,
            "chip_value": chip_value, "currency": session.currency}


def sheet_csv(sheet: JsonObject, bom: bool = False) -> str:
    """The grid for a spreadsheet: a header of players, a row per hand (or deal), the totals (and
    money, in the session's currency, named in its row's label); a game scored in its own way adds
    what each deal was played for, each player's running total in columns of its own, and who won.
    Through core.text.SpreadsheetWriter, the one writer of every CSV: numbers as plain ASCII, money
    as a spreadsheet reads a number in every language, and a text that it would take for a formula
    with a leading apostrophe; ``bom``: UTF-8 with a byte order mark, from which Excel and
    LibreOffice's Text Import take the encoding."""
    import io  # noqa: PLC0415 start-up: only `pan report --csv` writes CSV

    # A score sheet for people: its labels in the language in force (the sheet's codes are English).
    from pancli.core.i18n import pgettext  # noqa: PLC0415
    from pancli.core.text import SpreadsheetWriter, spreadsheet_number  # noqa: PLC0415

    # (A game's own note column comes named by the game.)
    words = {"hand": pgettext("sheet", "hand"), "deal": pgettext("sheet", "deal"),
             "chips": pgettext("sheet", "chips"), "letters": pgettext("sheet", "letters"),
             "total": pgettext("sheet", "total")}

    def label(code: str) -> str:
        return words.get(code, code)

    buf = io.StringIO()
    w = SpreadsheetWriter(buf, lineterminator="\r\n")
    noted = sheet["note_label"] is not None
    running = any(row["running"] is not None for row in sheet["rows"])
    lead = [label(sheet["round"]), *([label(sheet["note_label"])] if noted else [])]
    so_far = label("total" if sheet["unit"] == "points" else sheet["unit"])
    w.writerow([*lead, *sheet["players"], *([f"{p} ({so_far})" for p in sheet["players"]] if running else [])])
    for row in sheet["rows"]:
        w.writerow([row["number"], *([row["note"] or ""] if noted else []), *row["scores"],
                    *(row["running"] if running else [])])
    pad = [""] if noted else []
    if sheet["outside"]:
        w.writerow([pgettext("sheet", "outside hands"), *pad, *sheet["outside"]])
    w.writerow([label("total"), *pad, *sheet["totals"]])
    if sheet["money"]:
        currency = sheet.get("currency")
        money = pgettext("sheet", "money ({currency})").format(currency=currency) if currency else pgettext("sheet", "money")
        w.writerow([money, *pad, *(spreadsheet_number(Decimal(m)) for m in sheet["money"])])
    if sheet["result"]:
        w.writerow([pgettext("sheet", "result"), sheet["result"]])
    return ("\ufeff" if bom else "") + buf.getvalue()


# -- the list of sessions ----------------------------------------------------------------

def sessions_overview(store: Store) -> list[JsonObject]:
    with store.snapshot():
        sessions = store.sessions()
        hands = store.queries.hands_per_session()
        nets: dict[int, dict[str, int]] = defaultdict(dict)
        for sid, player, net in store.queries.balances_of_all_sessions():
            nets[sid][player] = net
        current = store.setting("current_session")
        me = store.sync.device_id()
        labels = {d["id"]: d["label"] for d in store.sync.devices()}
        own = [s.id for s in sessions if s.game in GAMES and not GAMES[s.game].in_chips]
        counts: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)
        if own:  # a game scored in points or letters: its leader from its counts, never a replay
            for sid, player, stat, total in store.queries.totals_of_all_sessions():
                if sid in own and player not in POOLS and stat != NET:
                    counts[sid].setdefault(player, {"name": player})[stat] = total
    out = []
    for s in sessions:
        players = {p: v for p, v in nets[s.id].items() if p not in POOLS}
        winner = max(players.items(), key=lambda kv: (kv[1], kv[0])) if players else None
        out.append({"name": s.name, "game": s.game, "date": s.created_at[:10],
                    "created_at": s.created_at, "players": list(s.players), "hands": hands.get(s.id) or 0,
                    "biggest_winner": {"name": winner[0], "net": winner[1]} if winner and winner[1] > 0 else None,
                    "closed": bool(s.closed_at), "current": str(s.id) == current,
                    "imported": bool(s.origin), "device": s.device,
                    "device_label": labels.get(s.device), "recorded_here": s.device == me,
                    **({"leader": leader_of(GAMES[s.game], s, counts[s.id])} if s.id in own else {})})
    return out


def leader_of(g: Game[Any, Any], session: Session, counts: dict[str, dict[str, Any]]) -> JsonObject | None:
    """The first in the standings of a night scored in points or letters (pure): the name, the
    place and the counts its standings show (``columns``), or None before anything is counted."""
    seats = {name: i for i, name in enumerate(session.players)}
    rows = sorted((dict(counts[p]) for p in counts), key=lambda r: seats.get(r["name"], len(seats)))
    ranked = g.standings(session.rules, rows) if rows else None
    if not ranked or not ranked[0]:
        return None
    first, columns = ranked[0][0], ranked[1]
    return {"name": first["name"], "place": first["place"], "columns": columns, **{c: first[c] for c in columns}}


# -- a season -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Season:
    """The sessions of one game in a year (or all of them), in the order played on every device,
    and who sat in each seat: a person of the club, else the name (compared as names are)."""

    year: str | None
    game: str
    sessions: dict[int, Session]
    totals: list[tuple[int, str, str, int]]  # (session id, seat, stat, total), in the order played
    seated: dict[tuple[int, str], str]
    person_names: dict[str, str]
    closed: dict[str, Any] | None = None  # a season the club closed: what it names, what it left out
    ambiguous: int = 0  # seats more than one person of the club may have sat in: counted by the name typed

    def notes_json(self) -> JsonObject:
        """What the season says besides its rows (``seasons.season_lines`` words it)."""
        return {**({"closed": self.closed} if self.closed is not None else {}),
                **({"ambiguous": self.ambiguous} if self.ambiguous else {})}

    def who(self, sid: int, seat: str) -> tuple[object, str]:
        """The key a seat counts for (a person, else its name folded) and the name shown."""
        person = self.seated.get((sid, seat.lower()))
        return (("person", person), self.person_names[person]) if person else (name_key(seat), seat)


def season_of(store: Store, year: str | None, game: str) -> Season:
    if year is not None and not (year.isdigit() and len(year) == 4):
        raise InputError(_("'{year}' is not a year").format(year=year), _("give one like 2026, or --season all"))
    with store.snapshot():  # the season's sessions and their totals alone, not every one the club holds
        sessions = store.queries.sessions_of_game(game, year)
        totals = store.queries.totals_as_played(sessions)
        club_id = store.setting("club_id")
    sessions, closed = counted(store, year, game, sessions)  # a closed season: the sessions its entry names
    seated: dict[tuple[int, str], str] = {}
    person_names: dict[str, str] = {}
    ambiguous = 0
    if club_id:  # a seat counts for the person of the club who sat there (pancli/app/club.py placed them)
        with store.snapshot():
            seated = store.club.seat_persons(sessions)
            person_names = {p["id"]: p["name"] for p in store.club.persons()}
            ambiguous = len(store.club.ambiguous_seats(sessions))
    # The same order on every device (Session.played): a player's name is spelt as in the first
    # session he played. Totals come in that order already; of the sessions counted alone.
    totals = [t for t in totals if t[1] not in POOLS and t[0] in sessions]
    played = dict(sorted(sessions.items(), key=lambda kv: kv[1].played))
    return Season(year, game, played, totals, seated, person_names, closed.as_json() if closed else None, ambiguous)


def season_standings(store: Store, year: str | None = None, game: str = DEFAULT_GAME) -> JsonObject:
    """Every session of one game in a year (or all of them), from every device whose sessions
    this database holds: per player (names compared case-insensitively), the nights and the
    counts the game declares for a season (``Game.season_tallies``) summed, and the net chips of
    a game played for chips. A game scored in points or letters is ranked as its standings rank."""
    season = season_of(store, year, game)
    g = GAMES.get(game)
    counts = season_tallies_of(game)
    in_chips = g is None or g.in_chips
    players: dict[object, dict[str, Any]] = {}
    for sid, player, stat, total in season.totals:
        key, shown = season.who(sid, player)  # a person of the club, whatever was typed at the seat
        row = players.get(key)
        if row is None:  # a row made once a player, not once a total
            row = players[key] = {"name": shown, **({"net": 0} if in_chips else {}), "nights": set(),
                                  **dict.fromkeys(counts, 0)}
        row["nights"].add(sid)
        if stat == NET:
            if in_chips:
                row["net"] += total
        elif stat in counts:
            row[stat] += total
    rows = [{**r, "nights": len(r["nights"])} for r in players.values()]
    sessions = season.sessions
    data: JsonObject = {"season": year or "all", "game": game, "sessions": len(sessions),
                        "devices": len({s.device for s in sessions.values()} - {None}), **season.notes_json()}
    if g is None or g.in_chips:
        rows.sort(key=lambda r: (-r["net"], r["name"].lower()))
        return {**data, "players": rows}
    return {**data, "columns": list(counts), "players": season_ranked(g, list(sessions.values()), rows)}


# What a season of a game this pancli lacks adds up: what every season of released pancli did.
SEASON_TALLIES = ("hands", "won")


def season_ranked(g: Game[Any, Any], sessions: Sequence[Session], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A season of a game scored in points or letters, ranked as its standings rank (under the
    house rules of its latest session: the way the table plays it now), each row with its place."""
    keep = {"name", "nights", *g.season_tallies}
    rows.sort(key=lambda r: r["name"].lower())
    ranked = g.standings(sessions[-1].rules, rows) if sessions and rows else None
    if ranked is None:  # a game that ranks no standings of its own: by its first count, most first
        first = g.season_tallies[0] if g.season_tallies else "nights"
        ranked = (sorted(rows, key=lambda r: -r[first]), [])
        for r in ranked[0]:
            r["place"] = 1 + sum(1 for o in ranked[0] if o[first] > r[first])
    return [{"place": r["place"], **{k: v for k, v in r.items() if k in keep}} for r in ranked[0]]




def season_tallies_of(game_name: str) -> tuple[str, ...]:
    """The counts a season of this game adds up (``Game.season_tallies``); a game this pancli
    lacks adds up what every season of released pancli did."""
    g = GAMES.get(game_name)
    return g.season_tallies if g is not None else SEASON_TALLIES


def tallies_of(game_name: str) -> tuple[str, ...]:
    """The counts a night of this game shows (``Game.tallies``); a game this pancli lacks shows
    the counts every night of released pancli showed."""
    g = GAMES.get(game_name)
    return g.tallies if g is not None else TALLIES


# -- charts ------------------------------------------------------------------------------

def sample(values: list[int], width: int) -> list[int]:
    """At most ``width`` values: the last value of each of ``width`` equal runs."""
    n = len(values)
    if n <= width:
        return list(values)
    return [values[min(n - 1, (i + 1) * n // width - 1)] for i in range(width)]


def sparkline(values: list[int], lo: int | None = None, hi: int | None = None) -> str:
    """One block character per value, scaled between ``lo`` and ``hi`` (default: the values' own)."""
    if not values:
        return ""
    lo = min(values) if lo is None else lo
    hi = max(values) if hi is None else hi
    if hi == lo:
        return SPARKS[len(SPARKS) // 2 - 1] * len(values)
    top = len(SPARKS) - 1
    return "".join(SPARKS[max(0, min(top, round((v - lo) * top / (hi - lo))))] for v in values)


# -- settle-up inputs --------------------------------------------------------------------

class SettleInputs(TypedDict):
    nets: dict[str, int]                  # net chips of the players and the pools
    bank: dict[str, dict[str, int]]       # per player who bought or cashed out: buyin, cashout
    moves: list[tuple[int, int | None, str, int]]  # (seq, hand, player, chips), bank mode only


def settle_inputs(store: Store, session: Session) -> SettleInputs:
    """Nets (players and pools), bank tallies, and every chip movement in order for the stack check."""
    sid = session.id
    with store.snapshot():
        nets = store.log.balances(sid)
        tallies = store.log.tallies(sid)
        bank = {p: {k: t.get(k, 0) for k in BANK_KINDS} for p, t in tallies.items()
                if any(t.get(k) for k in BANK_KINDS)}
        moves = store.queries.stack_moves(sid) if bank else []
    return {"nets": nets, "bank": bank, "moves": moves}
