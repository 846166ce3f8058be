"""A closed season of the club (`pan club season close`): the sessions it counts on this host.

A registrar closes a season with one signed roster entry naming the content fingerprints of its
sessions' archives (as `pan sync` writes them). Every host that has read the entry counts, in that
season, exactly the sessions whose archive as held here has one of those fingerprints: a session
of that year that came later, or one changed since (re-scored after the close), is left out and
said; a session the entry names that this host does not hold as closed is said too.

The fingerprint of a session held here is the one `pan sync` remembered for its file
(``sync_files``), taken only while the file holds what this database holds (as many events, closed
or not: what the sync itself goes by to write a file again); nothing is exported or hashed again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pancli.core.i18n import ngettext

if TYPE_CHECKING:
    from pancli.core.rows import Session
    from pancli.storage.store import Store

PREFIX = "sha256:"  # a fingerprint as archives write it; a season entry names the digest after it


def season_name(year: str, game: str) -> str:
    """The name a season is closed under in the roster: its game and its year (seasons are per game)."""
    return f"{game} {year}"


@dataclass(frozen=True)
class Closed:
    """What a closed season counts here."""

    name: str
    named: int                # sessions the season's entry names
    left_out: list[str]       # sessions of that year held here that it does not name (later, or changed since)
    missing: int              # sessions it names that this host does not hold as they were closed

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "sessions": self.named, "left_out": self.left_out, "missing": self.missing}


def fingerprints(store: Store, sessions: dict[int, Session]) -> dict[int, str]:
    """Each session's archive fingerprint (the digest), for those whose file in the folder, as
    `pan sync` last wrote or read it, holds what this database holds; a session with none, or
    changed here since, has no entry."""
    with store.snapshot():
        files = store.club.archive_files()
        held = store.club.held_events(sessions)
    by_id = {(s.device, s.uid): sid for sid, s in sessions.items() if s.device and s.uid}
    found: dict[int, set[str]] = {}
    for device, uid, path, fp, events, closed in files:
        sid = by_id.get((device, uid))
        # the session's own file: in its device's subfolder, holding what is held here
        if sid is not None and Path(path).parent.name == device and events == held.get(sid) \
                and bool(closed) == bool(sessions[sid].closed_at) and fp.startswith(PREFIX):
            found.setdefault(sid, set()).add(fp[len(PREFIX):])
    return {sid: fps.pop() for sid, fps in found.items() if len(fps) == 1}


def counted(store: Store, year: str | None, game: str,
            sessions: dict[int, Session]) -> tuple[dict[int, Session], Closed | None]:
    """The sessions a season counts: all of them, unless the club has closed it; then only those
    its entry names, and what was left out."""
    if year is None:
        return sessions, None
    name = season_name(year, game)
    with store.snapshot():
        named = store.club.closed_season(name)
    if named is None:
        return sessions, None
    held = fingerprints(store, sessions)
    kept = {sid: s for sid, s in sessions.items() if held.get(sid) in named}
    left_out = [s.name for sid, s in sessions.items() if sid not in kept]
    return kept, Closed(name, len(named), left_out, len(named) - len(kept))


def season_lines(data: dict[str, Any]) -> list[str]:
    """What a season's standings or ratings (``data``) say besides their rows, a line each, with
    what to do: what a closed season left out, and the seats that may be more than one person."""
    lines = closed_lines(data.get("closed"))
    if data.get("ambiguous"):
        n = data["ambiguous"]
        lines.append(ngettext(
            "{n} seat may be more than one person of the club: it counts under the name typed there until a "
            "registrar attributes it (`pan club show` lists it).",
            "{n} seats may be more than one person of the club: each counts under the name typed there until a "
            "registrar attributes it (`pan club show` lists them).", n).format(n=n))
    return lines


def closed_lines(closed: dict[str, Any] | None) -> list[str]:
    """What a closed season left out, a line each, with what to do (none when it counts everything)."""
    if not closed:
        return []
    lines = []
    if closed["left_out"]:
        n = len(closed["left_out"])
        names = ", ".join(closed["left_out"][:5]) + (", …" if n > 5 else "")
        lines.append(ngettext(
            "Not counted: {n} session played or changed after the season {season} was closed: {names} "
            "(`--season all` counts it).",
            "Not counted: {n} sessions played or changed after the season {season} was closed: {names} "
            "(`--season all` counts them).", n).format(n=n, season=closed["name"], names=names))
    if closed["missing"]:
        n = closed["missing"]
        lines.append(ngettext(
            "{n} session of the closed season {season} is not here as it was closed: `pan sync` brings it.",
            "{n} sessions of the closed season {season} are not here as they were closed: `pan sync` brings them.",
            n).format(n=n, season=closed["name"]))
    return lines


def closed_season_text(name: str, sessions: int) -> str:
    return ngettext("Closed season: {season} ({n} session)", "Closed season: {season} ({n} sessions)",
                    sessions).format(season=name, n=sessions)
