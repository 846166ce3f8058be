"""Where the database lives: the user's data folder, the place pancli 0.1 used, and --db."""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

from pancli.core.i18n import _


def data_dir() -> Path:
    """The user's data folder for pancli: $XDG_DATA_HOME/pancli (~/.local/share/pancli) on Linux
    and other Unixes, ~/Library/Application Support/pancli on macOS, %LOCALAPPDATA%\\pancli on Windows."""
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "pancli"
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or os.environ.get("APPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / "pancli"
    xdg = os.environ.get("XDG_DATA_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share") / "pancli"


def legacy_path() -> Path:
    """Where pancli 0.1 kept the database: the user's config folder (click's app dir)."""
    from typer import get_app_dir  # noqa: PLC0415 typer is the CLI's: storage imports it only for this

    return Path(get_app_dir("pancli")) / "pancli.db"


def default_path() -> Path:
    """pancli.db in the user's data folder; a database still at the old place (the config folder,
    from pancli 0.1) is used where it is while none exists at the new one, with a note on stderr."""
    path = data_dir() / "pancli.db"
    if path.exists():
        return path
    old = legacy_path()
    if old != path and old.is_file():
        _note_legacy(str(old), str(path.parent))
        return old
    return path


@cache
def _note_legacy(old: str, new_folder: str) -> None:
    sys.stderr.write(_("Note: using the database at its old place {old}; move it (with any -wal and -shm "
                       "files next to it) into {folder} and this note goes away.").format(old=old, folder=new_folder)
                     + "\n")


def resolve_path(path: str | os.PathLike[str] | None) -> Path:
    return Path(path).expanduser() if path else default_path()

