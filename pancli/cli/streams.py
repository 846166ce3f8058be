"""Standard output and standard error as pancli writes them: what an OS error met on the way out
says, and a quiet end when the reader went away."""

from __future__ import annotations

import sys


def os_error_line(e: OSError) -> str | None:
    """What an OS error that reached the top says, in one line naming the path and the reason;
    None for a closed standard output (`pan history | head -1`), which ends a command quietly."""
    import errno
    import os

    if isinstance(e, BrokenPipeError) or e.errno == errno.EPIPE:
        return None
    why = e.strerror or str(e) or type(e).__name__
    if e.filename is not None:
        names = os.fsdecode(e.filename) + (f" or {os.fsdecode(e.filename2)}" if e.filename2 is not None else "")
        return f"cannot use {names}: {why}: check the path and its permissions; the command stopped there"
    if _from_stdout(e):
        return f"cannot write to standard output{_stdout_name()}: {why}"
    return f"the command stopped: {why}"


def _from_stdout(e: OSError) -> bool:
    """Whether the error came from writing standard output: the innermost frame holds it (click's
    echo, rich's console) or its line names it (``sys.stdout.write``)."""
    import linecache

    tb = e.__traceback__
    if tb is None or sys.stdout is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    for value in frame.f_locals.values():
        try:
            if value is sys.stdout or getattr(value, "file", None) is sys.stdout:
                return True
        except Exception:  # a local whose `file` cannot be read is not a console
            continue
    return "stdout" in linecache.getline(frame.f_code.co_filename, tb.tb_lineno)


def _stdout_name() -> str:
    """" (/dev/full)": the file behind standard output, where the system says (Linux)."""
    import os

    try:
        return f" ({os.readlink(f'/proc/self/fd/{sys.stdout.fileno()}')})"
    except (OSError, ValueError, AttributeError):
        return ""


def quiet_stdout() -> None:
    """Point standard output at the null device, so Python's final flush has nowhere to fail
    (the way the Python docs advise for SIGPIPE)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        sys.stdout = None
