"""The club's roster: who is who across every host, folded from a chain of small signed entries.

A club is a few hosts sharing one synced folder, with no server. Each registrar (a device) appends
entries of its own, numbered 1, 2, 3… and each naming the hash of its previous one, so an entry
edited in place or a device that forks its own chain shows. Every entry carries what its writer
had already folded (``seen``: the last number of each other device's chain), a vector clock: it
says which entries came before it and which were written at the same time, elsewhere.

An entry counts only if an earlier entry gave its signer the right: the club's first entry makes
its writer the first registrar; ``grant`` names a device and its key; ``revoke`` names the last
entry of a device that still counts. Entries that commute (aliases, attributions of different
seats, merges) are all kept whatever order they arrive in; a real contradiction (one seat given to
two people by entries written at the same time, a merge of two people who sat at the same table)
is refused and shown with both sides.

Sessions and archives are never rewritten: a person is an overlay on the seats, so a night from
last year counts for the right person once a registrar says so.

Everything here is pure: entries in, a roster out. Reading the folder, signatures and the words
people read are elsewhere (pancli/app/club.py, pancli/cli/commands/hosts/club.py).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

KINDS = ("create", "grant", "revoke", "add", "alias", "attribute", "merge", "unmerge", "retire", "season")
DEVICE = re.compile(r"[0-9a-f]{32}")
PERSON = re.compile(r"[0-9a-f]{32}")
KEY = re.compile(r"[0-9a-f]{64}")
HASH = re.compile(r"[0-9a-f]{64}")
FINGERPRINT = re.compile(r"[0-9a-f]{64}")
SESSION = re.compile(r"[0-9a-f]{32}/[0-9a-f]{1,64}")  # a session's global id: device/uid
MAX_NAME = 80          # a person's or a club's name, a seat's name, an alias (characters)
MAX_ALIASES = 50
MAX_SEASON = 10_000    # sessions a season closes
MAX_SEQ = 10_000_000
MAX_ENTRY_BYTES = 1_000_000  # a season of 10,000 sessions is ~700 kB; anything larger is refused

# The fields of each kind beside the common ones; nothing else may be in an entry.
COMMON = {"v", "club", "kind", "by", "key", "seq", "prev", "seen", "at"}
FIELDS = {
    "create": {"name", "label"},
    "grant": {"device", "device_key", "label"},
    "revoke": {"device", "upto"},
    "add": {"person", "name", "aliases"},
    "alias": {"person", "name"},
    "attribute": {"person", "session", "seat"},
    "merge": {"person", "other"},
    "unmerge": {"merge"},
    "retire": {"person"},
    "season": {"name", "sessions"},
}


@dataclass(frozen=True)
class Refusal:
    """Why an entry does not count: a code and its particulars, worded by the face that shows it.
    ``entry`` is the entry's id (``device:seq``) or its file."""

    entry: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """One entry as read and parsed (its signature already checked by the reader)."""

    data: Mapping[str, Any]
    digest: str  # sha256 of the signed bytes: what the next entry of the same device names as prev

    @property
    def by(self) -> str:
        return str(self.data["by"])

    @property
    def seq(self) -> int:
        return int(self.data["seq"])

    @property
    def kind(self) -> str:
        return str(self.data["kind"])

    @property
    def id(self) -> str:
        return f"{self.by}:{self.seq}"

    def seen(self, device: str) -> int:
        """The last entry of ``device`` its writer had folded (its own: the one before it)."""
        if device == self.by:
            return self.seq - 1
        return int(self.data.get("seen", {}).get(device, 0))

    def after(self, other: Entry) -> bool:
        """Whether ``other`` was folded by this entry's writer before writing it."""
        return self.seen(other.by) >= other.seq


def canonical(data: Mapping[str, Any]) -> bytes:
    """The bytes an entry is signed and hashed as: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def club_id(create: Mapping[str, Any]) -> str:
    """A club's id: the hash of its first entry (so nobody can make another club with the same id)."""
    return digest(canonical(create))[:32]


