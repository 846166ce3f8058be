"""Small words every face uses the same way: plurals, signed numbers, lists of names, and the
words for the events every game shares (the bank's and undo).

One minus sign everywhere: ASCII ``-``, which every terminal shows and grep finds; the standings,
the report, settle-up, JSON text and the phone pages all write numbers with ``signed``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pancli.core.i18n import ENGLISH, _, language, ngettext

if TYPE_CHECKING:
    from decimal import Decimal

MINUS = "-"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 chip``, ``2 chips``, ``0 chips`` (``many`` for a plural that is not word + s). English
    only: a line for people counts with ``ngettext``, whose forms each language gives."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def signed(n: int, zero: str = "0") -> str:
    """A count of chips or points with its sign: ``+3``, ``-3``, and ``zero`` for none. A balance or
    a total shows ``0``; a move during play shows ``+0`` (``in: Ana +0``, ``Cruz +0 for no cards
    left``), so a line of moves reads alike. Another language groups as it writes numbers
    (core/numbers)."""
    if language() != ENGLISH:
        from pancli.core.numbers import signed_number  # noqa: PLC0415 start-up: English needs no CLDR data

        return signed_number(n, zero)
    return f"+{n}" if n > 0 else (f"{MINUS}{-n}" if n < 0 else zero)


def signed_money(x: Decimal | float, zero: str = "0.00", currency: str | None = None) -> str:
    """An amount of money won or lost, to the cent with its sign: ``+5.75``, ``-3.25`` (MINUS), and
    ``zero`` for none (the standings table of `pan standings` shows ``+0.00``). Here, not in
    core/money, so that a page or table showing money loads no decimal module at start-up.
    Another language writes its decimal sign, a session's ``currency`` its minor units
    (core/numbers.signed_amount)."""
    if currency is not None or language() != ENGLISH:
        from pancli.core.numbers import signed_amount  # noqa: PLC0415 start-up: English needs no CLDR data

        return signed_amount(x, zero, currency)
    return f"+{x:.2f}" if x > 0 else (f"{MINUS}{-x:.2f}" if x < 0 else zero)


def listed(names: Iterable[str], last: str = "and") -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cruz`` (``last="or"``: ``Ana or Ben``)."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    if last == "or":
        # Translators: the end of a list: "Ana, Ben or Cruz"
        return _("{names} or {last}").format(names=", ".join(names[:-1]), last=names[-1])
    # Translators: the end of a list: "Ana, Ben and Cruz"
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


# -- the events every game's sessions hold -------------------------------------------------

SHARED_KINDS = ("buyin", "cashout", "undo")


def bank_words(event: Mapping[str, Any]) -> str:
    """``Ana buys 20 chips``, ``Ana cashes out 60 chips``."""
    who, chips = event.get("player") or _("someone"), event.get("chips")
    buys = event.get("kind") == "buyin"
    if not isinstance(chips, int):
        return (_("{player} buys chips") if buys else _("{player} cashes out chips")).format(player=who)
    said = (ngettext("{player} buys {n} chip", "{player} buys {n} chips", chips) if buys else
            ngettext("{player} cashes out {n} chip", "{player} cashes out {n} chips", chips))
    return said.format(player=who, n=chips)


def undo_words(event: Mapping[str, Any], undone: dict[str, Any] | None,
               words: Callable[[dict[str, Any]], str]) -> str:
    """``Undid #57: Ana buys 20 chips`` (``words`` says the undone event), or ``Undid #57`` when
    the event taken back is not at hand."""
    seq = event.get("seq")
    if isinstance(seq, int):
        # Translators: {event} is the line of the event taken back, e.g. "Ana buys 20 chips"
        return (_("Undid #{seq}: {event}").format(seq=seq, event=words(undone)) if undone else
                _("Undid #{seq}").format(seq=seq))
    return _("Undid an event: {event}").format(event=words(undone)) if undone else _("Undid an event")


def unworded(event: Mapping[str, Any]) -> str:
    """For an event kind no game has words for (a newer pancli's, in an archive): its kind."""
    # Translators: {kind} is the event's kind as stored, quoted, never translated
    return _("An event of kind {kind}").format(kind=repr(str(event.get("kind") or "unknown")))
