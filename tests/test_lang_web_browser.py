"""The dealer, player, table and TV pages in Polish and Russian in real headless Chromium at 390 px:
longer words still fit (no page wider than the phone, no button's words cut off), the page says its
language, and the scripts speak it too. With PAN_SCREENSHOTS=<folder> each page is also saved there
(docs/screenshots/ holds the ones looked at)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cdp import Browser, chromium_path
from helpers import Pan, start_server, stop_server

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

WIDTH = 390
# What does not fit: the page wider than the phone, or an element whose words run past its box
# (a button, a tab, a heading) or past the screen's right edge.
OVERFLOW = """(() => {
  const out = [];
  if (document.documentElement.scrollWidth > WIDTH) out.push('page ' + document.documentElement.scrollWidth);
  for (const e of document.querySelectorAll('button, .tabs a, .langs a, h1, h2, label, .status, .tag, .live')) {
    if (e.offsetParent === null) continue;
    const r = e.getBoundingClientRect();
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto') out.push('clipped: ' + e.textContent.trim());
    if (r.right > WIDTH + 1 && !e.closest('.scroll, .tabs')) out.push('past the edge: ' + e.textContent.trim());
  }
  return out;
})()""".replace("WIDTH", str(WIDTH))


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = tmp_path_factory.mktemp("lang") / "pan.db"
    pan = Pan(db)
    pan("session new piątek --players Agnieszka,Bartłomiej,Małgorzata,Władysław --dealer Władysław")
    pan("deal")
    pan("stay agnieszka")
    pan("drop małgorzata")
    pan("meld bartłomiej 5S 5S 5S")
    pan("meld agnieszka JH QH KH")
    proc, players = start_server(db, "--no-qr", "--dealer")
    try:
        dealer = ""
        while not dealer.startswith("http"):  # after a line that says what the address is for
            dealer = proc.stdout.readline().strip()
        yield players, dealer
    finally:
        rc, out, err = stop_server(proc)
        assert rc == 0 and "Traceback" not in err, err


def address(base: str, path: str, lang: str) -> str:
    root, query = base.split("?", 1)
    return f"{root.rstrip('/')}{path}?{query}&lang={lang}"


PAGES = {
    "table": ("/", "document.getElementById('live-status') && !document.getElementById('live-status').hidden"),
    "player": ("/player/Agnieszka", "document.getElementById('live-status') && !document.getElementById('live-status').hidden"),
    "tv": ("/tv", "document.getElementById('live-status') && !document.getElementById('live-status').hidden"),
    "dealer": (None, "document.querySelectorAll('#seats .seat').length === 4"),
}
WORDS = {"pl": {"table": "Wyniki", "player": "Dziś", "tv": "Rozdanie 1", "dealer": "Cofnij"},
         "ru": {"table": "Результаты", "player": "Сегодня", "tv": "Сдача 1", "dealer": "Отменить"}}
LIVE = {"pl": "● na żywo", "ru": "● в эфире"}


@pytest.mark.parametrize("lang", ["pl", "ru"])
@pytest.mark.parametrize("page", list(PAGES))
def test_the_page_fits_a_phone_in_polish_and_russian(served, lang, page):
    players, dealer = served
    path, ready = PAGES[page]
    url = address(dealer, "", lang).replace("?&", "?") if path is None else address(players, path, lang)
    with Browser(WIDTH, 844) as b:
        b.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=844, deviceScaleFactor=1, mobile=True)
        b.goto(url)
        b.wait_for(ready)
        assert b.evaluate("document.documentElement.lang") == lang
        text = b.text("body")
        assert WORDS[lang][page] in text
        if page == "dealer":
            assert b.text("#view-box h2") == {"pl": "Dziś", "ru": "Сегодня"}[lang]
            assert b.text("button[data-act='undo']") == WORDS[lang][page]
            b.wait_for("document.getElementById('chosen-for').textContent !== ''")
            assert b.text("#chosen-for") == {"pl": "wybierz gracza", "ru": "выберите игрока"}[lang]  # the script's words
        else:
            b.wait_for(f"document.getElementById('live-status').textContent === {LIVE[lang]!r}")
            assert "Standings" not in text and "History" not in text
        assert b.evaluate(OVERFLOW) == []
        shots = os.environ.get("PAN_SCREENSHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            b.screenshot(Path(shots) / f"{page}-{lang}-390.png")
