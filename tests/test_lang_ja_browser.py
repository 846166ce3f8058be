"""The phone's pages in Japanese: each page says it is Japanese, speaks Japanese (the page's own
words and its script's), and fits a 390 px phone though a kanji takes twice a letter's width."""

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

WORDS = {"table": "順位表", "player": "今夜", "tv": "ハンド 1", "dealer": "取り消し"}


@pytest.mark.parametrize("page", list(PAGES))
def test_the_page_fits_a_phone_in_japanese(served, page):  # noqa: F811  (the fixture)
    players, dealer = served
    path, ready = PAGES[page]
    url = address(dealer, "", "ja").replace("?&", "?") if path is None else address(players, path, "ja")
    with Browser(WIDTH, 844) as b:
        b.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=844, deviceScaleFactor=1, mobile=True)
        b.goto(url)
        b.wait_for(ready)
        assert b.evaluate("document.documentElement.lang") == "ja"
        text = b.text("body")
        assert WORDS[page] in text
        if page == "dealer":
            assert b.text("button[data-act='undo']") == "取り消し"
            b.wait_for("document.getElementById('chosen-for').textContent !== ''")
            assert b.text("#chosen-for") == "誰か選ぶ"  # the script's words
        else:
            b.wait_for("document.getElementById('live-status').textContent === '● ライブ'")
            assert "Standings" not in text and "History" not in text
        assert b.evaluate(OVERFLOW) == []
        shots = os.environ.get("PAN_SCREENSHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            b.screenshot(Path(shots) / f"{page}-ja-390.png")
