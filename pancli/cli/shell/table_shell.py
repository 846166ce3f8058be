"""The table shell behind `pan table`: one line at a time through the very same commands as `pan`.

A line is split with shlex and handed to the click command tree that `pan` itself runs
(``typer.main.get_command(app)``), in this process, with ``standalone_mode=False``: the shell
and the command line share one grammar and cannot disagree. The open Store and the session's
Recorder stay open in the shell's ``AppContext`` between lines, so a line costs one parse and one committed
transaction, not a new process.

The shell runs lines and holds what they share (the session, what `undo` took back); its other
jobs live beside it: a line's words and result (pancli.cli.shell.line), where the table stands
(the prompt and the live board, pancli.cli.shell.board), `help` (pancli.cli.shell.help), Tab
(pancli.cli.shell.completion), the interactive prompt and its history (pancli.cli.shell.prompt, where
prompt_toolkit is imported), a script (pancli.cli.shell.script), plain words run without the parse
(pancli.cli.shell.direct), fitting words to the terminal (pancli.cli.fit) and the bug log
(pancli.cli.shell.bugs).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from typing import TYPE_CHECKING, Any, TextIO

import typer
from typer._click.exceptions import ClickException  # the copy of click that typer runs (0.22 on)
from typer.main import get_command

from pancli.cli.context import AppContext
from pancli.cli.registry import RootGroup, app
from pancli.cli.render import show_step
from pancli.cli.shell.board import board_lines, hand_over_lines, table_state
from pancli.cli.shell.bugs import expected_errors, report_bug
from pancli.cli.shell.direct import PARSE, run_direct
from pancli.cli.shell.help import help_text
from pancli.cli.shell.line import ALIASES, QUIT_WORDS, LineResult, at_the_table, words_of
from pancli.core.errors import PanError
from pancli.core.i18n import _
from pancli.core.text import one_line
from pancli.storage.paths import resolve_path

if TYPE_CHECKING:
    from pathlib import Path

    from pancli.app.recorder import Recorder
    from pancli.cli.shell.protocol import DirectSpec, LineGroup


def _error(e: object) -> str:
    """A refused line's "Error: …" line."""
    from pancli.cli.words.framework import error_line  # noqa: PLC0415 click's words: only when a line is refused

    return error_line(str(e)) + "\n"


class _Null(io.StringIO):
    """Where output goes when only errors and the final standings are wanted."""

    def write(self, s: str) -> int:
        return len(s)

    def isatty(self) -> bool:
        return False


_NULL = _Null()


