"""The club: `pan club init|grant|revoke|add|alias|attribute|merge|unmerge|retire|show|season close`, one
person across every host, kept in the folder `pan sync` shares."""

from __future__ import annotations

from typing import Any

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set, new_app
from pancli.cli.options import JSON
from pancli.cli.output import console, english_for_json, print_json, say
from pancli.core.i18n import _, ngettext, sentence
from pancli.games import DEFAULT_GAME

club_app = new_app("The club: one person across every host and table, in the folder `pan sync` shares.\n\n"
                   "Example: pan club add Ana --alias ana --alias \"Anna K.\"")
commands = command_set()  # what this module adds to `pan`
commands.add_typer(club_app, name="club")
season_app = new_app("A season of the club: its sessions, closed for every host.\n\nExample: pan club season close 2026")
club_app.add_typer(season_app, name="season")


def _done(as_json: bool, data: dict[str, Any], text: str) -> None:
    if as_json:
        print_json(data)
    else:
        say(text)


@club_app.command("init")
def init_cmd(name: str = typer.Argument(..., help="The club's name."),
             folder: str | None = typer.Option(None, "--folder", metavar="FOLDER",
                                               help="The shared folder (default: the one `pan sync` used last)."),
             as_json: bool = JSON) -> None:
    """Start a club in the shared folder, with this device as its first registrar.

    Example: pan club init "Friday club" --folder ~/Sync/pan-club
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.init(app_context().open_store(create=True), folder, name)
    _done(as_json, data, _("Started the club {name}; this device is its registrar.").format(name=data["name"]))


@club_app.command("join")
def join_cmd(club_id: str = typer.Argument(..., metavar="ID", help="The club's id (its first 8 digits will do)."),
             folder: str | None = typer.Option(None, "--folder", metavar="FOLDER",
                                               help="The shared folder (default: the one `pan sync` used last)."),
             as_json: bool = JSON) -> None:
    """Say which club of the folder this host belongs to (where the folder holds two).

    Example: pan club join 3f2a9c1e
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.join(app_context().open_store(create=True), club_id, folder)
    _done(as_json, data, sentence(_("This host belongs to the club {name}."), name=data["name"]))


@club_app.command("grant")
def grant_cmd(device: str = typer.Argument(..., help="The device: its name or id, as `pan sync --status` lists it."),
              as_json: bool = JSON) -> None:
    """Make another device a registrar: it may add people, aliases, attributions and merges.

    Example: pan club grant kasia-laptop
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.grant(app_context().open_store(create=False), device)
    _done(as_json, data, _("Registrar from now on: {device} (key {fingerprint}).").format(
        device=data["label"], fingerprint=data["fingerprint"]))


@club_app.command("revoke")
def revoke_cmd(device: str = typer.Argument(..., help="The device: its name or id."), as_json: bool = JSON) -> None:
    """Take a device's right to write the roster away (a lost laptop): what it wrote until now stands.

    Example: pan club revoke old-laptop
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.revoke(app_context().open_store(create=False), device)
    if not data["upto"]:
        said = _("Revoked: {device}; it had written no entries.").format(device=data["label"])
    else:
        said = ngettext("Revoked: {device}; its {n} entry until now stands.",
                        "Revoked: {device}; its {n} entries until now stand.", data["upto"]).format(
            device=data["label"], n=data["upto"])
    _done(as_json, data, said)


SHARED_HELP = ("The name is another person's too: two people go by it, and a seat typed so counts "
               "for neither until `pan club attribute` says who sat there.")


@club_app.command("add")
def add_cmd(name: str = typer.Argument(..., help="The person's name, as the club shows it."),
            alias: list[str] = typer.Option([], "--alias", metavar="NAME",
                                            help="Another spelling typed at a table (again for more)."),
            shared: bool = typer.Option(False, "--shared", help=SHARED_HELP),
            as_json: bool = JSON) -> None:
    """Add a person to the club; a seat typed with their name or an alias counts for them.

    Example: pan club add Ana --alias ana --alias "Anna K."
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.add(app_context().open_store(create=False), name, alias, shared)
    _done(as_json, data, _("Added to the club: {name} ({id}).").format(name=data["name"], id=data["person"][:6]))


@club_app.command("alias")
def alias_cmd(person: str = typer.Argument(..., help="The person: a name, alias or id."),
              name: str = typer.Argument(..., help="Another spelling typed at a table."),
              shared: bool = typer.Option(False, "--shared", help=SHARED_HELP), as_json: bool = JSON) -> None:
    """Another spelling of a person's name: every seat typed so counts for them.

    Example: pan club alias Ana "Anna K."
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.alias(app_context().open_store(create=False), person, name, shared)
    if data["shared"]:
        said = _("{alias} is a name of {name} too: a seat typed so counts for nobody until `pan club attribute` "
                 "says who sat there.").format(alias=data["alias"], name=data["name"])
    else:
        said = sentence(_("A seat named {alias} counts for: {name}."), alias=data["alias"], name=data["name"])
    _done(as_json, data, said)


