"""Every file pancli writes goes through here: the target checked, then written whole or not at all.

``check_target`` refuses the open database and its ``-wal``, ``-shm`` and ``-journal`` files
however they are named (a relative path, ``..``, a symbolic or a hard link), refuses a folder, and
refuses any existing file unless ``force``. ``write_atomic`` writes a temporary file beside the
target, flushes it to disk, renames it over the target and flushes the folder, so a crash leaves
the old file or the new one, never half of one; the temporary files of a run that was killed
are removed by the next write to the same folder.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path

from pancli.core.errors import InputError

DB_COMPANIONS = ("", "-wal", "-shm", "-journal")
_PARTIAL = ".partial-"


def _same(a: Path, b: Path) -> bool:
    try:
        if os.path.samefile(a, b):  # hard links and symbolic links to one file
            return True
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)  # a name the database's files will take


def check_target(path: str | os.PathLike, force: bool = False, db_path: str | os.PathLike | None = None,
                 what: str = "file") -> Path:
    """The path to write to, or InputError (exit 2) in one line saying why not."""
    if str(path) == "":
        raise InputError(f"no {what} name given", "give a file name")
    p = Path(path).expanduser()
    if db_path is not None:
        db = Path(db_path).expanduser()
        guarded = [Path(str(base) + suffix) for base in {db, Path(os.path.realpath(db))} for suffix in DB_COMPANIONS]
        for g in guarded:
            if _same(p, g):
                kind = "the database" if str(g) in (str(db), os.path.realpath(db)) else f"the database's {g.name} file"
                raise InputError(f"{p} is {kind} ({db})", f"write the {what} to another file; nothing was written")
    try:
        if p.is_dir():
            raise InputError(f"{p} is a folder", f"give a file name for the {what}")
        exists = p.exists() or p.is_symlink()
    except OSError as e:
        raise InputError(f"cannot use {p}: {e.strerror or e}", "check the path") from None
    if exists and not force:
        raise InputError(f"{p} already exists", "choose another name, or pass --force to replace it")
    return p


def _partial_stem(name: str) -> str:
    """The temporary file's name stem: the target's, shortened so the whole name fits in 255 bytes."""
    raw = name.encode("utf-8")
    if len(raw) <= 200:
        return name
    return raw[:120].decode("utf-8", "ignore") + "-" + hashlib.sha256(raw).hexdigest()[:12]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_stale_partials(folder: Path) -> None:
    """Temporary files that a killed pancli left in the folder (their process is gone)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        m = re.fullmatch(r"\..+\.partial-(\d+)(?:-\d+)?", entry.name)
        if not m or not entry.is_file(follow_symlinks=False):
            continue
        pid = int(m.group(1))
        if pid != os.getpid() and _alive(pid):
            continue  # another pancli is writing it now
        try:
            os.unlink(entry.path)
        except OSError:
            pass


def write_atomic(path: Path, data: str | bytes | Callable[[Path], None], mkdir: bool = False) -> Path:
    """Write ``data`` (text, bytes, or a function that writes the file it is given) to ``path``:
    whole or not at all. Returns the path."""
    folder = path.parent if str(path.parent) else Path(".")
    partial = folder / f".{_partial_stem(path.name)}{_PARTIAL}{os.getpid()}"
    try:
        if mkdir:
            folder.mkdir(parents=True, exist_ok=True)
        remove_stale_partials(folder)
        if callable(data):
            data(partial)
            fd = os.open(partial, os.O_RDONLY)
        else:
            raw = data.encode("utf-8") if isinstance(data, str) else data
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                view = memoryview(raw)
                while view:
                    view = view[os.write(fd, view):]
            except BaseException:
                os.close(fd)
                raise
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(partial, path)
        _sync_folder(folder)
    except OSError as e:
        _unlink(partial)
        why = "the name is too long for the file system" if e.errno == errno.ENAMETOOLONG else (e.strerror or str(e))
        raise InputError(f"cannot write {path}: {why}", "nothing was written; check the folder and the name") from None
    except BaseException:
        _unlink(partial)
        raise
    return path


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not every system opens folders (Windows)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink(p: Path) -> None:
    try:
        p.unlink()
    except OSError:
        pass


def session_file_name(name: str, suffix: str) -> str:
    """A file name for a session's archive: the name itself when it is a plain, safe file name
    (letters of any script, digits, `-`, `_`, `.` inside), else a readable version of it with a
    short fingerprint of the exact name, so distinct names never share a file (`a/b`, `a b`,
    `a:b`, `..`)."""
    plain = re.fullmatch(r"[^\W][\w.-]*", name) is not None and not name.endswith(".") and len(name) <= 80
    if plain:
        return name + suffix
    readable = re.sub(r"[^\w.-]+", "-", name).strip("-.")[:60] or "session"
    return f"{readable}~{hashlib.sha256(name.encode('utf-8')).hexdigest()[:10]}{suffix}"
