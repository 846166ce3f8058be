"""An action's parameters read against a session: the words of a `pan` command and the taps of the
dealer's page go through the same reader of each kind (``pancli.games.actions.read``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pancli.app.recorder import Recorder
from pancli.core.errors import InputError
from pancli.core.i18n import _
from pancli.games.actions import IN_HAND, PLAYER, Action, read


class SessionTable:
    """What a parameter's reader needs of the session (``pancli.games.actions.Table``): its
    players, and its game's cards under its house rules."""

    def __init__(self, rec: Recorder):
        self.rec = rec

    def player(self, text: str) -> str:
        return self.rec.player(text)

    def read_cards(self, text: str) -> tuple[str, ...]:
        return tuple(self.rec.game.read_cards(text, self.rec.rules))


def missing(value: Any) -> bool:
    return value is None or value == "" or value == []


def read_values(rec: Recorder, action: Action, given: Mapping[str, Any]) -> dict[str, Any]:
    """The action's parameters from what was given, each read by its kind; one that is needed and
    missing is refused in one line, one that may be left out and is, is left out."""
    table, values = SessionTable(rec), {}
    for p in action.params:
        value = given.get(p.name)
        if missing(value):
            if p.required and p.kind in (PLAYER, IN_HAND):
                raise InputError(_("the action names no player"), _("choose the players first"))
            if p.required:  # said by the field's own words, never the parameter's name
                what = p.help_words().rstrip(".")
                raise InputError(_("not chosen yet: {what}").format(what=what),
                                 _("choose it, then tap again: {action}").format(action=_(action.label)))
            continue
        values[p.name] = read(p, value, table)
    return values
