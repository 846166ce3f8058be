"""Starting a session: checking what the host gave, storing it, making it the current one.

The command line (`pan session new`) and the dealer's phone start a session the same way: the
names, the game, its house rules, the chip value (in whole minor units of the session's currency,
when it has one), the house language and the first dealer are checked, the game makes
its first state from them (so counts and seats are refused before anything is stored), and then
the session is stored and made current in one lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pancli.app.recorder import Recorder, resolve_player
from pancli.app.rulesfile import resolve as resolve_rules
from pancli.core.errors import InputError, MovedOn, PanError
from pancli.core.i18n import N_, _, sentence
from pancli.core.money import (
    Field,
    chip_value as money_per_chip,
    chip_value_in,
    currencies_in_use,
    currency as currency_code,
    shown_chip_value,
)
from pancli.core.names import clean_name, clean_players
from pancli.core.numbers import currency_name, decimal_text, typed_decimal
from pancli.games import GAMES, game as get_game
from pancli.storage.catalogs import available, language_names

if TYPE_CHECKING:
    from pancli.storage.store import Store


@dataclass(frozen=True)
class NewSession:
    """A session just started: its id, and the words that say so."""

    id: int
    name: str
    game: str
    players: tuple[str, ...]
    dealer: str
    words: str


def new_session(store_opener: Callable[[], Store], name: str, players: Iterable[str], *, game: str,
                dealer: str | None = None, preset: str | None = None,
                rules: str | Path | None = None, chip_value: str | None = None,
                currency: str | None = None, language: str | None = None, form: bool = False) -> NewSession:
    """Check everything, then store the session and make it current.

    ``currency`` (ISO 4217) makes the chip value a whole number of its minor units; ``language``
    is the house language of the phone pages. Without them the session is as it always was.
    The chip value is read as the language in force writes an amount (``0,50`` in Polish).
    ``form``: what was given comes from the phone's New game form, whose refusals name its
    fields (the command line's name its options).

    ``store_opener`` is called only once all is checked, so a refusal never creates a database.
    """
    g = get_game(game)
    name = clean_name(name, "session")
    names = clean_players(p for p in players if p.strip())
    house = resolve_rules(preset, rules, g.name)
    money_where, currency_where, language_where = (
        (Field(_("Money per chip")), Field(_("Currency")), Field(_("House language"))) if form
        else ("--chip-value", "--currency", "--house-language"))
    code = currency_code(currency, currency_where) if currency is not None else None
    value = chip_value_in(money_per_chip(typed_decimal(chip_value), money_where), code, money_where) \
        if chip_value is not None else None
    house_language = known_language(language, language_where) if language is not None else None
    first = resolve_player(names, dealer) if dealer else None
    g.new_state(house, names, first)  # checks names, counts and seats before anything is stored
    store = store_opener()
    with store.lock():
        sid = store.create_session(name, g.name, names, first, g.rules_to_dict(house),
                                   float(value) if value is not None else None,  # exact through repr: see core/money
                                   currency=code, language=house_language)
        store.set_setting("current_session", str(sid))
    if store.setting("club_id"):  # a seat typed with a person's alias counts for them at once
        from pancli.app.club_held import refresh_held  # noqa: PLC0415 only a club's host has a roster

        refresh_held(store)
    deals = first or names[0]
    words = sentence(_("Session {name} ({game}): {players}. {dealer} deals first. It is now the current session."),
                     name=name, game=_(g.title), players=", ".join(names), dealer=deals)
    return NewSession(sid, name, g.name, tuple(names), deals, words)


# -- from the dealer's phone: the choices the "New game" form offers, and the tap that starts one --

MAX_PLAYERS = 16   # more seats than any game has: a longer list is no table's
MAX_TEXT = 200     # characters of one field: a name is at most 40 (core/names)


def new_game_choices(store: Store, session: str | None, today: str) -> dict[str, Any]:
    """What the form proposes: every game with its presets, a name (today's date and the game),
    the players of the session in view in their seats, and the night's money and words, which
    the new game inherits unless the dealer changes them: its chip value (as the page's language
    writes an amount), its currency and its house language ("" for none), each with the choices
    the form offers. ``session_uid`` names the session in view, for the start to be refused if
    the table has moved on meanwhile."""
    try:
        s = store.session(session)
    except PanError:  # no session yet: the form starts empty
        s = None
    players = list(s.players) if s else []
    value = shown_chip_value(s.chip_value) if s else None
    games = [{"name": g.name, "title": _(g.title), "chips": bool(g.in_chips),
              "presets": [{"name": p, "note": g.schema.note_text(p)} for p in g.schema.presets],
              "preset": g.schema.default_preset, "proposed": f"{today}-{g.name}"}
             for g in GAMES.values()]
    currency = (s.currency if s else None) or ""
    language = (s.language if s else None) or ""
    codes = sorted({*currencies_in_use(), *([currency] if currency else [])})
    return {"games": games, "players": players, "chip_value": decimal_text(value) if value is not None else "",
            "game": s.game if s else games[0]["name"], "session_uid": s.mark if s else "",
            "currency": currency, "language": language,
            # Translators: the choice of no currency (or no house language) on the New game form
            "currencies": [{"value": "", "label": _("none")}] +
                          [{"value": c, "label": f"{c} · {currency_name(c)}"} for c in codes],
            "languages": [{"value": "", "label": _("none")}] +
                         [{"value": c, "label": n} for c, n in language_names().items()]}


# The fields of the New game form, each refusal a whole message: (missing, its hint, too long).
_FIELDS = {
    "name": (N_("the new game has no name"), N_("fill in its name"), N_("the new game's name is not a short text")),
    "game": (N_("the new game has no game"), N_("fill in its game"), N_("the new game's game is not a short text")),
    "dealer": (N_("the new game has no dealer"), N_("fill in its dealer"),
               N_("the new game's dealer is not a short text")),
    "preset": (N_("the new game has no preset"), N_("fill in its preset"),
               N_("the new game's preset is not a short text")),
    "chip_value": (N_("the new game has no chip value"), N_("fill in its chip value"),
                   N_("the new game's chip value is not a short text")),
}


def _text(body: dict[str, Any], name: str, *, required: bool = True) -> str | None:
    value = body.get(name)
    missing_, hint, too_long = _FIELDS[name]
    if value is None or value == "":
        if required:
            raise InputError(_(missing_), _(hint))
        return None
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise InputError(_(too_long), _("fill it in again"))
    return value


def _between_hands(store: Store, session: str | None) -> None:
    """Refused while the session in view has a hand or a deal in play, by its game's own
    notion of it (Game.hand_open): the game is named, and what to finish first."""
    try:
        rec = Recorder(store, store.session(session))
    except PanError:  # no session yet: nothing is in play
        return
    state = rec.state()
    if not rec.session.closed_at and rec.game.hand_open(state):
        # Translators: {game} is the game's title; {hand} its words for the hand or deal in play ("deal 2")
        raise InputError(_("{game}: {hand} is still in play").format(game=_(rec.game.title),
                                                                     hand=rec.game.status(state)),
                         _("finish it, or undo it, before a new game"))


def _still_at(store: Store, session: str | None, seen: object) -> None:
    """Refused (MovedOn) unless the table is still at the session the page saw (its uid, "" for
    none): another phone or the keyboard may have started a game meanwhile."""
    if not isinstance(seen, str):
        raise InputError(_("the new game does not say which game the page showed"),
                         _("reload the dealer page and tap again"))
    try:
        now = store.session(None)
    except PanError:  # no current session: the one in view, if any
        try:
            now = store.session(session)
        except PanError:
            now = None
    if (now.mark if now else "") != seen:
        raise MovedOn(_("the table moved on since the page showed it (now: {session})").format(
                          session=now.name if now else "-"),
                      _("look at the table, then start the new game again"))


def known_language(code: str, where: str = "--house-language") -> str:
    """A language pancli speaks (``pl``, ``ru``, ``en``), or InputError in one line (naming the
    form's field when ``where`` is one, core/money.Field)."""
    text = code.strip().lower() if isinstance(code, str) else ""
    if text not in available():
        wrong = _("{where}: {value} is not a language pancli speaks") if isinstance(where, Field) \
            else _("{where} {value} is not a language pancli speaks")
        raise InputError(wrong.format(where=where, value=str(code)[:40]),
                         _("give one of {codes}").format(codes=", ".join(available())))
    return text


# The New game form's fields for the money played for and the house language.
_FIELDS.update({
    "currency": (N_("the new game has no currency"), N_("fill in its currency"),
                 N_("the new game's currency is not a short text")),
    "language": (N_("the new game has no house language"), N_("fill in its house language"),
                 N_("the new game's house language is not a short text")),
})


def _inherited(body: dict[str, Any], name: str, night: str | None) -> str | None:
    """A field of the form: the night's value when the form does not send it, none when sent empty."""
    if name not in body:
        return night
    return _text(body, name, required=False)


def start_from_phone(store: Store, session: str | None, body: dict[str, Any]) -> dict[str, Any]:
    """Start a session from the dealer's page, once: a retry of the same tap answers with the
    words of the first time; the same key sent with another request is refused. Refused if the
    table moved on since the page showed it (``session``: the uid of the session it showed),
    and while the session in view has a hand or a deal in play: the table starts the next game
    between hands. The new game inherits the night's (the session in view's) chip value,
    currency and house language, unless the form sends others ("" for none)."""
    from pancli.app.actions import answered_before, check_key, digest  # noqa: PLC0415 the dealer's keys: not for `pan session new`

    key = check_key(body.get("key"))
    wanted = digest(body)
    with store.lock():
        if (first := answered_before(store, key, wanted)) is not None:
            return first
        _still_at(store, session, body.get("session"))
        _between_hands(store, session)
        players = body.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise InputError(_("the new game has no list of players"), _("add the players in their seats"))
        if len(players) > MAX_PLAYERS or any(len(p) > MAX_TEXT for p in players):
            raise InputError(_("the new game has more than {n} players").format(n=MAX_PLAYERS), _("remove some"))
        name = _text(body, "name")
        if store.session_named(clean_name(name or "", "session")) is not None:  # exactly this name, never its start
            raise InputError(_("a session named '{name}' exists already").format(name=name), _("type another name"))
        try:
            night = store.session(session)
        except PanError:  # the first game of the night
            night = None
        value = shown_chip_value(night.chip_value) if night else None
        made = new_session(lambda: store, name or "", players, game=_text(body, "game") or "",
                           dealer=_text(body, "dealer", required=False),
                           preset=_text(body, "preset", required=False),
                           chip_value=_inherited(body, "chip_value", format(value, "f") if value is not None else None),
                           currency=_inherited(body, "currency", night.currency if night else None),
                           language=_inherited(body, "language", night.language if night else None), form=True)
        result = {"action": "new_game", "lines": [made.words], "session": made.name}
        store.actions.put(key, made.id, wanted, result)
    return {**result, "replayed": False}
