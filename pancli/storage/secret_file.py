"""A file that holds a secret key: made and read as a secret should be.

Made owner-only (0600), whole or not at all (written under a temporary name opened with O_EXCL,
then linked or renamed into place); read without following a link and without blocking (a FIFO
or a device in its place is refused, never waited on), only when it is a regular file of this
user that nobody else may read or write (on POSIX; Windows keeps no such mode), and at most
MAX_BYTES of it. Anything else is refused with one line that names the file and the fix.

The keys kept so: the seal of `pan db check`'s marks (pancli.app.check.marks) and `pan serve`'s
players' and dealer's keys (pancli.web.serve_keys).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from pancli.core.errors import StoreError
from pancli.core.i18n import _

MAX_BYTES = 512   # a key is a few dozen bytes
KEY_BYTES = 32


class SecretFileError(StoreError):
    """A key file that is not a secret of this user's: refused, never used."""


def _posix() -> bool:
    return sys.platform != "win32"


def _remove_hint(path: Path) -> str:
    return _("remove {path} and a new key is made").format(path=path)


def read(path: str | os.PathLike[str], minimum: int = KEY_BYTES) -> bytes | None:
    """The key in ``path``; None when there is none. Raises SecretFileError when the file is not
    one to trust (a link, a FIFO, a folder, another user's, readable or writable by others, too
    long or too short)."""
    path = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) \
        | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if path.is_symlink():  # a link to nothing: still not a key file
            raise SecretFileError(_("{path} is a link, not the key file itself").format(path=path),
                                  _remove_hint(path)) from None
        return None
    except OSError as e:
        if path.is_symlink():
            raise SecretFileError(_("{path} is a link, not the key file itself").format(path=path),
                                  _remove_hint(path)) from None
        if path.is_dir():
            raise SecretFileError(_("{path} is a folder, not a key file").format(path=path),
                                  _remove_hint(path)) from None
        raise SecretFileError(_("cannot read the key file {path}: {why}").format(path=path, why=e.strerror or e),
                              _("check its permissions, or remove it and a new key is made")) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SecretFileError(_("{path} is a folder, not a key file").format(path=path), _remove_hint(path))
        if not stat.S_ISREG(info.st_mode):
            raise SecretFileError(_("{path} is not a regular file (a FIFO, a socket or a device)").format(path=path),
                                  _remove_hint(path))
        if _posix():
            if info.st_uid != os.geteuid():
                raise SecretFileError(_("{path} belongs to another user").format(path=path), _remove_hint(path))
            if info.st_mode & 0o077:
                raise SecretFileError(_("{path} can be read or changed by other users: a key must be yours alone")
                                      .format(path=path), _("chmod 600 {path}").format(path=path))
        if info.st_size > MAX_BYTES:
            raise SecretFileError(_("{path} is too long to be a key ({size} bytes)").format(path=path, size=info.st_size),
                                  _remove_hint(path))
        data = b""
        while len(data) <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise SecretFileError(_("{path} is too long to be a key ({size} bytes)").format(path=path, size=len(data)),
                              _remove_hint(path))
    if len(data) < minimum:
        raise SecretFileError(_("{path} is too short to be a key ({size} bytes)").format(path=path, size=len(data)),
                              _remove_hint(path))
    return data


def _write_new(path: Path, data: bytes) -> Path:
    """``data`` in a new owner-only file beside ``path``, flushed to the disk; its name."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(tmp, flags, 0o600)
    except FileExistsError:  # left by a process of this id that died: never ours to trust
        tmp.unlink()
        fd = os.open(tmp, flags, 0o600)
    written = False
    try:
        os.write(fd, data)
        os.fsync(fd)
        written = True
    finally:
        os.close(fd)
        if not written:
            tmp.unlink(missing_ok=True)
    return tmp


def read_or_make(path: str | os.PathLike[str], size: int = KEY_BYTES) -> bytes:
    """The key in ``path``, made (``size`` random bytes) when there is none: never over a key
    another process made meanwhile. Raises SecretFileError as ``read`` does, and OSError when the
    folder cannot hold a new one."""
    path = Path(path)
    key = read(path, size)
    if key is not None:
        return key
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_new(path, os.urandom(size))
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass  # another made it first: its key is the one
    finally:
        tmp.unlink(missing_ok=True)
    key = read(path, size)
    if key is None:
        raise FileNotFoundError(path)
    return key


def replace(path: str | os.PathLike[str], size: int = KEY_BYTES) -> bytes:
    """A new key in ``path`` in place of whatever was there (a link or a FIFO is replaced, never
    followed or opened); returns it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = os.urandom(size)
    tmp = _write_new(path, key)
    replaced = False
    try:
        os.replace(tmp, path)
        replaced = True
    finally:
        if not replaced:
            tmp.unlink(missing_ok=True)
    return key
