"""Who has a database open: a lock file beside it, ``<db>.lock``, that every pancli process
keeps a claim in for as long as it has the database open, and that `pan restore` takes whole
for the moment it replaces the file (otherwise it refuses, naming who holds it).

The file holds one record per claim (a fixed-size slot: the holder's pid and command) and,
far past its end where nothing is ever written, one lock byte per slot and a gate byte. To
claim, a process locks the first free slot's byte, writes its record, then checks that the
gate is free (locks it and lets go). To replace, restore locks the gate, then finds every
slot's byte free. They cannot both go ahead: an opener that saw the gate free had its slot
locked already, so restore finds it held; an opener that found the gate taken waits until
restore lets go, then opens the new file. A slot is held by its lock, never by its text: the
system drops a killed process's locks, so a record left behind is only ever overwritten.

Only exclusive byte-range locks are used, which POSIX (fcntl) and Windows (msvcrt, which has
no shared ones) both have; Windows' locks are mandatory, hence the lock bytes lie apart from
the records. A POSIX record lock belongs to the process, and closing any descriptor of the
file drops all of them: so a process keeps one descriptor and one claim per lock file, shared
by the Stores that use it, and probes of a file it holds are answered without opening it.
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import Any

from pancli.core.errors import StoreError
from pancli.core.i18n import _, ngettext
from pancli.core.words import listed

SUFFIX = ".lock"
SLOTS = 256
RECORD = 96
_GATE = 1 << 30  # the lock bytes, far past the records (SLOTS * RECORD bytes)
WINDOWS = os.name == "nt"  # which locks to use; a test sets it to run Windows' path on Linux
WAIT = 60.0  # how long an opener waits for a restore that is replacing the file

_name: str | None = None  # what this process is, for the records: "pan table", "pan serve"


def name_this_process(name: str) -> None:
    """What other processes are told holds the database ("pan table (pid 1234)")."""
    global _name
    _name = " ".join(name.split())[:RECORD - 16] or "pancli"


def _process_name() -> str:
    """This process's name: as named, else `pan COMMAND` read off the command line that started
    `pan` (its root options are --db PATH and flags), else "pancli" (a program using pancli)."""
    if _name is None:
        argv = sys.argv
        words = argv[1:]
        if os.path.basename(argv[0]).lower() not in ("pan", "pan.exe", "pan-script.py", "__main__.py"):
            words = []
        command = next((w for i, w in enumerate(words)
                        if not w.startswith("-") and (i == 0 or words[i - 1] != "--db")), None)
        name_this_process(f"pan {command}" if command else "pancli")
    assert _name is not None  # named just above
    return _name


def lock_file(path: str | os.PathLike[str]) -> Path:
    """The lock file of a database (or of any file claimed like one), by its real path: every
    name of the file through symbolic links shares it."""
    return Path(os.path.realpath(path) + SUFFIX)


# -- the primitive locks ------------------------------------------------------------------------

def _try_lock(fd: int, offset: int) -> bool:
    if WINDOWS:
        msvcrt: Any = import_module("msvcrt")
        os.lseek(fd, offset, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    fcntl: Any = import_module("fcntl")
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
    except OSError as e:
        if e.errno in (errno.EACCES, errno.EAGAIN):
            return False
        raise
    return True


def _unlock(fd: int, offset: int) -> None:
    if WINDOWS:
        msvcrt: Any = import_module("msvcrt")
        os.lseek(fd, offset, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    fcntl: Any = import_module("fcntl")
    fcntl.lockf(fd, fcntl.LOCK_UN, 1, offset)


def _open(path: Path, create: bool) -> int:
    flags = os.O_RDWR | getattr(os, "O_BINARY", 0) | (os.O_CREAT if create else 0)
    return os.open(path, flags, 0o666)


def _slot_byte(slot: int) -> int:
    return _GATE + 1 + slot


def _gate_free(fd: int) -> bool:
    if not _try_lock(fd, _GATE):
        return False
    _unlock(fd, _GATE)
    return True


def _held_slots(fd: int, skip: int | None = None) -> list[int]:
    held = []
    for slot in range(SLOTS):
        if slot == skip:
            continue
        if _try_lock(fd, _slot_byte(slot)):
            _unlock(fd, _slot_byte(slot))
        else:
            held.append(slot)
    return held


def _write_record(fd: int, slot: int) -> None:
    text = f"{os.getpid()} {_process_name()}".encode()[:RECORD - 1]
    try:
        os.lseek(fd, slot * RECORD, os.SEEK_SET)
        os.write(fd, text.ljust(RECORD - 1) + b"\n")
    except OSError:
        pass  # a full disk: the claim holds by its lock; a refusal just cannot name its holder


def _holders(fd: int, slots: list[int]) -> list[str]:
    """Who holds these slots, as their records say: "pan table (pid 1234)"."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data = os.read(fd, SLOTS * RECORD)
    except OSError:
        data = b""
    out = []
    for slot in slots:
        pid, _sep, name = data[slot * RECORD:(slot + 1) * RECORD].decode("utf-8", "replace").strip().partition(" ")
        out.append(f"{name.strip() or 'pancli'} (pid {pid})" if pid.isdigit() else "another pancli")
    return list(dict.fromkeys(out))


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    own = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (own.st_dev, own.st_ino)


