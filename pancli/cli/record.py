"""Recording a real table: sessions, seats, the deal, drops, melds, going out, undo, and what to look at."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from pancli.cli.action_commands import add_commands
from pancli.cli.context import app_context
from pancli.cli.groups import command_set, new_app
from pancli.cli.output import console, echo, english_for_json, print_json, styled
from pancli.cli.params import EVENTS, HAND, PLAYER, SESSION
from pancli.cli.render import show_step
from pancli.core.errors import InputError
from pancli.core.i18n import _, pgettext
from pancli.games import DEFAULT_GAME

if TYPE_CHECKING:
    from pancli.app.view_types import HistoryJson

commands = command_set()  # what this module adds to `pan`

session_app = new_app("Start, list, show, switch and close sessions.\n\n"
                      "Example: pan session new friday --players Ana,Ben,Cruz --preset hoyle")
seat_app = new_app("Players arrive and leave between hands.\n\nExample: pan seat add Eve --after Ben")
commands.add_typer(session_app, name="session")
commands.add_typer(seat_app, name="seat")

JSON = typer.Option(False, "--json", help="Print JSON for scripts.")


def pan_recorder():
    """The current session's recorder, refusing sessions of the other games: pan's own recording
    commands (deal, meld …) are the default game's."""
    from pancli.games import default_game

    recorder = app_context().open_recorder()
    game, own = recorder.session.game, default_game()
    if not recorder.game.at_top:  # its actions are its own group's (`pan contract …`)
        raise InputError(_("session '{session}' plays {game}, not {title}").format(
                             session=recorder.session.name, game=game, title=_(own.title)),
                         _("record it with `pan {game} …` (see `pan {game} --help`)").format(game=game))
    return recorder


def record(*events: dict):
    """Record events on the current session as one command and print what happened."""
    from pancli.core.bank import BANK_KINDS

    recorder = app_context().open_recorder() if events[0]["kind"] in BANK_KINDS else pan_recorder()
    quiet = app_context().quiet
    steps = recorder.record_many(list(events), worded=not quiet)  # the words are not made only to be dropped
    if not quiet:
        for step in steps:
            show_step(step)
    return steps[-1]


def player(text: str) -> str:
    return app_context().open_recorder().player(text)


# -- sessions ----------------------------------------------------------------------------

@session_app.command("new")
def session_new(
    name: str = typer.Argument(..., help="A name for the evening, e.g. fri-2026-11-27."),
    players: str = typer.Option(..., "--players", "-p", help="Players in seating order, comma-separated; the one after the dealer is eldest."),
    dealer: str | None = typer.Option(None, "--dealer", help="Who deals the first hand (default: the first listed)."),
    preset: str | None = typer.Option(None, "--preset", help="House-rules preset: hoyle, cardroom-ca, online-pan, japanese-wp."),
    rules: str | None = typer.Option(None, "--rules", help="House-rules TOML file (copied into the session)."),
    chip_value: str | None = typer.Option(None, "--chip-value", metavar="AMOUNT",
                                             help="Money per chip, for standings and settle-up (above 0, at most 4 decimals)."),
    game: str = typer.Option(DEFAULT_GAME, "--game", help="panguingue, contract or polish."),
    currency: str | None = typer.Option(None, "--currency", metavar="CODE",
                                        help="The money played for, as an ISO 4217 code (PLN, RUB, EUR): "
                                             "the chip value is then in its smallest unit."),
    house_language: str | None = typer.Option(None, "--house-language", metavar="LANG",
                                              help="What the phone pages speak when a phone asks for "
                                                   "no language of its own: en, pl or ru."),
):
    """Start a session and make it the current one.

    Example: pan session new friday --players Ana,Ben,Cruz,Dee --dealer Dee --preset hoyle
    """
    from pancli.app.sessions import new_session

    made = new_session(lambda: app_context().open_store(create=True), name, players.split(","),
                       game=game, dealer=dealer, preset=preset, rules=rules, chip_value=chip_value,
                       currency=currency, language=house_language)
    app_context().forget_session()
    echo(made.words)


@session_app.command("list")
def session_list(as_json: bool = JSON):
    """List the sessions in the database (the current one is marked).

    Example: pan session list
    """
    from pancli.app.views import session_list_data

    rows = english_for_json(as_json, lambda: session_list_data(app_context().open_store(create=False)))
    if as_json:
        print_json(rows)
        return
    from pancli.core.numbers import date_text
    from pancli.core.text import wrap_words

    out = console()
    for r in rows:
        mark = "*" if r["current"] else " "
        closed = " " + _("(closed)") if r["closed"] else ""
        device = r["device_label"] or (r["device"] or "")[:8] or _("another device")
        away = "" if r["recorded_here"] else " " + _("(recorded on {device}, read-only here)").format(device=device)
        line = f"  {r['name']}  {r['game']}  {date_text(r['created_at'])}  {', '.join(r['players'])}{closed}{away}"
        first, *more = wrap_words(line, out.width)  # indented as a row of its own: more lines under the name
        for part in [mark + first[1:], *more]:
            out.print(part, soft_wrap=True)


