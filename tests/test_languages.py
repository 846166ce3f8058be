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
