"""What the shell's helpers (the board, `help`, Tab, the prompt, a script, plain words run
directly) use of the TableShell that runs them, said as a Protocol: they are imported by the
shell, so they name it without importing it. Imported for types only, never at run time."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from typer._click.core import Command, Parameter

    from pancli.app.recorder import Recorder
    from pancli.cli.context import AppContext
    from pancli.cli.registry import RootGroup
    from pancli.cli.shell.line import LineResult

# A command whose lines of plain words skip click's parse, and its arguments (shell/direct.py).
DirectSpec = tuple["Command", list["Parameter"]]


class LineGroup(Protocol):
    """A script's lines committed together (shell/script.py ``CommitGroup``), as the shell sees it."""

    def before(self, words: list[str]) -> None: ...


class Shell(Protocol):
    """The TableShell (shell/table_shell.py), as its helpers use it."""

    db: Path                               # the database the shell works on
    command: RootGroup                     # `pan` itself, whose commands the lines run
    context: AppContext                    # what the lines share: the open Store and Recorder
    terminal: bool                         # at the prompt: a line's output is fitted to the terminal
    group: LineGroup | None                # a script's lines not yet committed
    direct_specs: dict[str, DirectSpec | None]

    def recorder(self) -> Recorder | None: ...

    def execute(self, line: str, capture: bool = True, quiet: bool = False) -> LineResult: ...
