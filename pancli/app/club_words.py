"""What each refusal and conflict of the club's roster says to a person (pancli/core/club.py
gives a code and its particulars; this is the one wording of them)."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from typing import Any

from pancli.core.club import Conflict, Refusal
from pancli.core.i18n import N_, _

# code -> (what was wrong, what to do); formatted with the refusal's particulars
_WORDS: dict[str, tuple[str, str]] = {
    "club.too_large": (N_("it is larger than a roster entry can be"), N_("remove it from the folder")),
    "club.not_json": (N_("it is not a roster entry (not one line of JSON)"), N_("remove it from the folder")),
    "club.unknown_kind": (N_("it is an entry of a kind pancli does not know"),
                          N_("a newer pancli may have written it: update pancli")),
    "club.unknown_field": (N_("it carries a field a roster entry never has ({field})"),
                           N_("an entry only ever names people and seats: remove it from the folder")),
    "club.bad_field": (N_("its field {field} is missing or not what it must be"), N_("remove it from the folder")),
    "club.fork": (N_("two different entries claim the same place in one device's roster"),
                  N_("that device wrote twice from two copies of its database; the first by its hash stands")),
    "club.after_refused": (N_("it follows an entry that does not count"),
                           N_("the device must be granted again and write it anew")),
    "club.chain_broken": (N_("it does not follow that device's entry before it: one was edited or removed"),
                          N_("restore the folder's copy from the device that wrote it")),
    "club.second_club": (N_("it starts a second club in a folder that has one"),
                         N_("one club a folder: give the second club a folder of its own")),
    "club.other_club": (N_("it belongs to another club than this database's"),
                        N_("remove it from the folder, or use another folder")),
    "club.not_granted": (N_("its device was never made a registrar of the club"),
                         N_("a registrar may grant it with `pan club grant DEVICE`")),
    "club.revoked": (N_("its device had been revoked as registrar"),
                     N_("a registrar may grant it again with `pan club grant DEVICE`")),
    "club.revoke_unknown": (N_("it revokes a device that is not a registrar"), N_("nothing to do")),
    "club.person_exists": (N_("it adds a person who is already in the club"), N_("nothing to do")),
    "club.no_person": (N_("it names a person the club does not have"),
                       N_("add the person first with `pan club add NAME`")),
    "club.same_table": (N_("it gives the seat {seat} to someone who had another seat that night"),
                        N_("one person sits once a night: attribute the other seat first")),
    "club.seat_disputed": (N_("the seat {seat} is disputed between two entries"),
                           N_("sync, so the entry settling it follows both")),
    "club.no_merge": (N_("it undoes a merge that is not in force"), N_("nothing to do")),
    "club.season_closed": (N_("the season {name} is already closed"), N_("nothing to do")),
    "club.merge_same_table": (N_("it merges two people who sat at the same table"),
                              N_("two people, not one: fix the seat that is wrong with `pan club attribute`")),
    "club.link": (N_("it is a link: pancli never follows links"), N_("remove the link")),
    "club.too_many": (N_("the folder holds more roster files than pancli reads ({limit})"),
                      N_("remove what is not the club's")),
    "club.file_name": (N_("its name is not a roster entry's"), N_("remove it from the folder")),
    "club.not_a_file": (N_("it is not a regular file"), N_("remove it from the folder")),
    "club.unsigned": (N_("it is not signed"), N_("an entry counts only signed by its device: remove it")),
    "club.misplaced": (N_("it is not in the place its device and number give it"),
                       N_("remove it from the folder")),
    "club.not_canonical": (N_("it was edited by hand"), N_("restore it from the device that wrote it")),
    "club.bad_signature": (N_("its signature does not hold: it was changed after it was signed"),
                           N_("restore it from the device that wrote it")),
    "club.pending": (N_("it follows entries this host has not received yet"),
                     N_("sync first, then run the command again")),
}


# The same refusals of this device's own entry, about to be written: said of this device, by
# name ({device}), with what its host asks of a registrar; the words above speak of a file.
_OWN_WORDS: dict[str, tuple[str, str]] = {
    "club.not_granted": (N_("this device ({device}) is not a registrar of the club {club}"),
                         N_("a registrar can make it one with `pan club grant {device}` on their own device")),
    "club.revoked": (N_("this device ({device}) is no longer a registrar of the club {club}"),
                     N_("a registrar can grant it again with `pan club grant {device}` on their own device")),
}


def refusal_text(refusal: Refusal, device: str | None = None, club_name: str = "") -> tuple[str, str]:
    """What was wrong with an entry, and what to do; given ``device`` (this device's name), of
    this device's own entry about to be written in the club ``club_name``."""
    if device is not None and refusal.code in _OWN_WORDS:
        what, fix = _OWN_WORDS[refusal.code]
        return (_(what).format(device=device, club=club_name),
                _(fix).format(device=shlex.quote(device)))  # as the command is typed
    what, fix = _WORDS.get(refusal.code, (N_("it is not a sound roster entry"), N_("remove it from the folder")))
    params: dict[str, Any] = {k: v for k, v in refusal.params.items()}
    return _(what).format(**params), _(fix).format(**params)


def conflict_text(conflict: Conflict, name: Callable[[str], str], place: Mapping[str, str]) -> str:
    """Both sides of a contradiction in one line: ``name`` words a person, ``place`` the entries."""
    p = conflict.params
    if conflict.code == "club.seat_twice":
        return _("The seat {seat} of {session} is given to {first} by {one} and to {second} by {other}: it counts for "
                 "neither until a registrar attributes it again.").format(
            seat=p["seat"], session=p.get("session_name", p["session"]), first=name(p["person"]),
            second=name(p["other_person"]), one=place[conflict.first], other=place[conflict.second])
    return _("{one} merges {first} and {second}, who sat at the same table in {session}: refused.").format(
        one=place[conflict.first], first=name(p["person"]), second=name(p["other_person"]),
        session=p.get("session_name", p["session"]))
