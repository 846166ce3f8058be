"""Which language pancli speaks, and that a language changes only what people read."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pancli.cli import app
from pancli.core import i18n

KNOWN = ["en", "pl", "ru"]


@pytest.mark.parametrize("flag, env, expected", [
    (None, {}, "en"),
    ("pl", {"PANCLI_LANG": "ru", "LANG": "ru_RU.UTF-8"}, "pl"),            # --lang first
    (None, {"PANCLI_LANG": "ru", "LANGUAGE": "pl"}, "ru"),                  # then PANCLI_LANG
    (None, {"LANGUAGE": "de:pl:en", "LC_ALL": "ru_RU.UTF-8"}, "pl"),       # LANGUAGE is a list
    (None, {"LC_ALL": "ru_RU.UTF-8", "LANG": "pl_PL.UTF-8"}, "ru"),
    (None, {"LC_MESSAGES": "pl_PL", "LANG": "ru_RU.UTF-8"}, "pl"),
    (None, {"LANG": "pl_PL.UTF-8"}, "pl"),
    (None, {"LANG": "ru-RU"}, "ru"),
    (None, {"LANG": "C"}, "en"), (None, {"LANG": "POSIX"}, "en"), (None, {"LC_ALL": "C.UTF-8", "LANG": "pl_PL"}, "en"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),                                  # a language pancli does not speak
    (None, {"LC_ALL": "", "LANG": "ru_RU.KOI8-R"}, "ru"),                   # an empty variable is not set
    (None, {"LANG": "sr_RS@latin"}, "en"),
])
def test_the_language_comes_from_the_flag_then_pancli_lang_then_the_locale(flag, env, expected):
    assert i18n.chosen_language(flag, env, KNOWN) == expected


@pytest.mark.parametrize("header, expected", [
    ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", "pl"),
    ("de-DE,de;q=0.9,ru;q=0.8,en;q=0.5", "ru"),
    ("en;q=0.1, ru;q=0.9", "ru"),
    ("*", None), ("", None), (None, None), ("de", None), ("pl;q=0", None),
    ("pl;q=abc, ru", "ru"),
    ("x" * 10_000, None),                       # a hostile header is bounded, not an error
    (",".join(["de"] * 5000) + ",pl", None),    # only the first twenty are read
])
def test_a_browser_asks_for_its_language(header, expected):
    assert i18n.accepted_language(header, KNOWN) == expected


def test_english_is_the_messages_themselves():
    assert i18n.language() == "en"
    assert i18n._("{name} stays").format(name="Ana") == "Ana stays"
    assert i18n.ngettext("{n} chip", "{n} chips", 1).format(n=1) == "1 chip"
    assert i18n.ngettext("{n} chip", "{n} chips", 2).format(n=2) == "2 chips"
    assert i18n.N_("x") == "x"


def test_an_unknown_language_is_one_line_and_exit_2(tmp_path, monkeypatch):
    monkeypatch.delenv("PANCLI_LANG", raising=False)
    result = CliRunner().invoke(app, ["--lang", "de", "check", "5S", "5S", "5S"], prog_name="pan")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: --lang de is not a language pancli speaks: give one of " + ", ".join(_known())]
    result = CliRunner().invoke(app, ["check", "5S", "5S", "5S"], prog_name="pan", env={"PANCLI_LANG": "xx"})
    assert result.exit_code == 2
    assert "PANCLI_LANG xx is not a language pancli speaks" in result.output
    # a locale pancli does not speak is English, not an error (the machine's, not the host's choice)
    result = CliRunner().invoke(app, ["check", "5S", "5S", "5S"], prog_name="pan", env={"LANG": "de_DE.UTF-8"})
    assert result.exit_code == 0 and "legal set" in result.output


def _known() -> list[str]:
    from pancli.storage.catalogs import available

    return available()


# -- a night recorded in English, read in Polish and Russian ------------------------------------

NIGHT = ["session new friday --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25",
         "deal", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH",
         "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C", "deal", "meld dee AS 2S 3S", "undo"]
SHOWN = ["history", "report", "settle", "standings", "board", "player Ben", "sessions"]


@pytest.fixture
def night(tmp_path):
    from helpers import Pan

    db = tmp_path / "pan.db"
    pan = Pan(db)
    for line in NIGHT:
        pan(line)
    return db


def _run(db, lang: str, line: str) -> str:
    import shlex

    result = CliRunner().invoke(app, ["--lang", lang, "--db", str(db), *shlex.split(line)], prog_name="pan",
                                terminal_width=80)
    assert result.exit_code == 0, f"pan --lang {lang} {line}: {result.output}"
    return result.output


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_a_night_recorded_in_english_reads_in_polish_and_russian(night, lang):
    from helpers import db_dump

    before = db_dump(night)
    english = {line: _run(night, "en", line) for line in SHOWN}
    for line in SHOWN:
        shown = _run(night, lang, line)
        assert shown != english[line], f"`pan {line}` is the same in {lang} as in English"
        for name in ("Ana", "Ben"):
            assert name in shown or line in ("player Ben",) or name not in english[line]
        if line != "history":  # piped, history keeps an event to a line (grep finds it whole)
            assert max(map(len, shown.splitlines())) <= 80, f"`pan {line}` in {lang} is wider than 80 columns"
        # the figures are the same figures: every number English shows, this language shows
        import re

        def figures(text: str) -> list[str]:
            text = re.sub(r"\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d)?)?|\d{1,2}\.\d{1,2}\.\d{4}(?:, \d\d:\d\d)?",
                          " ", text)  # dates are written each language's way
            return sorted(re.findall(r"(?<![\w.,])\d+(?:[.,]\d+)?", text))
        assert [f.replace(",", ".") for f in figures(shown)] == figures(english[line]) or line == "sessions"
    # a payment's reason is said again from its code in this language; the stored one is English
    said = {"pl": "w pikach", "ru": "в пиках"}[lang]
    assert said in _run(night, lang, "history") and "in spades" not in _run(night, lang, "history")
    assert "one-suit valle set in spades" in english["history"]
    # a payment into a pool is one whole sentence, the pool declined after "pays"
    assert {"pl": "na górę idzie", "ru": "на верхушки идёт"}[lang] in _run(night, lang, "history")
    assert db_dump(night) == before, "reading in another language changed the database"
    assert {line: _run(night, "en", line) for line in SHOWN} == english


def test_an_archive_is_the_same_in_every_language_and_imports_under_another(night, tmp_path):
    import re

    from helpers import history_digest

    files = {}
    for lang in ("en", "pl", "ru"):
        path = tmp_path / f"friday-{lang}.toml"
        _run(night, lang, f"export friday -o {path}")
        # the same bytes but for the moment of the export
        files[lang] = re.sub(rb'exported_at = "[^"]*"', b"", path.read_bytes())
    assert files["en"] == files["pl"] == files["ru"]
    other = tmp_path / "other.db"
    _run(other, "ru", f"import {tmp_path / 'friday-pl.toml'}")
    _run(other, "pl", "db check --full")
    assert history_digest(other) != "" and _run(other, "en", "standings --json") == _run(night, "en", "standings --json")


def test_phones_at_one_table_each_read_their_own_language(night):
    """A page kept for one phone's language is never shown to a phone that reads another (the
    player's career says the favourite condition in words)."""
    from starlette.testclient import TestClient

    from pancli.web.app import create_app

    with TestClient(create_app(night, "players")) as client:
        pages = {}
        for lang in ("pl", "ru", "en", "pl"):
            r = client.get("/player/Ben", params={"token": "players"}, headers={"Cookie": f"pan_lang={lang}"})
            assert r.status_code == 200
            pages.setdefault(lang, r.text)
            assert f'lang="{lang}"' in r.text
        assert "w pikach" in pages["pl"] and "в пиках" not in pages["pl"]
        assert "в пиках" in pages["ru"] and "w pikach" not in pages["ru"]
        assert "in spades" in pages["en"] and "w pikach" not in pages["en"]


@pytest.mark.parametrize("locale, said", [
    ("pl_PL.UTF-8", ["Przykładowy wieczór", "Twoja własna baza pozostała nietknięta.", "Spróbuj dalej:"]),
    ("ru_RU.UTF-8", ["Пример вечера", "Что дальше:", "кто кому платит"]),
])
def test_a_polish_or_russian_host_runs_the_demo_in_their_language(tmp_path, locale, said):
    """`LANG=pl_PL.UTF-8 pan demo`, as a host's terminal runs it: the locale alone chooses."""
    import subprocess
    import sys

    from helpers import HANG, child_env

    env = {**child_env(), "HOME": str(tmp_path), "LANG": locale, "XDG_DATA_HOME": str(tmp_path / "data"),
           "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "pancli", "demo"], capture_output=True, text=True, env=env,
                          timeout=HANG)
    assert done.returncode == 0, done.stderr
    for phrase in said:
        assert phrase in done.stdout, f"{phrase!r} not in:\n{done.stdout}"
    assert "Try next" not in done.stdout and "who pays whom" not in done.stdout
