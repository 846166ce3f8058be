"""The prompt at `pan table`: the banner, the line typed with completion, history and highlighting,
what each line showed (errors highlighted, the live board), and the standings on leaving.

prompt_toolkit is imported at the top: only `pan table` at a terminal loads this module (a script
and `pan check` never do).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.lexers import Lexer
from prompt_toolkit.shortcuts import clear
from prompt_toolkit.styles import Style

from pancli.cli.fit import fit_words, terminal_width
from pancli.cli.shell.board import board_lines, prompt_text
from pancli.cli.shell.bugs import BUG_LINES, report_bug
from pancli.cli.shell.completion import completer
from pancli.cli.shell.line import ALIASES, SHELL_WORDS, LineResult
from pancli.cli.words.framework import error_line
from pancli.core.i18n import ENGLISH, _, language
from pancli.core.names import inert

if TYPE_CHECKING:
    from prompt_toolkit.document import Document
    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from prompt_toolkit.history import History

    from pancli.cli.shell.protocol import Shell

T = TypeVar("T")


def interactive(shell: Shell) -> int:
    """The prompt at the table: completion, history, highlighted errors, the live board."""
    session: PromptSession[str] = PromptSession(history=history(shell), completer=completer(shell),
                                                complete_while_typing=False, auto_suggest=AutoSuggestFromHistory(),
                                                lexer=make_lexer(shell), style=_style())
    shell.terminal = True
    _at_edge(shell, lambda: show_banner(shell), "showing the session")
    while True:
        shell.context.new_line()  # the prompt says where the table stands now
        prompt = _at_edge(shell, lambda: prompt_text(shell), "showing the prompt") or "pan> "
        try:
            line = session.prompt(prompt)
        except KeyboardInterrupt:
            continue  # Ctrl-C: the line being typed is dropped, nothing else
        except EOFError:
            break
        result = shell.execute(line)
        if result.quit:
            break
        if result.clear:
            clear()
            continue
        _at_edge(shell, partial(show, shell, result), "showing a line's output")
    _at_edge(shell, lambda: show_goodbye(shell), "showing the standings")
    return 0


def _at_edge(shell: Shell, draw: Callable[[], T], doing: str) -> T | None:
    """What the prompt shows around the lines (``execute`` is the edge of the lines
    themselves): a bug is one line in the error style and an entry in the bug log."""
    try:
        return draw()
    except Exception:
        _print([("class:error", x) for x in fit_words(f"✗ {report_bug(shell.db, doing)}.", terminal_width())],
               end="")
        return None


def show_goodbye(shell: Shell) -> None:
    """Leaving the table: the night's standings and what comes next."""
    if shell.recorder() is None:
        return
    show(shell, shell.execute("standings"))
    _print([("class:dim", line) for line in fit_words(
        _("Everything is saved. Next: `pan settle` says who pays whom; `pan report` shows the evening."),
        terminal_width())], end="")


def show_banner(shell: Shell) -> None:
    width = terminal_width()
    rec = shell.recorder()
    if rec is None:
        text = _("No session in {db} yet: start one with `session new NAME --players A,B,C`. `help` lists "
                 "the commands.").format(db=shell.db)
    else:
        text = _("Session {session} at {db}. `help` lists the commands; Tab completes; `undo` takes back; "
                 "Ctrl-D leaves.").format(session=inert(rec.session.name), db=shell.db)
    _print([("class:dim", line) for line in fit_words(text, width)], end="")
    if rec is not None:
        for line in board_lines(shell):
            _print([("class:board", x) for x in fit_words(line, width)], end="")


def show(shell: Shell, result: LineResult) -> None:
    width = terminal_width()
    if result.out:
        sys.stdout.write("".join(fit_words(result.out, width)))
        sys.stdout.flush()
    if result.err:
        if not result.ok:
            fragments = error_fragments(result)
        else:
            fragments = [("class:warning", result.err)]
        _print([(style, x) for style, text in fragments for x in fit_words(text, width)], end="")
    for line in result.board:
        _print([("class:board", x) for x in fit_words(line, width)], end="")


def history_path(db: object) -> Path:
    """Where the lines typed at a database are kept: next to it."""
    return Path(str(db) + ".history")


def history(shell: Shell) -> History:
    """Lines typed at this database, kept between runs in a file next to it."""
    path = history_path(shell.db)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(path))


def _style() -> Style:
    return Style.from_dict({
        "error": "#ff5f5f bold", "warning": "#ffaf00", "dim": "#888888", "board": "#5fafd7",
        "command": "bold", "unknown": "#ff5f5f underline", "card": "#d7d7af", "option": "#87af87",
    })


def _print(fragments: StyleAndTextTuples, end: str = "\n") -> None:
    print_formatted_text(FormattedText(fragments), style=_style(), end=end)


def error_fragments(result: LineResult) -> list[tuple[str, str]]:
    """How a refused line is shown: its error lines, the first marked, in the error style."""
    if result.ok or not result.err:
        return []
    lines = [x for x in result.err.rstrip("\n").splitlines() if x.strip()]
    errors = [x for x in lines if x.startswith(_error_heads())] or lines[:1]
    rest = [x for x in lines if x not in errors]
    out = [("class:error", ("✗ " if i == 0 else "  ") + x + "\n") for i, x in enumerate(errors)]
    out += [("class:dim", "  " + x + "\n") for x in rest]
    out.append(("class:dim", "  " + _("Nothing was recorded by that line.") + "\n"))
    return out


def _error_heads() -> tuple[str, ...]:
    """How the lines of a refused line that are its errors begin (in English, and in the
    language in force: the words before the first colon of each)."""
    heads = ("Error", "Internal error", "Interrupted", "Aborted")
    if language() == ENGLISH:
        return heads
    said = (error_line(""), _(BUG_LINES["running"]), _("Interrupted: nothing was recorded by the interrupted command."),
            _("Aborted: nothing was recorded by this line."))
    return heads + tuple(head for x in said if (head := x.split(":", 1)[0].strip()))


def make_lexer(shell: Shell) -> Lexer:
    """Highlights the line as it is typed: a known command in bold, an unknown one in red."""
    known = set(shell.command.list_commands(None)) | set(ALIASES) | set(SHELL_WORDS) | {"pan", "?"}

    class LineLexer(Lexer):
        def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
            def get_line(lineno: int) -> StyleAndTextTuples:
                text = document.lines[lineno]
                out: StyleAndTextTuples = []
                first = True
                for m in re.finditer(r"\s+|\S+", text):
                    w = m.group()
                    if w.isspace():
                        out.append(("", w))
                    elif first:
                        first = w == "pan"
                        out.append(("class:command" if w.lower() in known else "class:unknown", w))
                    elif w.startswith("-"):
                        out.append(("class:option", w))
                    else:
                        out.append(("", w))
                return out

            return get_line

    return LineLexer()
