"""`pan export` and `pan import`: archives that rebuild a session identically (spec §10.4 examples 1-7)."""

import json
import tomllib

import pytest
from hypothesis import given, settings, strategies as st

from archive_examples import EXAMPLES, night_events, odd_values, record
from helpers import pan_in_process as pan  # noqa: E402


def standings(db, session=None):
    return json.loads(pan(db, ["standings", "--json"] + (["--session", session] if session else [])).output)


def history(db):
    return json.loads(pan(db, "history --json").output)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_round_trip_through_toml(tmp_path, name):
    db1, db2 = tmp_path / "one.db", tmp_path / "two.db"
    record(db1, name)
    nets = {r["name"]: r["net"] for r in standings(db1)["players"]}
    assert nets == EXAMPLES[name][1]
    archive = tmp_path / f"{name}.toml"
    pan(db1, ["export", "--format", "toml", "-o", str(archive)])
    data = tomllib.loads(archive.read_text(encoding="utf-8"))
    assert data["session"]["name"] == name and data["rules"]["drop_cost"] == 2
    result = pan(db2, ["import", str(archive)])
    assert "Imported session" in result.output
    assert standings(db2) == standings(db1)
    assert history(db2) == history(db1)


@pytest.mark.parametrize("name", ["ex2", "ex6"])
def test_archive_keeps_undo_events_and_timestamps(tmp_path, name):
    db = tmp_path / "p.db"
    record(db, name)
    out = pan(db, "export --format toml -o -").output
    data = tomllib.loads(out)
    undos = [e for e in data["events"] if e["kind"] == "undo"]
    assert len(undos) == 1 and undos[0]["undo_of"] == undos[0]["seq"] - 1
    assert all(e["created_at"] for e in data["events"])
    # the voided meld is in the archive too, with the payments it made before it was undone
    voided = data["events"][undos[0]["undo_of"] - 1]
    assert voided["kind"] == "meld" and voided["payments"]


def test_json_archive_round_trips_too(tmp_path):
    db1, db2 = tmp_path / "a.db", tmp_path / "b.db"
    record(db1, "ex4")
    path = tmp_path / "ex4.json"
    path.write_text(pan(db1, "export --format json").output, encoding="utf-8")
    pan(db2, ["import", str(path)])
    assert history(db2) == history(db1)


def test_default_export_path_is_sessions_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "p.db"
    record(db, "ex1")
    result = pan(db, "export ex1")
    assert (tmp_path / "sessions" / "ex1.toml").exists(), result.output


def test_importing_twice_does_not_duplicate(tmp_path):
    db1, db2 = tmp_path / "a.db", tmp_path / "b.db"
    record(db1, "ex1")
    path = tmp_path / "ex1.toml"
    pan(db1, ["export", "-o", str(path)])
    pan(db2, ["import", str(path)])
    again = pan(db2, ["import", str(path)])
    assert "nothing imported" in again.output
    # under another name it is still the same archive
    assert "nothing imported" in pan(db2, ["import", str(path), "--as", "other"]).output
    # and into the database it came from, it is found by its content
    assert "nothing imported" in pan(db1, ["import", str(path)]).output
    sessions = json.loads(pan(db2, "session list --json").output)
    assert [s["name"] for s in sessions] == ["ex1"]
    assert json.loads(pan(db2, ["import", str(path), "--json"]).output)["status"] == "present"


def test_name_clash_with_different_session_needs_as(tmp_path):
    db1, db2 = tmp_path / "a.db", tmp_path / "b.db"
    record(db1, "ex1")
    path = tmp_path / "ex1.toml"
    pan(db1, ["export", "-o", str(path)])
    pan(db2, "session new ex1 --players X,Y")
    clash = pan(db2, ["import", str(path)], ok=False)
    assert clash.exit_code == 2
    assert "different session named 'ex1'" in clash.output and "--as" in clash.output
    assert "Traceback" not in clash.output
    pan(db2, ["import", str(path), "--as", "ex1-copy"])
    assert {r["name"]: r["net"] for r in standings(db2, "ex1-copy")["players"]} == EXAMPLES["ex1"][1]


def test_tampered_archive_is_refused(tmp_path):
    db1, db2 = tmp_path / "a.db", tmp_path / "b.db"
    record(db1, "ex1")
    path = tmp_path / "ex1.toml"
    pan(db1, ["export", "-o", str(path)])
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('chips = 7, reason = "A goes out', 'chips = 9, reason = "A goes out', 1),
                    encoding="utf-8")
    bad = pan(db2, ["import", str(path)], ok=False)
    assert bad.exit_code == 2 and "does not match" in bad.output and "#6 (out)" in bad.output
    assert not db2.exists()  # refused: not even an empty database is left behind