@session_app.command("show")
def session_show(name: str | None = typer.Argument(None, click_type=SESSION, help="Session name (default: the current one)."),
                 as_json: bool = JSON):
    """Show a session: game, seats, house rules that differ from the preset defaults, status.

    Example: pan session show friday
    """
    store = app_context().open_store(create=False)
    recorder = app_context().open_recorder(name)
    s = recorder.session
    state = recorder.state()
    seats = recorder.game.seats(state)
    from pancli.core.money import shown_chip_value
    from pancli.core.numbers import chip_price, currency_name, datetime_text
    from pancli.games import game as get_game
    from pancli.storage.catalogs import language_names

    g = get_game(s.game)
    defaults = g.rules_to_dict(g.schema.defaults)
    changed = {k: v for k, v in s.rules.items() if defaults.get(k) != v}
    data = {"name": s.name, "game": s.game, "created_at": s.created_at, "seats": seats,
            "chip_value": shown_chip_value(s.chip_value), "currency": s.currency, "language": s.language,
            "closed": bool(s.closed_at), "rules_changed": changed, "db": str(store.path)}
    if as_json:
        print_json(data)
        return
    out = console()
    head = _("Session {name} · {game} · started {created_at}").format(name=s.name, game=s.game, created_at=datetime_text(s.created_at))
    out.print(head + (" · " + pgettext("session", "closed") if s.closed_at else ""))
    out.print(_("Seats: {seats}").format(seats=", ".join(seats)))
    if changed:
        out.print(_("House rules: {changes}").format(changes=", ".join(f"{k} = {v}" for k, v in changed.items())))
    else:
        out.print(_("House rules: the defaults"))
    if data["chip_value"]:
        out.print(_("Chip value: {value}").format(value=chip_price(data["chip_value"], s.currency)))
    if s.currency:
        # Translators: {name} is the currency's name in your language (złoty polski), {code} its ISO code
        out.print(_("Currency: {name} ({code})").format(name=currency_name(s.currency), code=s.currency))
    if s.language:
        # Translators: {language} is the language's own name (polski, русский): the phones' default
        out.print(_("The phones' language: {language}").format(language=language_names().get(s.language, s.language)))


@session_app.command("use")
def session_use(name: str = typer.Argument(..., click_type=SESSION, help="Session to make current.")):
    """Make another session the current one.

    Example: pan session use friday
    """
    store = app_context().open_store(create=False)
    s = store.session(name)
    with store.lock():
        store.set_setting("current_session", str(s.id))
    app_context().forget_session()
    echo(_("Current session: {name}").format(name=s.name))


@session_app.command("close")
def session_close(name: str | None = typer.Argument(None, click_type=SESSION, help="Session to close (default: the current one).")):
    """Close a session: nothing more can be recorded in it. Refused while a hand is in play.

    Example: pan session close
    """
    recorder = app_context().open_recorder(name)
    recorder.check_writable()
    state = recorder.state()
    if recorder.game.hand_open(state):  # a hand of Panguingue, a deal of the contract game
        voids = any(a.name == "void" for a in recorder.game.actions)
        raise InputError(_("{hand} is still in play").format(hand=recorder.game.status(state)),
                         _("finish it (`pan out`), void it (`pan void`), or undo the deal first") if voids
                         else _("finish it, or undo what was recorded of it (`pan undo`), first"))
    store = recorder.store
    with store.lock():
        store.close_session(recorder.session.id)
    app_context().forget_session()
    echo(_("Session {name} is closed.").format(name=recorder.session.name))


# -- seats and the hand: the default game's declared actions ------------------------------------

def record_action(action, words: dict):
    """Record one of the default game's declared actions: the events its declaration builds from
    the command's words, as their click types read them."""
    from pancli.cli.action_commands import values_at_top

    return record(*action.build(values_at_top(action, words)))


def _own_actions() -> list:
    """The default game's actions but the bank's (`pan buyin`, `pan cashout` are cli/commands/after_game/reports.py's)."""
    from pancli.games import default_game
    from pancli.games.actions import BANK_ACTIONS

    return [a for a in default_game().actions if a not in BANK_ACTIONS]


add_commands({(): commands, ("seat",): seat_app}, _own_actions(), record_action, at_top=True)


