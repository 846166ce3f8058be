"""An archive's event is read twice on import: `archive_check.check_event` looks at every field
(types, bounds, the payload as the game declares it) and `archive.normalise_event` then reads it
into the shape the importer takes. This differential test holds the second to the first: an event
the check passes is one the reader reads, or refuses in one line for one of the three things
only it looks at (its number in the archive, its kind against its payload's, parameters of a
payment without a code); never a traceback, never another refusal."""

from __future__ import annotations

import copy

from pancli.app import archive, archive_check
from pancli.core.errors import InputError

from archive_examples import night_events, odd_values

ONLY_THE_READER_SAYS = ("must be numbered 1, 2, 3", "but the payload says", "has params but no code")


def test_an_event_the_check_passes_is_one_the_reader_reads():
    odd, read = odd_values(), 0
    for n, original in enumerate(night_events(), 1):
        places = [(None, k) for k in ("seq", "kind", "created_at", "hand", "undo_of", "payload", "payload_json",
                                      "nulls", "payments", "extra")]
        places += [("payload", k) for k in ("kind", "player", "cards", "chips", "dealer", "extra")]
        if original.get("payments"):
            places += [("payment", k) for k in ("payer", "payee", "reason", "code", "params", "chips", "extra")]
        for inside, key in places:
            for value in [KeyError, *odd]:
                ev = copy.deepcopy(original)
                where = ev if inside is None else ev["payload"] if inside == "payload" else ev["payments"][0]
                if value is KeyError:
                    where.pop(key, None)
                else:
                    where[key] = copy.deepcopy(value)
                try:
                    archive_check.check_event(copy.deepcopy(ev), "f event 2", "panguingue")
                except InputError:
                    continue
                try:
                    archive.normalise_event(ev, "f event 2", n, "f")
                except InputError as e:
                    assert any(s in e.message for s in ONLY_THE_READER_SAYS), (inside, key, value, e.message)
                    assert "\n" not in e.message
                    continue
                read += 1
    assert read > 100  # most of the events the check passes are read