def test_broken_archives_give_one_line_errors(tmp_path):
    db = tmp_path / "a.db"
    for text, words in [("not toml [", "not valid TOML"), ('format = "other"\n', "format"),
                        ('format = "pancli-archive"\nversion = 1\n[session]\nname = "x"\n', "missing")]:
        path = tmp_path / "bad.toml"
        path.write_text(text, encoding="utf-8")
        result = pan(db, ["import", str(path)], ok=False)
        assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output
    missing = pan(db, ["import", str(tmp_path / "nope.toml")], ok=False)
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_closed_session_stays_closed(tmp_path):
    db1, db2 = tmp_path / "a.db", tmp_path / "b.db"
    record(db1, "ex1")
    pan(db1, "session close")
    path = tmp_path / "ex1.toml"
    pan(db1, ["export", "-o", str(path)])
    pan(db2, ["import", str(path)])
    assert json.loads(pan(db2, "session list --json").output)[0]["closed"] is True


def test_csv_has_payments_and_standings(tmp_path):
    import csv
    import io

    db = tmp_path / "a.db"
    record(db, "ex1")
    text = pan(db, "export --format csv").output
    payments, standing = text.split("\n\n")
    rows = list(csv.DictReader(io.StringIO(payments)))
    assert sum(int(r["chips"]) for r in rows if r["payee"] == "A") == 54
    st = {r["player"]: int(r["net"]) for r in csv.DictReader(io.StringIO(standing))}
    assert st == EXAMPLES["ex1"][1]


# The payload fields the archive check typed by name before each game declared its own.
TYPED_BEFORE = {
    "kind": ("text", False), "player": ("text", False), "dealer": ("text", True), "after": ("text", True),
    "cards": ("list of texts", False), "with": ("list of texts", False), "chips": ("whole number", False),
    "points": ("whole number", True), "to": ("whole number", True), "meld": ("whole number", True),
    "from": ("whole number", False), "hand": ("whole number", True), "seq": ("whole number", False),
    "after_discard": ("true or false", False), "discard": ("text", True), "loser": ("text", True),
    "out": ("text", True), "undid": ("text", False), "seats": ("list of texts", False), "into": ("list", False),
    "melds": ("list", False), "contracts": ("table", False), "hands": ("table", False),
}


def test_the_games_type_every_payload_field_that_was_typed():
    from pancli.app.archive_check import payload_fields
    from pancli.games import GAMES

    declared: dict = {}
    for name in ("panguingue", "contract", "polish"):
        for kind in GAMES[name].payloads.kinds:
            for field_name, f in payload_fields(name, kind).items():
                assert declared.setdefault(field_name, (f.type, f.nullable)) == (f.type, f.nullable), field_name
    for kind in ("buyin", "cashout", "undo"):
        for field_name, f in payload_fields("panguingue", kind).items():
            assert declared.setdefault(field_name, (f.type, f.nullable)) == (f.type, f.nullable), field_name
    assert declared == TYPED_BEFORE


def test_the_format_doc_lists_every_games_payloads(tmp_path):
    from pancli.games import GAMES

    doc = pan(tmp_path / "a.db", ["export", "--format-doc"]).output
    for g in GAMES.values():
        assert f"### {g.title}" in doc
        for kind in g.payloads.kinds:
            assert f"| `{kind}` |" in doc