@commands.command()
def undo():
    """Void the last effective event with its payments; repeatable. The history keeps it, marked.

    Example: pan undo
    """
    from pancli.core.text import payment_lines

    recorder = app_context().open_recorder()
    last, voided = recorder.undo()
    echo(recorder.game.event_words({"kind": "undo", "undid": last.kind, "seq": last.seq}, last.payload))
    for line in payment_lines(voided):
        echo("  " + _("voided: {payment}").format(payment=line))


# -- looking ------------------------------------------------------------------------------

@commands.command()
def board(as_json: bool = JSON):
    """The current hand: dealer, eldest, who is in, everyone's numbered melds and worth, chips moved, tops.

    Example: pan board --json
    """
    from pancli.app.views import board_data
    from pancli.cli.render import board_table

    recorder = pan_recorder()
    data = english_for_json(as_json, lambda: board_data(recorder))
    if as_json:
        print_json(data)
    else:
        console().print(board_table(data, recorder.game))


@commands.command()
def standings(as_json: bool = JSON, name: str | None = typer.Option(None, "--session", click_type=SESSION, help="Session (default: current)."),
              season: str | None = typer.Option(None, "--season", metavar="YEAR|all",
                                                   help="Every session of a year (or all of them), from every device synced here."),
              game: str = typer.Option(DEFAULT_GAME, "--game", help="With --season: which game's sessions.")):
    """Per player: net chips (and money), hands played, won, dropped, conditions collected.

    Example: pan standings --season 2026
    """
    from pancli.cli.render import standings_table

    if season is not None:
        from pancli.app.reports import season_standings
        from pancli.cli.render import season_table

        data = english_for_json(as_json, lambda: season_standings(app_context().open_store(create=False),
                                                                  None if season == "all" else season, game))
        if as_json:
            print_json(data)
        else:
            console().print(season_table(data))
        return
    from pancli.app.views import standings_data

    standings = english_for_json(as_json, lambda: standings_data(app_context().open_recorder(name)))
    if as_json:
        print_json(standings)
    else:
        console().print(standings_table(standings))


@commands.command()
def history(hand: int | None = typer.Option(None, "--hand", click_type=HAND, help="Only this hand."),
            player: str | None = typer.Option(None, "--player", click_type=PLAYER, metavar="NAME",
                                              help="Only the events about this player."),
            last: int | None = typer.Option(None, "--last", metavar="N", click_type=EVENTS,
                                            help="Only the last N events (of the hand or player, if given)."),
            no_pager: bool = typer.Option(False, "--no-pager", help="Never page a long history on a terminal."),
            as_json: bool = JSON):
    """Every event with its payments and reasons; undone events are marked.

    Piped, each event and each payment is one line (for grep). On a terminal a history taller than
    the window is shown in a pager (PAGER, else less), as git does.

    Example: pan history --hand 2

    Example: pan history --player ana --last 5
    """
    from pancli.app.views import history_data, pick_events
    from pancli.core.text import payment_lines

    recorder = app_context().open_recorder()

    def picked() -> HistoryJson:
        data = history_data(recorder.store, recorder.session, hand)
        data["events"] = pick_events(data["events"], player, last)
        return data

    data = english_for_json(as_json, picked)  # an event's words in --json are English
    if as_json:
        print_json(data)
        return
    out = console()
    if not out.is_terminal:
        out.soft_wrap = True  # one line an event, one a payment: grep finds them whole
    lines = []
    deals = recorder.game.round_word == "deal"  # the contract game and Polish Pan are played in deals
    # Translators: a line of the history of a game played in deals (the contract game, Polish Pan)
    deal_head = _("#{seq} deal {hand} {event}")
    for e in data["events"]:
        mark = (" " + _("(undone)"), "dim") if e["voided"] else ""
        said = deal_head if deals else _("#{seq} hand {hand} {event}")
        head = said.format(seq=f"{e['seq']:<4}", hand=f"{e['hand'] or '-':<3}", event=e["text"])
        lines.append(styled(head, mark))
        for line in payment_lines(e["payments"]):
            lines.append(styled((f"        {line}", "dim" if e["voided"] else None)))
    if not lines:
        if player and hand is not None:
            echo(_("No events about {player} in hand {hand}.").format(player=player, hand=hand))
        elif player:
            echo(_("No events about {player}.").format(player=player))
        elif hand is not None:
            echo(_("No events in hand {hand}.").format(hand=hand))
        else:
            echo(_("No events."))
        return
    show_paged(out, lines, pager=not no_pager)


def show_paged(out, renderables, pager: bool = True) -> None:
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
    import os
    import pydoc

    os.environ.setdefault("LESS", "-FRX")  # less keeps the colours, and quits at once if it fits after all
    pydoc.pager(text)  # PAGER (or MANPAGER) if set, else less or more
