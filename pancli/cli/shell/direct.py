"""Lines of plain words at `pan table`, run without click's parse (which costs more than
recording the event): the words bound to the command's arguments as the parse would bind them.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from typer import Exit
from typer._click.core import Context
from typer._click.exceptions import ClickException

from pancli.cli.errors import errors_as_messages
from pancli.cli.shell.bugs import expected_errors
from pancli.games import default_game

if TYPE_CHECKING:
    from typer._click.core import Parameter

    from pancli.cli.context import AppContext
    from pancli.cli.shell.protocol import DirectSpec, Shell

PARSE = object()  # what run_direct answers for a line that needs the whole parse


@functools.cache
def direct_commands() -> frozenset[str]:
    """The commands whose lines of plain words only (no option, no word that looks like one) skip
    click's parser, which costs more than recording the event (see run_direct): the default
    game's declared actions that say so (``Action.direct``: `pan deal`, `pan meld` …), and undo."""
    own = default_game().actions
    return frozenset(a.command[0] for a in own if a.direct and len(a.command) == 1) | {"undo"}


def _bind(arguments: list[Parameter], words: list[str]) -> dict[str, str | tuple[str, ...]] | None:
    """The words given to each argument, as click's parser gives them (one each, the rest to
    the one that takes any number), or None when they do not fit."""
    spans = [p.nargs for p in arguments]
    if any(n not in (1, -1) for n in spans) or spans.count(-1) > 1:
        return None
    fixed = spans.count(1)
    spare = len(words) - fixed
    if spare < 0 or (spare and -1 not in spans):
        return None
    bound: dict[str, str | tuple[str, ...]] = {}
    at = 0
    for p, n in zip(arguments, spans):
        if p.name is None:  # an argument always has its name; click types it optional
            return None
        take = 1 if n == 1 else spare
        bound[p.name] = words[at] if n == 1 else tuple(words[at:at + take])
        at += take
    return bound


def run_direct(shell: Shell, words: list[str], obj: AppContext) -> Any:
    """Run a line of plain words (see direct_commands) as click would after parsing it: its words
    bound to the command's arguments in order, each converted and checked by its own type,
    the options at their defaults. Returns PARSE when the line needs click's whole parse:
    another command, an option, a word count the arguments do not take, or a word they
    refuse (the parse then words the error exactly as on the command line)."""
    if words[0] not in direct_commands() or any(w.startswith("-") for w in words[1:]):
        return PARSE
    spec = direct_spec(shell, words[0])
    if spec is None:
        return PARSE
    cmd, arguments = spec
    bound = _bind(arguments, words[1:])
    if bound is None:
        return PARSE
    refused: tuple[type[BaseException], ...] = (ClickException, *expected_errors())
    root = Context(shell.command, info_name="pan", obj=obj)
    ctx = cmd.context_class(cmd, info_name=words[0], parent=root, **cmd.context_settings)
    try:
        with ctx.scope(cleanup=False):
            # What Parameter.handle_parse_result does with a word on the command line, for
            # arguments without callbacks or environment variables (see direct_spec).
            for param in arguments:
                if param.name in bound:
                    value = param.type_cast_value(ctx, bound[param.name])
                    if param.required and param.value_is_missing(value):
                        return PARSE
                    ctx.params[param.name] = value
    except refused:  # a word refused: the parse words it exactly
        return PARSE
    try:
        with root, ctx, errors_as_messages():
            return cmd.invoke(ctx)
    except Exit as e:
        return e.exit_code

def direct_spec(shell: Shell, name: str) -> DirectSpec | None:
    """The command named and its arguments, if a line of plain words can skip the parse for
    it: a command (not a group) of arguments only that take one word or any number, none with
    a callback, an environment variable or a value hidden from the command."""
    if name not in shell.direct_specs:
        cmd = shell.command.get_command(None, name)  # ctx unused by pan's groups
        spec = None
        if cmd is not None and not hasattr(cmd, "commands") and not hasattr(cmd, "multiword_options"):
            arguments = [p for p in cmd.params if getattr(p, "param_type_name", "") == "argument"]
            if all(p.callback is None and not p.envvar and p.expose_value for p in arguments):
                spec = cmd, arguments
        shell.direct_specs[name] = spec
    return shell.direct_specs[name]
