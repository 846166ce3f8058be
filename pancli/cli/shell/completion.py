"""What Tab offers at `pan table`: commands, subcommands, options, and the values the argument
being typed takes (players, cards, presets), read from the same click commands `pan` runs. Loaded
by the prompt (shell/prompt.py) alone, with prompt_toolkit."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prompt_toolkit.completion import Completer, Completion
from typer.core import TyperGroup

from pancli.cli.shell.bugs import expected_errors, tab_offers
from pancli.cli.shell.line import ALIASES, SHELL_WORDS
from pancli.games import GAMES, default_game

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document
    from typer._click.core import Command, Parameter

    from pancli.cli.shell.protocol import Shell
    from pancli.games.protocol import Game


def candidates(shell: Shell, text: str) -> tuple[str, list[str]]:
    """What Tab offers after `text`: the word being completed and its candidates."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    current = ""
    if text and not text[-1].isspace() and words:
        current = words.pop()
    if words and words[0] == "pan":
        words = words[1:]
    if words:
        words[0] = ALIASES.get(words[0].lower(), words[0])
    if not words:
        names = [n for n, c in shell.command.all_commands().items() if not c.hidden and n != "table"]
        return current, _starting(current, names + list(SHELL_WORDS))
    if words[0] == "help":
        if len(words) == 1:
            return current, _starting(current, shell.command.list_commands(None))
        return current, []
    cmd: Command = shell.command
    rest = list(words)
    path: list[str] = []
    # Below, ctx is None: pan's groups never read it, though click types it as required.
    while isinstance(cmd, TyperGroup) and rest:
        sub = cmd.get_command(None, rest[0])  # type: ignore[arg-type]
        if sub is None:
            return current, []
        cmd, path = sub, path + [rest.pop(0)]
    if isinstance(cmd, TyperGroup):
        subs = [(n, cmd.get_command(None, n)) for n in cmd.list_commands(None)]  # type: ignore[arg-type]
        return current, _starting(current, [n for n, c in subs if c is not None and not c.hidden])
    if current.startswith("-"):
        opts = [o for p in cmd.params if getattr(p, "param_type_name", "") == "option" for o in p.opts]
        return current, _starting(current, opts + ["--help"])
    param = _param_being_typed(cmd, rest)
    if param is not None and "--preset" in getattr(param, "opts", ()):
        return current, _game_of(path, rest).complete("preset", current)
    candidates = getattr(getattr(param, "type", None), "candidates", None)
    if candidates is None:
        return current, []
    try:
        return current, candidates(shell.context, current, rest, path)
    except expected_errors():  # no database or session yet: nothing to offer
        return current, []


def _game_of(path: list[str], typed: list[str]) -> Game[Any, Any]:
    """The game a line is about, for its presets: the `--game` it names, else the game whose
    own command it is (`contract check`), else the default game."""
    for i, w in enumerate(typed[:-1]):
        if w in ("--game", "-g") and typed[i + 1] in GAMES:
            return GAMES[typed[i + 1]]
    for w in typed:
        if w.startswith("--game=") and w.split("=", 1)[1] in GAMES:
            return GAMES[w.split("=", 1)[1]]
    if path and path[0] in GAMES:
        return GAMES[path[0]]
    return default_game()


def completer(shell: Shell) -> Completer:
    """A prompt_toolkit completer over `candidates`."""
    class TableCompleter(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            nothing: tuple[str, list[str]] = ("", [])
            word, found = tab_offers(lambda: shell.db, lambda: candidates(shell, document.text_before_cursor), nothing)
            for c in found:
                yield Completion(c, start_position=-len(word))

    return TableCompleter()


def _param_being_typed(cmd: Command, typed: list[str]) -> Parameter | None:
    """The option value or positional argument that the next word of `typed` fills."""
    params = [p for p in cmd.params if getattr(p, "param_type_name", "") in ("option", "argument")]
    by_opt = {o: p for p in params if p.param_type_name == "option" for o in p.opts}
    multiword = getattr(cmd, "multiword_options", ())
    position, pending = 0, None
    for w in typed:
        if w in by_opt:
            p = by_opt[w]
            pending = p if not getattr(p, "is_flag", False) else None
            continue
        if pending is not None:
            if any(o in multiword for o in pending.opts):
                continue  # a multi-word option takes every word up to the next option
            pending = None
            continue
        position += 1
    if pending is not None:
        return pending
    args = [p for p in params if p.param_type_name == "argument"]
    if not args or (position >= len(args) and args[-1].nargs != -1):
        return None
    return args[min(position, len(args) - 1)]


def _starting(prefix: str, names: Iterable[str]) -> list[str]:
    low = prefix.lower()
    return [n for n in names if n.lower().startswith(low)]