def folded_name(name: str) -> str:
    """A name as names are compared: Unicode compatibility form, case folded, spaces collapsed
    (``Ａｎａ`` and ``ana`` are one spelling; a name is still shown as it was given)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _dup_free(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def parse(body: bytes) -> dict[str, Any] | Refusal:
    """An entry's fields from its signed bytes, each checked for type and bounds; a Refusal with
    an empty ``entry`` when it is not a roster entry at all."""
    if len(body) > MAX_ENTRY_BYTES:
        return Refusal("", "club.too_large", {"limit": MAX_ENTRY_BYTES})
    try:
        data = json.loads(body.decode("utf-8"), object_pairs_hook=_dup_free)
    except (ValueError, UnicodeDecodeError):
        return Refusal("", "club.not_json")
    if not isinstance(data, dict):
        return Refusal("", "club.not_json")
    kind = data.get("kind")
    if kind not in FIELDS:
        return Refusal("", "club.unknown_kind", {"kind": str(kind)[:20]})
    allowed = COMMON | FIELDS[kind]
    extra = sorted(set(data) - allowed)
    if extra:
        return Refusal("", "club.unknown_field", {"field": extra[0][:40]})
    wrong = _wrong_field(kind, data)
    if wrong:
        return Refusal("", "club.bad_field", {"field": wrong})
    return data


def _name(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME and value == value.strip() \
        and value.isprintable()


def _int(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _wrong_field(kind: str, d: Mapping[str, Any]) -> str | None:
    """The first field that is missing or not what its kind says; None when all are sound."""
    checks: list[tuple[str, bool]] = [
        ("v", d.get("v") == 1),
        ("by", isinstance(d.get("by"), str) and bool(DEVICE.fullmatch(d["by"]))),
        ("key", isinstance(d.get("key"), str) and bool(KEY.fullmatch(d["key"]))),
        ("seq", _int(d.get("seq"), 1, MAX_SEQ)),
        ("at", isinstance(d.get("at"), str) and len(d["at"]) <= 40),
    ]
    seq = d.get("seq")
    prev = d.get("prev")
    checks.append(("prev", prev is None if seq == 1 else isinstance(prev, str) and bool(HASH.fullmatch(prev))))
    seen = d.get("seen", {})
    checks.append(("seen", isinstance(seen, dict) and len(seen) <= 10_000 and all(
        isinstance(k, str) and DEVICE.fullmatch(k) and k != d.get("by") and _int(v, 1, MAX_SEQ)
        for k, v in seen.items())))
    if kind == "create":
        checks += [("club", "club" not in d), ("name", _name(d.get("name"))), ("label", _name(d.get("label")))]
    else:
        checks.append(("club", isinstance(d.get("club"), str) and bool(PERSON.fullmatch(d["club"]))))
    person = ("person", isinstance(d.get("person"), str) and bool(PERSON.fullmatch(d["person"])))
    if kind == "grant":
        checks += [("device", isinstance(d.get("device"), str) and bool(DEVICE.fullmatch(d["device"]))),
                   ("device_key", isinstance(d.get("device_key"), str) and bool(KEY.fullmatch(d["device_key"]))),
                   ("label", _name(d.get("label")))]
    elif kind == "revoke":
        checks += [("device", isinstance(d.get("device"), str) and bool(DEVICE.fullmatch(d["device"]))),
                   ("upto", _int(d.get("upto"), 0, MAX_SEQ))]
    elif kind == "add":
        aliases = d.get("aliases", [])
        checks += [person, ("name", _name(d.get("name"))),
                   ("aliases", isinstance(aliases, list) and len(aliases) <= MAX_ALIASES
                    and all(_name(a) for a in aliases))]
    elif kind == "alias":
        checks += [person, ("name", _name(d.get("name")))]
    elif kind == "attribute":
        checks += [person, ("session", isinstance(d.get("session"), str) and bool(SESSION.fullmatch(d["session"]))),
                   ("seat", _name(d.get("seat")))]
    elif kind == "merge":
        checks += [person, ("other", isinstance(d.get("other"), str) and bool(PERSON.fullmatch(d["other"]))
                            and d.get("other") != d.get("person"))]
    elif kind == "unmerge":
        merge = d.get("merge")
        checks.append(("merge", isinstance(merge, str) and bool(re.fullmatch(r"[0-9a-f]{32}:[0-9]{1,8}", merge))))
    elif kind == "retire":
        checks.append(person)
    elif kind == "season":
        sessions = d.get("sessions")
        checks += [("name", _name(d.get("name"))),
                   ("sessions", isinstance(sessions, list) and len(sessions) <= MAX_SEASON
                    and all(isinstance(s, str) and FINGERPRINT.fullmatch(s) for s in sessions)
                    and len(set(sessions)) == len(sessions))]
    return next((name for name, ok in checks if not ok), None)


# -- the roster ----------------------------------------------------------------------------------

@dataclass
class Person:
    id: str
    name: str
    added_by: str             # the entry that added the person
    order: int                # when it was folded (the earliest person of a merge leads it)
    retired: bool = False


@dataclass
class Conflict:
    """A contradiction between two entries, both sides: what the two said, and what stands."""

    code: str                 # club.seat_twice, club.merge_same_table
    first: str                # entry ids
    second: str
    params: Mapping[str, Any]


@dataclass
class Roster:
    club: str | None = None
    name: str | None = None
    registrars: dict[str, dict[str, Any]] = field(default_factory=dict)  # device -> key, label, upto, granted_by
    persons: dict[str, Person] = field(default_factory=dict)
    aliases: list[tuple[str, str, str, str]] = field(default_factory=list)  # (folded, person, by device, as given)
    seats: dict[str, dict[str, tuple[str, Entry]]] = field(default_factory=dict)  # session -> folded seat -> person
    disputed: dict[tuple[str, str], Conflict] = field(default_factory=dict)
    merges: dict[str, tuple[str, str]] = field(default_factory=dict)     # merge entry id -> (person, other)
    seasons: dict[str, list[str]] = field(default_factory=dict)
    # entry id -> entry: every entry counted, after a fold; after ``restore``, only those a later
    # entry may be checked against (each device's last, the grants, the sides of contradictions)
    accepted: dict[str, Entry] = field(default_factory=dict)
    count: int = 0                                                       # the entries counted
    heads: dict[str, int] = field(default_factory=dict)                  # device -> last accepted seq
    folded: dict[str, Entry] = field(default_factory=dict)               # device -> last entry folded, counted or not
    refused: list[Refusal] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)                     # entry ids waiting for what they follow
    conflicts: list[Conflict] = field(default_factory=list)
    limits: dict[str, int] = field(default_factory=dict)                 # device -> last entry that counts
    clubs: dict[str, str] = field(default_factory=dict)                  # several clubs found, none pinned: id -> name
    waiting: dict[str, Entry] = field(default_factory=dict, repr=False)  # the pending entries themselves
    # False when restored in part (``restore``): only some sessions' seats, only the aliases from
    # ``alias_base`` on (the rest stay where the fold is held); enough to fold on some kinds of entry
    # (``PART_KINDS``) or to place some seats, never to list the club
    whole: bool = True
    alias_base: int = 0
    _leader: dict[str, str] = field(default_factory=dict)
    _by_name: dict[str, list[tuple[str, str]]] = field(default_factory=dict, repr=False)  # folded -> (person, by)
    _named_upto: int = 0      # how many of ``aliases`` _by_name holds (aliases are only ever appended)

    # -- who is who ------------------------------------------------------------------------------

    def leader(self, person: str) -> str:
        """The person a person is, after merges (a merged-in person leads to the one it joined)."""
        return self._leader.get(person, person)

    def members(self, person: str) -> list[str]:
        lead = self.leader(person)
        return sorted(p for p in self.persons if self.leader(p) == lead)

    def display(self, person: str) -> str:
        return self.persons[self.leader(person)].name

    def seat(self, session: str, seat: str, device: str | None = None) -> str | list[str] | None:
        """Who sat in ``seat`` of ``session`` (its global id): a person id; a list of two or more
        when the name is ambiguous (never guessed); None when the club does not know the name.

        The order: the seat's attribution; then an alias this host (``device``) wrote; then the
        registrars' aliases; else the name typed at the table stands."""
        key = (session, folded_name(seat))
        held = self.seats.get(session, {}).get(key[1])
        if held is not None:
            return self.leader(held[0])
        if key in self.disputed:
            c = self.disputed[key]
            return sorted({self.leader(c.params["person"]), self.leader(c.params["other_person"])})
        return self.named(seat, device)

    def named(self, name: str, device: str | None = None) -> str | list[str] | None:
        """The person a name means: this host's aliases first, then the registrars'."""
        folded = folded_name(name)
        for n, p, by, _given in self.aliases[self._named_upto:]:  # an index of the names, kept up to date
            self._by_name.setdefault(n, []).append((p, by))
        self._named_upto = len(self.aliases)
        hits = self._by_name.get(folded, [])
        for mine in (True, False):
            found = {self.leader(p) for p, by in hits if (by == device) == mine}
            if mine and device is None:
                continue
            if len(found) == 1:
                return found.pop()
            if found:
                return sorted(found)
        return None

    def given_names(self, lead: bool = False) -> dict[str, list[str]]:
        """Each person's names as given (added and aliased), in the order folded, in one pass over
        the aliases; with ``lead``, under each leader the names of everyone merged into them."""
        given: dict[str, list[str]] = {}
        for _n, q, _by, name in self.aliases:
            given.setdefault(self.leader(q) if lead else q, []).append(name)
        return given

    def find(self, ref: str) -> list[str]:
        """The persons ``ref`` may mean: an id or its first 6+ characters, a name or an alias."""
        given = self.given_names()
        return find_in([(p.id, self.leader(p.id), [p.name, *given.get(p.id, [])]) for p in self.persons.values()], ref)


