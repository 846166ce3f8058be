"""Every file pancli writes goes through here: the target checked, then written whole or not at all.

``check_target`` refuses the open database and its ``-wal``, ``-shm`` and ``-journal`` files
however they are named (a relative path, ``..``, a symbolic or a hard link), refuses a folder and
anything else that is not a regular file (a device, a named pipe, a socket: even with ``force``,
for renaming a file over one would replace it, as root even ``/dev/null``), and refuses any
existing file unless ``force``. ``write_atomic`` writes a temporary file beside the
target, flushes it to disk, renames it over the target and flushes the folder, so a crash leaves
the old file or the new one, never half of one; the temporary files of a run that was killed
are removed by the next write to the same folder. A writer keeps a claim on its temporary file
while it writes (``storage/dblock.py``, the lock a database's users hold): the clean-up leaves
alone what a live writer claims, and needs no guess from its process id (which can be reused,
and on Windows cannot be asked about without ending the process).
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pancli.core.errors import InputError
from pancli.core.i18n import N_, _, ngettext
from pancli.storage import dblock

DB_COMPANIONS = ("", "-wal", "-shm", "-journal", dblock.SUFFIX)
_PARTIAL = ".partial-"
# A temporary file, and what SQLite (a check of a restored copy) or Litestream (its own
# temporary copy) made beside it.
_STALE = re.compile(r"(\..+\.partial-\d+(?:-\d+)?)(-wal|-shm|-journal|\.tmp|" + re.escape(dblock.SUFFIX) + ")?")
_SQLITE_HEADER = b"SQLite format 3\0"


def _same(a: Path, b: Path) -> bool:
    try:
        if os.path.samefile(a, b):  # hard links and symbolic links to one file
            return True
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)  # a name the database's files will take


# What a file to write is called in the messages of check_target, by the English its callers name it
# with (a noun the translator can put where the sentence needs it).
_WHATS = {"file": N_("file"), "backup": N_("backup"), "database": N_("database"), "rules file": N_("rules file"),
          "archive": N_("archive"), "svg report": N_("svg report"), "html report": N_("html report"),
          "csv report": N_("csv report"), "xlsx report": N_("xlsx report")}


def check_target(path: str | os.PathLike[str], force: bool = False, db_path: str | os.PathLike[str] | None = None,
                 what: str = "file") -> Path:
    """The path to write to, or InputError (exit 2) in one line saying why not."""
    what = _(_WHATS[what]) if what in _WHATS else what
    if str(path) == "":
        # Translators: {what} is the kind of file: file, backup, database, rules file, archive, html report
        raise InputError(_("no {what} name given").format(what=what), _("give a file name"))
    p = Path(path).expanduser()
    if db_path is not None:
        db = Path(db_path).expanduser()
        guarded = [Path(str(base) + suffix) for base in {db, Path(os.path.realpath(db))} for suffix in DB_COMPANIONS]
        for g in guarded:
            if _same(p, g):
                said = _("{path} is the database ({db})") if str(g) in (str(db), os.path.realpath(db)) \
                    else _("{path} is the database's {name} file ({db})")
                raise InputError(said.format(path=p, name=g.name, db=db),
                                 _("write the {what} to another file; nothing was written").format(what=what))
    try:
        if p.is_dir():
            raise InputError(_("{path} is a folder").format(path=p), _("give a file name for the {what}").format(what=what))
        exists = p.exists() or p.is_symlink()
        mode = p.stat().st_mode if p.exists() else None  # a link is judged by what it names
    except OSError as e:
        raise InputError(_("cannot use {path}: {why}").format(path=p, why=e.strerror or e), _("check the path")) from None
    if mode is not None and not stat.S_ISREG(mode):
        raise InputError(_special_kind(mode).format(path=p),
                         _("give a file name for the {what}; nothing was written").format(what=what))
    companion = _companion_of_a_database(p)
    if companion is not None:
        database, suffix = companion
        raise InputError(_("{path} is the {suffix} file of the database {database}").format(
                             path=p, suffix=suffix, database=database),
                         _("write the {what} to another file; nothing was written").format(what=what))
    if exists and not force:
        raise InputError(_("{path} already exists").format(path=p), _("choose another name, or pass --force to replace it"))
    if exists and (held := dblock.holders(p)):
        holders = held[0]
        for more in held[1:]:
            holders = _("{holders} and {holder}").format(holders=holders, holder=more)
        # Translators: {holders} are processes, such as "litestream (pid 123)"
        raise InputError(ngettext("{holders} has {path} open", "{holders} have {path} open", len(held)).format(
                             holders=holders, path=p),
                         _("write the {what} to another file; nothing was written").format(what=what))
    return p


def _special_kind(mode: int) -> str:
    """What a path that is not a regular file is, in a sentence to format with its ``path``."""
    if stat.S_ISFIFO(mode):
        return _("{path} is a named pipe, not a file")
    if stat.S_ISSOCK(mode):
        return _("{path} is a socket, not a file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("{path} is a device, not a file")
    return _("{path} is not a regular file, not a file")


def _companion_of_a_database(p: Path) -> tuple[Path, str] | None:
    """The SQLite database whose -wal, -shm, -journal or lock file ``p`` names, if any: writing
    there would damage it, whichever database the command itself uses."""
    real = os.path.realpath(p)
    for suffix in DB_COMPANIONS[1:]:
        if real.endswith(suffix):
            base = Path(real[:-len(suffix)])
            if not base.is_file():  # never opened: a FIFO there would block
                continue
            try:
                fd = os.open(base, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
            except OSError:
                continue
            try:
                if os.read(fd, len(_SQLITE_HEADER)) == _SQLITE_HEADER:
                    return base, suffix
            except OSError:
                pass
            finally:
                os.close(fd)
    return None


def _partial_stem(name: str) -> str:
    """The temporary file's name stem: the target's, shortened so the whole name fits in 255 bytes."""
    raw = name.encode("utf-8")
    if len(raw) <= 200:
        return name
    return raw[:120].decode("utf-8", "ignore") + "-" + hashlib.sha256(raw).hexdigest()[:12]


def remove_stale_partials(folder: Path) -> None:
    """Temporary files that a killed pancli left in the folder (no live writer claims them),
    with what SQLite or Litestream made beside them."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    groups: dict[str, list[Path]] = {}
    for entry in entries:
        m = _STALE.fullmatch(entry.name)
        if m and entry.is_file(follow_symlinks=False):
            groups.setdefault(m.group(1), []).append(Path(entry.path))
    for base, files in groups.items():
        dblock.remove_unless_held(Path(folder) / base, files)


