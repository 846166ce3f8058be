"""A script at `pan table` (`--script FILE` or piped lines): its lines commit in groups.

One fsync for many lines: what each line prints is held back until its group's commit
returns, so whatever a script reports done survives a crash (see ``CommitGroup``).
"""

from __future__ import annotations

import contextvars
import os
import select
import stat
import sys
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from pancli.cli.registry import shares_a_commit
from pancli.core.errors import StoreError
from pancli.core.i18n import _, ngettext

if TYPE_CHECKING:
    from pancli.cli.shell.protocol import Shell
    from pancli.storage.store import Store

# A script's lines commit in groups: one fsync for many lines. A group ends at GROUP_LINES lines,
# at a refused line (committed before it, so the refusal changes nothing and comes after the
# output of the lines it follows), at the end, and when GROUP_WAIT seconds have passed since its
# first line. Short groups keep the write lock free for another terminal recording at once.
GROUP_LINES = 64
GROUP_WAIT = 0.05

# The lines that may share a group: those of a command that records through Store.lock() or
# reads a little (its module says so: cli/registry.py ``shares_a_commit``; a declared action
# always does), a game's own group and `redo`. Any other line (`db`, `sync`, `export`, `clock`,
# a long read such as `report`, a `--db` of its own…) commits the group first and runs on its
# own, as at the prompt, holding no lock meanwhile.
SHELL_GROUPED = frozenset({"redo"})


def grouped(shell: Shell, words: list[str]) -> bool:
    """Whether a line of these words may join the script's group commit."""
    head = words[0].lower()
    return (head in SHELL_GROUPED or shares_a_commit(head) or head in shell.command.games_commands()
            or words[:2] == ["db", "path"])


