"""`pan rules show|init|check`: the house rules of every game, their presets and rules files.

At the top only what `pan --help` loads anyway; the games' rules are loaded inside the commands.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import TYPE_CHECKING, Any

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set, new_app
from pancli.cli.options import json_option
from pancli.cli.output import echo, english_for_json, output_width, print_json
from pancli.core.errors import PanError
from pancli.core.i18n import N_, _, ngettext, pgettext
from pancli.core.knobs import format_value
from pancli.games import DEFAULT_GAME, GAMES, game as get_game

if TYPE_CHECKING:
    from pancli.core.knobs import KnobRules, Schema

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)

GAMES_TEXT = "panguingue, contract or polish"
GAME_HELP = f"Whose house rules: {GAMES_TEXT} (default panguingue)."
ANY_PRESET_HELP = ("House rules preset of the game: panguingue hoyle, cardroom-ca, online-pan, japanese-wp; "
                   "contract mendelev, contract; polish standard, piki-cofane, beton, timed "
                   "(default: hoyle, mendelev, standard).")
ANY_RULES_HELP = "House rules file (TOML) of the game, as written by `pan rules init`."

rules_app = new_app("Show, write and check house rules: every rule that varies from table to table, "
                    f"for each game ({GAMES_TEXT}; default panguingue).\n\n"
                    "Example: pan rules show --preset cardroom-ca\n\n"
                    "Example: pan rules init house.toml --preset cardroom-ca\n\n"
                    "Example: pan rules show --game contract --preset contract")
commands.add_typer(rules_app, name="rules")

# What "(recorded only)" after a knob's help means, said under the table (fits 80 columns).
RECORDED_ONLY = N_("(recorded only): kept with the session and shown; pancli does not enforce it.")

_Game = typer.Option(None, "--game", "-g", metavar="GAME", help=GAME_HELP, show_default=False)


def _schema(game: str | None) -> Schema[Any]:
    from pancli.app.rulesfile import schema  # noqa: PLC0415 start-up: the app layer

    return schema(game or DEFAULT_GAME)


@rules_app.command("show")
def rules_show(
    game: str | None = _Game,
    preset: str | None = typer.Option(None, "--preset", "-p", metavar="PRESET", help=ANY_PRESET_HELP),
    rules_file: str | None = typer.Option(None, "--rules", metavar="FILE", help=ANY_RULES_HELP),
    every: bool = typer.Option(False, "--all", help="Every knob, not only those that differ from the preset."),
    json_: bool = json_option("Print JSON (every knob)."),
    markdown: bool = typer.Option(False, "--markdown", help="Print the reference of every knob and every "
                                                            "preset of every game (or of --game) as Markdown "
                                                            "(docs/rules.md)."),
) -> None:
    """Show the house rules, grouped by topic: each knob's value and what it does.

    By default only the knobs that differ from the preset: for --preset, from the game's default
    preset (Hoyle for Panguingue); for a rules file or, given neither, the current session, from
    the preset they are nearest to. --all shows every knob with its allowed values.

    Example: pan rules show --preset cardroom-ca

    Example: pan rules show --all

    Example: pan rules show --rules house.toml --json

    Example: pan rules show --game polish --preset piki-cofane

    Example: pan rules show --markdown > docs/rules.md
    """
    from pancli.app.rulesfile import resolve  # noqa: PLC0415 start-up: the app layer

    if markdown:
        sys.stdout.write(rules_markdown([game] if game else None))
        return
    schema = _schema(game)
    default = schema.default_preset
    session = None if preset or rules_file else _session_rules(schema)
    if session is not None:
        rules, source = session
    else:
        rules = resolve(preset, rules_file, schema.game)
        source = f"rules file {rules_file}" if rules_file else f"preset {preset or default}"
    # What the knobs shown by default differ from: a file's or a session's nearest preset, or,
    # for a preset, the game's default preset.
    baseline = schema.nearest_preset(rules)[0] if rules_file or session else default

    rows = english_for_json(json_, lambda: knob_rows(schema, rules))
    differs = f"differs_from_{default}"
    if json_:
        print_json({"game": schema.game, "source": source, "rules": {r["name"]: r["value"] for r in rows},
                    differs: [r["name"] for r in rows if r[differs]], "knobs": rows})
        return

    for line in rules_lines(schema, rules, source, rows, every=every, baseline=baseline):
        echo(line)


@rules_app.command("init")
def rules_init(
    path: str = typer.Argument(..., metavar="FILE", help="Where to write the rules file."),
    game: str | None = _Game,
    preset: str | None = typer.Option(None, "--preset", "-p", metavar="PRESET",
                                         help=ANY_PRESET_HELP, show_default=False),
    force: bool = typer.Option(False, "--force", help="Overwrite FILE if it exists (never the database)."),
) -> None:
    """Write a complete house-rules file (every knob, with its help) to edit for your table.

    Example: pan rules init house.toml --preset cardroom-ca

    Example: pan rules init polish.toml --game polish --preset beton
    """
    from pancli.app.rulesfile import write  # noqa: PLC0415 start-up: the app layer
    from pancli.storage.paths import resolve_path  # noqa: PLC0415 start-up: storage

    schema = _schema(game)
    name = preset or schema.default_preset
    rules = schema.preset(name)
    p = write(path, rules, name, schema.game, force=force, db_path=resolve_path(app_context().db))
    typer.echo(_("Wrote {path} (preset {preset}). Check it with: {command}").format(
        path=p, preset=name, command=f"pan rules check {p}{schema.game_option()}"))


@rules_app.command("check")
def rules_check(
    path: str = typer.Argument(..., metavar="FILE", help="The rules file to check."),
    game: str | None = _Game,
) -> None:
    """Check a house-rules file: OK with a one-line summary, or the first error.

    Exit status: 0 the file is good, 2 it is not (the error names the file, the key and what is allowed).

    Example: pan rules check house.toml

    Example: pan rules check contract.toml --game contract
    """
    from pancli.app.rulesfile import load  # noqa: PLC0415 start-up: the app layer

    schema = _schema(game)
    rules = load(path, schema.game)
    typer.echo(_("OK {path}: {summary}").format(path=path, summary=summary(schema, rules)))


# -- helpers ------------------------------------------------------------------------------


def _session_rules(schema: Schema[Any]) -> tuple[KnobRules, str] | None:
    """The current session's rules and their source, when there is a session of this game."""
    try:
        rec = app_context().open_recorder()
    except PanError:  # no database, or no current session: the default preset
        return None
    if rec.session.game != schema.game:
        return None
    return rec.rules, f"session {rec.session.name}"


