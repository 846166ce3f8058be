"""`pan club season close`: a registrar closes a season of one game with a signed roster entry
naming the content fingerprints of the sessions it counts (pancli/app/seasons.py: what every host
then counts in it)."""

from __future__ import annotations

from typing import Any

from pancli.app.club import ClubRefusal, write_entry
from pancli.app.club_read import roster_of
from pancli.app.seasons import fingerprints, season_name
from pancli.core.club import Refusal
from pancli.core.errors import InputError
from pancli.core.i18n import _, ngettext
from pancli.storage.store import Store


def close(store: Store, year: str, game: str) -> dict[str, Any]:
    """Close the season ``year`` of ``game`` with every session of it held here, each as its
    archive in the folder stands (a session whose archive is not written, or not up to date, is
    refused before anything is written: sync first)."""
    roster, read = roster_of(store)
    if roster.name is None:
        raise InputError(_("no club in the synced folder yet"), _("start one with `pan club init NAME`"))
    if not (year.isdigit() and len(year) == 4):
        raise InputError(_("'{year}' is not a year").format(year=year), _("give one like 2026"))
    name = season_name(year, game)
    if name in roster.seasons:
        raise ClubRefusal(Refusal("", "club.season_closed", {"name": name}))
    with store.snapshot():  # the sessions `pan standings --season` counts before a close (reports.season_of)
        sessions = {s.id: s for s in store.sessions() if s.game == game and s.created_at[:4] == year}
    if not sessions:
        raise InputError(_("no session of {season} here to close").format(season=name),
                         _("sync first: `pan sync` brings the other hosts' sessions"))
    held = fingerprints(store, sessions)
    unsynced = [s.name for sid, s in sessions.items() if sid not in held]
    if unsynced:
        n = len(unsynced)
        names = ", ".join(unsynced[:5]) + (", …" if n > 5 else "")
        raise InputError(ngettext("{n} session of {season} is not in the folder as it stands here: {names}",
                                  "{n} sessions of {season} are not in the folder as they stand here: {names}",
                                  n).format(n=n, season=name, names=names),
                         _("run `pan sync`, then close the season"))
    named = sorted(set(held.values()))
    entry = write_entry(store, read, roster, "season", name=name, sessions=named)
    with store.lock():  # counted here at once, as on every host that reads the entry (no second reading)
        store.club.project_seasons({**roster.seasons, name: named})
    return {"season": name, "year": year, "game": game, "sessions": len(held), "entry": entry.id}