@contextmanager
def partial_file(path: Path, mkdir: bool = False) -> Iterator[Path]:
    """A temporary file beside ``path`` to write, claimed by this process while inside (so no
    other run's clean-up takes it), and removed on the way out with whatever was made beside it
    unless ``put_in_place`` moved it. An OS error is one line naming ``path``."""
    folder = path.parent if str(path.parent) else Path(".")
    partial = folder / f".{_partial_stem(path.name)}{_PARTIAL}{os.getpid()}"
    holding = None
    try:
        if mkdir:
            folder.mkdir(parents=True, exist_ok=True)
        remove_stale_partials(folder)
        holding = dblock.hold(partial)
        yield partial
    except OSError as e:
        why = _("the name is too long for the file system") if e.errno == errno.ENAMETOOLONG else (e.strerror or str(e))
        raise InputError(_("cannot write {path}: {why}").format(path=path, why=why),
                         _("nothing was written; check the folder and the name")) from None
    finally:
        for suffix in ("", "-wal", "-shm", "-journal", ".tmp"):
            _unlink(Path(f"{partial}{suffix}"))
        if holding is not None:
            holding.release(discard=True)


def put_in_place(partial: Path, path: Path) -> None:
    """The written temporary file, flushed to disk, renamed over ``path``, and the folder flushed."""
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)
    _sync_folder(partial.parent)


def write_atomic(path: Path, data: str | bytes | Callable[[Path], None], mkdir: bool = False) -> Path:
    """Write ``data`` (text, bytes, or a function that writes the file it is given) to ``path``:
    whole or not at all. Returns the path."""
    with partial_file(path, mkdir) as partial:
        if callable(data):
            data(partial)
        else:
            raw = data.encode("utf-8") if isinstance(data, str) else data
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                view = memoryview(raw)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
        put_in_place(partial, path)
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
