"""What to do next, as a code and its particulars, worded by the face that shows it.

A game says *what* the person at the table should do ("say which meld the cards go on, e.g.
meld 2") as a ``Hint``: a stable code, its parameters and a sentence that names neither a command
nor a button (what the TV says). Each face words the code its own way, as payments' reasons are
worded where they are shown (pancli/core/reasons.py): the command line names its commands and
options (pancli/cli/words/hints.py), the dealer's phone its buttons and fields (pancli/web/taps.py).
No face rewrites another face's sentence.

A face says which it is for the code it runs (``speaking_face``); a hint is worded when it is
raised (``PanError``) or shown, in the language and the face in force then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from pancli.core.i18n import _, sentence

CLI, PHONE, TV = "cli", "phone", "tv"
FACES = (CLI, PHONE, TV)

# A face's wording of a code: a message id (marked N_ where the face declares it) formatted with
# the hint's parameters, or a function of them (a plural, a list).
Wording = str | Callable[[Mapping[str, Any]], str]

_words: dict[str, dict[str, Wording]] = {face: {} for face in FACES}
_face: ContextVar[str] = ContextVar("pancli_face", default=CLI)


class Hint:
    """A code (``"deal.first"``), its parameters, and its words for a face that has none of its
    own: ``plain`` (marked N_ at the raise) names no command, option, button or field."""

    __slots__ = ("code", "plain", "params")

    def __init__(self, code: str, plain: str, **params: Any) -> None:
        self.code, self.plain, self.params = code, plain, params

    def __str__(self) -> str:
        return worded(self)

    def __repr__(self) -> str:
        return f"Hint({self.code!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hint) and (self.code, self.params) == (other.code, other.params)

    def __hash__(self) -> int:
        return hash(self.code)


def add_words(face: str, words: Mapping[str, Wording]) -> None:
    """A face's own wording of codes (added when the face's module loads)."""
    _words[face].update(words)


def face() -> str:
    return _face.get()


@contextmanager
def speaking_face(name: str) -> Iterator[None]:
    """Word hints for this face (``CLI``, ``PHONE`` or ``TV``) inside the block."""
    if name not in FACES:
        raise ValueError(f"unknown face {name!r}")
    token = _face.set(name)
    try:
        yield
    finally:
        _face.reset(token)


def wording(hint: Hint, for_face: str | None = None) -> Wording:
    """The face's wording of the hint's code: its own, or the hint's plain words."""
    return _words[for_face or face()].get(hint.code, hint.plain)


def worded(hint: Hint | str | None, for_face: str | None = None) -> str:
    """The hint in the language in force, as the face says it (a plain string is already words)."""
    if hint is None:
        return ""
    if isinstance(hint, str):
        return hint
    said = wording(hint, for_face)
    if callable(said):
        return said(hint.params)
    return sentence(_(said), **hint.params)


Said = Hint | str