def find_in(persons: Iterable[tuple[str, str, Iterable[str]]], ref: str) -> list[str]:
    """The persons (leaders) ``ref`` may mean among (id, leader, names): a whole id, the first 6 or
    more digits of one, or one of their names or aliases (compared as ``folded_name`` does)."""
    ref = ref.strip()
    rows = list(persons)
    if PERSON.fullmatch(ref):
        hits = {lead for p, lead, _names in rows if p == ref}
        if hits:
            return sorted(hits)
    if re.fullmatch(r"[0-9a-f]{6,31}", ref):
        hits = {lead for p, lead, _names in rows if p.startswith(ref)}
        if hits:
            return sorted(hits)
    folded = folded_name(ref)
    return sorted({lead for _p, lead, names in rows if any(folded_name(n) == folded for n in names)})


def fold(entries: Iterable[Entry], pinned_club: str | None = None) -> Roster:
    """The roster the entries give, whatever order they came in: each device's chain in order,
    and across devices every entry after those its writer had folded (ties by device and number,
    so every host folds the same entries the same way).

    A revocation counts from the start: a device's entries past the last one its revocation lets
    stand never count, whenever the revocation was folded (folded again until the revocations in
    force do not change)."""
    chains: dict[str, dict[int, Entry]] = {}
    forks: list[Refusal] = []
    for e in entries:
        chain = chains.setdefault(e.by, {})
        if e.seq in chain and chain[e.seq].digest != e.digest:
            forks.append(Refusal(e.id, "club.fork", {"device": e.by, "seq": e.seq}))
            chain[e.seq] = min(chain[e.seq], e, key=lambda x: x.digest)  # every host keeps the same one
            continue
        chain[e.seq] = e
    limits: dict[str, int] = {}
    for _round in range(8):
        roster = _fold(chains, limits, pinned_club)
        now = {device: r["upto"] for device, r in roster.registrars.items() if r["upto"] is not None}
        if now == limits:
            break
        limits = now
    roster.refused[:0] = forks
    return roster


