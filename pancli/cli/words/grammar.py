"""How the words of a command line are read: a negative number is an argument, and some options
take every word up to the next option."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from typer.core import TyperOption

from pancli.cli.words.help_language import PanCommand

if TYPE_CHECKING:
    from typer._click.core import Command, Context

_NEGATIVE = re.compile(r"-(?:\d|\.\d|inf\b|infinity\b|nan\b)", re.IGNORECASE)


def negative_numbers_as_arguments(cmd: Command, ctx: Context, args: list[str]) -> list[str]:
    """`pan buyin ana -50`: click reads -50 as options -5 and -0. A word that looks like a negative
    number and names no option is an argument, so the argument's type can refuse it in one line.
    The words are reordered as click reads them anyway: options with their values, then `--`,
    then the arguments in order."""
    if not any(_NEGATIVE.match(a) for a in args) or "--" in args:
        return args
    takes_value, names = set(), set()
    multiword = set(getattr(cmd, "multiword_options", ()))
    for p in cmd.get_params(ctx):
        if not isinstance(p, TyperOption):
            continue
        for o in list(p.opts) + list(p.secondary_opts):
            names.add(o)
            if not p.is_flag and not p.count:
                takes_value.add(o)
    options, arguments = [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a in names or (a.startswith("--") and a.split("=", 1)[0] in names):
            options.append(a)
            i += 1
            if a in multiword:
                while i < len(args) and not args[i].startswith("-"):
                    options.append(args[i])
                    i += 1
            elif a in takes_value and i < len(args):
                options.append(args[i])
                i += 1
            continue
        if a.startswith("-") and len(a) > 1 and not _NEGATIVE.match(a):
            options.append(a)  # an unknown option: click names it
        else:
            arguments.append(a)
        i += 1
    return options + ["--"] + arguments if arguments else options


def multiword_command(*names: str) -> type[PanCommand]:
    """A command class whose named options take every word up to the next option.

    click gives an option one value; a dealer types `--add 5S 5S` or `--hand 5S 5S 4H`.
    """

    class MultiWordCommand(PanCommand):
        multiword_options = names

        def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
            out: list[str] = []
            i = 0
            while i < len(args):
                if args[i] in names:
                    name, taken = args[i], []
                    i += 1
                    while i < len(args) and not args[i].startswith("-"):
                        taken.append(args[i])
                        i += 1
                    out += [name, " ".join(taken)]
                    continue
                out.append(args[i])
                i += 1
            return super().parse_args(ctx, out)

    return MultiWordCommand
