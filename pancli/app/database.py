"""What the database holds (`pan db status`) and a consistent copy of it (`pan db backup`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pancli.core.errors import StoreError
from pancli.core.i18n import _

if TYPE_CHECKING:
    from pancli.storage.store import Store


def status(store: Store) -> dict[str, Any]:
    path = Path(store.path)
    size = path.stat().st_size
    wal = Path(str(path) + "-wal")
    wal_size = wal.stat().st_size if wal.exists() else 0
    with store.snapshot():
        counts = store.care.counts()
    return {"file": str(path.resolve()), "size": size, "wal_size": wal_size,
            **{k: counts[k] for k in ("sessions", "events", "payments", "tallies", "undos", "imported_sessions")},
            "schema_version": len(counts["migrations"]), "migrations": counts["migrations"],
            "sqlite": counts["sqlite"], "journal_mode": counts["journal_mode"]}


def backup(store: Store, dest: str | os.PathLike[str], force: bool = False) -> dict[str, Any]:
    """A consistent copy of the whole database, taken in one read transaction (SQLite's backup API),
    so a writer in another process cannot tear it. The target is checked (never the database or its
    -wal/-shm; an existing file only with ``force``) and written by the shared atomic writer."""
    from pancli.app.files import check_target, write_atomic  # noqa: PLC0415 start-up: hashlib, only backup writes a file

    dest = check_target(dest, force, store.path, "backup")
    if not dest.parent.exists():
        raise StoreError(_("the folder {folder} does not exist").format(folder=dest.parent), _("create it first"))
    found: dict[str, Any] = {}

    def copy(tmp: Path) -> None:
        found.update(store.care.copy_to(tmp))
        if found["check"] != "ok":
            raise StoreError(_("the copy failed its check ({check})").format(check=found["check"]),
                             _("try again; the database itself was not changed"))

    write_atomic(dest, copy)
    return {"file": str(dest), "size": dest.stat().st_size, "sessions": found["sessions"], "events": found["events"]}
