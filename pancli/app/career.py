"""A player's career across every session and game (`pan player`, the player's page): read from
the running totals and a few grouped queries, never a replay, then shaped by pure code."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from decimal import Decimal
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from pancli.app.recorder import resolve_player
from pancli.app.reports import tallies_of
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.ledger import POOLS
from pancli.core.money import amount, shown_chip_value
from pancli.core.rows import Session
from pancli.games import GAMES

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject
    from pancli.storage.store import Store


def known_players(store: Store) -> list[str]:
    names: list[str] = []
    seen = set()
    for p in store.queries.seat_names():  # every session's players in order, not every session's row
        if p.lower() not in seen:
            seen.add(p.lower())
            names.append(p)
    for p in store.queries.tally_players():
        if p.lower() not in seen and p not in POOLS:
            seen.add(p.lower())
            names.append(p)
    return names


def resolve_known(store: Store, text: str) -> str:
    names = known_players(store)
    if not names:
        raise InputError(_("no players recorded yet"), _("start a session with `pan session new`"))
    return resolve_player(names, text, anywhere=True)


def counted_kinds() -> tuple[list[str], list[str]]:
    """What a career reads of every game: the kinds of event it counts (``Game.career_kinds``) and
    the payment codes that give chips back (``Game.career_takebacks``)."""
    return (sorted({k for g in GAMES.values() for k in g.career_kinds}),
            sorted({c for g in GAMES.values() for c in g.career_takebacks}))


def career_from(name: str, sessions: dict[int, Session], nets: dict[int, int],
                tallies: Sequence[tuple[int, str, int]], laid: list[tuple[int, str]],
                given_back: Sequence[tuple[int, int, str]]) -> JsonObject:
    """A career from what was read of it (a name's seats or a person's): nights with a net or a
    tally, the counts summed, the favourite condition."""
    stats: dict[int, dict[str, int]] = defaultdict(dict)
    for sid, stat, total in tallies:
        stats[sid][stat] = total
    favourites = favourites_laid(sessions, laid, given_back)
    return build_career(name, [sessions[sid] for sid in sorted(set(nets) | set(stats))], nets, stats, favourites)


def favourites_laid(sessions: dict[int, Session], laid: list[tuple[int, str]],
                    given_back: Sequence[tuple[int, int, str]] = ()) -> list[tuple[str, int]]:
    """What the player laid and how often (conditions, in Panguingue), each game counting its own
    events less what was given back (``Game.career_counts``), most often first."""
    by_game: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = defaultdict(list)
    per_event: dict[int, tuple[str, list[dict[str, Any]]]] = {}
    for sid, event_id, text in given_back:
        g = GAMES.get(sessions[sid].game)
        if g is not None:
            per_event.setdefault(event_id, (g.name, []))[1].append(json.loads(text))
    backs: dict[str, list[list[dict[str, Any]]]] = defaultdict(list)
    for game_name, params in per_event.values():
        backs[game_name].append(params)
    for sid, text in laid:
        s = sessions[sid]
        g = GAMES.get(s.game)
        payload = json.loads(text)
        if g is not None and payload.get("kind") in g.career_kinds:
            by_game[g.name].append((s.rules, payload))
    counts: Counter[str] = Counter()
    for name, events in by_game.items():
        for what, times in GAMES[name].career_counts(events, backs.get(name, [])):
            counts[what] += times
    return counts.most_common()


def career_columns(nights: Sequence[JsonObject]) -> tuple[str, ...]:
    """The counts a career's table of nights shows: those of the games the player played, in
    the order the games declare them (a game without drops brings no "dropped")."""
    return tuple(dict.fromkeys(stat for game_name in dict.fromkeys(r["game"] for r in nights)
                               for stat in tallies_of(game_name)))


# The counts a career adds up over its nights, each but "hands" with its share of the hands.
RATES = {"won": "win_rate", "dropped": "drop_rate"}


def build_career(name: str, sessions: list[Session], nets: dict[int, int], stats: dict[int, dict[str, int]],
                 favourites: list[tuple[str, int]]) -> JsonObject:
    rows: list[JsonObject] = []
    running = 0
    for s in sorted(sessions, key=lambda s: s.played):
        net = nets.get(s.id, 0)
        running += net
        t = stats.get(s.id, {})
        cv = shown_chip_value(s.chip_value)
        rows.append({"session": s.name, "game": s.game, "date": s.created_at[:10], "net": net,
                     "money": amount(net, cv, s.currency) if cv else None, "currency": s.currency,
                     **{stat: t.get(stat, 0) for stat in tallies_of(s.game)}, "running": running})
    counted = [stat for stat in ("hands", *RATES) if stat in career_columns(rows) or not rows]
    totals = {stat: sum(r.get(stat, 0) for r in rows) for stat in counted}
    hands = totals.get("hands", 0)
    rates = {rate: round(totals[stat] / hands, 4) if hands else None for stat, rate in RATES.items() if stat in totals and "hands" in totals}
    in_chips = [r for r in rows if r["game"] in GAMES and GAMES[r["game"]].in_chips]  # a contract or Polish night moves no chips
    best = max(in_chips, key=lambda r: (r["net"], r["date"]), default=None)
    worst = min(in_chips, key=lambda r: (r["net"], r["date"]), default=None)
    money, currency = money_total(in_chips)  # a night in points or letters wins none
    return {
        "player": name, "sessions": len(rows), **totals, **rates,
        "net": sum(r["net"] for r in rows), "money": money, "currency": currency,
        "best_night": {"session": best["session"], "date": best["date"], "net": best["net"]} if best else None,
        "worst_night": {"session": worst["session"], "date": worst["date"], "net": worst["net"]} if worst else None,
        "favourite_condition": {"condition": favourites[0][0], "times": favourites[0][1]} if favourites else None,
        "conditions_laid": dict(favourites),
        "nights": rows,
        "games": career_by_game(rows),
    }


def money_total(nights: Sequence[JsonObject]) -> tuple[Decimal | None, str | None]:
    """The money of these nights and its currency: added up only within one currency (nights in
    złoty and in dollars have no total), None without any."""
    moneys = [r["money"] for r in nights if r["money"] is not None]
    currencies = {r["currency"] for r in nights if r["money"] is not None}
    if not moneys or len(currencies) != 1:
        return None, None
    return sum(moneys), next(iter(currencies))


def career_by_game(nights: Sequence[JsonObject]) -> list[JsonObject]:
    """A career game by game (pure), in the order the games are registered: each game's nights
    with the counts it declares (``columns``) and its own running total; a game played for chips
    (``Game.in_chips``) adds its net, money, hands won and dropped and its best night, a game
    scored in points or letters none of them."""
    out: list[JsonObject] = []
    order = {name: i for i, name in enumerate(GAMES)}
    for game_name in sorted(dict.fromkeys(r["game"] for r in nights), key=lambda n: (order.get(n, len(order)), n)):
        g = GAMES.get(game_name)
        rows = [dict(r) for r in nights if r["game"] == game_name]
        entry: JsonObject = {"game": game_name, "in_chips": g is None or g.in_chips, "sessions": len(rows),
                             "columns": list(tallies_of(game_name))}
        if entry["in_chips"]:
            for r, running in zip(rows, accumulate(r["net"] for r in rows)):
                r["running"] = running
            counted = [stat for stat in ("hands", *RATES) if stat in entry["columns"]]
            totals = {stat: sum(r.get(stat, 0) for r in rows) for stat in counted}
            hands = totals.get("hands", 0)
            money, currency = money_total(rows)
            best = max(rows, key=lambda r: (r["net"], r["date"]))
            entry.update(totals, **{rate: round(totals[stat] / hands, 4) if hands else None
                                    for stat, rate in RATES.items() if stat in totals and "hands" in totals},
                         net=sum(r["net"] for r in rows), money=money, currency=currency,
                         best_night={"session": best["session"], "date": best["date"], "net": best["net"]})
        else:
            for r in rows:
                for key in ("net", "money", "currency", "running"):
                    r.pop(key, None)
        entry["nights"] = rows
        out.append(entry)
    return out