# -- claims ---------------------------------------------------------------------------------------

class _Claim:
    """This process's descriptor and slot in one lock file, and how many Stores use them."""

    __slots__ = ("fd", "slot", "users", "pid", "created")

    def __init__(self, fd: int, slot: int, users: int, pid: int, created: bool):
        self.fd, self.slot, self.users, self.created = fd, slot, users, created
        self.pid = pid  # a forked child inherits this table, not the locks: it claims for itself


_claims: dict[Path, _Claim] = {}
_guard = threading.Lock()


def _mine(key: Path) -> _Claim | None:
    claim = _claims.get(key)
    return claim if claim is not None and claim.pid == os.getpid() else None


class Holding:
    """This process's claim on one database, until ``release``."""

    def __init__(self, key: Path):
        self.key = key
        self.released = False

    def release(self, discard: bool = False) -> None:
        """Give the claim up. With ``discard``, a lock file this claim made is removed when nobody
        else holds it (a file that turned out not to be a database needs no lock file beside it)."""
        if self.released:
            return
        self.released = True
        with _guard:
            claim = _mine(self.key)
            if claim is None:
                return
            claim.users -= 1
            if claim.users:
                return
            del _claims[self.key]
            try:
                if discard and claim.created and _try_lock(claim.fd, _GATE):
                    if not _held_slots(claim.fd, skip=claim.slot):
                        _unlink(self.key)
                    _unlock(claim.fd, _GATE)
            except OSError:
                pass  # the lock file stays: harmless, and the claim ends below all the same
            finally:
                os.close(claim.fd)  # drops this process's locks on the file


def hold(path: str | os.PathLike[str]) -> Holding | None:
    """Claim the database at ``path`` for this process, until the Holding is released. Waits
    while a restore is replacing it. None when no lock file can be made there (a read-only
    folder or disk): a restore cannot replace the database there either."""
    key = lock_file(path)
    with _guard:
        if (claim := _mine(key)) is not None:
            claim.users += 1
            return Holding(key)
        deadline = time.monotonic() + WAIT
        while True:
            try:
                created = not key.exists()
                fd = _open(key, create=True)
            except OSError:
                return None
            claimed = False
            try:
                slot = next((s for s in range(SLOTS) if _try_lock(fd, _slot_byte(s))), None)
                if slot is None:
                    raise StoreError(_("{n} pancli processes have {path} open").format(n=SLOTS, path=path),
                                     _("close some of them"))
                _write_record(fd, slot)
                while not _gate_free(fd):
                    if time.monotonic() > deadline:
                        raise StoreError(_("{path} was being replaced by `pan restore` for too long").format(path=path),
                                         _("try again"))
                    time.sleep(0.005)
                claimed = True
            except OSError:  # a file system without byte-range locks: none to hold, none to refuse with
                return None
            finally:
                if not claimed:
                    os.close(fd)
            if _same_file(fd, key):  # not a lock file removed while this claim was made
                _claims[key] = _Claim(fd, slot, 1, os.getpid(), created)
                return Holding(key)
            os.close(fd)


