"""`pan settle`: who pays whom, and the bank's column of buy-ins and cash-outs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from pancli.app.views import chips_to_settle, no_chips_words, settle_json, settle_result, standings_data
from pancli.cli.commands.after_game.common import store_and_session
from pancli.cli.fit import cell_width, pad
from pancli.cli.groups import command_set
from pancli.cli.options import JSON, SESSION
from pancli.cli.output import console, english_for_json, print_json
from pancli.cli.render import column
from pancli.core.i18n import _, ngettext
from pancli.core.text import wrap_words
from pancli.core.words import signed

if TYPE_CHECKING:
    from decimal import Decimal

    from rich.console import Console
    from rich.table import Table

    from pancli.core.rows import Session
    from pancli.core.settle import Settlement
    from pancli.storage.store import Store

commands = command_set()  # what this module adds to `pan`


@commands.command()
def settle(name: str | None = SESSION,
           chip_value: str | None = typer.Option(None, "--chip-value", metavar="AMOUNT",
                                                    help="Money per chip (default: the session's)."),
           as_json: bool = JSON) -> None:
    """Who pays whom: the fewest payments that square every player, each explained, checked to sum to zero.

    Without buy-ins each player pays or is paid their net from play: Ana +81 and Fay -48 make
    "Fay pays Ana $12.00 (48 chips)".

    Once anyone buys chips (`pan buyin`) it settles in bank mode: each player hands in the chips
    they hold (bought, plus net from play, less cashed out) and is paid for them, or pays for any
    they are short; the bank pays back what it took in. Ana bought 20 and won 8: Ana holds 28 and
    receives 28 chips' worth, from the bank and from whoever is short. A stack that went below
    zero during play is named, with what to do about it.

    Example: pan settle friday --chip-value 0.25
    """
    from pancli.core import money as mo  # noqa: PLC0415 start-up: decimal

    value = mo.chip_value(chip_value) if chip_value is not None else None
    store, session = store_and_session(name)
    if as_json:
        print_json(english_for_json(True, lambda: settle_json(session, settle_result(store, session, chip_value)[0])))
        return
    s, value = settle_result(store, session, chip_value)
    if not chips_to_settle(session, s):  # a game in points or letters: its result, not an empty settle-up
        _print_no_chips(console(), store, session)
        return
    _print_settlement(console(), session.name, s, value)


def _print_no_chips(out: Console, store: Store, session: Session) -> None:
    """Settle-up of a game scored in points or letters where no chip changed hands: that said
    once, then each player's score and the result, in the game's own terms."""
    from pancli.app.recorder import Recorder  # noqa: PLC0415 start-up: the app layer
    from pancli.app.reports import sheet_grid  # noqa: PLC0415 start-up: the app layer

    out.print(_("Settle-up · {session}").format(session=session.name))
    for line in no_chips_words(session, standings_data(Recorder(store, session)), sheet_grid(store, session)["result"]):
        for part in wrap_words(line, out.width):
            out.print(part, soft_wrap=True)


def _print_settlement(out: Console, session_name: str, s: Settlement, value: Decimal | None) -> None:
    from pancli.core import settle as st  # noqa: PLC0415 start-up: core.settle
    from pancli.core.numbers import chip_price  # noqa: PLC0415 start-up: decimal

    def say(line: str, indent: str = "") -> None:
        for part in wrap_words(indent + line, out.width):
            out.print(part, soft_wrap=True)

    price = chip_price(value, s.currency) if value else ""
    if value:
        # Translators: {price} is an amount with its currency: $0.50, $0.125
        out.print(_("Settle-up · {session} · {price} a chip").format(session=session_name, price=price))
    else:
        out.print(_("Settle-up · {session}").format(session=session_name))
    say(st.mode_line(s))
    if s.banked:
        out.print(_bank_table(s))
        say(st.holds_note(s))
        say(st.bank_line(s) or "")
    else:
        label_w = max([14] + [cell_width(p.label) for p in s.parties])
        # The word after each balance, padded as wide as the widest (``chip `` as wide as ``chips``).
        nouns = [ngettext("chip", "chips", abs(p.balance)) for p in s.parties]
        noun_w = max([5] + [cell_width(n) for n in nouns])
        for p, noun in zip(s.parties, nouns):
            amount = f"  {st.party_money(p, s)}" if value else ""
            out.print(f"  {pad(p.label, label_w)} {signed(p.balance):>6} {pad(noun, noun_w)}{amount}")
    if s.transfers:
        n = len(s.transfers)
        out.print(ngettext("{n} payment:", "{n} payments:", n).format(n=n))
        for t in s.transfers:
            say(st.transfer_line(t, s), "  ")
    else:
        out.print(_("Nobody owes anything."))
    say(_("Check: the balances sum to 0 chips and after these payments everyone is square."))
    for note in st.pool_notes(s):
        say(_("Note: {note}").format(note=note))
    for f in s.flags:
        say(st.flag_line(f, s))


def _bank_table(s: Settlement) -> Table:
    """Bank mode, per player: bought, net from play, cashed out (when anyone did), what they hold,
    and what they pay or receive."""
    from rich import box  # noqa: PLC0415 start-up: rich
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    from pancli.core import settle as st  # noqa: PLC0415 start-up: core.settle

    cashed = any(p.cashed for p in s.parties)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    cols = ["player", "bought", "net"] + (["cashed out"] if cashed else []) + ["holds", "settles"]
    for col in cols:
        table.add_column(column(col), justify="left" if col in ("player", "settles") else "right",
                         no_wrap=col != "settles")
    for p in s.parties:
        if p.name in st.PARTY_NAMES:
            continue
        table.add_row(p.name, str(p.bought), signed(p.net), *([str(p.cashed)] if cashed else []),
                      st.count(p.balance), st.settles(p, s))
    return table
