"""Every game's pages on a 390x844 phone, in English and every catalog (Polish, Russian, and
Bulgarian, Japanese and Spanish: tests/helpers.every_language): six players with
12-character names, or with 40-character ones, and no page scrolls sideways
(`document.documentElement.scrollWidth` is the viewport's); a name wraps or ends in an ellipsis,
never one letter a line. The dealer's page of each game shows only what that game has."""

import os
from urllib.parse import quote

import pytest

from cdp import Browser, chromium_path
from helpers import FORTY, TWELVE, Pan, every_language, every_language_code, start_server, stop_server, three_games

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

WIDTH = 390
LANGS = every_language_code()
GAMES = ("panguingue", "contract", "polish")

# What on a page is wider than the phone, or a name squeezed to a letter or two a line (the TV board,
# made for a screen across the room, lays two panels side by side at any width: its names may be cut).
WIDE = """[...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null)
  .filter(e => Math.round(e.getBoundingClientRect().right) > innerWidth)
  .map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className).slice(0, 8)"""
SQUEEZED = """document.body.classList.contains("tv") ? [] : [...document.querySelectorAll('#standings .name, td.l, .player .name, #whoes button, .seat .who')]
  .filter(e => e.offsetParent !== null && e.textContent.trim().length > 3 && e.getBoundingClientRect().width < 80)
  .map(e => [e.textContent.trim(), Math.round(e.getBoundingClientRect().width)])"""


# A 12-letter name in a table's name column, shown whole on one line (not "Łuk/asz", not "Władysła…"; a
# score sheet's row is two lines high, its running totals under the scores).
BROKEN = """document.body.classList.contains("tv") ? [] : [...document.querySelectorAll('td.l')]
  .filter(e => e.offsetParent !== null).filter(e => { const css = getComputedStyle(e);
    return e.scrollWidth > e.clientWidth + 1 || !e.closest('table.sheet') && e.getBoundingClientRect().height >
      2.2 * parseFloat(css.fontSize) + parseFloat(css.paddingTop) + parseFloat(css.paddingBottom); })
  .map(e => e.textContent.trim())"""


@pytest.fixture(scope="module", params=[TWELVE, FORTY], ids=["12-letter names", "40-letter names"])
def night(request, tmp_path_factory):
    db = tmp_path_factory.mktemp("width") / "pan.db"
    locale, _codes = every_language(db.parent)
    sessions = three_games(db, request.param)
    proc, url = start_server(db, "--no-qr", "--dealer", environ={"PANCLI_LOCALE_DIR": str(locale)})
    try:
        printed = [proc.stdout.readline().strip() for _ in range(2)]
        dealer = next(line[line.index("http"):] for line in printed if "dealer=" in line)
        base, token = url.split("/?token=")
        with Browser(WIDTH, 844) as b:
            yield {"db": db, "names": request.param, "sessions": sessions, "base": base, "token": token,
                   "dealer": dealer, "browser": b}
    finally:
        stop_server(proc)


def fits(b) -> None:
    assert b.evaluate("document.documentElement.scrollWidth") == WIDTH, (b.evaluate("location.pathname"),
                                                                          b.evaluate(WIDE))
    assert b.evaluate(SQUEEZED) == [], b.evaluate("location.pathname")


def players_pages(night, game: str) -> dict[str, str]:
    s, name = night["sessions"][game], quote(night["names"][2])
    return {"table": f"/?session={s}", "history": f"/history?session={s}", "settle": f"/settle?session={s}",
            "player": f"/player/{name}?session={s}", "sessions": "/sessions?", "tv": f"/tv?session={s}",
            "error": "/player/Nobody?"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_no_players_page_scrolls_sideways(night, game, lang):
    b = night["browser"]
    for path in players_pages(night, game).values():
        sep = "" if path.endswith("?") else "&"
        b.goto(f"{night['base']}{path}{sep}token={night['token']}&lang={lang}")
        fits(b)
        if night["names"] == TWELVE:
            assert b.evaluate(BROKEN) == [], (path, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_dealers_page_fits_and_shows_only_what_the_game_has(night, game, lang):
    b = night["browser"]
    Pan(night["db"])(f"session use {night['sessions'][game]}")
    b.goto(f"{night['dealer']}&lang={lang}")
    b.wait_for("document.querySelectorAll('#seats .seat').length === 6")
    fits(b)
    rows = b.evaluate("[...document.querySelectorAll('#standings li .name')].map(e => e.textContent)")
    assert sorted(rows) == sorted(night["names"])
    picker = b.evaluate("!document.getElementById('picker-box').hidden")
    assert picker == (game != "polish")  # Polish Pan has no action that takes cards: no picker
    offered = b.evaluate("[...document.querySelectorAll('#more-action option')].map(o => o.value)")
    assert ("buyin" in offered) == (game == "panguingue")  # chips from the bank only in a game of chips
