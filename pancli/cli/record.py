"""Recording on the current session of the default game: its recorder, the events recorded as one
command and what happened printed, a declared action recorded from its words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pancli.cli.context import app_context
from pancli.cli.render import show_step
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.games import default_game

if TYPE_CHECKING:
    from pancli.app.recorder import Recorder
    from pancli.core.ledger import Step
    from pancli.games.actions import Action


def pan_recorder() -> Recorder:
    """The current session's recorder, refusing sessions of the other games: pan's own recording
    commands (deal, meld …) are the default game's."""
    recorder = app_context().open_recorder()
    game, own = recorder.session.game, default_game()
    if not recorder.game.at_top:  # its actions are its own group's (`pan contract …`)
        raise InputError(_("session '{session}' plays {game}, not {title}").format(
                             session=recorder.session.name, game=game, title=_(own.title)),
                         _("record it with `pan {game} …` (see `pan {game} --help`)").format(game=game))
    return recorder


def record(*events: dict[str, Any]) -> Step[Any]:
    """Record events on the current session as one command and print what happened."""
    from pancli.core.bank import BANK_KINDS  # noqa: PLC0415 only when recording

    recorder = app_context().open_recorder() if events[0]["kind"] in BANK_KINDS else pan_recorder()
    quiet = app_context().quiet
    steps = recorder.record_many(list(events), worded=not quiet)  # the words are not made only to be dropped
    if not quiet:
        for step in steps:
            show_step(step)
    return steps[-1]


def record_action(action: Action, words: dict[str, Any]) -> Step[Any]:
    """Record one of the default game's declared actions: the events its declaration builds from
    the command's words, as their click types read them."""
    from pancli.cli.action_commands import values_at_top  # noqa: PLC0415 only a declared action's command

    return record(*action.build(values_at_top(action, words)))
