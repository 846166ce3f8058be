"""`pan rescore`: a session replayed under other house rules."""

from __future__ import annotations

from typing import Any

import typer

from pancli.cli.commands.after_game.common import colored, store_and_session
from pancli.cli.groups import command_set
from pancli.cli.options import JSON, SESSION
from pancli.cli.output import console, english_for_json, print_json
from pancli.cli.params import HAND
from pancli.cli.render import column, pool_label
from pancli.core.errors import InputError
from pancli.core.i18n import _, ngettext, pgettext
from pancli.core.words import signed
from pancli.games import game as get_game

commands = command_set()  # what this module adds to `pan`


def _parse_sets(sets: list[str]) -> dict[str, Any]:
    import tomllib  # noqa: PLC0415 start-up: tomllib

    out: dict[str, Any] = {}
    for item in sets:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise InputError(_("--set {item} is not KNOB=VALUE").format(item=repr(item)), _("e.g. --set ante=1"))
        try:
            out[key.strip()] = tomllib.loads(f"v = {value.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            out[key.strip()] = value.strip()
    return out


def _rule_value(value: object) -> str:
    """A rule's value in the rescore line: yes and no in the reader's words (True and False in English)."""
    if isinstance(value, bool):
        # Translators: a yes-or-no rule's old and new value: "tops_chop_allowed False → True"
        return pgettext("rule value", "True") if value else pgettext("rule value", "False")
    return str(value)


@commands.command()
def rescore(name: str | None = SESSION,
            hand: int | None = typer.Option(None, "--hand", click_type=HAND, help="Only this hand."),
            preset: str | None = typer.Option(None, "--preset", help="House-rules preset to replay under."),
            rules: str | None = typer.Option(None, "--rules", metavar="FILE", help="House-rules TOML file to replay under."),
            sets: list[str] | None = typer.Option(None, "--set", metavar="KNOB=VALUE",
                                                     help="Change one knob (repeatable), on top of the preset, the file, "
                                                          "or the session's own rules."),
            as_json: bool = JSON) -> None:
    """What the recorded play would have paid under other house rules; the session is not changed.

    Example: pan rescore friday --preset cardroom-ca
    """
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    from pancli.app.rescore import rescore as do_rescore  # noqa: PLC0415 start-up: the app layer
    from pancli.app.rulesfile import resolve as resolve_rules  # noqa: PLC0415 start-up: the app layer

    if not (preset or rules or sets):
        raise InputError(_("say which rules to replay under"), _("give --preset P, --rules FILE or --set KNOB=VALUE"))
    store, session = store_and_session(name)
    g = get_game(session.game)
    base = resolve_rules(preset, rules, g.name) if (preset or rules) else g.rules_from_dict(session.rules)
    new_rules = g.rules_from_dict({**g.rules_to_dict(base), **_parse_sets(sets or [])}) if sets else base
    with store.snapshot():
        events = store.log.session_log(session.id)
    if hand is not None and not any(e.hand == hand for e in events):
        raise InputError(_("session '{session}' has no hand {hand}").format(session=session.name, hand=hand),
                         _("see the hands with `pan history`"))
    result = english_for_json(as_json, lambda: do_rescore(g, session, events, new_rules, hand))
    if as_json:
        print_json({"session": session.name, **result.to_json()})
        return
    out = console()
    changed = ", ".join(f"{k} {_rule_value(v[0])} → {_rule_value(v[1])}"
                        for k, v in result.changed_rules.items()) or _("no rule changed")
    if hand is not None:
        out.print(_("Rescore of {session}, hand {hand}: {changes}").format(session=session.name, hand=hand,
                                                                         changes=changed))
    else:
        out.print(_("Rescore of {session}: {changes}").format(session=session.name, changes=changed))
    table = Table(title_justify="left")
    for col in ("player", "recorded", "rescored", "difference"):
        table.add_column(column(col), justify="left" if col == "player" else "right")
    for r in result.rows:
        table.add_row(r["name"], signed(r["recorded"]), signed(r["rescored"]), colored(r["difference"]))
    for pool, v in result.pools.items():
        table.add_row(pool_label(pool), signed(v["recorded"]), signed(v["rescored"]),
                      signed(v["rescored"] - v["recorded"]))
    out.print(table)
    if result.illegal:
        n = len(result.illegal)
        out.print(ngettext("{n} event not allowed under these rules (skipped):",
                           "{n} events not allowed under these rules (skipped):", n).format(n=n))
        for e in result.illegal:
            if e["hand"]:
                line = _("#{seq} (hand {hand}, {what}): {why}").format(seq=e["seq"], hand=e["hand"], what=e["what"],
                                                                      why=e["why"])
            else:
                line = _("#{seq} ({what}): {why}").format(seq=e["seq"], what=e["what"], why=e["why"])
            out.print("  " + line)
    out.print(_("The stored session is unchanged."))
