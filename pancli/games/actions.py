"""What the table records, declared once per game: each action's name, its typed parameters,
its help and the events it makes.

A game lists its actions beside its engine (``panguingue/actions.py`` …) and gives them as
``Game.actions``. Every face is made from, or held to, that list: the `pan` commands that record
(pancli/cli/action_commands.py makes them), the shell's fast path, the dealer's page (its buttons
and forms) and the payload declaration (tests/test_actions.py holds it to the list). A parameter's kind says how
it is read, and both faces read it through the one reader of its kind (``read``): the command
line through its click type (pancli/cli/params.py), the dealer's page through app/actions.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, cast

from pancli.core.errors import InputError
from pancli.core.grouping import meld_texts
from pancli.core.hints import Hint, worded
from pancli.core.i18n import N_, _
from pancli.core.ledger import MAX_CHIPS

if TYPE_CHECKING:
    from pancli.core.events import (
        BankEvent,
        BuyinEvent,
        CashoutEvent,
        ContractGameEvent,
        PanguingueEvent,
        PolishEvent,
    )

    # What a builder makes: the typed payloads of pancli/core/events.py.
    Built: TypeAlias = Sequence[PanguingueEvent | ContractGameEvent | PolishEvent | BankEvent]

Event = dict[str, Any]

# The kinds of parameter, each read one way (``read``) on every face.
PLAYER = "player"            # a player of the session (`an` → Ana)
IN_HAND = "player in hand"   # a player still in the hand (the dealer offers only those)
NEW_NAME = "new name"        # a name not yet seated (`pan seat add`)
CARDS = "cards"              # cards in the game's notation, stored as codes
CARD = "card"                # one card (a final discard)
MELDS = "melds"              # several melds of cards, / between them
MELD = "meld number"         # a meld's number as the board shows it
COUNT = "count"              # a whole number in a range: chips, points, a meld of the contract game
FLAG = "yes or no"
CARD_EACH = "a card each"    # one card for each player of the hand: {name: card}
HAND_EACH = "a hand each"    # the cards left in some players' hands, or their points: {name: "KS QH" or 24}
MELDS_EACH = "melds each"    # some players' melds: {name: "7S 7H 7D + QC QD QS"}
KINDS = (PLAYER, IN_HAND, NEW_NAME, CARDS, CARD, MELDS, MELD, COUNT, FLAG, CARD_EACH, HAND_EACH, MELDS_EACH)

When = Literal["hand", "between", "any"]


# Plain classes, not dataclasses: these load with every recording command, and a dataclass
# costs a millisecond of start-up to make.
class Param:
    """One parameter of an action: ``name`` is its key for the builder and on the dealer's page,
    ``arg`` the command's own name for it (its Typer parameter, by default ``name``), ``option``
    its --option on the command line (None: an argument), ``many`` several words of the kind
    (`pan stay ana ben`), ``noun``, ``low`` and ``high`` what a COUNT is and its range, ``onto``
    a meld on the table that the dealer's page chooses ("own" or "any" player's meld).

    What the command line alone needs: ``metavar`` its placeholder in the usage when not its
    name's (`N CARD...`), ``short`` a short option (`-f`), ``multiword`` an option that takes
    every word up to the next option (`--from 1 KH`, one text for the action's ``words``), and
    ``read_as`` the kind its words are read as there when not its own (`pan out`'s final cards
    are read as melds, so that two melds are refused)."""

    __slots__ = ("name", "kind", "help", "required", "many", "option", "arg", "noun", "onto", "low", "high",
                 "metavar", "short", "multiword", "read_as")

    def __init__(self, name: str, kind: str, help: str | Hint, required: bool = True, many: bool = False,
                 option: str | None = None, arg: str = "", noun: str = "", onto: str = "", low: int = 1,
                 high: int = MAX_CHIPS, metavar: str = "", short: str = "", multiword: bool = False,
                 read_as: str = "") -> None:
        if kind not in KINDS or (read_as and read_as not in KINDS):
            raise ValueError(f"unknown kind of parameter {read_as if kind in KINDS else kind!r}")
        if (short or multiword) and not option:
            raise ValueError(f"{name}: a short name or many words are an option's")
        self.name, self.kind, self.help, self.required, self.many = name, kind, help, required, many
        self.option, self.arg, self.noun, self.low, self.high = option, arg or name, noun, low, high
        self.onto = onto or ("own" if kind == MELD else "")
        self.metavar, self.short, self.multiword, self.read_as = metavar, short, multiword, read_as or kind

    def __repr__(self) -> str:
        return f"Param({self.name!r}, {self.kind!r})"

    def help_words(self) -> str:
        """Its help in the language in force, as the face in force says it (a ``Hint`` when the
        command line names a command there and the phone does not)."""
        return worded(self.help) if isinstance(self.help, Hint) else _(self.help)


class Action:
    """One thing the table does, as `pan` records it and the dealer taps it.

    ``command`` is its words on the command line (("meld",), ("seat", "add"), ("contract", "lay")),
    ``help`` the first line of that command's help, ``label`` the dealer's button, ``when`` whether
    it is done during a hand, between hands or at any time, ``kinds`` the event kinds it records
    (held to the game's payloads), ``build`` the events from the parameters as read, and
    ``direct`` whether the shell may bind its plain words without click's parse, and ``phone``
    whether the dealer's page offers it (a whole deal at once, or a flag the clock saw fall, is
    the command line's alone).

    Its command's help is ``help``, then ``more`` (a further paragraph, if any), then the
    ``example`` ("Example: pan meld ben 5S 5S 5S"). ``extra`` are parameters of the command line
    alone, recording nothing (split's --into marker), and ``words`` the command line's own
    reading of its words, when the kinds' readers are not all of it: borrow's `--from N CARD...`,
    `pan out`'s one meld (see pancli/cli/action_commands.py)."""

    __slots__ = ("name", "command", "help", "label", "params", "build", "kinds", "when", "direct", "example",
                 "more", "extra", "words", "phone")

    def __init__(self, name: str, command: tuple[str, ...], help: str, label: str, params: tuple[Param, ...],
                 build: Callable[[Mapping[str, Any]], Built], kinds: tuple[str, ...], when: When = "any",
                 direct: bool = True, example: str = "", more: str = "", extra: tuple[Param, ...] = (),
                 words: Words | None = None, phone: bool = True) -> None:
        self.name, self.command, self.help, self.label, self.params = name, command, help, label, params
        # Its typed payloads go out as what they are at run time: the plain JSON the recorder stores.
        self.build = cast("Callable[[Mapping[str, Any]], list[Event]]", build)
        self.kinds, self.when, self.direct = kinds, when, direct
        self.example, self.more, self.extra, self.words, self.phone = example, more, extra, words, phone

    def command_help(self) -> str:
        """The whole help of its command, as a docstring cleaned by typer would read."""
        parts = [self.help, self.more, f"Example: {self.example}" if self.example else ""]
        return "\n\n".join(p for p in parts if p)

    def __repr__(self) -> str:
        return f"Action({self.name!r})"

    def events(self, **values: Any) -> list[Event]:
        return self.build(values)

    def face(self) -> str:
        """Where the dealer's page puts it: "seat" (a button on each seat: it names one or more
        players only), "picker" (a player and what the card picker holds), "button" (nothing to
        choose), or "form" (fields of its own)."""
        kinds = [p.kind for p in self.params if p.required]
        every = [p.kind for p in self.params]
        if len(every) == 1 and kinds in ([PLAYER], [IN_HAND]):
            return "seat"
        if not kinds and all(k in (PLAYER, IN_HAND) for k in every):
            return "button"
        if kinds and kinds[0] in (PLAYER, IN_HAND) and sum(k in (CARDS, CARD, MELDS) for k in every) == 1 \
                and all(k in (PLAYER, IN_HAND, CARDS, CARD, MELDS, MELD, COUNT) for k in every[1:]):
            return "picker"
        return "form"

    def describe(self) -> dict[str, Any]:
        """The action as the dealer's page builds it: JSON, its label and help in the language in
        force (they are marked N_ where each game declares them)."""
        return {"name": self.name, "label": _(self.label), "help": _(self.help), "when": self.when, "face": self.face(),
                "params": [{"name": p.name, "kind": p.kind, "help": p.help_words(), "required": p.required,
                            "many": p.many, "onto": p.onto} for p in self.params]}


class Table(Protocol):
    """What reading a parameter needs of the session: its players and its cards."""

    def player(self, text: str) -> str:
        """The player a word names (any case, or a unique start), or a one-line refusal."""

    def read_cards(self, text: str) -> tuple[str, ...]:
        """The cards a word names, in the session's game and house rules, as stored codes."""


# The command line's own reading of an action's words (``Action.words``): from its words by the
# parameters' names, as the command's click types left them, to what the action takes next.
Words = Callable[[Mapping[str, Any], Table], dict[str, Any]]


# -- the one reader of each kind ---------------------------------------------------------------

def read_count(value: Any, noun: str, low: int = 1, high: int = MAX_CHIPS) -> int:
    """A whole number in a range; anything else, a negative number included, refused in one line
    saying what it takes."""
    if isinstance(value, int) and not isinstance(value, bool):
        n: int | None = value
    else:
        text = str(value).strip()
        try:  # only 0-9: int() would also read other scripts' digits ("٣")
            n = int(text.replace("_", "x"), 10) if text.isascii() and len(text) <= 20 else None
        except ValueError:
            n = None
    if n is None or not low <= n <= high:
        from pancli.core.numbers import grouped  # noqa: PLC0415 start-up: only a refusal writes the bound

        shown = str(value)[:40]
        hint = (_("give a whole number above 0 and at most {high}") if low == 1 else
                _("give a whole number from {low} to {high}")).format(low=low, high=grouped(high))
        # Translators: {noun} is what the number counts, e.g. "a number of chips"
        raise InputError(_("{value} is not {noun}").format(value=shown, noun=_(noun)), hint)
    return n


def read_meld_number(value: Any, option: str = "the meld") -> int:
    """A meld's number as the board shows it."""
    try:
        text = str(value).strip()
        n = value if isinstance(value, int) and not isinstance(value, bool) \
            else int(text.replace("_", "x"), 10) if text.isascii() and len(text) <= 20 else None
    except ValueError:
        n = None
    if n is None or not 1 <= n <= 100_000:
        raise InputError(_("{option} takes a meld number, not '{value}'").format(option=option, value=str(value)[:40]),
                         Hint("meld.numbers", N_("the board shows the melds' numbers"))) from None
    return n


def read_melds(texts: Sequence[str | tuple[str, ...]], read_cards: Callable[[str], Sequence[str]],
               each_word_a_meld: bool = False) -> list[list[str]]:
    """Several melds in the one grammar of ``pancli.core.grouping`` (`/`, `+` or `|` between them),
    each as its cards' codes."""
    return [list(read_cards(t)) for t in meld_texts(list(texts), each_word_a_meld) if t.strip()]


def read_card_each(value: Any, table: Table) -> dict[str, str]:
    """One card for each player: {name: card} (or "Ana=KS Ben=2H")."""
    if isinstance(value, str):
        pairs = [w.partition("=")[::2] for w in value.split()]
    elif isinstance(value, Mapping):
        pairs = [(str(k), str(v)) for k, v in value.items()]
    else:
        raise InputError(_("the cards must be a card for each player"), _("write NAME=CARD for each player"))
    shown: dict[str, str] = {}
    for name, card in pairs:
        if not card.strip():
            continue
        cards = table.read_cards(card)
        if len(cards) != 1:
            raise InputError(_("give one card for {player}, not {n}").format(player=name, n=len(cards)),
                             _("write NAME=CARD for each player"))
        shown[table.player(name)] = cards[0]
    return shown


def read_each(param: Param, value: Any, table: Table) -> dict[str, Any]:
    """A value for some players, each once: NAME=VALUE words (an option given once a player) or
    {name: value}. A hand is its cards as codes, a space between them, or its points; melds are
    each meld's codes, " + " between them."""
    if isinstance(value, Mapping):
        pairs: list[Any] = [(str(k), v) for k, v in value.items()]
    else:
        pairs = list(value) if isinstance(value, (list, tuple)) else [value]
    option = param.option or param.name
    hands = param.kind == HAND_EACH
    shown: dict[str, Any] = {}
    for pair in pairs:
        if isinstance(pair, tuple):
            name, given = pair
        else:
            text = str(pair)
            if "=" not in text:
                raise InputError(Hint("each.no_equals", N_("{text} has no '='"), option=option, text=repr(text)),
                                 Hint("each.write", N_('write NAME=CARDS, e.g. "Ben=KS QH"'), option=option))
            name, given = text.split("=", 1)
            given = given.strip()
        who = table.player(name)
        if who in shown:
            raise (InputError(_("{player}'s hand is given twice").format(player=who), _("give each hand once")) if hands
                   else InputError(_("{player}'s contract is given twice").format(player=who),
                                   _("give each contract once")))
        if hands:
            points = isinstance(given, int) and not isinstance(given, bool)
            shown[who] = given if points else int(given) if str(given).isdigit() \
                else " ".join(table.read_cards(str(given)))
        else:
            shown[who] = " + ".join(" ".join(m) for m in read_melds([str(given)], table.read_cards))
    return shown


def read(param: Param, value: Any, table: Table) -> Any:
    """A parameter's value as given (a word, or JSON from the dealer's page), read by its kind."""
    if param.kind == FLAG:
        return value is True or (isinstance(value, str) and value.lower() in ("yes", "true", "1", "on"))
    if param.kind == CARD_EACH:
        return read_card_each(value, table)
    if param.kind in (HAND_EACH, MELDS_EACH):
        return read_each(param, value, table)
    if param.kind == MELDS:
        texts = value if isinstance(value, (list, tuple)) else [value]
        if not all(isinstance(t, (str, tuple)) for t in texts):  # a command line's words are pieces
            raise InputError(_("the {name} must be melds of cards").format(name=param.name),
                             _("write each meld's cards, e.g. AD 2D 3D"))
        # A list of texts (the dealer's page) is a meld each; a command line's words are pieces.
        each = isinstance(value, list) and all(isinstance(t, str) for t in value)
        return read_melds(texts, table.read_cards, each_word_a_meld=each)
    words = list(value) if isinstance(value, (list, tuple)) else [value]
    if not all(isinstance(w, (str, int)) and not isinstance(w, bool) for w in words):
        raise InputError(_("the {name} must be words, not {type}").format(name=param.name, type=type(value).__name__),
                         _("give the {name} as words").format(name=param.name))
    if param.kind in (PLAYER, IN_HAND):
        names = [table.player(str(w)) for w in words]
        return names if param.many else names[0]
    if param.kind == NEW_NAME:
        return str(words[0])
    if param.kind == CARDS:
        return list(table.read_cards(" ".join(str(w) for w in words)))
    if param.kind == CARD:
        cards = table.read_cards(str(words[0]))
        if len(cards) != 1:
            raise InputError(_("the {name} is one card, not {n}").format(name=param.name, n=len(cards)),
                             _("choose one card for the {name}").format(name=param.name))
        return cards[0]
    if param.kind == MELD:
        return read_meld_number(words[0], param.option or "the meld")
    return read_count(words[0], param.noun, param.low, param.high)


# -- what every game's sessions record: chips from and to the bank ------------------------------

def _buyin(v: Mapping[str, Any]) -> list[BuyinEvent]:
    return [{"kind": "buyin", "player": v["player"], "chips": v["chips"]}]


def _cashout(v: Mapping[str, Any]) -> list[CashoutEvent]:
    return [{"kind": "cashout", "player": v["player"], "chips": v["chips"]}]


_CHIPS_NOUN = N_("a number of chips")
BANK_ACTIONS = (
    Action("buyin", ("buyin",), N_("A player buys chips from the bank; settle-up counts it."),
           N_("Buy chips"), (Param("player", PLAYER, N_("Who buys chips."), arg="name"),
                             Param("chips", COUNT, N_("How many chips."), noun=_CHIPS_NOUN, high=MAX_CHIPS)),
           _buyin, ("buyin",), direct=False, example="pan buyin ana 100"),
    Action("cashout", ("cashout",), N_("A player cashes chips in at the bank; settle-up counts it."),
           N_("Cash out"), (Param("player", PLAYER, N_("Who cashes chips in."), arg="name"),
                            Param("chips", COUNT, N_("How many chips."), noun=_CHIPS_NOUN, high=MAX_CHIPS)),
           _cashout, ("cashout",), direct=False, example="pan cashout ana 60"),
)


def by_name(actions: Sequence[Action]) -> dict[str, Action]:
    return {a.name: a for a in actions}