def _fold(chains: Mapping[str, Mapping[int, Entry]], limits: Mapping[str, int], pinned_club: str | None) -> Roster:
    roster = Roster(club=pinned_club)
    if pinned_club is None:
        clubs = {club_id(c[1].data): str(c[1].data["name"]) for c in chains.values() if 1 in c and c[1].kind == "create"}
        if len(clubs) > 1:  # never guessed: the host says which it belongs to (pan club join)
            roster.clubs = dict(sorted(clubs.items()))
            roster.club = ""
    roster.limits = dict(limits)
    _run(roster, chains, {e.id: e for chain in chains.values() for e in chain.values()})
    return roster


def _run(roster: Roster, chains: Mapping[str, Mapping[int, Entry]], waiting: dict[str, Entry]) -> None:
    """Fold into ``roster`` every entry of ``waiting`` that can be folded, in the fold's order."""
    while True:
        # only the entry after each device's last folded one can be ready: a look at one entry a
        # device, not at every entry waiting (a chain of thousands folds in linear time)
        nexts = (chain.get(_last(roster, device) + 1) for device, chain in chains.items())
        ready = sorted((e for e in nexts if e is not None and e.id in waiting and _ready(e, roster, chains)),
                       key=lambda e: (e.by, e.seq))
        if not ready:
            break
        # one at a time: an entry folded now may make another ready that sorts before the rest
        e = ready[0]
        del waiting[e.id]
        roster.folded[e.by] = e
        refusal = _apply(roster, e)
        if refusal is not None:
            roster.refused.append(refusal)
            # a refused entry ends its device's chain here: what follows names it as prev
            for later in sorted((w for w in waiting.values() if w.by == e.by), key=lambda w: w.seq):
                del waiting[later.id]
                roster.folded[e.by] = later
                roster.refused.append(Refusal(later.id, "club.after_refused", {"entry": e.id}))
    roster.pending = sorted(waiting)
    roster.waiting = waiting