@club_app.command("attribute")
def attribute_cmd(person: str = typer.Argument(..., help="The person: a name, alias or id."),
                  session: str = typer.Option(..., "--session", metavar="SESSION", help="The session's name."),
                  seat: str = typer.Option(..., "--seat", metavar="NAME", help="The name typed at that seat."),
                  as_json: bool = JSON) -> None:
    """Say who sat in one seat of one session (where a name is shared or misspelled).

    Example: pan club attribute Ana --session "Friday 3" --seat An
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.attribute(app_context().open_store(create=False), person, session, seat)
    _done(as_json, data, sentence(_("The seat {seat} of {session} counts for: {name}."),
        seat=data["seat"], session=data["session"], name=data["name"]))


@club_app.command("merge")
def merge_cmd(person: str = typer.Argument(..., help="The person who stays."),
              other: str = typer.Argument(..., help="The same person, entered twice."), as_json: bool = JSON) -> None:
    """Two entries of the club are one person (undo it with `pan club unmerge`).

    Example: pan club merge Ana "Anna K."
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.merge(app_context().open_store(create=False), person, other)
    _done(as_json, data, sentence(_("One person from now on: {name} and {other}."),
        name=data["name"], other=data["other_name"]))


@club_app.command("unmerge")
def unmerge_cmd(person: str = typer.Argument(..., help="One of the two merged."),
                other: str = typer.Argument(..., help="The other."), as_json: bool = JSON) -> None:
    """Undo a merge: the two are two people again, with their own nights.

    Example: pan club unmerge Ana "Anna K."
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.unmerge(app_context().open_store(create=False), person, other)
    _done(as_json, data, sentence(_("Two people again: {name} and {other}."),
        name=data["name"], other=data["other_name"]))


@club_app.command("retire")
def retire_cmd(person: str = typer.Argument(..., help="The person: a name, alias or id."), as_json: bool = JSON) -> None:
    """A person who no longer plays: their nights stay theirs.

    Example: pan club retire Ana
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer

    data = club.retire(app_context().open_store(create=False), person)
    _done(as_json, data, _("Retired: {name}; their nights stay theirs.").format(name=data["name"]))


@club_app.command("show")
def show_cmd(as_json: bool = JSON) -> None:
    """The club as this host reads the folder: registrars, people and their spellings, merges,
    contradictions and refused entries.

    Example: pan club show
    """
    from pancli.app import club  # noqa: PLC0415 start-up: the app layer
    from pancli.app.seasons import closed_season_text  # noqa: PLC0415 start-up: the app layer

    data = english_for_json(as_json, lambda: club.show(app_context().open_store(create=False)))
    if as_json:
        print_json(data)
        return
    out = console()
    out.print(_("Club: {name}").format(name=data["name"]))
    for r in data["registrars"]:
        if r["revoked_after"] is None:
            out.print(_("Registrar: {device} (key {fingerprint})").format(device=r["label"] or r["device"][:8],
                                                                        fingerprint=r["fingerprint"]))
        else:
            out.print(_("Revoked: {device} (key {fingerprint})").format(device=r["label"] or r["device"][:8],
                                                                      fingerprint=r["fingerprint"]))
    for p in data["persons"]:
        spellings = ", ".join(a for a in p["aliases"])
        line = _("{name} ({id}, retired): {spellings}") if p["retired"] else _("{name} ({id}): {spellings}")
        out.print(line.format(name=p["name"], id=p["person"][:6], spellings=spellings), markup=False)
    for season in data["seasons"]:
        out.print(closed_season_text(season["name"], season["sessions"]), markup=False)
    for c in data["conflicts"]:
        out.print(c["text"], markup=False)
    for a in data["ambiguous"]:  # broken between words, never inside the command it names
        say(_("The seat {seat} of {session} may be any of: {names}; it counts for none of them until a "
              "registrar attributes it (`pan club attribute`).").format(
            seat=a["seat"], session=a["session"],
            names=", ".join(f"{p['name']} ({p['person'][:6]})" for p in a["persons"])))
    for r in data["refused"]:
        out.print(_("Refused: {entry}: {why}").format(entry=r["entry"], why=r["why"]), markup=False)
    if data["pending"]:
        n = len(data["pending"])
        out.print(ngettext("{n} entry waits for entries it follows (sync again).",
                           "{n} entries wait for entries they follow (sync again).", n).format(n=n))


@season_app.command("close")
def season_close_cmd(year: str = typer.Argument(..., metavar="YEAR", help="The season's year, as `pan standings --season` takes it."),
                     game: str = typer.Option(DEFAULT_GAME, "--game", help="Which game's season."),
                     as_json: bool = JSON) -> None:
    """Close a season for the whole club: from then on, on every host, `pan standings --season YEAR`
    and `pan ratings` count exactly the sessions held here now, as they are now.

    Example: pan club season close 2026
    """
    from pancli.app.club_season import close  # noqa: PLC0415 start-up: the app layer

    data = close(app_context().open_store(create=False), year, game)
    _done(as_json, data, ngettext("Closed the season {season}: {n} session, on every host that syncs.",
                                  "Closed the season {season}: {n} sessions, on every host that syncs.",
                                  data["sessions"]).format(season=data["season"], n=data["sessions"]))