class TableShell:
    """Runs lines of `pan` commands on one database, keeping it open between lines."""

    def __init__(self, db: str | Path | None = None, session: str | None = None, board: bool = True) -> None:
        command = get_command(app)
        assert isinstance(command, RootGroup)  # app is made with cls=RootGroup
        self.command = command
        self.db = resolve_path(db if db is not None else os.environ.get("PANCLI_DB"))
        self.show_board = board
        self.context = AppContext(db=str(self.db), in_shell=True)
        self.terminal = False             # at the prompt: output is caught and fitted to the terminal
        self.group: LineGroup | None = None  # a script's lines not yet committed (shell/script.py CommitGroup)
        self.direct_specs: dict[str, DirectSpec | None] = {}  # see pancli.cli.shell.direct.direct_spec
        self._command_done = False  # the line's command has run (a bug after it left it recorded)
        if session is not None:
            s = self.context.open_store(create=False).session(session)
            self.context.session_name = s.name

    # -- the session it holds -------------------------------------------------------------

    def close(self) -> None:
        self.context.close()

    def recorder(self) -> Recorder | None:
        """The current session's recorder, or None: no session, or a database that cannot say
        (the line's own command then says why, in one line)."""
        try:
            return self.context.open_recorder()
        except expected_errors():
            return None

    # -- one line -------------------------------------------------------------------------

    def execute(self, line: str, capture: bool = True, quiet: bool = False) -> LineResult:
        """Run one line. With capture, what it prints is returned in the result instead of shown.

        Errors are always captured (so they can be shown highlighted); nothing a refused line
        tried is stored, because every recorded event is one transaction (or, in a script's
        group, one savepoint).

        This is the one edge of the shell's lines, at the prompt and in a script: a bug in pancli
        (an exception no command expects) is one line in the result and its traceback in the bug
        log beside the database (pancli.cli.shell.bugs), and the shell goes on. A bug inside the command
        recorded nothing, its transaction rolled back (exit status 70); a bug after it, while the
        board is drawn, leaves the line recorded and says so.
        """
        result = LineResult(line)
        self._command_done = False
        try:
            return self._execute(result, capture, quiet)
        except Exception:
            said = one_line(line.strip())
            said = said if len(said) <= 40 else said[:39] + "…"
            if self._command_done:
                result.err += report_bug(self.db, "board", said) + "\n"
            else:
                result.status, result.out = 70, ""
                result.err = report_bug(self.db, "running", said) + "\n"
            return result

    def _execute(self, result: LineResult, capture: bool, quiet: bool) -> LineResult:
        line = result.line
        try:
            words = words_of(line)
        except PanError as e:
            result.status, result.err = e.exit_code, _error(e)
            return result
        if words and self.group is not None:
            self.group.before(words)
        self.context.new_line()  # what another terminal recorded is seen, once a line
        if not words:
            result.skipped = True
            return result
        head = words[0].lower()
        if head in QUIT_WORDS and len(words) == 1:
            result.quit = True
            return result
        if head == "clear" and len(words) == 1:
            result.clear = True
            return result
        if head == "help" or head == "?":
            if len(words) == 1:
                result.out = help_text(self)
                return result
            words = [ALIASES.get(w, w) for w in words[1:]] + ["--help"]
        elif head == "table":
            result.status, result.err = 2, _error(_("you are at the table already: type the commands without "
                                                     "`table`"))
            return result

        watch = self.show_board and not quiet
        before = self._mark() if watch else None
        before_state = table_state(self) if watch else None
        if head == "redo" and len(words) == 1:
            result.status, out, err = self._redo(capture, quiet)
        else:
            result.status, out, err = self._invoke(words, capture, quiet)
        result.out, result.err = out, err
        self._command_done = result.ok
        if result.ok and words[0] == "session" and len(words) > 1 and words[1] in ("new", "use"):
            # The shell follows the session that was just started or chosen.
            self.context.session_name = None
            self.context.forget_session()
        if watch and result.ok:
            result.changed = self._mark() != before
            if result.changed:
                result.board = hand_over_lines(self, before_state) + board_lines(self)
        return result

    def _redo(self, capture: bool, quiet: bool) -> tuple[int, str, str]:
        """Record again what the last `undo` at this table took back (pancli.app.redo)."""
        from pancli.app.redo import redid, redo  # noqa: PLC0415 only `redo`

        out = _TerminalBuffer() if self.terminal else io.StringIO()
        try:
            rec = self.context.open_recorder()
            done = redo(rec, worded=not quiet)
        except PanError as e:
            return e.exit_code, "", _error(e)
        if done is None:
            return 1, "", _error(_("nothing to redo: `redo` records again what `undo` took back at this table"))
        payload, steps = done
        if quiet:
            return 0, "", ""
        target = out if capture else sys.stdout
        with contextlib.redirect_stdout(target):
            print(redid(rec.game, payload))
            for step in steps:
                show_step(step)
        return 0, out.getvalue(), ""

    def _invoke(self, words: list[str], capture: bool, quiet: bool) -> tuple[int, str, str]:
        out = (_TerminalBuffer() if self.terminal else io.StringIO()) if capture else None
        err = io.StringIO()
        target: TextIO | None = _NULL if quiet else out
        status = 0
        saved = sys.stdout, sys.stderr  # swapped by hand: two redirect contexts cost more than a short line
        if target is not None:
            sys.stdout = target
        sys.stderr = err
        try:
            line_context = self.context.for_line()
            line_context.quiet = quiet
            try:
                rv = run_direct(self, words, line_context)
                if rv is PARSE:
                    rv = self.command.main(args=words, prog_name="pan", standalone_mode=False, obj=line_context)
            finally:
                self.context.adopt(line_context)
            status = rv if isinstance(rv, int) else 0
        except ClickException as e:
            e.show(file=err)
            status = e.exit_code
        except typer.Abort:
            err.write(_("Aborted: nothing was recorded by this line.") + "\n")
            status = 1
        except PanError as e:  # raised outside PanGroup.invoke (e.g. while parsing)
            err.write(_error(e))
            status = e.exit_code
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except KeyboardInterrupt:
            err.write(_("Interrupted: nothing was recorded by the interrupted command.") + "\n")
            status = 130
        finally:
            sys.stdout, sys.stderr = saved
        printed = out.getvalue() if out is not None else ""
        if printed and "--help" not in words and "-h" not in words:  # a command's help describes it as `pan` runs it
            printed = at_the_table(printed)
        said = err.getvalue()
        return status, printed, at_the_table(said) if said else said

    def _mark(self) -> tuple[Any, ...] | None:
        """Something that changes whenever a line records, undoes or switches session."""
        store = self.context.store
        if store is None:
            return None
        try:
            return store.change_mark() + (self.context.session_name,)
        except expected_errors():
            return None


class _TerminalBuffer(io.StringIO):
    """What a line prints at the prompt, caught to be fitted to the terminal: it says it is a
    terminal, so colours and the terminal's width are kept."""

    def isatty(self) -> bool:
        return True
