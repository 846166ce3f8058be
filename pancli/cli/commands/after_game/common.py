"""What the commands after the game share: the session they read, the files they may write, a net in colour."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.cli.context import app_context
from pancli.cli.output import styled
from pancli.core.words import signed

if TYPE_CHECKING:
    from pathlib import Path

    from rich.text import Text

    from pancli.core.rows import Session
    from pancli.storage.store import Store


def write_target(path: str, force: bool, what: str) -> Path:
    """Where a command may write: never the database or its -wal/-shm, an existing file only with --force."""
    from pancli.app.files import check_target  # noqa: PLC0415 start-up: the app layer
    from pancli.storage.paths import resolve_path  # noqa: PLC0415 start-up: storage

    return check_target(path, force, resolve_path(app_context().db), what)


def store_and_session(name: str | None) -> tuple[Store, Session]:
    store = app_context().open_store(create=False)
    return store, store.session(name)


def colored(n: int) -> Text:
    text: Text = styled((signed(n), "green" if n > 0 else ("red" if n < 0 else None)))
    return text
