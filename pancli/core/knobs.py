"""One schema for the house rules of every game: knobs, presets and the checks on a rules dict.

A game's rules are a frozen dataclass whose fields are declared with :func:`knob` (default, type,
allowed values, a line of help). :class:`Schema` reads those fields and adds the named presets; it
builds rules from a plain dict (a preset name plus overrides, as a rules file or the sessions table
holds them), checking every key and value, and turns rules back into that dict.

Every refusal is one line that names the key, the value and what is allowed, with a did-you-mean
for a misspelt key, preset or value. Nothing here reads or writes files (pancli.app.rulesfile does).
Sequence-valued knobs hold tuples, so rules objects are immutable and hashable: a cache keyed on
rules is a plain ``functools.lru_cache``.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from pancli.core.errors import InputError
from pancli.core.i18n import _, ngettext, pgettext

# Knob types. ENUM values may be words or whole numbers; WORD is free text of letters.
ENUM, INT, BOOL, CARDS, MONEY, WORD = "enum", "int", "bool", "cards", "money", "word"
KINDS = (ENUM, INT, BOOL, CARDS, MONEY, WORD)

_META = "knob"

RulesT = TypeVar("RulesT", bound="KnobRules")  # a game's rules dataclass: Schema[HouseRules]


def knob(default: Any, kind: str, allowed: Any = None, help: str = "", *, recorded_only: bool = False,
         convert: Callable[[str], Any] | None = None) -> Any:
    """A rules field with the metadata the schema needs.

    ``allowed`` is, by kind: ENUM a tuple of values; INT ``(lowest, highest)``; BOOL None or the
    one value allowed, as a tuple; CARDS a word describing the cards ("spades", "any"); MONEY
    ``(lowest, None)``; WORD ``(shortest, longest)``. ``convert`` reads one element of a CARDS list
    (raising InputError for a bad one). ``recorded_only`` marks a knob kept and shown but changing
    no score.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown knob kind {kind!r}")
    if isinstance(default, list):
        default = tuple(default)
    meta = {_META: {"kind": kind, "default": default, "allowed": allowed, "help": help,
                    "recorded_only": recorded_only, "convert": convert}}
    return dataclasses.field(default=default, metadata=meta)


def did_you_mean(word: Any, choices: Iterable[Any]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or nothing."""
    by_text = {str(c): c for c in choices}
    close = difflib.get_close_matches(str(word), list(by_text), n=1)
    # Translators: the end of a refusal: "unknown rule 'antee' (did you mean 'ante'?)"
    return _(" (did you mean {choice}?)").format(choice=repr(by_text[close[0]])) if close else ""


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to a mistyped word (any case), or None when none is close."""
    by_lower = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1)
    return by_lower[close[0]] if close else None


