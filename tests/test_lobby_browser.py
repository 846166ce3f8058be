"""The club's lobby in headless Chromium: on a 390 px phone, a card per live table of another host,
no sideways scroll, no axe violation, one tap to the table's page, and a new table showing by itself;
the TV panel turning from one table to the next."""

import importlib.util
import json
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


def axe_source() -> str | None:
    spec = importlib.util.find_spec("axe_playwright_python")  # found, never imported
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if (Path(folder) / "axe.min.js").is_file():
            return (Path(folder) / "axe.min.js").read_text(encoding="utf-8")
    return None


AXE = axe_source()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
RUN = ("axe.run(document, {runOnly: {type: 'tag', values: " + json.dumps(TAGS) + "}}).then(r => r.violations"
       ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))")


@pytest.fixture(scope="module")
def lobby(tmp_path_factory):
    """Kasia (host A) starts the club and records two tables; Cruz (host C) syncs and serves the lobby."""
    tmp = tmp_path_factory.mktemp("lobby")
    folder = tmp / "shared"
    folder.mkdir()
    kasia, cruz = Pan(tmp / "kasia.db"), Pan(tmp / "cruz.db")
    for name, players in (("table-one", "Ana,Ben,Dee"), ("table-two", "Łukasz,Władysław,Bartłomiej")):
        kasia(f"session new {name} --players {players}")
        kasia("deal")
    kasia(f"sync {folder} --device-name kasia")
    kasia("club init 'Friday club'")
    kasia("sync")
    cruz("session new here --players Eve,Fay,Gus")
    cruz(f"sync {folder} --device-name cruz")
    proc, url = start_server(cruz.db, "--no-qr", "--club")
    try:
        base, token = url.split("/?token=")
        yield {"base": base, "token": token, "cruz": cruz}
    finally:
        stop_server(proc)


def test_the_lobby_on_a_phone_shows_each_live_table_and_taps_through(lobby):
    with Browser(WIDTH, 844) as b:
        b.goto(f"{lobby['base']}/lobby?token={lobby['token']}")
        assert b.evaluate("[...document.querySelectorAll('.lobby-card')].map(c => c.dataset.table).sort()") == \
            ["table-one", "table-two"]
        assert b.evaluate("document.documentElement.scrollWidth") == WIDTH
        assert "kasia" in b.text(".lobby-card")
        for lang in ("pl", "ru", "bg", "ja", "es"):
            b.goto(f"{lobby['base']}/lobby?token={lobby['token']}&lang={lang}")
            assert b.evaluate("document.documentElement.scrollWidth") == WIDTH, lang
        b.goto(f"{lobby['base']}/lobby?token={lobby['token']}")
        if os.environ.get("LOBBY_SHOTS"):
            b.screenshot(Path(os.environ["LOBBY_SHOTS"]) / "lobby-phone.png")
        if AXE:
            b.evaluate(AXE)
            result = b.call("Runtime.evaluate", expression=RUN, awaitPromise=True, returnByValue=True)
            assert result["result"]["value"] == [], result
        lobby["cruz"]("deal", ok=True)  # a table of this host comes alive: the page shows it by itself
        b.wait_for("document.querySelectorAll('.lobby-card').length === 3")
        b.tap("document.querySelector('.lobby-card[data-table=\"table-one\"] h2 a')")
        b.wait_for("location.pathname === '/' && location.search.includes('session=table-one')")
        b.wait_for("document.readyState === 'complete'")
        assert "Ana" in b.text("main")


def test_the_tv_panel_turns_through_the_live_tables(lobby):
    with Browser(1280, 720) as b:
        b.goto(f"{lobby['base']}/tv/lobby?token={lobby['token']}")
        shown = "[...document.querySelectorAll('.tv-table')].filter(e => !e.hidden).map(e => e.dataset.table)"
        first = b.evaluate(shown)
        assert len(first) == 1, first
        if os.environ.get("LOBBY_SHOTS"):
            b.screenshot(Path(os.environ["LOBBY_SHOTS"]) / "lobby-tv.png", full_page=False)
        b.wait_for(f"(() => {{ const s = {shown}; return s.length === 1 && s[0] !== {json.dumps(first[0])}; }})()")
        assert b.evaluate("document.documentElement.scrollWidth") == 1280
        size = b.evaluate("parseFloat(getComputedStyle(document.querySelector('.tv-table:not([hidden]) "
                          ".last-event')).fontSize)")
        assert size >= 32, size  # read from across the room
