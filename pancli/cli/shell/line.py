"""One line at `pan table`: the words the shell reads otherwise than `pan` (aliases, its own
words, a leading `pan`), how it says a command's hints, and what the line did (``LineResult``)."""

from __future__ import annotations

import re
import shlex
import unicodedata
from dataclasses import dataclass, field

from pancli.core.errors import InputError
from pancli.core.i18n import N_, _

# One-letter aliases for the frequent commands.
ALIASES = {"m": "meld", "a": "add", "d": "drop", "o": "out", "u": "undo", "b": "board", "s": "standings"}
QUIT_WORDS = ("quit", "exit")
NOT_PLAIN = re.compile(r"[\"'\\#]|[^\S \t\r\n]")  # what shlex reads otherwise than str.split
SHELL_WORDS = ("help", "redo", "clear") + QUIT_WORDS

# shlex's reasons for a line it cannot split (lowered), as the shell says them.
_SHLEX = {"no closing quotation": N_("no closing quotation"), "no escaped character": N_("no escaped character")}


def words_of(line: str) -> list[str]:
    """The words of a line as the command sees them: aliases expanded, a leading `pan` dropped."""
    try:
        # A line without quotes, escapes, comments or unusual spaces splits as shlex splits it;
        # an ideographic space (a Japanese keyboard's) splits words as a space does.
        words = _split(line) if NOT_PLAIN.search(line) else line.split()
    except ValueError as e:
        why = str(e).lower()
        raise InputError(_("cannot read the line: {why}").format(why=_(_SHLEX.get(why, why))),
                         _("close the quotes")) from None
    words = [typed_word(w) if i == 0 or w.startswith(("-", "－")) else w for i, w in enumerate(words)]
    if words and words[0] == "pan":
        words = [typed_word(w) if i == 0 else w for i, w in enumerate(words[1:])]
    if words:
        words[0] = ALIASES.get(words[0].lower(), words[0])
    return words


def _split(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split = True
    lexer.whitespace += "\u3000"
    lexer.commenters = "#"
    return list(lexer)


def typed_word(word: str) -> str:
    """A command's or an option's word as pancli knows it: full-width letters and digits (as a
    Japanese keyboard types them, ｄｅａｌ, －－ｈｅｌｐ) read as ASCII (Unicode NFKC). Cards are
    read so by their own reader; names are compared so, and kept as typed."""
    if word.isascii():
        return word
    return unicodedata.normalize("NFKC", word)


def at_the_table(text: str) -> str:
    """A hint as the shell says it: at the prompt a command is typed without `pan`."""
    return re.sub(r"`pan (?=[a-z])", "`", text)


@dataclass
class LineResult:
    """What one line did: its exit status, what it printed, and whether it changed anything."""

    line: str
    status: int = 0
    out: str = ""
    err: str = ""
    changed: bool = False
    quit: bool = False
    skipped: bool = False
    clear: bool = False
    board: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == 0

    def text(self) -> str:
        """Everything the line showed, as plain text (errors last)."""
        return self.out + "".join(f"{line}\n" for line in self.board) + self.err
