"""Every page on a 390x844 phone in every language (issue 40): each shipped catalog, and bg, ja and
es (their stand-ins until their catalogs merge, tests/helpers.every_language), in real headless
Chromium: no page wider than the phone, no character drawn as an empty box (every one in a font
that has it: `tests/glyphs.py`), Japanese lines broken between phrases, never inside a word, and
the language switch naming every catalog by its own name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from cdp import Browser, chromium_path
from glyphs import broken_words, missing_glyphs
from helpers import TWELVE, Pan, every_language, every_language_code, start_server, stop_server, three_games

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

WIDTH = 390
LANGS = every_language_code()
GAMES = ("panguingue", "contract", "polish")
# A Japanese paragraph long enough to wrap several times on a phone (about the game, in our words):
# where it breaks is the page's CSS at work on Japanese, whatever the catalog says.
JAPANESE = ("パンギンギは八組のトランプから八と九と十を抜いた三百二十枚で遊ぶラミーの仲間で、配られた十枚の手札から"
            "メルドを作り、条件のそろったメルドを出すたびにほかの全員からチップを受け取ります。"
            "最後に手札をすべて出し切った人がその回の勝者です。")


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    folder = tmp_path_factory.mktemp("every-language")
    locale, codes = every_language(folder)
    assert ["en", *codes] == LANGS
    db = folder / "pan.db"
    sessions = three_games(db, TWELVE)
    proc, url = start_server(db, "--no-qr", "--dealer", environ={"PANCLI_LOCALE_DIR": str(locale)})
    try:
        printed = [proc.stdout.readline().strip() for _ in range(2)]
        dealer = next(line[line.index("http"):] for line in printed if "dealer=" in line)
        base, token = url.split("/?token=")
        with Browser(WIDTH, 844) as b:
            yield {"db": db, "sessions": sessions, "base": base, "token": token, "dealer": dealer, "browser": b,
                   "locale": locale}
    finally:
        stop_server(proc)


def pages(night, game: str) -> list[str]:
    s, name = night["sessions"][game], quote(TWELVE[2])
    return [f"/?session={s}", f"/history?session={s}", f"/settle?session={s}", f"/player/{name}?session={s}",
            f"/tv?session={s}", "/sessions?", "/player/Nobody?"]


def drawn_whole(b, lang: str, where: str) -> None:
    assert b.evaluate("document.documentElement.lang") == lang, where
    assert b.evaluate("document.documentElement.scrollWidth") == WIDTH, where
    assert missing_glyphs(b) == [], where
    if lang == "ja":
        assert b.evaluate("getComputedStyle(document.body).wordBreak") == "auto-phrase", where
        assert broken_words(b)["inside"] == [], where


@pytest.mark.slow  # every page of every game in every language, each text's fonts asked: minutes
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_page_is_drawn_whole_on_a_phone_in_every_language(night, game, lang):
    b = night["browser"]
    for path in pages(night, game):
        sep = "" if path.endswith("?") else "&"
        b.goto(f"{night['base']}{path}{sep}token={night['token']}&lang={lang}")
        drawn_whole(b, lang, path)
    Pan(night["db"])(f"session use {night['sessions'][game]}")
    b.goto(f"{night['dealer']}&lang={lang}")
    b.wait_for("document.querySelectorAll('#seats .seat').length === 6")
    drawn_whole(b, lang, "dealer")


def test_the_switch_names_every_catalog_by_its_own_name(night):
    b = night["browser"]
    b.goto(f"{night['base']}/?token={night['token']}&lang=en")
    links = b.evaluate("[...document.querySelectorAll('.langs a')].map(a => [a.lang, a.textContent])")
    assert sorted(code for code, _name in links) == sorted(LANGS)
    names = dict(links)
    assert names["en"] == "English" and names["pl"] == "Polski" and names["ru"] == "Русский"
    assert names["bg"] == "Български" and names["ja"] == "日本語" and names["es"] == "Español"
    # on the phone every name is whole on its line, and the switch wraps between names
    assert b.evaluate("[...document.querySelectorAll('.langs a')].every(a => a.getClientRects().length === 1)")
    assert b.evaluate("document.documentElement.scrollWidth") == WIDTH


def test_a_japanese_paragraph_breaks_between_phrases_and_the_check_sees_a_word_broken(night):
    b = night["browser"]
    b.goto(f"{night['base']}/?token={night['token']}&lang=ja")
    b.evaluate(f"document.querySelector('main').insertAdjacentHTML('afterbegin', '<p id=\"sample\">{JAPANESE}</p>')")
    lines = broken_words(b)
    assert lines["breaks"] >= 4 and lines["inside"] == [], lines
    # the same paragraph with the browser's default rule for Japanese (break between any two
    # characters): a word is broken, and the check says where
    b.evaluate("document.getElementById('sample').style.wordBreak = 'normal'")
    assert broken_words(b)["inside"] != []


def test_a_character_no_font_has_is_found(night):
    b = night["browser"]
    b.goto(f"{night['base']}/?token={night['token']}&lang=ja")
    assert missing_glyphs(b) == []
    b.evaluate("document.querySelector('main').insertAdjacentHTML('afterbegin', '<p>\\u{F0000} \\u{1FAE8}</p>')")
    assert {ch for ch, _text, _fonts in missing_glyphs(b)} == {"\U000F0000", "\U0001FAE8"}


def without_japanese_fonts(folder) -> Path:
    """A fontconfig file that sees every installed font but the Japanese ones."""
    files = subprocess.run(["fc-list", ":lang=ja", "file"], capture_output=True, text=True, check=True).stdout
    files = sorted({line.split(":")[0].strip() for line in files.splitlines() if line.strip()})
    assert files, "no Japanese font installed: apt-get install fonts-vlgothic"
    conf = Path(folder) / "fonts.conf"
    rejected = "".join(f"<glob>{f}</glob>" for f in files)
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                    '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
                    f"<selectfont><rejectfont>{rejected}</rejectfont></selectfont></fontconfig>")
    return conf


def test_without_a_japanese_font_the_japanese_page_is_found_missing_glyphs(night, tmp_path):
    """What .ci/run's fonts-vlgothic is for: the same page in a Chromium that sees every font but
    the Japanese ones draws kana and kanji as boxes, and the check finds them."""
    conf = without_japanese_fonts(tmp_path)
    with Browser(WIDTH, 844, env={"FONTCONFIG_FILE": str(conf)}) as b:
        b.goto(f"{night['base']}/?token={night['token']}&lang=ja")
        missing = {ch for ch, _text, _fonts in missing_glyphs(b)}
    assert "日" in missing and "テ" in missing  # the switch's 日本語 and the tab テーブル


@pytest.mark.slow  # builds the demo night and shoots ten pages: half a minute
def test_the_screenshots_script_writes_every_page_in_a_language_and_says_a_missing_font(tmp_path):
    """docs/screenshots.py --lang: each phone page at 390 px into OUT/<page>-<lang>-390.png; run
    where Chromium sees no Japanese font, it still writes them, says which characters have none,
    and exits 1."""
    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "shots"
    env = dict(os.environ, FONTCONFIG_FILE=str(without_japanese_fonts(tmp_path)))
    run = subprocess.run([sys.executable, str(root / "docs" / "screenshots.py"), "--lang", "ja", "--out", str(out)],
                         capture_output=True, text=True, env=env, cwd=root)
    assert run.returncode == 1, run.stderr
    pages = ["table", "history", "settle", "player", "sessions", "contract", "polish", "hand-over", "tv", "dealer"]
    assert sorted(f.name for f in out.iterdir()) == sorted(f"{page}-ja-390.png" for page in pages)
    assert all(f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for f in out.iterdir())
    assert "U+65E5 '日' in '日本語' has no font" in run.stderr  # the switch's 日本語, on every page
    assert "Traceback" not in run.stderr


@pytest.fixture(scope="module")
def wide_night(tmp_path_factory, qps_dir):
    """A night served with the pseudo-languages only (qps_dir holds qps and the wide qpa)."""
    db = tmp_path_factory.mktemp("wide-pseudo") / "pan.db"
    sessions = three_games(db, TWELVE)
    proc, url = start_server(db, "--no-qr", "--dealer", environ={"PANCLI_LOCALE_DIR": qps_dir})
    try:
        printed = [proc.stdout.readline().strip() for _ in range(2)]
        dealer = next(line[line.index("http"):] for line in printed if "dealer=" in line)
        base, token = url.split("/?token=")
        with Browser(WIDTH, 844) as b:
            yield {"db": db, "sessions": sessions, "base": base, "token": token, "dealer": dealer, "browser": b}
    finally:
        stop_server(proc)


@pytest.mark.slow  # every page of every game, each text's fonts asked
@pytest.mark.parametrize("game", GAMES)
def test_every_page_is_drawn_whole_on_a_phone_in_the_wide_pseudo_language(wide_night, game):
    """qpa writes every message in full-width letters, two cells each and no space inside: what a
    language of wide script asks of a page. Every page still fits the phone, every character in a
    font."""
    b, night = wide_night["browser"], wide_night
    for path in pages(night, game):
        sep = "" if path.endswith("?") else "&"
        b.goto(f"{night['base']}{path}{sep}token={night['token']}&lang=qpa")
        assert b.evaluate("document.documentElement.lang") == "qpa", path
        assert "Ｓ" in b.text("body") or "ｓ" in b.text("body"), path  # the wide letters are in force
        assert b.evaluate("document.documentElement.scrollWidth") == WIDTH, path
        assert missing_glyphs(b) == [], path
    Pan(night["db"])(f"session use {night['sessions'][game]}")
    b.goto(f"{night['dealer']}&lang=qpa")
    b.wait_for("document.querySelectorAll('#seats .seat').length === 6")
    assert b.evaluate("document.documentElement.scrollWidth") == WIDTH, "dealer"
    assert missing_glyphs(b) == [], "dealer"
