"""`pan history`: every event with its payments and reasons."""

from __future__ import annotations

import os
import string
from collections.abc import Iterable
from typing import TYPE_CHECKING

import typer

from pancli.app.history_stream import history_events
from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, echo, english_for_json, print_json, styled
from pancli.cli.params import EVENTS, HAND, PLAYER
from pancli.cli.terminal import as_drawn
from pancli.core.i18n import _
from pancli.core.names import inert
from pancli.core.width import has_unspaced

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from pancli.app.view_types import HistoryJson

commands = command_set()  # what this module adds to `pan`


@commands.command()
def history(hand: int | None = typer.Option(None, "--hand", click_type=HAND, help="Only this hand."),
            player: str | None = typer.Option(None, "--player", click_type=PLAYER, metavar="NAME",
                                              help="Only the events about this player."),
            last: int | None = typer.Option(None, "--last", metavar="N", click_type=EVENTS,
                                            help="Only the last N events (of the hand or player, if given)."),
            no_pager: bool = typer.Option(False, "--no-pager", help="Never page a long history on a terminal."),
            as_json: bool = JSON) -> None:
    """Every event with its payments and reasons; undone events are marked.

    Piped, each event and each payment is one line (for grep). On a terminal a history taller than
    the window is shown in a pager (PAGER, else less), as git does.

    Example: pan history --hand 2

    Example: pan history --player ana --last 5
    """
    from pancli.app.views import history_data, pick_events  # noqa: PLC0415 start-up: only for --json

    recorder = app_context().open_recorder()

    def picked() -> HistoryJson:
        data = history_data(recorder.store, recorder.session, hand)
        data["events"] = pick_events(data["events"], player, last)
        return data

    if as_json:
        print_json(english_for_json(as_json, picked))  # an event's words in --json are English
        return
    out = console()
    deals = recorder.game.round_word == "deal"  # the contract game and Polish Pan are played in deals
    # Translators: a line of the history of a game played in deals (the contract game, Polish Pan)
    said = _("#{seq} deal {hand} {event}") if deals else _("#{seq} hand {hand} {event}")
    undone = " " + _("(undone)")
    events = history_events(recorder.store, recorder.session, hand, player, last)
    if out.is_terminal:
        lines = []
        for e in events:
            lines.append(styled(said.format(seq=f"{e.seq:<4}", hand=f"{e.hand or '-':<3}", event=e.text),
                                (undone, "dim") if e.voided else ""))
            for line in e.payments:
                lines.append(styled((f"        {line}", "dim" if e.voided else None)))
        if lines:
            show_paged(out, lines, pager=not no_pager)
            return
    else:  # piped: one line an event, one a payment, written as they are read (grep finds them whole)
        shown, chunk = False, []
        marked = inert(undone)
        # Whether a text holds a script written without spaces (Japanese), whose lines the output
        # fits to its width: a thousand lines without one are written at once, unlooked at.
        spaced = not has_unspaced(said + undone)
        # Each event's text made safe once, and whether it is written without spaces: the line's
        # other parts (numbers, and the line's words when they show as themselves) need no look.
        texts: dict[str, tuple[str, bool]] = {}
        safe = inert(said) == said
        by_place = placed(said)
        plain = spaced
        paid: dict[tuple[str, ...], tuple[str, bool]] = {}  # payment lines said before (a night repeats them)
        write = out.file.write
        write_plain = getattr(out.file, "write_unspaced", write)
        for e in events:
            shown = True
            text = texts.get(e.text)
            if text is None:
                if len(texts) >= 10_000:
                    texts.clear()
                text = texts[e.text] = (inert(e.text), has_unspaced(e.text))
            line = (by_place.format(e.seq, e.hand or "-", text[0] if safe else e.text) if by_place
                    else said.format(seq=f"{e.seq:<4}", hand=f"{e.hand or '-':<3}", event=text[0] if safe else e.text))
            chunk.append((line if safe else inert(line)) + (marked + "\n" if e.voided else "\n"))
            plain = plain and not text[1]
            if e.payments:
                block = paid.get(e.payments)
                if block is None:
                    if len(paid) >= 1000:
                        paid.clear()
                    said_paid = "".join(inert(f"        {line}") + "\n" for line in e.payments)
                    block = paid[e.payments] = (said_paid, has_unspaced(said_paid))
                chunk.append(block[0])
                plain = plain and not block[1]
            if len(chunk) >= 1000:  # written a thousand events at a time
                (write_plain if plain else write)("".join(chunk))
                chunk.clear()
                plain = spaced
        (write_plain if plain else write)("".join(chunk))
        if shown:
            return
    if player and hand is not None:
        echo(_("No events about {player} in hand {hand}.").format(player=player, hand=hand))
    elif player:
        echo(_("No events about {player}.").format(player=player))
    elif hand is not None:
        echo(_("No events in hand {hand}.").format(hand=hand))
    else:
        echo(_("No events."))


_PLACES = {"seq": "{0:<4}", "hand": "{1:<3}", "event": "{2}"}


def placed(said: str) -> str | None:
    """A history line's words (``#{seq} hand {hand} {event}`` in the language in force) as a
    template of places, quicker to fill a hundred thousand times: the same text once filled, or
    None where the words hold anything but those three fields, each plain."""
    out = []
    try:
        for literal, name, spec, conversion in string.Formatter().parse(said):
            out.append(literal.replace("{", "{{").replace("}", "}}"))
            if name is None:
                continue
            if spec or conversion or name not in _PLACES:
                return None
            out.append(_PLACES[name])
    except ValueError:
        return None
    return "".join(out)


def show_paged(out: Console, renderables: Iterable[RenderableType], pager: bool = True) -> None:
    """Print to the console; on a terminal, through a pager when it is taller than the window
    (never when piped, so scripts and tests never wait on one)."""
    if not (pager and out.is_terminal):
        for r in renderables:
            out.print(r)
        return
    with out.capture() as captured:
        for r in renderables:
            out.print(r)
    text = captured.get()
    if text.count("\n") < out.size.height - 1:
        out.file.write(text)
        return
    import pydoc  # noqa: PLC0415 start-up: only for a history taller than the terminal

    os.environ.setdefault("LESS", "-FRX")  # less keeps the colours, and quits at once if it fits after all
    pydoc.pager(as_drawn(text))  # PAGER (or MANPAGER) if set, else less or more
