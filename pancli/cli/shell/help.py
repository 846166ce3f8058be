"""`help` at `pan table`: one screen of the commands by name, in the panels of `pan --help`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.cli.fit import fit_words, terminal_width
from pancli.cli.shell.line import ALIASES
from pancli.core.i18n import _

if TYPE_CHECKING:
    from pancli.cli.shell.protocol import Shell


def help_text(shell: Shell, width: int | None = None) -> str:
    """One screen: the commands by name in the panels of `pan --help`, each with its alias;
    `help COMMAND` says the rest."""
    width = width or terminal_width()
    back = {v: k for k, v in ALIASES.items()}
    commands = shell.command.all_commands()
    lines = [_("Commands (the same as `pan COMMAND`, without `pan`):")]
    for title, names in shell.command.panels():
        words = []
        for name in names:
            cmd = commands.get(name)
            if cmd is None or cmd.hidden or name in ("table", "demo"):
                continue
            words.append(name + (" …" if hasattr(cmd, "commands") else "")
                         + (f" ({back[name]})" if name in back else ""))
        if title == "Recording a hand":
            words.append("redo")
        if words:
            # Translators: {panel} is a panel of `pan --help` ("Recording a hand"), {commands} a list
            lines.append("  " + _("{panel}: {commands}").format(panel=_(title), commands=", ".join(words)))
    lines += [_("`help COMMAND` shows one in full. Tab completes; ↑/↓ recall earlier lines."),
              _("Each line is saved at once: `undo` takes it back, `redo` puts it back."),
              _("Ctrl-C clears the line, `clear` the screen; quit or Ctrl-D leaves.")]
    return "".join(x for t in lines for x in fit_words(t, width))