def _ready(e: Entry, roster: Roster, chains: Mapping[str, Mapping[int, Entry]]) -> bool:
    """Whether every entry ``e`` follows has been folded (counted or refused); an entry that
    follows one not here yet waits for it."""
    if _last(roster, e.by) != e.seq - 1:
        return False
    return all(_last(roster, device) >= seq for device, seq in e.data.get("seen", {}).items())


def _last(roster: Roster, device: str) -> int:
    folded = roster.folded.get(device)
    return folded.seq if folded is not None else 0


def _apply(roster: Roster, e: Entry) -> Refusal | None:
    d = e.data
    if e.seq > 1:
        before = roster.accepted.get(f"{e.by}:{e.seq - 1}")
        if before is None or d["prev"] != before.digest:  # edited in place, or a chain with a hole
            return Refusal(e.id, "club.chain_broken", {"device": e.by, "seq": e.seq})
    if e.kind == "create":
        cid = club_id(d)
        if roster.club is not None and roster.club != cid:  # pinned to another, or several and none pinned
            return Refusal(e.id, "club.other_club", {"name": d["name"]})
        if roster.name is not None or e.seq != 1:
            return Refusal(e.id, "club.second_club", {"name": d["name"]})
        roster.club, roster.name = cid, d["name"]
        roster.registrars[e.by] = {"key": d["key"], "label": d["label"], "upto": None, "granted_by": e.id}
        _accept(roster, e)
        return None
    if roster.club and d["club"] != roster.club:
        return Refusal(e.id, "club.other_club", {"name": ""})
    if roster.name is None:  # before the club began nobody had a right (a writer who saw its grant saw that)
        return Refusal(e.id, "club.not_granted", {"device": e.by})
    if d["club"] != roster.club:
        return Refusal(e.id, "club.other_club", {"name": ""})
    right = roster.registrars.get(e.by)
    if right is None or right["key"] != d["key"] or not e.after(roster.accepted[right["granted_by"]]) \
            and right["granted_by"] != e.id:
        return Refusal(e.id, "club.not_granted", {"device": e.by})
    upto = roster.limits.get(e.by)
    if upto is not None and e.seq > upto:
        return Refusal(e.id, "club.revoked", {"device": e.by, "upto": upto})
    refusal = _effect(roster, e)
    if refusal is None:
        _accept(roster, e)
    return refusal


