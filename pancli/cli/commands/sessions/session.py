"""`pan session new|list|show|use|close`: the sessions of the database."""

from __future__ import annotations

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set, new_app
from pancli.cli.options import JSON
from pancli.cli.output import console, echo, print_json
from pancli.cli.params import SESSION
from pancli.core.errors import InputError
from pancli.core.i18n import _, pgettext
from pancli.games import DEFAULT_GAME, game as get_game
from pancli.storage.catalogs import language_names

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)


session_app = new_app("Start, list, show, switch and close sessions.\n\n"
                      "Example: pan session new friday --players Ana,Ben,Cruz --preset hoyle")
commands.add_typer(session_app, name="session")


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
) -> None:
    """Start a session and make it the current one.

    Example: pan session new friday --players Ana,Ben,Cruz,Dee --dealer Dee --preset hoyle
    """
    from pancli.app.sessions import new_session  # noqa: PLC0415 start-up: the app layer

    made = new_session(lambda: app_context().open_store(create=True), name, players.split(","),
                       game=game, dealer=dealer, preset=preset, rules=rules, chip_value=chip_value,
                       currency=currency, language=house_language)
    app_context().forget_session()
    echo(made.words)


@session_app.command("list")
def session_list(as_json: bool = JSON) -> None:
    """List the sessions in the database (the current one is marked).

    Example: pan session list
    """
    from pancli.cli.commands.after_game.sessions import list_briefly  # noqa: PLC0415 start-up: another command's module

    list_briefly(as_json)


@session_app.command("show")
def session_show(name: str | None = typer.Argument(None, click_type=SESSION, help="Session name (default: the current one)."),
                 as_json: bool = JSON) -> None:
    """Show a session: game, seats, house rules that differ from the preset defaults, status.

    Example: pan session show friday
    """
    store = app_context().open_store(create=False)
    recorder = app_context().open_recorder(name)
    s = recorder.session
    state = recorder.state()
    seats = recorder.game.seats(state)
    from pancli.core.money import shown_chip_value  # noqa: PLC0415 start-up: decimal
    from pancli.core.numbers import chip_price, currency_name, datetime_text  # noqa: PLC0415 start-up: decimal

    g = get_game(s.game)
    defaults = g.rules_to_dict(g.schema.defaults)
    changed = {k: v for k, v in s.rules.items() if defaults.get(k) != v}
    chip_value = shown_chip_value(s.chip_value)
    data = {"name": s.name, "game": s.game, "created_at": s.created_at, "seats": seats,
            "chip_value": chip_value, "currency": s.currency, "language": s.language,
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
    if chip_value:
        out.print(_("Chip value: {value}").format(value=chip_price(chip_value, s.currency)))
    if s.currency:
        # Translators: {name} is the currency's name in your language (złoty polski), {code} its ISO code
        out.print(_("Currency: {name} ({code})").format(name=currency_name(s.currency), code=s.currency))
    if s.language:
        # Translators: {language} is the language's own name (polski, русский): the phones' default
        out.print(_("The phones' language: {language}").format(language=language_names().get(s.language, s.language)))


@session_app.command("use")
def session_use(name: str = typer.Argument(..., click_type=SESSION, help="Session to make current.")) -> None:
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
def session_close(name: str | None = typer.Argument(None, click_type=SESSION, help="Session to close (default: the current one).")) -> None:
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
