"""What the payload of each kind of event holds: its fields and their types.

Each game declares the payloads its engine reads and writes (``Game.payloads``) beside the
engine; the bank's kinds and ``undo`` are declared here, as every game's sessions hold them. The
archive check refuses a field of the wrong type before anything is replayed, the recorder checks
what a game is about to store against its own declaration, and the archive format's reference
is written from the declarations. A field means one type within a game; two games may use the
same name for different things.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The types a payload field may have, as an error names them.
TEXT, WHOLE, YES_NO, TEXTS, LIST, TABLE = "text", "whole number", "true or false", "list of texts", "list", "table"
TYPES = (TEXT, WHOLE, YES_NO, TEXTS, LIST, TABLE)


@dataclass(frozen=True, slots=True)
class Field:
    """One payload field: its type, and whether it may be null (absent and null are the same)."""

    type: str
    nullable: bool = False

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"unknown payload field type {self.type!r}")


def has_type(value: Any, type_: str) -> bool:
    if type_ == TEXT:
        return isinstance(value, str)
    if type_ == WHOLE:
        return isinstance(value, int) and not isinstance(value, bool)
    if type_ == YES_NO:
        return isinstance(value, bool)
    if type_ == TEXTS:
        return isinstance(value, list) and all(isinstance(x, str) for x in value)
    if type_ == LIST:
        return isinstance(value, list)
    if type_ == TABLE:
        return isinstance(value, dict)
    raise AssertionError(type_)


class Payloads:
    """The payload fields of every kind of event one game (or the bank) records.

    ``kinds`` maps an event kind to its fields besides ``kind`` itself; ``common`` are fields any
    kind may carry. ``fields`` is every field by name, over all kinds: a name has one type within
    one declaration (checked here)."""

    __slots__ = ("kinds", "common", "fields")

    def __init__(self, kinds: Mapping[str, Mapping[str, Field]], common: Mapping[str, Field] | None = None):
        self.kinds: dict[str, dict[str, Field]] = {k: dict(v) for k, v in kinds.items()}
        self.common: dict[str, Field] = dict(common or {})
        fields: dict[str, Field] = {"kind": Field(TEXT), **self.common}
        for kind, own in self.kinds.items():
            for name, f in own.items():
                if fields.setdefault(name, f) != f:
                    raise ValueError(f"payload field {name!r} of {kind!r} has two types: {fields[name]} and {f}")
        self.fields = fields

    def __or__(self, other: Payloads) -> Payloads:
        return Payloads({**self.kinds, **other.kinds}, {**self.common, **other.common})

    def problem(self, payload: Mapping[str, Any]) -> tuple[str, Any, Field] | None:
        """The first field of the payload whose value does not have its declared type, as
        (name, value, field), or None. Fields not declared here are not looked at."""
        return first_problem(self.fields, payload)


def first_problem(fields: Mapping[str, Field], payload: Mapping[str, Any]) -> tuple[str, Any, Field] | None:
    """The first field of the payload whose value does not have the type ``fields`` gives it."""
    for key, value in payload.items():
        f = fields.get(key)
        if f is None or (value is None and f.nullable):
            continue
        if not has_type(value, f.type):
            return key, value, f
    return None


NO_PAYLOADS = Payloads({})

# Events of every game: chips from and to the bank, and the undo the recorder writes.
BANK_PAYLOADS = Payloads({
    "buyin": {"player": Field(TEXT), "chips": Field(WHOLE)},
    "cashout": {"player": Field(TEXT), "chips": Field(WHOLE)},
    "undo": {"undid": Field(TEXT), "seq": Field(WHOLE)},
})