def _accept(roster: Roster, e: Entry) -> None:
    _count(roster, e)
    roster.heads[e.by] = e.seq


def _count(roster: Roster, e: Entry) -> None:
    roster.accepted[e.id] = e
    roster.count += 1


def _effect(roster: Roster, e: Entry) -> Refusal | None:
    d, kind = e.data, e.kind
    if kind == "grant":
        current = roster.registrars.get(d["device"])
        if current is not None and current["upto"] is None and current["key"] == d["device_key"]:
            return None  # granted twice (two registrars at once): the first grant stands
        roster.registrars[d["device"]] = {"key": d["device_key"], "label": d["label"], "upto": None,
                                          "granted_by": e.id}
    elif kind == "revoke":
        target = roster.registrars.get(d["device"])
        if target is None or d["device"] == e.by:
            return Refusal(e.id, "club.revoke_unknown", {"device": d["device"]})
        target["upto"] = d["upto"] if target["upto"] is None else min(target["upto"], d["upto"])
    elif kind == "add":
        if d["person"] in roster.persons:
            return Refusal(e.id, "club.person_exists", {"person": d["person"]})
        roster.persons[d["person"]] = Person(d["person"], d["name"], e.id, roster.count)
        for name in [d["name"], *d.get("aliases", [])]:
            roster.aliases.append((folded_name(name), d["person"], e.by, name))
    elif kind in ("alias", "attribute", "merge", "retire"):
        unknown = [p for p in (d["person"], d.get("other")) if p is not None and p not in roster.persons]
        if unknown:
            return Refusal(e.id, "club.no_person", {"person": unknown[0]})
        if kind == "alias":
            roster.aliases.append((folded_name(d["name"]), d["person"], e.by, d["name"]))
        elif kind == "retire":
            roster.persons[d["person"]].retired = True
        elif kind == "attribute":
            return _attribute(roster, e)
        else:
            return _merge(roster, e)
    elif kind == "unmerge":
        if d["merge"] not in roster.merges:
            return Refusal(e.id, "club.no_merge", {"merge": d["merge"]})
        del roster.merges[d["merge"]]
        _lead(roster)
    elif kind == "season":
        if d["name"] in roster.seasons:
            return Refusal(e.id, "club.season_closed", {"name": d["name"]})
        roster.seasons[d["name"]] = list(d["sessions"])
    return None


def _attribute(roster: Roster, e: Entry) -> Refusal | None:
    d = e.data
    key = (d["session"], folded_name(d["seat"]))
    person = d["person"]
    table = roster.seats.setdefault(key[0], {})
    # two seats of one night cannot be one person
    for seat, (other, _entry) in table.items():
        if seat != key[1] and roster.leader(other) == roster.leader(person):
            return Refusal(e.id, "club.same_table", {"person": person, "session": key[0], "seat": d["seat"]})
    held = table.get(key[1])
    if key in roster.disputed:
        c = roster.disputed[key]
        a, b = roster.accepted[c.first], roster.accepted[c.second]
        if not (e.after(a) and e.after(b)):
            return Refusal(e.id, "club.seat_disputed", {"session": key[0], "seat": d["seat"]})
        del roster.disputed[key]
    elif held is not None and held[0] != person and not e.after(held[1]):
        # written at the same time as the other attribution of this seat, elsewhere: a contradiction
        conflict = Conflict("club.seat_twice", held[1].id, e.id,
                            {"session": key[0], "seat": d["seat"], "person": held[0], "other_person": person})
        roster.conflicts.append(conflict)
        roster.disputed[key] = conflict
        del table[key[1]]
        _count(roster, e)  # both sides are kept and shown; the seat stands for neither
        return None
    table[key[1]] = (person, e)
    return None


