"""The dealer, player, table and TV pages in Polish and Russian in real headless Chromium at 390 px:
longer words still fit (no page wider than the phone, no button's words cut off), the page says its
language, and the scripts speak it too. With PAN_SCREENSHOTS=<folder> each page is also saved there
(docs/screenshots/ holds the ones looked at)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cdp import Browser, chromium_path
from phone_pages import OVERFLOW, PAGES, WIDTH, address, served  # noqa: F401  (the fixture)

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

WORDS = {"pl": {"table": "Wyniki", "player": "Dziś", "tv": "Rozdanie 1", "dealer": "Cofnij"},
         "ru": {"table": "Результаты", "player": "Сегодня", "tv": "Сдача 1", "dealer": "Отменить"}}
LIVE = {"pl": "● na żywo", "ru": "● в эфире"}


@pytest.mark.parametrize("lang", ["pl", "ru"])
@pytest.mark.parametrize("page", list(PAGES))
def test_the_page_fits_a_phone_in_polish_and_russian(served, lang, page):  # noqa: F811  (the fixture)
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
