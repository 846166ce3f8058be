"""Reasons are data, text is for people: every payment carries a code and its parameters; checks,
imports and rescoring compare those (players and chips only for rows pancli 0.1 wrote without
them) and never the English, which can be reworded freely."""

import json
import sqlite3

import pytest
from hypothesis import given, settings, strategies as st

from pancli.app.archive import parse
from pancli.core.ledger import Params, Payment
from pancli.games.panguingue import engine, reasons
from pancli.games.panguingue.rules import from_dict

from helpers import pan_in_process as pan

# One night touching every code of the vocabulary: antes and a house cut, drops, conditions,
# additions, a split, a borrow, a foul and a dead hand giving chips back, a void hand, a chop, going out.
RULES = 'preset = "hoyle"\nante = 1\nhouse_collection = 1\ntops_chop_allowed = true\n'
NIGHT = [
    "deal", "drop eli", "meld ana 5s5s5s", "add ana 5s", "meld ben kc kh ks", "meld cruz 7d7d7d",
    "foul cruz --meld 3", "meld dee ah2h3h", "dead ana", "undo", "dead ana", "void",
    "deal", "drop ana", "drop ben", "drop cruz", "chop",
    "deal", "meld cruz 7d7d7d", "meld dee ah2h3h", "foul dee --after-discard",
    "meld ben ad2d3d4d5d6d", 'split ben 3 "AD 2D 3D" "4D 5D 6D"', "meld ana ks ks kh", "add ana ks",
    "borrow ana --from 5 KH --with KD KC", 'spread ana "KS KS KS KS | KH KD KC"', "meld ben 6h6d6c",
    "out ben 7d jd",
    "buyin ana 100", "buyin ben 50", "undo", "buyin ben 60", "cashout ana 40",
]


@pytest.fixture
def night(tmp_path):
    """A database with the night recorded, and its archives exported as TOML and JSON."""
    db = tmp_path / "night.db"
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES, encoding="utf-8")
    pan(db, ["session", "new", "night", "--players", "Ana,Ben,Cruz,Dee,Eli", "--dealer", "Eli", "--rules", str(rules)])
    for line in NIGHT:
        pan(db, line)
    for fmt in ("toml", "json"):
        pan(db, ["export", "--format", fmt, "-o", str(tmp_path / f"night.{fmt}")])
    return db


def standings(db, session=None):
    data = json.loads(pan(db, ["standings", "--json"] + (["--session", session] if session else [])).output)
    return data["players"], data["pools"]


def rows(db, sql="SELECT payer, payee, chips, reason, code, params FROM payments ORDER BY id"):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


@pytest.fixture
def reworded(monkeypatch):
    """Every payment reason in other English, as a later pancli might word it."""
    for code, words in list(reasons.TEXT.items()):
        monkeypatch.setitem(reasons.TEXT, code, lambda p, words=words, code=code: f"[{code}] " + words(p).upper())


def test_every_payment_is_stored_with_a_known_code_and_its_params(night):
    stored = rows(night)
    assert stored and all(code in reasons.CODES for *_, code, _ in stored)
    used = {code for *_, code, _ in stored}
    assert used == set(reasons.CODES), set(reasons.CODES) - used
    for *_, reason, code, params in stored:
        assert reason == reasons.render(code, json.loads(params))  # the line is the wording of the data
    meld = next(json.loads(p) for *_, code, p in stored if code == "condition")
    assert meld == {"cards": ["5S", "5S", "5S"], "meld": 1, "tag": "valle_suited"}
    foul = next(json.loads(p) for *_, code, p in stored if code == "foul_return")
    assert foul["meld"] == 3 and foul["returns"] == {"code": "condition", "params": {
        "cards": ["7D", "7D", "7D"], "meld": 3, "tag": "valle_suited"}}


def test_rewording_leaves_checks_imports_and_rescoring_untouched(night, tmp_path, reworded):
    before = standings(night)
    # The database written before the rewording still checks.
    check = pan(night, "db check")
    assert check.output.startswith("OK")
    # What is recorded now is worded the new way; the old rows keep their words.
    pan(night, "deal")
    pan(night, "drop eli")
    texts = [r[0] for r in rows(night, "SELECT reason FROM payments ORDER BY id")]
    assert texts[-1] == "[drop] DROPS (GOES ON TOP)" and "drops (goes on top)" in texts
    assert pan(night, "db check").output.startswith("OK")
    pan(night, "undo")
    pan(night, "undo")
    # The archives exported before import with identical standings, and their payments are checked.
    for fmt in ("toml", "json"):
        fresh = tmp_path / f"fresh-{fmt}.db"
        result = pan(fresh, ["import", str(tmp_path / f"night.{fmt}")])
        assert "every payment checked" in result.output.replace("\n", " ")
        assert standings(fresh, "night") == before
        assert pan(fresh, "db check").output.startswith("OK")
    # Rescoring under the session's own rules finds nothing to change.
    data = json.loads(pan(night, "rescore --set ante=1 --json").output)  # the rule it has already
    assert all(r["difference"] == 0 for r in data["players"]) and data["illegal"] == []