def _merge(roster: Roster, e: Entry) -> Refusal | None:
    d = e.data
    a, b = roster.leader(d["person"]), roster.leader(d["other"])
    if a == b:
        return None  # already one: merged twice at once, both kept
    both = sorted(s for s, table in roster.seats.items()
                  if {roster.leader(p) for p, _e in table.values()} >= {a, b})
    if both:
        conflict = Conflict("club.merge_same_table", e.id, e.id,
                            {"person": a, "other_person": b, "session": both[0]})
        roster.conflicts.append(conflict)
        return Refusal(e.id, "club.merge_same_table", {"person": a, "other": b, "session": both[0]})
    roster.merges[e.id] = (d["person"], d["other"])
    _lead(roster)
    return None


def _lead(roster: Roster) -> None:
    """Each person's leader from the merges in force: the earliest person of each group."""
    parent = {p: p for p in roster.persons}

    def root(p: str) -> str:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for a, b in roster.merges.values():
        ra, rb = root(a), root(b)
        if ra != rb:
            first, second = sorted((ra, rb), key=lambda p: roster.persons[p].order)
            parent[second] = first
    roster._leader = {p: root(p) for p in roster.persons if root(p) != p}


# -- the roster as held between runs ---------------------------------------------------------------

STATE_VERSION = 2

# The kinds of entry a roster restored in part can be folded on with: each changes only the
# persons, the registrars, the seasons, the aliases (appended) or the seats of the session it
# names. A merge reads every seat; an unmerge and a revocation change who is whom or what counts.
PART_KINDS = frozenset({"add", "alias", "attribute", "grant", "retire", "season"})


def state(roster: Roster, pinned_club: str | None) -> dict[str, Any]:
    """Everything a fold made, as JSON, so that a later run can take it up again (``fold_more``)
    without folding the chain from its start; ``restore`` gives the same Roster back.

    Of the entries counted only those a later entry may be checked against are kept whole (each
    device's last, the grants, the sides of contradictions, the seats'); the rest are a count. The
    aliases and seats are the parts that grow with the chain: a holder keeps them apart (``aliases``
    from ``alias_base`` on, appended; ``seats`` by session), and restores only what it needs."""
    entries: dict[str, list[Any]] = {}

    def ref(e: Entry) -> str:
        entries[e.id] = [e.digest, e.data]
        return e.id

    folded = {d: ref(e) for d, e in roster.folded.items()}
    for r in roster.registrars.values():
        if r["granted_by"] in roster.accepted:
            ref(roster.accepted[r["granted_by"]])
    for c in roster.conflicts:
        for side in (c.first, c.second):
            if side in roster.accepted:
                ref(roster.accepted[side])
    waiting = [ref(e) for e in roster.waiting.values()]
    conflict_at = {id(c): i for i, c in enumerate(roster.conflicts)}
    return {
        "v": STATE_VERSION, "pinned": pinned_club, "club": roster.club, "name": roster.name,
        "registrars": roster.registrars,
        "persons": [[p.id, p.name, p.added_by, p.order, p.retired] for p in roster.persons.values()],
        "aliases": roster.aliases, "alias_base": roster.alias_base,
        "seats": [[s, seat, person, e.digest, e.data] for s, table in roster.seats.items()
                  for seat, (person, e) in table.items()],
        "conflicts": [[c.code, c.first, c.second, c.params] for c in roster.conflicts],
        "disputed": [[s, seat, conflict_at[id(c)]] for (s, seat), c in roster.disputed.items()],
        "merges": roster.merges, "seasons": roster.seasons,
        "accepted": [i for i in roster.accepted if i in entries], "count": roster.count, "heads": roster.heads,
        "folded": folded,
        "refused": [[r.entry, r.code, r.params] for r in roster.refused],
        "waiting": waiting,
        "limits": roster.limits, "clubs": roster.clubs, "leader": roster._leader,
        "entries": entries,
    }


