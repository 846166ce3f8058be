"""The words of the command-line library itself (typer and the copy of click it runs), in the
language in force.

typer's own module ``typer.core`` translates its words ("Options", "Commands", "required",
"Aborted!") through a module-level ``_`` from gettext: it is pointed at pancli's layer once a
language other than English is chosen. The copy of click that typer runs writes its messages as
f-strings, with no gettext at all; the ones pan's commands meet ("Missing argument 'NAME'.",
"Got unexpected extra argument(s)", "Try 'pan meld -h' for help.") are read back into whole
messages here (``click_message``) when they are shown. Their msgids are listed below so they
are in pancli's catalog; docs/languages.md says what stays English.
"""

from __future__ import annotations

import re
from typing import IO, TYPE_CHECKING, Any

import typer.core
from typer._click import exceptions
from typer._click._compat import get_text_stderr
from typer._click.utils import echo

from pancli.core.i18n import ENGLISH, N_, _, language

if TYPE_CHECKING:
    from typer._click.exceptions import ClickException, UsageError

# typer.core's own messages, as it writes them (it calls gettext's ``_`` on each).
TYPER_WORDS = (
    N_("Options"), N_("Arguments"), N_("Commands"), N_("required"), N_("default: {default}"),
    N_("env var: {var}"), N_("(dynamic)"), N_("Aborted!"), N_("Missing command."),
    N_("No such command {name!r}."),
)
# click's help option, on every command.
HELP_OPTION = N_("Show this message and exit.")

# click's messages as it writes them (f-strings), and the whole message each one is, with the
# parts it names as placeholders.
_CLICK_MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), m) for p, m in (
    (r"Missing argument '(?P<name>[^']*)'\.", N_("Missing argument '{name}'.")),
    (r"Missing option '(?P<name>[^']*)'\.", N_("Missing option '{name}'.")),
    (r"Missing parameter '(?P<name>[^']*)'\.", N_("Missing parameter '{name}'.")),
    (r"Got unexpected extra argument\(s\) \((?P<words>.*)\)", N_("Got unexpected extra argument(s) ({words})")),
    (r"Option '(?P<option>[^']*)' requires an argument\.", N_("Option '{option}' requires an argument.")),
    (r"Option '(?P<option>[^']*)' requires (?P<n>\d+) arguments\.", N_("Option '{option}' requires {n} arguments.")),
    (r"Option '(?P<option>[^']*)' does not take a value\.", N_("Option '{option}' does not take a value.")),
    (r"No such option: (?P<option>\S+)", N_("No such option: {option}")),
    (r"(?P<value>.*) is not a valid integer\.", N_("{value} is not a valid integer.")),
    (r"(?P<value>.*) is not a valid float\.", N_("{value} is not a valid float.")),
    (r"(?P<value>.*) is not a valid boolean\. Recognized values: (?P<values>.*)",
     N_("{value} is not a valid boolean. Recognized values: {values}")),
    (r"(?P<value>.*) is not in the range (?P<range>.*)\.", N_("{value} is not in the range {range}.")),
))
_INVALID = re.compile(r"Invalid value for (?P<hint>.*?): (?P<why>.*)", re.DOTALL)


def click_message(text: str) -> str:
    """One of click's messages in the language in force (unchanged in English, or when it is not
    one pan knows)."""
    if language() == ENGLISH:
        return text
    if m := _INVALID.fullmatch(text):
        return _("Invalid value for {hint}: {why}").format(hint=m["hint"], why=click_message(m["why"]))
    if text.startswith("Invalid value: "):
        return _("Invalid value: {why}").format(why=click_message(text[len("Invalid value: "):]))
    for pattern, message in _CLICK_MESSAGES:
        if m := pattern.fullmatch(text):
            return _(message).format(**m.groupdict())
    return text


def error_line(message: str) -> str:
    """"Error: …", the way every refused command begins."""
    return _("Error: {message}").format(message=message)


def _show_click_exception(self: ClickException, file: IO[Any] | None = None) -> None:
    echo(error_line(click_message(self.format_message())), file=file or get_text_stderr(), color=self.show_color)


def _show_usage_error(self: UsageError, file: IO[Any] | None = None) -> None:
    file = file or get_text_stderr()
    color, hint = None, ""
    if self.ctx is not None and self.ctx.command.get_help_option(self.ctx) is not None:
        hint = _("Try '{command} {option}' for help.").format(
            command=self.ctx.command_path, option=self.ctx.help_option_names[0]) + "\n"
    if self.ctx is not None:
        color = self.ctx.color
        echo(f"{self.ctx.get_usage()}\n{hint}", file=file, color=color)
    echo(error_line(click_message(self.format_message())), file=file, color=color)


_spoken = False


def speak_framework() -> None:
    """typer's and click's words through pancli's layer from now on (called once a language other
    than English is chosen; in English they are never touched)."""
    global _spoken
    if _spoken:
        return
    _spoken = True
    setattr(typer.core, "_", _)  # noqa: B010 typer's private gettext name (no hook for it), looked up at each call
    exceptions.ClickException.show = _show_click_exception  # type: ignore[method-assign]
    exceptions.UsageError.show = _show_usage_error  # type: ignore[method-assign]