def format_value(value: Any) -> str:
    """A value as a rules file writes it, without the quotes around words."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True)
class Knob:
    """One rule that varies from table to table: its type, allowed values, default and help."""

    name: str
    kind: str
    default: Any
    allowed: Any
    help: str  # in English, marked N_ where the game declares it: description_text() translates it
    recorded_only: bool = False
    convert: Callable[[str], Any] | None = dataclasses.field(default=None, compare=False, repr=False)

    def description_text(self) -> str:
        """What the knob does, in the language in force (``help`` is the English)."""
        return _(self.help) if self.help else ""

    def kind_text(self) -> str:
        """The knob's type in a reference table, in the language in force (``kind`` stays the code
        for rules files and --json)."""
        # Translators: a rules knob's type, a column of `pan rules show --markdown`'s table
        words = {ENUM: pgettext("knob type", "enum"), INT: pgettext("knob type", "int"),
                 BOOL: pgettext("knob type", "bool"), CARDS: pgettext("knob type", "cards"),
                 MONEY: pgettext("knob type", "money"), WORD: pgettext("knob type", "word")}
        return words[self.kind]

    def allowed_words(self) -> str:
        """``allowed_text`` for people, in the language in force: the same values, its few words
        translated (``allowed_text`` stays English: JSON and rules files write it)."""
        kind, allowed = self.kind, self.allowed
        if kind == CARDS:
            if allowed in (None, "any"):
                return _("list of cards")
            if allowed == "spades":
                return _("list of spades")
            return _("list of {what}").format(what=allowed)
        if kind == MONEY:
            return _("amount >= {lowest}").format(lowest=allowed[0])
        if kind == WORD:
            return ngettext("{lowest}-{highest} letter", "{lowest}-{highest} letters", allowed[1]).format(
                lowest=allowed[0], highest=allowed[1])
        return self.allowed_text()

    def allowed_text(self) -> str:
        """The allowed values in a few words: ``a | b``, ``3-13``, ``true | false``."""
        kind, allowed = self.kind, self.allowed
        if kind == ENUM:
            return " | ".join(str(a) for a in allowed)
        if kind == INT:
            return str(allowed[0]) if allowed[0] == allowed[1] else f"{allowed[0]}-{allowed[1]}"
        if kind == BOOL:
            return " | ".join(format_value(v) for v in allowed) if allowed else "true | false"
        if kind == CARDS:
            return "list of cards" if allowed in (None, "any") else f"list of {allowed}"
        if kind == MONEY:
            return f"amount >= {allowed[0]}"
        if kind == WORD:
            return f"{allowed[0]}-{allowed[1]} letters"
        raise AssertionError(kind)

    def choices_text(self) -> str:
        """What a rules file comment says may be written, e.g. ``(a | b)`` or ``(3-13)``; may be empty."""
        if self.kind in (ENUM, INT, WORD):
            return f" ({self.allowed_text()})"
        return ""

    def check(self, value: Any, where: str = "") -> Any:
        """The value checked and normalised (tuples for lists, floats for money, capitals for words)."""
        name, kind, allowed = self.name, self.kind, self.allowed
        prefix = f"{where}{name} = {value!r}"
        if kind == BOOL:
            if not isinstance(value, bool):
                raise InputError(_("{setting} is not true or false").format(setting=prefix),
                                 _("write {name} = true or {name} = false").format(name=name))
            if allowed and value not in allowed:
                raise InputError(_("{setting} is not allowed").format(setting=prefix),
                                 _("{name} must be {value}").format(name=name, value=format_value(allowed[0])))
            return value
        if kind == INT:
            takes = _("{name} takes {lowest} to {highest}").format(name=name, lowest=allowed[0], highest=allowed[1])
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(_("{setting} is not a whole number").format(setting=prefix), takes)
            if not allowed[0] <= value <= allowed[1]:
                raise InputError(_("{setting} is out of range").format(setting=prefix), takes)
            return value
        if kind == ENUM:
            same_type = not isinstance(value, bool) and any(type(value) is type(a) for a in allowed)
            if not same_type or value not in allowed:
                close = did_you_mean(value, allowed) if isinstance(value, str) else ""
                raise InputError(_("{setting} is not allowed{did_you_mean}").format(setting=prefix, did_you_mean=close),
                                 _("{name} takes one of {choices}").format(
                                     name=name, choices=", ".join(str(a) for a in allowed)))
            return value
        if kind == MONEY:
            if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
                    or value < allowed[0]):
                raise InputError(_("{setting} is not an amount of money").format(setting=prefix),
                                 _("{name} takes a number such as 0.25").format(name=name))
            if value and value != self.default:  # bounded and exact to CHIP_VALUE_PLACES decimals
                from pancli.core.money import chip_value  # noqa: PLC0415 start-up: decimal, only for a money knob set

                try:
                    chip_value(value, f"{where}{name} =")
                except InputError as e:
                    raise InputError(_("{setting} is not an amount of money").format(setting=prefix), e.hint) from None
            return float(value)
        if kind == WORD:
            lo, hi = allowed
            if not isinstance(value, str) or not value.isalpha() or not lo <= len(value) <= hi:
                raise InputError(ngettext("{setting} is not a word of {lowest} to {highest} letter",
                                          "{setting} is not a word of {lowest} to {highest} letters", hi).format(
                                     setting=prefix, lowest=lo, highest=hi),
                                 _('write e.g. {name} = "{value}"').format(name=name, value=format_value(self.default)))
            return value.upper()
        if kind == CARDS:
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                raise InputError(_("{setting} is not a list of cards").format(setting=prefix),
                                 _('write e.g. {name} = ["3S", "5S", "7S"]').format(name=name))
            if self.convert is None:
                return tuple(value)
            try:
                return tuple(self.convert(v) for v in value)
            except InputError as e:
                raise InputError(f"{prefix}: {e.message}", e.hint) from None
        raise AssertionError(kind)


class Schema(Generic[RulesT]):
    """A game's knobs and presets, and the reader and writer of its rules dicts."""

    def __init__(self, rules_class: type[RulesT], *, game: str, title: str, presets: dict[str, dict[str, Any]],
                 notes: dict[str, str], default_preset: str,
                 check: Callable[[RulesT], None] | None = None, topics: dict[str, str] | None = None,
                 at_top: bool = False):
        self.rules_class = rules_class
        self.game = game
        self.title = title
        # The game of `pan`'s own commands (`pan deal`, not `pan contract deal`): its rules are the
        # house rules, named with no --game (one game says so: pancli.games checks it).
        self.at_top = at_top
        self.knobs: dict[str, Knob] = {
            f.name: Knob(name=f.name, **{k: v for k, v in f.metadata[_META].items()})
            for f in dataclasses.fields(rules_class)}
        self.presets = {name: dict(values) for name, values in presets.items()}
        self.notes = dict(notes)
        self.default_preset = default_preset
        self._check = check
        self.topics = dict(topics or {})  # first knob of a topic -> the topic's title, in knob order
        if not set(self.topics) <= set(self.knobs):
            raise ValueError(f"{game}: a topic starts at a knob that does not exist")
        if set(self.notes) != set(self.presets) or default_preset not in self.presets:
            raise ValueError(f"{game}: every preset needs a note, and the default preset must exist")
        rules_class.SCHEMA = self
        for name in self.presets:  # a preset is checked like any rules file
            self.preset(name)

    def by_topic(self) -> list[tuple[str, list[str]]]:
        """The knobs' names grouped by topic, in the order they are declared ("" when the game
        names no topics)."""
        groups: list[tuple[str, list[str]]] = []
        for name in self.knobs:
            if name in self.topics or not groups:
                groups.append((self.topics.get(name, ""), []))
            groups[-1][1].append(name)
        return groups

    def title_text(self) -> str:
        """The game's title, in the language in force (``title`` holds the English)."""
        return _(self.title)

    def note_text(self, preset: str) -> str:
        """A preset's note, in the language in force (``notes`` holds the English)."""
        note = self.notes.get(preset, "")
        return _(note) if note else ""

    def topic_text(self, topic: str) -> str:
        """A topic's title from ``by_topic``, in the language in force ("" stays "")."""
        return _(topic) if topic else ""

    # -- reading ------------------------------------------------------------------------
    def preset(self, name: Any, where: str = "") -> RulesT:
        if not isinstance(name, str):
            raise InputError(_("{setting} is not a name").format(setting=f"{where}preset = {name!r}"),
                             self.presets_hint())
        if name not in self.presets:
            # Translators: {where} is empty or the rules file, e.g. "rules.toml: "; keep it first
            raise InputError(_("{where}unknown preset '{name}'{did_you_mean}").format(
                where=where, name=name, did_you_mean=did_you_mean(name, self.presets)), self.presets_hint())
        return self.from_dict(self.presets[name], where=where, _base=self.rules_class())

    def presets_hint(self) -> str:
        return _("presets: {names}").format(names=", ".join(self.presets))

    def from_dict(self, data: dict[str, Any], where: str = "", *, _base: RulesT | None = None) -> RulesT:
        """Rules from ``preset = NAME`` (default: the game's default preset) and knob overrides."""
        if not isinstance(data, dict):
            raise InputError(_("{where}house rules must be a table of knobs, not {type}").format(
                where=where, type=type(data).__name__),
                _("write one knob per line, e.g. {knob} = ...").format(knob=next(iter(self.knobs))))
        data = dict(data)
        if _base is None:
            base = self.preset(data.pop("preset", self.default_preset), where)
        else:
            base = _base
        values = {}
        for key, value in data.items():
            knob_ = self.knobs.get(key)
            if knob_ is None:
                raise InputError(_("{where}unknown rule '{key}'{did_you_mean}").format(
                    where=where, key=key, did_you_mean=did_you_mean(key, self.knobs)),
                    _("run `{command}` for every rule name").format(command=f"pan rules show{self.game_option()}"))
            values[key] = knob_.check(value, where)
        rules = dataclasses.replace(base, **values) if values else base
        if self._check is not None:
            try:
                self._check(rules)
            except InputError as e:
                raise InputError(f"{where}{e.message}", e.hint) from None
        return rules

    def game_option(self) -> str:
        return "" if self.at_top else f" --game {self.game}"

    # -- writing ------------------------------------------------------------------------
    def to_dict(self, rules: RulesT) -> dict[str, Any]:
        """Every knob and its value, lists for tuples: the form stored with a session."""
        return {name: list(v) if isinstance(v, tuple) else v
                for name in self.knobs for v in [getattr(rules, name)]}

    @property
    def defaults(self) -> RulesT:
        return self.preset(self.default_preset)

    def diff(self, rules: RulesT, base: RulesT | None = None) -> dict[str, Any]:
        """The knobs whose value differs from ``base`` (default: the default preset)."""
        base = self.defaults if base is None else base
        return {name: getattr(rules, name) for name in self.knobs if getattr(rules, name) != getattr(base, name)}

    def nearest_preset(self, rules: RulesT) -> tuple[str, dict[str, Any]]:
        """The preset that differs from ``rules`` in the fewest knobs, and those differences."""
        best: tuple[str, dict[str, Any]] | None = None
        for name in self.presets:
            d = self.diff(rules, self.preset(name))
            if best is None or len(d) < len(best[1]):
                best = (name, d)
        assert best is not None
        return best