def rules_lines(schema: Schema[Any], rules: KnobRules, source: str, rows: list[dict[str, Any]], every: bool,
                baseline: str) -> list[str]:
    """`pan rules show` as lines that fit the output's width: a heading per topic, then per knob
    `name = value` and, indented, what it does; wrapped between words, never inside one."""
    width = output_width() or _terminal_width()
    base = schema.preset(baseline)
    differs = {r["name"] for r in rows if getattr(rules, r["name"]) != getattr(base, r["name"])}
    # the rules of `pan`'s own commands
    title = _("House rules") if schema.at_top else _("{game} house rules").format(game=schema.title_text())
    n, total, said = len(differs), len(rows), _source_words(source)
    if every:
        head = ngettext("{title}: {source}, all {total} knob (* differs from {baseline}).",
                        "{title}: {source}, all {total} knobs (* differs from {baseline}).", total)
    elif baseline == source.removeprefix("preset "):
        head = _("{title}: {source}, the game's default.")
    elif not n:
        head = _("{title}: {source}, the same as {baseline}.")
    else:
        head = ngettext("{title}: {source}, {n} of {total} knobs differs from {baseline}.",
                        "{title}: {source}, {n} of {total} knobs differ from {baseline}.", n)
    head = head.format(title=title, source=said, total=total, n=n, baseline=baseline)
    lines = textwrap.wrap(head, width, break_long_words=False, break_on_hyphens=False,
                          subsequent_indent="  ")
    by_name = {r["name"]: r for r in rows}
    for topic, names in schema.by_topic():
        shown = [n for n in names if every or n in differs]
        if not shown:
            continue
        lines.append("")
        if topic:
            lines.append(schema.topic_text(topic))
        for name in shown:
            r = by_name[name]
            mark = "*" if every and name in differs else " "
            was = f"  ({baseline}: {_fmt(getattr(base, name))})" if name in differs else ""
            lines += textwrap.wrap(f"{mark} {name} = {_fmt(r['value'])}{was}", width, break_long_words=False,
                                   break_on_hyphens=False, subsequent_indent="      ")
            knob = schema.knobs[name]
            doc = knob.description_text() + (" " + _("(recorded only)") if r["recorded_only"] else "")
            if every:
                doc += "; " + _("allowed: {values}").format(values=knob.allowed_words())
            lines += textwrap.wrap(doc, width, initial_indent="    ", subsequent_indent="    ",
                                   break_long_words=False, break_on_hyphens=False)
    if every and differs:
        listed = ", ".join(r["name"] for r in rows if r["name"] in differs)
        lines += [""] + textwrap.wrap(_("* differs from {baseline}: {knobs}").format(baseline=baseline, knobs=listed),
                                      width, break_long_words=False, break_on_hyphens=False, subsequent_indent="  ")
    if any(r["recorded_only"] for r in rows if every or r["name"] in differs):
        lines += textwrap.wrap(_(RECORDED_ONLY), width, break_long_words=False, break_on_hyphens=False)
    if not every:
        lines += ([""] if differs else []) + [
            _("--all lists every knob ({total}) with its allowed values.").format(total=len(rows))]
    return lines


def _source_words(source: str) -> str:
    """Where the rules come from, for people: ``source`` is the English the JSON says
    (``preset hoyle``, ``rules file house.toml``, ``session friday``)."""
    for prefix, words in (("preset ", N_("preset {name}")), ("rules file ", N_("rules file {name}")),
                          ("session ", N_("session {name}"))):
        if source.startswith(prefix):
            return _(words).format(name=source.removeprefix(prefix))
    return source


