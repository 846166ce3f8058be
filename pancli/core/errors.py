"""One exception hierarchy for everything a user can get wrong.

The CLI turns any PanError into one line on stderr and its exit code; anything
else is a bug and is allowed to show a traceback. What to do about it (the hint, and a message
that tells the person what to do) may be a ``Hint``, a code with parameters: it is worded when
raised, by the face in force (the command line names its commands, the phone its buttons), and
kept as raised in ``said``.
"""

from pancli.core.hints import Hint, worded


class PanError(Exception):
    """Base of every error meant for the person at the table."""

    exit_code = 2

    def __init__(self, message: str | Hint, hint: str | Hint | None = None):
        self.said = (message, hint)
        self.message = worded(message)
        self.hint = None if hint is None else worded(hint)
        super().__init__(self.message)

    def __str__(self) -> str:
        return f"{self.message}: {self.hint}" if self.hint else self.message


class InputError(PanError):
    """Input that cannot be read: bad card notation, unknown player, bad rules file."""

    exit_code = 2


class RuleError(PanError):
    """Input that is well formed but breaks a rule of the game (an illegal meld, a drop after play began)."""

    exit_code = 1


class MovedOn(RuleError):
    """A tap of the dealer's phone made on a session the table is no longer at: another phone or
    the keyboard moved it on to another game meanwhile. Its ``code`` tells the page to offer the
    table's game now."""

    code = "moved_on"


class StoreError(PanError):
    """The database cannot be used as asked: missing, not SQLite, read-only, from a newer pancli."""

    exit_code = 2