_DEEP = [[[[[[["x"]]]]]]]
BAD_FIELDS = [  # (where in the archive, the value put there, the line that refuses it)
    (("events", 1, "payload", "cards"), _DEEP, "event 2 payload.cards[0][0][0][0][0][0]: nested too deeply"),
    (("events", 1, "payload", "extra"), [[[[[["a"]]]]]], "event 2 payload.extra[0][0][0][0][0][0]: nested too deeply"),
    (("events", 1, "payload", "extra"), [[[[["a"]]]]], None),
    (("events", 1, "payload", "extra"), [None, True, {"a": None, "b": False}], None),
    (("events", 1, "payload", "extra"), [1, [2.5]],
     "event 2 payload.extra[1][0]: float values are not allowed (a number with a point, or a date?)"),
    (("events", 1, "payload", "extra"), {"a": [1, 10**12]},
     "event 2 payload.extra.a[1]: the number 1000000000000 is out of range (at most 1,000,000,000)"),
    (("events", 1, "payload", "extra"), {"a": {"b": "x" * 10_001}}, "event 2 payload.extra.a.b: a text is too long"),
    (("events", 1, "payload", "extra"), {"a": {1: 2}}, "event 2 payload.extra.a: a key is not text"),
    (("events", 2, "payments", 0, "params"), {"n": 1.5},
     "event 3 payment params.n: float values are not allowed (a number with a point, or a date?)"),
    (("events", 1, "seq"), True, "event 2 'seq': must be a whole number, not True"),
    (("events", 1, "seq"), 10**10, "event 2: 'seq' = 10000000000 is out of range"),
    (("events", 1, "kind"), "k" * 65, "event 2: 'kind' is longer than 64 characters"),
    (("events", 2, "payments", 0, "reason"), 5, "event 3 payment 'reason': must be a text, not 5"),
    (("events", 2, "payments", 0, "chips"), 0, "event 3 payment: 'chips' = 0 is not above 0"),
    (("events", 2, "payments", 0, "chips"), "3", "event 3 payment 'chips': must be a whole number, not '3'"),
    (("events", 1, "hand"), None, None),
    (("session", "name"), "n" * 200, "[session]: 'name' is longer than 80 characters"),
    (("rules", "extra_pay_cards_added"), _DEEP, "[rules] extra_pay_cards_added[0][0][0][0][0][0]: nested too deeply"),
    (("session", "seats"), ["A", "B", "C", "D", "E ", "F"],
     "[session]: f.toml [session]: a seat's name has spaces around it or is not normalised"),
    (("session", "seats"), ["A", "B\u200b", "C", "D", "E", "F"],
     "[session]: the player name 'B\\u200b' holds an invisible or control character (U+200B ZERO WIDTH SPACE)"),
    (("session", "seats"), ["A", "B", "C", "D", "E", "a"], "[session]: 'a' looks the same as 'A', seated already"),
    (("session", "seats"), ["A", "B", "C", "D", "E", "(F)"], "[session]: '(F)' cannot be a player's name"),
]


@pytest.mark.parametrize("path,value,line", BAD_FIELDS)
def test_every_field_of_an_archive_is_checked_and_its_place_named(tmp_path, path, value, line):
    """Whatever shortcut the check takes for sound values, a wrong one is named where it is."""
    from pancli.app.archive import from_document
    from pancli.core.errors import InputError

    db = tmp_path / "p.db"
    record(db, "ex1")
    data = tomllib.loads(pan(db, "export --format toml -o -").output)
    at = data
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    if line is None:
        from_document(data, "f.toml")
        return
    for _ in range(2):  # the same again: what was checked once is refused again, in the same words
        with pytest.raises(InputError) as refused:
            from_document(data, "f.toml")
        assert refused.value.message == f"f.toml {line}"


_PLAIN = st.recursive(st.none() | st.booleans() | st.integers(-10**9, 10**9) | st.text(max_size=8),
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                      max_leaves=20)


@settings(deadline=None)  # no clock in tests: a loaded machine is slow
@given(st.dictionaries(st.text(max_size=6), _PLAIN, min_size=1, max_size=5))
def test_an_archived_payments_params_are_the_params_the_core_makes_of_them(data):
    """Kept as their canonical text, the params of an archived payment compare, hash and read
    back as the Params made of the same data."""
    from pancli.app.archive import archived_payment
    from pancli.core.ledger import Params

    got = archived_payment({"payer": "Ana", "payee": "Ben", "chips": 1, "reason": "r", "code": "c",
                            "params": data}).params
    made = Params(data)
    assert got.to_json() == made.to_json() and got == made and hash(got) == hash(made)
    assert got.plain() == made.plain() and dict(got) == dict(made)


def test_the_checks_shortcut_accepts_nothing_the_full_check_refuses():
    """check_event's look at a glance (archive_check._plainly_sound) passes an event only if
    the field-by-field check passes it, and refuses with the very line that check says: every
    event of a night with each of its fields, its payload's and its first payment's, in turn
    taken out or given each odd value."""
    import copy

    from pancli.app import archive_check
    from pancli.core.errors import InputError

    def outcome(check, ev):
        try:
            return check(ev, "f event 2", "panguingue")
        except InputError as e:
            return e.message

    odd, passed = odd_values(), 0
    for original in night_events():
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
                full = outcome(archive_check.check_event_fields, ev)
                glance = outcome(archive_check._plainly_sound, ev)
                if glance is True:
                    assert full is None, (inside, key, value)
                    passed += 1
                elif glance is not False:
                    assert glance == full, (inside, key, value)
    assert passed > 100  # the shortcut is taken
