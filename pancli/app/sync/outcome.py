"""What one sync did and found, and the line a refused file gets in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pancli.app.sync.folder import Copy


@dataclass
class Outcome:
    """What one sync did and found."""

    folder: str                                             # as the host typed it (shown_folder), to show
    device: str
    label: str
    path: str = ""                                          # the folder's whole path
    written: list[dict[str, Any]] = field(default_factory=list)      # this device's sessions written: name, events
    unchanged: int = 0                                      # this device's sessions whose file was up to date
    imported: list[dict[str, Any]] = field(default_factory=list)     # name, device, label, events
    extended: list[dict[str, Any]] = field(default_factory=list)     # name, device, label, events (new ones)
    conflicts: list[dict[str, Any]] = field(default_factory=list)    # session, device, seq, why, sides [{where, events}]
    incomplete: list[dict[str, Any]] = field(default_factory=list)   # file, why: read again next time
    refused: list[dict[str, Any]] = field(default_factory=list)      # file, device it claims, why: links, unsigned, forged
    errors: list[dict[str, Any]] = field(default_factory=list)       # path, why: what the file system refused
    pinned: list[dict[str, Any]] = field(default_factory=list)       # device, label, key: keys seen for the first time
    skipped: int = 0                                        # files unchanged since the last sync, not parsed
    club: dict[str, Any] | None = None                      # the club's roster read again (a club's host)

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.refused and not self.errors \
            and not (self.club is not None and self.club["conflicts"])

    def to_json(self) -> dict[str, Any]:
        return {"folder": self.path, "folder_shown": self.folder, "device": self.device, "label": self.label,
                "ok": self.ok, "written": self.written, "unchanged": self.unchanged, "imported": self.imported,
                "extended": self.extended, "conflicts": self.conflicts, "incomplete": self.incomplete,
                "refused": self.refused, "errors": self.errors, "pinned": self.pinned, "skipped": self.skipped,
                **({"club": self.club} if self.club is not None else {})}


def device_name(device: str, known: dict[str, Any]) -> str:
    return known.get(device) or device[:8]


def refuse(out: Outcome, c: Copy, known: dict[str, Any], why: str) -> None:
    out.refused.append({"file": str(c.path), "device": c.device, "device_label": device_name(c.device, known), "why": why})