def restore(data: Mapping[str, Any], whole: bool = True) -> Roster:
    """The Roster ``state`` was made from; in part (``whole`` False) when ``data`` holds only some
    sessions' seats and only some aliases (``alias_base``: how many came before them)."""
    entries = {i: Entry(d, digest) for i, (digest, d) in data["entries"].items()}
    conflicts = [Conflict(code, first, second, params) for code, first, second, params in data["conflicts"]]
    seats: dict[str, dict[str, tuple[str, Entry]]] = {}
    for s, seat, person, digest, d in data["seats"]:
        seats.setdefault(s, {})[seat] = (person, Entry(d, digest))
    return Roster(
        club=data["club"], name=data["name"], registrars={d: dict(r) for d, r in data["registrars"].items()},
        persons={p[0]: Person(*p) for p in data["persons"]}, aliases=[tuple(a) for a in data["aliases"]],
        seats=seats, disputed={(s, seat): conflicts[i] for s, seat, i in data["disputed"]},
        merges={m: tuple(pair) for m, pair in data["merges"].items()},
        seasons={n: list(v) for n, v in data["seasons"].items()},
        accepted={i: entries[i] for i in data["accepted"]}, count=data["count"], heads=dict(data["heads"]),
        folded={d: entries[i] for d, i in data["folded"].items()},
        refused=[Refusal(entry, code, params) for entry, code, params in data["refused"]],
        pending=sorted(data["waiting"]), conflicts=conflicts, limits=dict(data["limits"]), clubs=dict(data["clubs"]),
        waiting={i: entries[i] for i in data["waiting"]}, whole=whole, alias_base=data["alias_base"],
        _leader=dict(data["leader"]))


def fold_more(held: Mapping[str, Any], new: Iterable[Entry], pinned_club: str | None,
              whole: bool = True) -> Roster | None:
    """What ``fold`` gives for the entries ``held`` (a ``state``) was folded from and ``new`` ones,
    taken up from the held fold rather than from the start. None where that would not give exactly
    what ``fold`` gives, and the caller folds every entry again: no club pinned (or another one);
    a revocation among the new entries (it counts from the start); an entry that comes before
    some held one in the fold's order (its writer had not folded every entry held here: written at
    the same time elsewhere, or arriving late); an entry whose number its device has used already
    (a fork); an entry of a device whose chain a refusal ended; held in part (``whole`` False: see
    ``restore``) and an entry to fold that is not of ``PART_KINDS``, or that attributes a seat of
    a session whose seats ``held`` does not hold (it lists them as ``sessions``)."""
    if held.get("v") != STATE_VERSION or pinned_club is None or held["pinned"] != pinned_club:
        return None
    roster = restore(held, whole)
    last = {d: e.seq for d, e in roster.folded.items()}
    fresh: dict[str, Entry] = {}
    for e in new:
        if e.id in roster.waiting or e.id in fresh:
            if (roster.waiting.get(e.id) or fresh[e.id]).digest != e.digest:
                return None  # a fork of an entry still waiting
            continue
        if e.kind == "revoke" or e.seq <= last.get(e.by, 0) or any(e.seen(d) < seq for d, seq in last.items()):
            return None
        if e.by in roster.folded and roster.folded[e.by].id not in roster.accepted:
            return None
        fresh[e.id] = e
    if not fresh:
        return roster
    waiting = {**roster.waiting, **fresh}
    if not whole and not all(e.kind in PART_KINDS and (e.kind != "attribute" or e.data["session"] in held["sessions"])
                             for e in waiting.values()):
        return None
    chains: dict[str, dict[int, Entry]] = {}
    for e in waiting.values():
        chains.setdefault(e.by, {})[e.seq] = e
    _run(roster, chains, waiting)
    if {device: r["upto"] for device, r in roster.registrars.items() if r["upto"] is not None} != roster.limits:
        return None
    return roster


def entry_data(kind: str, roster: Roster, by: str, key: str, at: str, **fields: Any) -> dict[str, Any]:
    """A new entry of this device, next in its chain, having seen everything the roster folded."""
    last = roster.folded.get(by)
    data: dict[str, Any] = {"v": 1, "kind": kind, "by": by, "key": key, "seq": last.seq + 1 if last else 1, "at": at,
                            "prev": last.digest if last else None,
                            "seen": {d: x.seq for d, x in sorted(roster.folded.items()) if d != by}}
    if kind != "create":
        data["club"] = roster.club
    data.update(fields)
    return data
