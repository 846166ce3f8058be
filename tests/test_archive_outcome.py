"""The archive's outcome rules, written once (archive.outcome): how a copy of a session stands to
the one held here (the same, older, newer, or contradicting it). `pan import` presents, extends or
refuses by them, and `pan sync` words and orders copies by them (archive.compare)."""

import json
import shutil

import pytest

from pancli.app.archive import CLOSED_APART, CLOSED_BEFORE, compare, outcome
from pancli.core.rows import LoggedEvent

from helpers import pan_in_process as pan  # noqa: E402

NIGHT = ["session new fri --players A,B,C,D,E,F", "deal", "drop f", "meld a 5S 5S 5S", "add a 5S",
         "meld a KH KD KS KC", "out a 4H 4D 4C"]


@pytest.mark.parametrize("mine, theirs, relation, why", [
    ((3, None), (3, None), "same", None),
    ((3, "t1"), (3, "t1"), "same", None),
    ((3, None), (2, None), "older", None),
    ((3, "t1"), (2, None), "older", None),
    ((2, None), (3, None), "newer", None),
    ((2, None), (3, "t1"), "newer", None),
    ((3, None), (3, "t1"), "newer", None),      # it only closes the session
    ((3, None), (2, "t1"), "conflict", CLOSED_BEFORE),
    ((3, "t1"), (3, "t2"), "conflict", CLOSED_APART),
    ((2, "t1"), (3, "t2"), "conflict", CLOSED_APART),
])
def test_how_a_copy_stands_to_mine(mine, theirs, relation, why):
    assert outcome(mine[0], mine[1], theirs[0], theirs[1]) == (relation, why)
    events = [LoggedEvent(seq, "drop", {"kind": "drop", "player": "A"}, 1) for seq in range(1, 4)]
    header = {"game": "panguingue", "created_at": "t0", "seats": ["A", "B"], "dealer": None, "chip_value": 1}
    how = compare({**header, "closed_at": mine[1]}, events[:mine[0]], {**header, "closed_at": theirs[1]},
                  events[:theirs[0]])
    assert (how["relation"], how["why"]) == (relation, why)


def _status(db, path, ok=True):
    r = pan(db, ["import", str(path), "--json"] if ok else ["import", str(path)], ok=ok)
    return json.loads(r.output)["status"] if ok else r.output


def test_import_presents_extends_and_refuses_a_copy_by_the_same_rules(tmp_path):
    db1, db2, db3 = (tmp_path / f"{n}.db" for n in "abc")
    part, full, closed = (tmp_path / f"{n}.toml" for n in ("part", "full", "closed"))
    for line in NIGHT[:5]:
        pan(db1, line)
    pan(db1, ["export", "-o", str(part)])
    shutil.copy(db1, db2)  # the same session, this device's, recorded apart from here on
    for line in NIGHT[5:]:
        pan(db1, line)
    pan(db1, ["export", "-o", str(full)])
    pan(db1, "session close")
    pan(db1, ["export", "-o", str(closed)])

    assert _status(db2, part) == "present"                # the same
    assert _status(db2, full) == "extended"               # newer
    assert _status(db2, part) == "present"                # older
    shutil.copy(db2, db3)
    assert _status(db2, closed) == "extended"             # newer: it only closes the session
    assert _status(db2, closed) == "present"

    closed_text = closed.read_text(encoding="utf-8")
    [line] = [x for x in closed_text.splitlines() if x.startswith("closed_at")]
    text = part.read_text(encoding="utf-8")
    assert "closed_at" not in text
    early = tmp_path / "early.toml"  # the first events, closed: before the ones held here
    early.write_text(text.replace("\n[rules]", f"{line}\n\n[rules]", 1), encoding="utf-8")
    refused = _status(db3, early, ok=False)
    assert f"the archive contradicts session 'fri' held here: {CLOSED_BEFORE}" in refused
    other = tmp_path / "other.toml"
    other.write_text(closed_text.replace(line, 'closed_at = "2001-01-01T00:00:00+00:00"'), encoding="utf-8")
    refused = _status(db2, other, ok=False)
    assert f"the archive contradicts session 'fri' held here: {CLOSED_APART}" in refused