class KnobRules:
    """Base of a game's rules dataclass: the schema's reader and writer as methods.

    A rules class is declared ``@dataclass(frozen=True, eq=False, repr=False)``: equality, hash
    and repr are written here once. The generated ones cost milliseconds on every start-up for a
    class of fifty knobs, and every cached ruling hashes the rules, so the hash is kept.
    """

    SCHEMA: ClassVar[Schema[Any]]
    # Every subclass is a dataclass (declared so for the type checker: dataclasses.fields, replace).
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def knob_values(self) -> tuple[Any, ...]:
        """Every knob's value, in the schema's order."""
        return tuple([getattr(self, name) for name in self.SCHEMA.knobs])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self.knob_values() == other.knob_values()

    def __hash__(self) -> int:
        try:
            kept: int = self.__dict__["_hash"]
            return kept
        except KeyError:
            h = hash((self.__class__.__name__, self.knob_values()))
            object.__setattr__(self, "_hash", h)  # frozen: a cache, not a knob
            return h

    def __getstate__(self) -> dict[str, Any]:
        # a string's hash differs from one process to the next: the kept hash is not carried
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({', '.join(f'{k}={v!r}' for k, v in zip(self.SCHEMA.knobs, self.knob_values()))})"

    @classmethod
    def preset(cls, name: str) -> Self:
        made: Self = cls.SCHEMA.preset(name)
        return made

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "") -> Self:
        made: Self = cls.SCHEMA.from_dict(data, where)
        return made

    def to_dict(self) -> dict[str, Any]:
        return self.SCHEMA.to_dict(self)

    def replace(self, **changes: Any) -> Self:
        """A copy with some knobs changed, every new value checked."""
        made: Self = self.SCHEMA.from_dict({**self.to_dict(), **changes})
        return made