def _terminal_width() -> int:
    return shutil.get_terminal_size((80, 24)).columns


def summary(schema: Schema[Any], rules: KnobRules) -> str:
    """One line: the nearest preset and what differs from it."""
    name, diff = schema.nearest_preset(rules)
    n = len(schema.knobs)
    if not diff:
        return ngettext("{n} knob, same as preset {preset}", "{n} knobs, same as preset {preset}", n).format(
            n=n, preset=name)
    changes = ", ".join(f"{k} = {_fmt(v)}" for k, v in diff.items())
    return ngettext("{n} knob, preset {preset} with {changes}", "{n} knobs, preset {preset} with {changes}",
                    n).format(n=n, preset=name, changes=changes)


def _fmt(value: Any) -> str:
    return format_value(value)


def knob_rows(schema: Schema[Any], rules: KnobRules) -> list[dict[str, Any]]:
    """One dict per knob: name, value, kind, allowed, help, recorded_only, the default preset's value
    (keyed by the preset's name) and whether the value differs from it."""
    default = schema.default_preset
    defaults = schema.defaults
    rows = []
    for name, k in schema.knobs.items():
        value = getattr(rules, name)
        base = getattr(defaults, name)
        rows.append({"name": name, "value": list(value) if isinstance(value, tuple) else value,
                     "kind": k.kind, "allowed": k.allowed_text(), "help": k.help,
                     "recorded_only": k.recorded_only, default: list(base) if isinstance(base, tuple) else base,
                     f"differs_from_{default}": value != base})
    return rows


def rules_markdown(games: list[str] | None = None) -> str:
    """The reference of every knob and every preset of each game, as written to docs/rules.md."""
    names = games or list(GAMES)
    lines = [
        "# " + _("House rules reference"),
        "",
        "<!-- " + _("Generated by `pan rules show --markdown`; do not edit by hand.") + " -->",
        "",
        # Translators: Markdown; keep the line breaks (lines of at most about 100 columns)
        *_("Every rule that varies from table to table is a knob, for each of the three games. A rules file\n"
           "(TOML) may name a `preset` and override any knob; `pan rules init FILE --preset P` writes a complete\n"
           "one, `pan rules check FILE` checks it and `pan rules show --rules FILE` explains it. These commands\n"
           "read Panguingue rules; add `--game contract` or `--game polish` for the other two games. Commands\n"
           "take `--preset P` or `--rules FILE`; without either they play the game's default preset (Hoyle for\n"
           "Panguingue). Unknown keys, wrong types and out-of-range values are refused with the file, the key\n"
           "and the allowed values.").split("\n"),
    ]
    for name in names:
        lines += _game_markdown(get_game(name).schema)
    lines.append("")
    return "\n".join(lines)


def _game_markdown(schema: Schema[Any]) -> list[str]:
    default = schema.default_preset
    defaults = schema.defaults
    presets = {name: schema.preset(name) for name in schema.presets}
    option = schema.game_option()
    n = len(schema.knobs)
    lines = [
        "",
        "## " + schema.title_text(),
        "",
        ngettext("{n} knob; `{command}` lists them with their values.",
                 "{n} knobs; `{command}` lists them with their values.", n).format(
            n=n, command=f"pan rules show{option}"),
        "",
        "### " + _("Presets"),
        "",
        "| " + " | ".join((_("Preset"), pgettext("markdown", "Table"),
                          _("Differs from {preset}").format(preset=default))) + " |",
        "|---|---|---|",
    ]
    for name, rules in presets.items():
        shown = ", ".join(f"`{k} = {_fmt(v)}`" for k, v in schema.diff(rules).items()) or _("(the defaults)")
        lines.append(f"| `{name}` | {schema.note_text(name)} | {shown} |")
    recorded = any(k.recorded_only for k in schema.knobs.values())
    lines += ["", "### " + _("Knobs"), ""]
    if recorded:
        # Translators: Markdown; keep the line break
        lines += _("Values that differ from `{preset}` are in bold. *Recorded only* knobs are kept with a session\n"
                   "and shown, but change no payment.").format(preset=default).split("\n")
    else:
        lines.append(_("Values that differ from `{preset}` are in bold.").format(preset=default))
    lines += [
        "",
        "| " + " | ".join((_("Knob"), _("Type"), _("Allowed"), *(f"`{n}`" for n in presets), _("What it does"))) + " |",
        "|---|---|---|" + "---|" * len(presets) + "---|",
    ]
    for name, k in schema.knobs.items():
        cells = []
        for rules in presets.values():
            v = _fmt(getattr(rules, name))
            cells.append(f"**{v}**" if getattr(rules, name) != getattr(defaults, name) else v)
        said = _("*(recorded only)*")
        doc = k.description_text().replace("|", "\\|") + (" " + said if k.recorded_only else "")
        allowed = k.allowed_words().replace("|", "\\|")
        lines.append(f"| `{name}` | {k.kind_text()} | {allowed} | " + " | ".join(cells) + f" | {doc} |")
    return lines