def test_a_different_code_or_params_is_found_whatever_the_words(night, tmp_path):
    con = sqlite3.connect(night)
    with con:
        con.execute("UPDATE payments SET params = replace(params, '\"tag\":\"valle_suited\"', '\"tag\":\"rope_low\"') "
                    "WHERE code = 'condition' AND params LIKE '%valle_suited%'")
    con.close()
    bad = pan(night, "db check", ok=False)
    assert bad.exit_code == 1 and "rope_low" in bad.output

    archive = json.loads((tmp_path / "night.json").read_text(encoding="utf-8"))
    for ev in archive["events"]:
        for p in ev["payments"]:
            if p.get("code") == "drop":
                p["code"], p["reason"] = "tops", "drops (goes on top)"  # the words still match
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    refused = pan(tmp_path / "other.db", ["import", str(path)], ok=False)
    assert refused.exit_code == 2 and "does not match" in refused.output


def test_rows_without_codes_are_compared_by_players_and_chips(night):
    """pancli 0.1 stored no codes; its reason text is never parsed to invent them."""
    before = standings(night)
    con = sqlite3.connect(night)
    with con:
        con.execute("UPDATE payments SET code = NULL, params = NULL, reason = 'whatever 0.1 said'")
    con.close()
    assert pan(night, "db check").output.startswith("OK")
    assert standings(night) == before
    con = sqlite3.connect(night)
    with con:  # players and chips still count, in their order within the event
        con.execute("UPDATE payments SET payee = 'Dee' WHERE id = (SELECT min(id) FROM payments WHERE payee = 'Cruz')")
    con.close()
    bad = pan(night, "db check", ok=False)
    assert bad.exit_code == 1 and "whatever 0.1 said" in bad.output


def test_an_archive_without_codes_imports_and_gets_them(night, tmp_path):
    archive = json.loads((tmp_path / "night.json").read_text(encoding="utf-8"))
    for ev in archive["events"]:
        for p in ev["payments"]:
            del p["code"], p["params"]
            p["reason"] = "worded by pancli 0.1"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    fresh = tmp_path / "fresh.db"
    pan(fresh, ["import", str(path)])
    assert standings(fresh, "night") == standings(night)
    assert all(code in reasons.CODES for *_, code, _ in rows(fresh))  # recomputed by the core
    assert pan(fresh, ["import", str(path)]).output.startswith("Already in the database")


def test_toml_archives_keep_a_payment_to_a_line(night, tmp_path):
    text = (tmp_path / "night.toml").read_text(encoding="utf-8")
    assert "[[events.payments]]" not in text and "[events.payments.params]" not in text
    assert ('{ payer = "Ben", payee = "Ana", chips = 4, reason = "5♠ 5♠ 5♠, one-suit valle set in spades", '
            'code = "condition", params = { cards = ["5S", "5S", "5S"], meld = 1, tag = "valle_suited" } },') in text
    toml, js = parse(text), parse((tmp_path / "night.json").read_text(encoding="utf-8"))
    assert toml["events"] == js["events"]


def test_payments_are_equal_by_data_not_by_wording():
    rules = from_dict({"preset": "hoyle"})
    state = engine.new_state(rules, ["Ana", "Ben", "Cruz"], "Cruz")
    state = engine.apply(state, {"kind": "deal"}).state
    pays = engine.apply(state, {"kind": "meld", "player": "Ana", "cards": ["5S", "5S", "5S"]}).payments
    same = Payment("Ben", "Ana", 4, "condition", Params(meld=1, tag="valle_suited", cards=["5S", "5S", "5S"]))
    assert pays[0] == same and pays[0].reason != same.reason == "condition"
    assert pays[0].params.to_json() == '{"cards":["5S","5S","5S"],"meld":1,"tag":"valle_suited"}'
    assert hash(pays[0]) == hash(same)


_PLAIN = st.one_of(st.integers(), st.text(), st.booleans(), st.none())
_VALUE = st.one_of(_PLAIN, st.lists(st.text()), st.lists(_PLAIN), st.floats(allow_nan=False),
                   st.dictionaries(st.text(), _PLAIN), st.lists(st.dictionaries(st.text(), st.integers())))


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.text(), _VALUE))
def test_params_json_is_the_canonical_encoders_whatever_they_hold(data):
    # Plain params are written without the encoder; every stored payment is compared by this text.
    params = Params(data)
    assert params.to_json() == json.dumps(params.plain(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert Params.from_json(params.to_json()) == params


def test_the_bulk_reader_reads_what_the_standard_reader_reads():
    from pancli.core.json_reader import sqlite_json  # noqa: PLC0415

    for text in ('[1,-2,"Ana",null,true,5.0,"\\u00e9\\ud83c\\udca1"]', '["\\ud800"]', "[NaN]", '{"a":1,"a":2}',
                 "[9223372036854775807,-9223372036854775808,1e400]"):
        assert repr(sqlite_json(text)) == repr(json.loads(text)), text
    with pytest.raises(ValueError):
        sqlite_json("[1,")
