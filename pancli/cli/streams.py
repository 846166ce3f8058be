"""Standard output and standard error as pancli writes them: what an OS error met on the way out
says, and a quiet end when the reader went away."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any, TextIO, cast

from pancli.core.i18n import _


class OutputError(OSError):
    """An OS error met writing a standard stream (a full disk behind standard output), told apart
    from every other OS error by the ``Guarded`` stream that met it."""

    def __init__(self, stream: str, where: str, error: OSError) -> None:
        super().__init__(error.errno, error.strerror or str(error) or type(error).__name__)
        self.stream = stream  # "standard output" or "standard error"
        self.where = where  # " (/dev/full)", or ""


class Guarded:
    """A standard stream whose writes and flushes raise OutputError naming the stream. A reader that
    went away (BrokenPipeError) and a closed stream (ValueError) pass as they are: the first ends a
    command quietly, and rich and ``main`` know both. Everything else is the stream's own."""

    def __init__(self, stream: Any, name: str) -> None:
        self._stream = stream
        self._name = name

    def _failed(self, e: OSError) -> OutputError:
        return OutputError(self._name, _file_name(self._stream), e)

    def write(self, text: Any) -> int:
        try:
            written: int = self._stream.write(text)  # text or bytes: a TextIO or its buffer
            return written
        except BrokenPipeError:
            raise
        except OSError as e:
            raise self._failed(e) from e

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise self._failed(e) from e

    @property
    def buffer(self) -> Guarded:
        """The bytes beneath (click writes bytes there), guarded the same way."""
        return Guarded(self._stream.buffer, self._name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guard_streams() -> None:
    """Standard output and standard error as ``Guarded`` streams, for the rest of the process."""
    for attr, name in (("stdout", "standard output"), ("stderr", "standard error")):
        stream = getattr(sys, attr)
        if stream is not None and not isinstance(stream, Guarded):
            setattr(sys, attr, cast(TextIO, Guarded(stream, name)))


def os_error_line(e: OSError) -> str | None:
    """What an OS error that reached the top says, in one line naming the path and the reason;
    None for a closed standard output (`pan history | head -1`), which ends a command quietly."""
    if isinstance(e, BrokenPipeError) or e.errno == errno.EPIPE:
        return None
    why = e.strerror or str(e) or type(e).__name__
    if isinstance(e, OutputError) and e.stream == "standard output":
        # Translators: {where} is empty or a file in parentheses with a space before it: " (/dev/full)"
        return _("cannot write to standard output{where}: {why}").format(where=e.where, why=why)
    if e.filename is not None and e.filename2 is not None:
        return _("cannot use {path} or {other}: {why}: check the path and its permissions; the command "
                 "stopped there").format(path=os.fsdecode(e.filename), other=os.fsdecode(e.filename2), why=why)
    if e.filename is not None:
        return _("cannot use {path}: {why}: check the path and its permissions; the command stopped "
                 "there").format(path=os.fsdecode(e.filename), why=why)
    return _("the command stopped: {why}").format(why=why)


def _file_name(stream: Any) -> str:
    """" (/dev/full)": the file behind a stream, where the system says (Linux)."""
    try:
        return f" ({os.readlink(f'/proc/self/fd/{stream.fileno()}')})"
    except (OSError, ValueError, AttributeError):
        return ""


def quiet_stdout() -> None:
    """Point standard output at the null device, so Python's final flush has nowhere to fail
    (the way the Python docs advise for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        sys.stdout = None
