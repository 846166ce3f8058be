"""`pan ratings`: a season's ratings, from each night's ranking by the chips every seat ended
with (pancli/core/ratings.py), over the persons of the club or the names typed at the tables, as
the season's standings count them."""

from __future__ import annotations

from collections import defaultdict

from pancli.app.reports import season_of
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.core.json_types import JsonObject
from pancli.core.ratings import RATED_FROM, rate_nights
from pancli.games import DEFAULT_GAME, GAMES
from pancli.storage.migrations import NET
from pancli.storage.store import Store


def season_ratings(store: Store, year: str | None = None, game: str = DEFAULT_GAME,
                   rated_from: int = RATED_FROM) -> JsonObject:
    """Each player's rating after the season's nights in the order played, the best first; a
    player with fewer than ``rated_from`` nights is listed without one."""
    g = GAMES.get(game)
    if g is not None and not g.in_chips:
        raise InputError(_("{game} is not played for chips: its nights have no chips to rank").format(
            game=_(g.title)), _("rate a game played for chips, as `pan ratings --game panguingue`"))
    if rated_from < 1:
        raise InputError(_("--rated-from must be 1 or more"), _("give the nights before a rating shows, as 5"))
    season = season_of(store, year, game)
    nights: dict[int, dict[object, int]] = defaultdict(dict)
    names: dict[object, str] = {}
    for sid, seat, stat, total in season.totals:
        if stat != NET:
            continue
        key, name = season.who(sid, seat)
        names.setdefault(key, name)
        nights[sid][key] = nights[sid].get(key, 0) + total
    rated = rate_nights([nights[sid] for sid in season.sessions if sid in nights])
    shown = {k: round(r.ordinal, 1) for k, r in rated.items() if r.nights >= rated_from}
    order = sorted(rated, key=lambda k: (k not in shown, -shown.get(k, 0.0), names[k].lower()))
    rows = [{"name": names[k], "nights": rated[k].nights, "rating": shown.get(k),
             "place": 1 + sum(1 for x in shown.values() if x > shown[k]) if k in shown else None,  # ties share
             "mu": round(rated[k].mu, 3), "sigma": round(rated[k].sigma, 3)} for k in order]
    return {"season": year or "all", "game": game, "sessions": len(nights), "rated_from": rated_from,
            "model": "openskill BradleyTerryFull", "players": rows, **season.notes_json()}
