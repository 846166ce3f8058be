"""What the other games' commands share (cli/commands/other_games/contract.py, cli/commands/other_games/polish.py, cli/commands/other_games/clock.py): their
recorder, their one-line output, seats typed by name, their house-rules options."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from pancli.cli.context import app_context
from pancli.cli.output import say
from pancli.cli.render import show_step
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.games import game as get_game
from pancli.games.actions import by_name

if TYPE_CHECKING:
    from pancli.app.recorder import Recorder
    from pancli.core.ledger import Step


def game_recorder(game: str) -> Recorder:
    """The current session's recorder, refusing a session of another game."""
    recorder: Recorder = app_context().open_recorder()
    if recorder.session.game != game:
        title = _(get_game(game).title)  # its name, N_-marked by the game
        raise InputError(_("session '{session}' is a {game} game, not {title}").format(
                             session=recorder.session.name, game=recorder.session.game, title=title),
                         _("start one with `pan session new NAME --game {game} --players A,B,C`, "
                           "or switch with `pan session use NAME`").format(game=game))
    return recorder


def record_game_event(game: str, event: dict[str, Any]) -> Step[Any]:
    step = game_recorder(game).record(event)
    if not app_context().quiet:  # the words are not made only to be dropped
        show_step(step)
    return step


def record_action(game: str, name: str, **words: Any) -> Step[Any]:
    """Record one of the game's declared actions (``Game.actions``) from the command's words: each
    parameter read by the reader of its kind, as the dealer's page reads it, the events built by
    the declaration; then what the table has still to record, if anything."""
    from pancli.app.parameters import SessionTable, read_values  # noqa: PLC0415 start-up: the app layer

    recorder = game_recorder(game)
    action = by_name(recorder.game.actions)[name]
    if action.words is not None:  # the command line's own reading first (``Action.words``)
        words = action.words(words, SessionTable(recorder))
    step = None
    for event in action.build(read_values(recorder, action, words)):
        step = recorder.record(event)
        if not app_context().quiet:  # the words are not made only to be dropped
            show_step(step)
    assert step is not None  # every action records an event
    note = recorder.game.still_to_record(step.state)
    if note:
        say(str(note))
    return step


def seat_name(seats: list[str], text: str) -> str:
    """A seat by name, case-insensitively, or by a unique prefix."""
    wanted = text.strip().lower()
    exact = [s for s in seats if s.lower() == wanted]
    if exact:
        return exact[0]
    matches = [s for s in seats if wanted and s.lower().startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(_("'{text}' could be {players}").format(text=text, players=", ".join(matches)),
                         _("type more of the name"))
    raise InputError(_("no player '{text}' among the seats").format(text=text),
                     _("seats: {seats}").format(seats=", ".join(seats)))


def seat_list(text: str) -> list[str]:
    seats = [s.strip() for s in text.split(",") if s.strip()]
    if len(seats) < 2:
        raise InputError(_("--seats {text} names fewer than two players").format(text=repr(text)),
                         _("list them in playing order: A,B,C,D"))
    if len({s.lower() for s in seats}) < len(seats):
        raise InputError(_("a player is listed twice in --seats"), _("list each player once"))
    return seats


def rules_options(game: str, default: str, presets: str) -> tuple[Any, Any]:
    return (typer.Option(None, "--preset", metavar="PRESET", help=f"House-rules preset: {presets} (default {default})."),
            typer.Option(None, "--rules", metavar="FILE", help=f"House-rules TOML file for the {game} game."))