# -- the whole file: replacing, and clearing what nobody holds -----------------------------------

def _take_gate(fd: int, path: str | os.PathLike[str], wait: float) -> None:
    deadline = time.monotonic() + wait
    while not _try_lock(fd, _GATE):
        if time.monotonic() > deadline:
            raise StoreError(_("another `pan restore` is replacing {path}").format(path=path),
                             _("wait for it to finish, then try again"))
        time.sleep(0.005)


def in_use_error(path: str | os.PathLike[str], holders: list[str]) -> StoreError:
    n = len(holders)
    # Translators: {who} is one process or a list of them, e.g. "pan serve (pid 41)"
    return StoreError(ngettext("{who} has {path} open", "{who} have {path} open", n).format(
        who=listed(holders), path=path),
        ngettext("close it first; nothing was restored", "close them first; nothing was restored", n))


def _this_process() -> str:
    return f"{_process_name()} (pid {os.getpid()})"


@contextmanager
def exclusive(path: str | os.PathLike[str]) -> Iterator[None]:
    """The database at ``path`` for this process alone while inside: no pancli process has it
    open, and none can open it until the block ends (they wait). Otherwise StoreError naming
    who has it open."""
    key = lock_file(path)
    with _guard:
        if _mine(key) is not None:
            raise in_use_error(path, [_this_process()])
        try:
            fd = _open(key, create=True)
        except OSError as e:
            raise StoreError(_("cannot lock {path}: {error}").format(path=path, error=e.strerror or e),
                             _("check the folder's permissions; nothing was restored")) from None
        try:
            try:
                _take_gate(fd, path, wait=10.0)
                held = _held_slots(fd)
            except OSError as e:
                raise StoreError(_("cannot lock {path}: {error}").format(path=path, error=e.strerror or e),
                                 _("its file system has no locks pancli can use; nothing was restored")) from None
            try:
                if held:
                    raise in_use_error(path, _holders(fd, held))
                yield
            finally:
                _unlock(fd, _GATE)
        finally:
            os.close(fd)


def holders(path: str | os.PathLike[str]) -> list[str]:
    """Who has the database at ``path`` open now ("pan table (pid 1234)"), or []."""
    key = lock_file(path)
    with _guard:
        if _mine(key) is not None:
            return [_this_process()]
        try:
            fd = _open(key, create=False)
        except OSError:
            return []  # no lock file: nobody has ever held it
        try:
            _take_gate(fd, path, wait=10.0)
            try:
                return _holders(fd, _held_slots(fd))
            finally:
                _unlock(fd, _GATE)
        except OSError:
            return []  # no locks on this file system: nobody can hold it
        finally:
            os.close(fd)


def remove_unless_held(path: Path, files: list[Path]) -> bool:
    """Remove ``files`` and the lock file of ``path`` when no process holds ``path`` (a temporary
    file whose writer is gone); leave them when one does. Whether they were removed."""
    key = lock_file(path)
    with _guard:
        if _mine(key) is not None:
            return False
        try:
            fd = _open(key, create=False)
        except FileNotFoundError:  # never claimed, or its writer is done
            for f in files:
                _unlink(f)
            return True
        except OSError:
            return False
        try:
            if not _vacant(fd):
                return False
            try:
                for f in files:
                    _unlink(f)
                removed = _unlink(key)
            finally:
                _unlock(fd, _GATE)
        finally:
            os.close(fd)
        if not removed:
            _unlink(key)  # Windows removes no open file: now that it is closed
        return True


def _vacant(fd: int) -> bool:
    """Whether no slot of the file is held; if so, the gate is left held, for the caller to let go."""
    try:
        if not _try_lock(fd, _GATE):
            return False  # being claimed this very moment
    except OSError:
        return False  # no locks on this file system: whether anyone holds it is unknown
    try:
        if not _held_slots(fd):
            return True
    except OSError:
        pass
    _unlock(fd, _GATE)
    return False


def _unlink(p: Path) -> bool:
    try:
        os.unlink(p)
    except OSError:
        return False
    return True