def run_script(shell: Shell, lines: Iterable[str], source: str = "stdin", keep_going: bool = False,
               quiet: bool = False, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run lines from a file: stop at the first refused one (or go on), then show the standings.

    The lines commit in groups (see ``CommitGroup``) and what each line prints is shown once
    its group is durable, so whatever a script reports done survives a crash.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    reader = ScriptLines(lines)
    shell.group = group = CommitGroup(shell, out, err)
    shell.terminal = _isatty(out)  # what a line prints is caught until its group is saved: keep its colours
    failed = 0
    try:
        while True:
            if group.lines and not reader.ready(group.wait_left()):
                group.commit()  # no next line yet: what is done is made durable and shown now
            numbered = reader.next()
            if numbered is None:
                break
            number, line = numbered
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            # Each line puts its own language in force: in a copy of this context, so that what the
            # script itself says stays in the language of the command that runs it.
            result = contextvars.copy_context().run(shell.execute, line, capture=True, quiet=quiet)
            if result.quit:
                break
            if result.ok:
                group.add(number, "" if quiet else result.out, result.err)
                if group.due():
                    group.commit()
                continue
            failed += 1
            group.commit()  # the lines before it, and their output, come first
            err.write(f"{source}:{number}: {stripped}\n")
            err.write("".join(f"  {x}\n" for x in result.err.rstrip("\n").splitlines()))
            if not keep_going:
                err.write(_("Stopped at line {number}: the lines before it are recorded.").format(number=number) + "\n")
                break
        group.commit()
    except StoreError as e:
        err.write(_("Error: {error}").format(error=e) + "\n")
        if group.lines:
            err.write(_("Stopped: lines {first} to {last} of {source} were not recorded; "
                        "the lines before them are.").format(first=group.lines[0], last=group.lines[-1],
                                                            source=source) + "\n")
        group.forget()
        return 1
    except KeyboardInterrupt:
        group.commit()  # Ctrl-C while waiting for a line: the lines accepted so far are kept and shown
        raise
    finally:
        group.end()
        shell.group = None
        shell.terminal = False
    if shell.recorder() is not None:
        final = contextvars.copy_context().run(shell.execute, "standings", capture=False)
        if final.err:
            err.write(final.err)
    if failed and keep_going:
        err.write(ngettext("{n} line refused.", "{n} lines refused.", failed).format(n=failed) + "\n")
    return 1 if failed else 0


class CommitGroup:
    """The lines of a script recorded but not yet committed, and what each printed, held back
    until the group's commit returns: nothing is reported done before it is durable."""

    def __init__(self, shell: Shell, out: TextIO, err: TextIO) -> None:
        self.shell, self.out, self.err = shell, out, err
        self.lines: list[int] = []                 # their numbers in the script
        self.shown: list[tuple[str, str]] = []     # what each printed, and its warnings
        self.started = 0.0
        self.store: Store | None = None            # the Store holding the group's transaction

    def before(self, words: list[str]) -> None:
        """Before a line runs: let it join the group, or commit the group and let it run alone."""
        joins = grouped(self.shell, words)
        if not joins:
            self.commit()
        store = self.shell.context.store
        if store is not self.store:
            self.commit()
            self.store = store
        if store is not None:
            store.hold_commits = joins

    def add(self, number: int, out: str, err: str) -> None:
        if not self.lines:
            self.started = time.monotonic()
        self.lines.append(number)
        self.shown.append((out, err))

    def wait_left(self) -> float:
        """How much longer the group may wait for its next line."""
        return max(0.0, self.started + GROUP_WAIT - time.monotonic())

    def due(self) -> bool:
        return len(self.lines) >= GROUP_LINES or self.wait_left() == 0.0

    def commit(self) -> None:
        """Make the group durable, then show what its lines printed (a StoreError if it cannot be)."""
        if self.store is not None:
            self.store.commit_held()
        for out, err in self.shown:
            if out:
                self.out.write(out)
            if err:
                self.err.write(err)
        if self.shown:
            self.out.flush()
        self.lines, self.shown = [], []

    def forget(self) -> None:
        """The group was lost: its lines are not reported, and the session is read afresh."""
        self.lines, self.shown = [], []
        self.shell.context.forget_session()

    def end(self) -> None:
        """Commits are no longer held (an uncommitted group is rolled back when the Store closes)."""
        if self.store is not None:
            self.store.hold_commits = False
            self.store = None


class ScriptLines:
    """The numbered lines of a script, and whether the next one is there within a moment.

    A pipe or terminal is read by its descriptor, so that ``ready`` can wait on it with select;
    a file or an in-memory stream always has its next line ready."""

    def __init__(self, stream: Iterable[str]) -> None:
        self.stream = iter(stream)
        self.number = 0
        self.fd, self.waits = _pollable_fd(stream)
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        self.buffer = bytearray()
        self.eof = False

    def ready(self, timeout: float) -> bool:
        """Whether the next line (or the end of the input) comes within ``timeout`` seconds."""
        if self.fd is None:
            return not self.waits
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer and not self.eof:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return False
            self._fill()
        return True

    def next(self) -> tuple[int, str] | None:
        """The next line and its number, waiting for it; None at the end."""
        if self.fd is None:
            line = next(self.stream, None)
            if line is None:
                return None
        else:
            while b"\n" not in self.buffer and not self.eof:
                self._fill()
            if not self.buffer:
                return None
            end = self.buffer.find(b"\n")
            end = len(self.buffer) if end < 0 else end + 1
            line = self.buffer[:end].decode(self.encoding, "replace")
            del self.buffer[:end]
        self.number += 1
        return self.number, line.rstrip("\r\n")

    def _fill(self) -> None:
        assert self.fd is not None
        chunk = os.read(self.fd, 65536)
        if chunk:
            self.buffer += chunk
        else:
            self.eof = True


def _isatty(stream: Any) -> bool:  # any object: one without isatty is no terminal
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _pollable_fd(stream: Any) -> tuple[int | None, bool]:  # any object: one without fileno has no descriptor
    """The descriptor of a pipe, terminal or FIFO that select can wait on (None for a regular
    file or a stream without one), and whether reading may wait for the next line. Where select
    works on sockets only (Windows), a pipe is read line by line and each line committed alone."""
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):
        return None, False
    if stat.S_ISREG(mode):
        return None, False
    if os.name == "nt":
        return None, True
    return fd, True
