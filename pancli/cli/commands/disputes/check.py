"""`pan check`: is this meld legal, what does it pay, how best to lay these cards.

At the top only what `pan --help` (which loads every command's module) loads anyway: the rules engine
and rich are loaded inside the commands, so `pan check 5S 5S 5S` and `pan --help` start quickly.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import typer

from pancli.cli.groups import command_set
from pancli.cli.options import json_option
from pancli.cli.output import console, english_for_json, in_english, output_width, print_json
from pancli.cli.params import MELDS
from pancli.cli.words.grammar import multiword_command
from pancli.cli.words.help_texts import PRESET_HELP, RULES_HELP
from pancli.core.errors import InputError, PanError, RuleError
from pancli.core.grouping import MELDS_HELP, has_separator, meld_texts
from pancli.core.i18n import N_, _, ngettext
from pancli.core.text import json_text, wrap_words

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from pancli.games.panguingue.rules import HouseRules

# What a command line's cards are: words, or the pieces of MeldsType (a tuple for a grouped value).
Tokens = Iterable[str | tuple[str, ...]]

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)

# A meld's kind, as the JSON says it (`set`, `rope`), for people.
KINDS = {"set": N_("set"), "rope": N_("rope")}
LEGAL = {"set": N_("legal set"), "rope": N_("legal rope")}

_CheckCommand = multiword_command("--add")  # pan check 5S 5S 5S --add 5S 5S


@commands.command(cls=_CheckCommand)
def check(
    cards: list[str] | None = typer.Argument(None, metavar="CARD...", show_default=False, click_type=MELDS,
                                                help="Cards such as 5S 5S 5S, 5s5s5s or 5♠,5♠,5♠; with --arrange "
                                                     f"or --out, your own grouping: {MELDS_HELP}."),
    add: list[str] | None = typer.Option(None, "--add", metavar="CARD...", show_default=False,
                                            help="Cards added to the meld: judge the addition and what it pays."),
    arrange_: bool = typer.Option(False, "--arrange", help="Find the best legal arrangement of all the cards into melds."),
    out: bool = typer.Option(False, "--out", help="Require a legal going-out layout: 11 cards in 1-3 melds "
                                                  "(group them yourself with / between the melds)."),
    batch: bool = typer.Option(False, "--batch", help="Read one meld per line from standard input; "
                                                      "write one JSON object per line."),
    json_: bool = json_option("Print JSON instead of text."),
    preset: str | None = typer.Option(None, "--preset", "-p", metavar="PRESET", help=PRESET_HELP),
    rules_file: str | None = typer.Option(None, "--rules", metavar="FILE", help=RULES_HELP),
) -> None:
    """Judge a meld: legal or not, set or rope, its condition and what it is worth.

    Exit status: 0 legal, 1 not legal under the house rules, 2 bad input.

    Example: pan check 5S 5S 5S

    Example: pan check 5s5h5d --add 5S --json

    Example: pan check --arrange KS KS KS 5H 5H 5H 5H AC 2C 3C 4C

    Example: pan check --out KS KS KS / 5H 5H 5H 5H / AC 2C 3C 4C

    Example: printf '5S 5S 5S\\n5S 5S 5H\\n' | pan check --batch --preset cardroom-ca
    """
    from pancli.app.rulesfile import resolve  # noqa: PLC0415 start-up: the app layer

    rules = resolve(preset, rules_file)
    added_text = " ".join(add) if add is not None else None
    if added_text is not None and not added_text.strip():
        raise InputError(_("--add needs cards"), _("write the added cards after --add, e.g. --add 5S"))
    if batch:
        if cards:
            raise InputError(_("--batch reads the melds from standard input"), _("give no cards on the command line"))
        if added_text is not None:
            raise InputError(_("--add cannot be used with --batch"), _("write 'MELD + ADDED' on a line instead"))

        with in_english():  # its lines are JSON, the same in every language
            raise typer.Exit(_run_batch(rules, arrange_ or out, out))
    if not cards:
        raise InputError(_("no cards to check"), _("give the cards, e.g. pan check 5S 5S 5S"))
    if added_text is not None and (arrange_ or out):
        raise InputError(_("--add judges one meld"), _("leave out --arrange and --out"))

    if arrange_ or out:
        result, code = english_for_json(json_, lambda: _arrange_result(cards, rules, out))
        _emit_arrangement(result, json_, out)
        raise typer.Exit(code)
    if added_text is not None:
        result, code = english_for_json(json_, lambda: _addition_result(cards, [added_text], rules))
        _emit_addition(result, json_)
        raise typer.Exit(code)
    result, code = english_for_json(json_, lambda: _meld_result(cards, rules))
    _emit_meld(result, json_)
    raise typer.Exit(code)


# -- judging ------------------------------------------------------------------------------


def _words(tokens: Tokens) -> list[str]:
    """The card words of MeldsType values (tuples of pieces) or of plain words."""
    return [w for t in tokens for w in (t if isinstance(t, tuple) else (t,))]


def _parse(tokens: Tokens, rules: HouseRules) -> tuple[str, ...]:
    from pancli.games.panguingue.cards import parse_cards  # noqa: PLC0415 start-up: the game engine

    return parse_cards(_words(tokens), rules.rank_set)


def _reject_groups(tokens: Tokens) -> None:
    if has_separator(_words(tokens)):
        raise InputError(_("a single meld has no '/' between its cards"),
                         _("use --arrange or --out to check several melds, or --add for an addition"))


def _meld_result(tokens: Tokens, rules: HouseRules) -> tuple[dict[str, Any], int]:
    from pancli.games.panguingue.rulings import judge  # noqa: PLC0415 start-up: the game engine

    _reject_groups(tokens)
    ruling = judge(_parse(tokens, rules), rules)
    return ruling.to_json(), 0 if ruling.valid else 1


def _addition_result(tokens: Tokens, added_tokens: Tokens, rules: HouseRules) -> tuple[dict[str, Any], int]:
    from pancli.games.panguingue.conditions import tag_of  # noqa: PLC0415 start-up: the game engine
    from pancli.games.panguingue.rulings import judge, judge_addition  # noqa: PLC0415 start-up: the game engine

    _reject_groups(tokens)
    meld = _parse(tokens, rules)
    added = _parse(added_tokens, rules)
    if not added:
        raise InputError(_("--add needs cards"), _("write the added cards after --add, e.g. --add 5S"))
    base = judge(meld, rules)
    if not base.valid:
        return {"cards": list(meld) + list(added), "added": list(added), "valid": False, "kind": None,
                "condition": None, "worth": 0, "pays": 0,
                "reason": f"the meld itself is not legal: {base.reason}", "base": base.to_json()}, 1
    tag = tag_of(meld, rules)
    ruling = judge_addition(meld, tag, added, rules)
    data = ruling.to_json(meld, added)
    data.update(kind=base.kind if ruling.legal else None, worth=ruling.pays, base=base.to_json())
    # keep the documented key order: cards, added, valid, kind, condition, worth, pays, reason, base
    order = ["cards", "added", "valid", "kind", "condition", "worth", "pays", "reason", "base"]
    return {k: data[k] for k in order}, 0 if ruling.legal else 1


def _split_groups(tokens: Tokens) -> list[list[str]] | None:
    """The melds the player grouped (``pancli.core.grouping``), or None when not grouped."""
    words = _words(tokens)
    if not has_separator(words):
        return None
    return [text.split() for text in meld_texts(words)]


def _arrange_result(tokens: Tokens, rules: HouseRules, out: bool) -> tuple[dict[str, Any], int]:
    from pancli.games.panguingue import solver  # noqa: PLC0415 start-up: the game engine

    groups = _split_groups(tokens)
    if groups is not None:
        melds = [_parse(g, rules) for g in groups]
        cards = tuple(c for m in melds for c in m)
    else:
        melds = None
        cards = _parse(tokens, rules)
    try:
        if melds is not None:
            found = solver.check_layout(melds, rules, going_out=out)
        elif out:
            found = solver.check_out(cards, rules)
        else:
            found = solver.arrange(cards, rules)
    except RuleError as e:
        return {"cards": list(cards), "valid": False, "out": False, "worth": 0, "melds": [],
                "reason": str(e)}, 1
    data = found.to_json()
    is_out = len(found.cards) == solver.OUT_CARDS
    # The JSON's reason is English, for scripts; the text output says it in the language in force.
    with in_english():
        reason = _arranged_words(solver.OUT_CARDS if out else len(cards), len(found.melds), found.worth)
    return {"cards": data["cards"], "valid": True, "out": is_out, "worth": found.worth,
            "melds": data["melds"], "reason": reason}, 0


def _arranged_words(cards: int, n: int, worth: int) -> str:
    """``11 cards in 3 melds, conditions worth 4``: the locative of one meld differs from that of
    several (`w 1 układzie`, `w 3 układach`), so one meld has messages of its own."""
    if n == 1:
        return ngettext("{cards} card in 1 meld, conditions worth {worth}",
                        "{cards} cards in 1 meld, conditions worth {worth}", cards).format(cards=cards, worth=worth)
    return ngettext("{cards} card in {n} melds, conditions worth {worth}",
                    "{cards} cards in {n} melds, conditions worth {worth}", cards).format(cards=cards, n=n, worth=worth)


def _run_batch(rules: HouseRules, arranging: bool, out: bool) -> int:
    """One JSON object per input line; the worst exit status of all lines (2 bad input, 1 illegal)."""
    worst = 0
    for raw in sys.stdin:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            tokens = line.replace(",", " ").split()
            if arranging:
                data, code = _arrange_result(tokens, rules, out)
            elif "+" in tokens or "--add" in tokens:
                sep = tokens.index("+") if "+" in tokens else tokens.index("--add")
                data, code = _addition_result(tokens[:sep], tokens[sep + 1:], rules)
            else:
                data, code = _meld_result(tokens, rules)
        except PanError as e:
            data = {"cards": [], "valid": False, "kind": None, "condition": None, "worth": 0,
                    "reason": str(e), "input": line}
            code = e.exit_code

        sys.stdout.write(json_text(data) + "\n")
        sys.stdout.flush()
        worst = max(worst, code)
    return worst


# -- rendering ----------------------------------------------------------------------------


def _print_json(data: Any) -> None:
    print_json(data)


def _console() -> Console:
    con: Console = console(markup=True)
    return con  # its lines are markup: cards, and reasons escaped; rich wraps them at words


def _print_lines(lines: list[str]) -> None:
    """Print markup lines: through rich on a terminal (red hearts and diamonds), plain otherwise.

    Piped output carries no colour either way, so rich (a noticeable share of start-up) is only
    loaded when someone is looking; FORCE_COLOR asks for rich even when piped.
    """
    if os.environ.get("FORCE_COLOR") or sys.stdout.isatty():
        con = _console()
        for line in lines:
            for part in _wrapped(con.render_str(line), con.width):
                con.print(part, soft_wrap=True)
        return

    width = output_width() or 80
    plain = (re.sub(r"\[/?(?:red|green)\]", "", line) for line in lines)
    sys.stdout.write("".join(x + "\n" for line in plain for x in wrap_words(line, width)))


def _wrapped(text: Text, width: int) -> list[Text]:
    """Styled text broken between words as piped output is (``wrap_words``: later lines indented
    two more), its colours kept."""
    from rich.text import Text  # noqa: PLC0415 start-up: rich

    plain, pos, parts = text.plain, 0, list[Text]()
    for i, line in enumerate(wrap_words(plain, width)):
        body = line.lstrip(" ") if i else line
        start = plain.index(body, pos)
        parts.append(Text(line[:len(line) - len(body)]) + text[start:start + len(body)])
        pos = start + len(body)
    return parts


def _text(text: str) -> str:
    """A reason or other words in a markup line: shown literally."""
    if "[" not in text and not text.endswith("\\"):
        return text  # nothing to escape: rich (a share of start-up) stays unloaded when piped
    from rich.markup import escape  # noqa: PLC0415 start-up: rich

    return escape(text)


def _cards_markup(cards: Sequence[str]) -> str:
    from pancli.games.panguingue.cards import markup_cards  # noqa: PLC0415 start-up: the game engine
    from pancli.games.panguingue.melds import meld_order  # noqa: PLC0415 start-up: the game engine

    return markup_cards(meld_order(cards)) if cards else ""


def _condition_words(tag: str | None, cards: Sequence[str], with_tag: bool = True) -> str:
    from pancli.games.panguingue.conditions import NONE, describe  # noqa: PLC0415 start-up: the game engine

    if not tag or tag == NONE:
        return _("no condition")
    return f"{describe(tag, cards)} ({tag})" if with_tag else describe(tag, cards)


def _emit_meld(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        _print_json(data)
        return
    lines = [_cards_markup(data["cards"])]
    if data["valid"]:
        # Translators: `pan check`'s ruling on a meld: "legal set, one-suit valle set in spades"
        lines.append("  " + _("{legal}, {condition}").format(legal=f"[green]{_text(_legal(data['kind']))}[/green]",
                                                            condition=_condition_words(data["condition"], data["cards"])))
        lines.append("  " + _text(_("worth {worth} from each payer").format(worth=data["worth"])))
    else:
        lines.append(_not_legal(data["reason"]))
    _print_lines(lines)


def _legal(kind: str) -> str:
    """``legal set``, ``legal rope``: one message each, as the adjective agrees with the noun."""
    known = LEGAL.get(kind)
    return _(known) if known is not None else _("legal {kind}").format(kind=kind)


def _kind(kind: str) -> str:
    known = KINDS.get(kind)
    return _(known) if known is not None else str(kind)


def _not_legal(reason: str) -> str:
    said = _("not legal")
    # Translators: `pan check`'s ruling on what breaks a rule: "not legal: a set needs three cards"
    return "  " + _("{not_legal}: {reason}").format(not_legal=f"[red]{_text(said)}[/red]", reason=_text(reason))


def _emit_addition(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        _print_json(data)
        return
    base = data["base"]
    lines = [f"{_cards_markup(base['cards'])} + {_cards_markup(data['added'])}"]
    if not base["valid"]:  # the JSON's reason is English, for scripts
        lines.append(_not_legal(_("the meld itself is not legal: {reason}").format(reason=base["reason"])))
    else:
        ruling = f"{_legal(base['kind'])}, {_condition_words(base['condition'], base['cards'])}"
        lines.append("  " + _text(_("the meld: {ruling}").format(ruling=ruling)))
        if data["valid"]:
            said = _("legal addition")
            lines.append(f"  [green]{_text(said)}[/green]: {_text(data['reason'])}")
            lines.append("  " + _text(_("pays {pays} from each payer").format(pays=data["pays"])))
        else:
            lines.append(_not_legal(data["reason"]))
    _print_lines(lines)


def _emit_arrangement(data: dict[str, Any], as_json: bool, out: bool) -> None:
    if as_json:
        _print_json(data)
        return
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    if not data["valid"]:
        _print_lines([_cards_markup(data["cards"]), _not_legal(data["reason"])])
        return
    from pancli.cli.render import column  # noqa: PLC0415 start-up: cli.render
    from pancli.games.panguingue.solver import OUT_CARDS  # noqa: PLC0415 start-up: the game engine

    con = _console()
    title = _("legal way out") if out else _("best arrangement")
    reason = _arranged_words(OUT_CARDS if out else len(data["cards"]), len(data["melds"]), data["worth"])
    con.print(f"[green]{_text(title)}[/green]: {_text(reason)}")
    table = Table(box=None, show_header=True, pad_edge=False, padding=(0, 2, 0, 2))
    for col in ("cards", "kind", "condition", "worth"):
        table.add_column(_text(column(col)), justify="right" if col == "worth" else "left")
    for m in data["melds"]:
        table.add_row(_cards_markup(m["cards"]), _text(_kind(m["kind"])),
                      _text(_condition_words(m["condition"], m["cards"], False)), str(m["worth"]))
    con.print(table)
