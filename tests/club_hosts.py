"""Three hosts and one folder, for the club's tests: a night recorded on a host, a sync, the
host's device, the hosts synced with one another, a roster entry held back from the others, and
a roster file written and signed as a registrar's host would; and what tells what a host keeps
between syncs (files taken as settled sooner, the files a sync opens, the whole folds it makes)."""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from pancli.app.sync import folder as sync_folder
from pancli.core import club, signing

from helpers import Pan

NIGHT = ["deal", "drop {c}", "meld {a} 5S 5S 5S", "meld {b} 7H 7H 7H", "out {b} KD KD KD"]


def night(pan: Pan, name: str, players: list[str]) -> None:
    pan(f"session new {name} --players " + ",".join(f"'{p}'" if " " in p else p for p in players))
    a, b, c = players[:3]
    for line in NIGHT:
        pan(line.format(a=f"'{a}'" if " " in a else a, b=b, c=c), ok=False)


def sync(pan: Pan, folder: Path | None = None, code: int = 0) -> dict:
    return json.loads(pan(f"sync {folder or ''} --json", code=code).stdout)


def device(pan: Pan) -> str:
    return json.loads(pan("sync --status --json").stdout)["device"]


@pytest.fixture
def three(tmp_path):
    """Kasia (the club's first registrar), Ben and Cruz, each a host of their own, one folder; Ana
    sat at each, typed "Ana", "ana" and "Anna K."."""
    folder = tmp_path / "shared"
    folder.mkdir()
    kasia, ben, cruz = (Pan(tmp_path / f"{n}.db") for n in ("kasia", "ben", "cruz"))
    night(kasia, "k1", ["Ana", "Ben", "Dee"])
    night(ben, "b1", ["ana", "Ben", "Eve"])
    night(cruz, "c1", ["Anna K.", "Ben", "Fay"])
    for pan, label in ((kasia, "kasia"), (ben, "ben"), (cruz, "cruz")):
        pan(f"sync {folder} --device-name {label}")
    kasia("club init 'Friday club'")
    sync(kasia)
    kasia("club grant ben")
    sync(ben)
    return folder, kasia, ben, cruz


@contextmanager
def unseen(folder: Path, pan: Pan):
    """The host's last roster entry not yet delivered to the others (a sync engine's delay)."""
    last = sorted((folder / device(pan) / "club").glob("*.json"))[-1]
    away = last.with_name(".away")
    last.rename(away)
    try:
        yield
    finally:
        away.rename(last)


def everyone_synced(*pans: Pan) -> None:
    for _ in range(2):
        for pan in pans:
            sync(pan)


def write_signed(folder: Path, data: dict, seed: bytes, name: str | None = None) -> Path:
    body = club.canonical(data)
    path = folder / data["by"] / "club" / (name or f"{data['seq']:08d}.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body + b"\n# signature: ed25519 " + signing.sign(seed, signing.CLUB, body).encode() + b"\n")
    return path


# -- what a host keeps between syncs (tests/test_club_held.py, tests/test_club_listing.py) -----

SETTLED_NS = 50_000_000  # 50 ms: files are taken as settled sooner than a host would (2 s)


@pytest.fixture(autouse=True)
def quick_settling(monkeypatch):
    monkeypatch.setattr(sync_folder, "SETTLED_NS", SETTLED_NS)


def settle(folder: Path) -> None:
    """Wait until every file of the folder changed longer ago than a settled file did (the clock
    is what is waited on; nothing else runs)."""
    newest = max(p.stat().st_ctime_ns for p in folder.rglob("*") if p.is_file())
    while time.time_ns() - newest <= 2 * SETTLED_NS:
        time.sleep(0.01)


def settled_sync(pan, folder: Path) -> dict:
    """Two syncs, the folder settled before each: the second remembers every file settled."""
    settle(folder)
    sync(pan, folder)
    settle(folder)
    return sync(pan, folder)


def opened(monkeypatch) -> list[str]:
    """The files `pan sync` opens from now on."""
    seen: list[str] = []
    real = sync_folder.open_regular

    def counting(path):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(sync_folder, "open_regular", counting)
    return seen


def folds(monkeypatch) -> list[int]:
    """How many entries each whole fold of a sync folded from the start."""
    counted: list[int] = []
    real = club.fold

    def counting(entries, pinned=None):
        entries = list(entries)
        counted.append(len(entries))
        return real(entries, pinned)

    monkeypatch.setattr(club, "fold", counting)
    return counted
