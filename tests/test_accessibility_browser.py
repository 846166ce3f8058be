"""axe-core in headless Chromium on every page `pan serve` shows (the dealer's, the table, a
player's, the TV board, settle-up, history, the sessions, an error) and the score sheet `pan report
--html` writes, in English and every catalog pancli ships (Polish, Russian, Bulgarian, Japanese,
Spanish: tests/helpers.every_language_code), for a night of each game: no WCAG 2.2 A/AA
violation. And every tap target of the dealer's page is at least 44x44 CSS px.

axe-core comes from a PyPI package, read from its file without importing it (no network at test
time): `pip install --no-deps axe-playwright-python` (.ci/run does), whose wheel ships
``axe.min.js``; or npm's ``axe-core`` in AXE_CORE_JS."""

import importlib.util
import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest

from cdp import Browser, chromium_path
from helpers import TWELVE, Pan, every_language_code, start_server, stop_server, three_games


def axe_source() -> str | None:
    given = os.environ.get("AXE_CORE_JS")
    if given and Path(given).is_file():
        return Path(given).read_text(encoding="utf-8")
    spec = importlib.util.find_spec("axe_playwright_python")  # found, never imported (it imports playwright)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if (Path(folder) / "axe.min.js").is_file():
            return (Path(folder) / "axe.min.js").read_text(encoding="utf-8")
    return None


AXE = axe_source()
if chromium_path() is None or AXE is None:
    if os.environ.get("CI"):
        raise RuntimeError("the accessibility test needs chromium and axe-core in CI: apt-get install chromium; "
                           "pip install --no-deps axe-playwright-python")
    pytest.skip("needs chromium and axe-core (pip install --no-deps axe-playwright-python)", allow_module_level=True)

LANGS = every_language_code()
GAMES = ("panguingue", "contract", "polish")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# the WCAG rules (and, in HEADING, the best practice the dealer's page once missed: one <h1>)
RUN = ("axe.run(document, {runOnly: {type: 'tag', values: TAGS}, rules: RULES}).then(r => r.violations"
       ".map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(' ') + ': '"
       " + (n.failureSummary || '').replace(/\\s+/g, ' '))})))")
# The dealer's page keeps its answer, Undo and Redo docked under the thumb, over whatever scrolls
# beneath it: axe's target-size counts a button passing under the dock as too small where it is
# covered. Its tap targets are held to 44x44 px instead, each (test_every_tap_target_…).
DOCKED = {"target-size": {"enabled": False}}
HEADING = ("axe.run(document, {runOnly: {type: 'rule', values: ['page-has-heading-one']}})"
           ".then(r => r.violations.map(v => ({id: v.id, help: v.help, nodes: []})))")


def violations(b, rules: dict | None = None) -> list[dict]:
    if not b.evaluate("typeof window.axe === 'object'"):
        b.evaluate(AXE)
    b.evaluate(f"window.TAGS = {json.dumps(TAGS)}; window.RULES = {json.dumps(rules or {})}")
    found = []
    for script in (RUN, HEADING):
        result = b.call("Runtime.evaluate", expression=script, awaitPromise=True, returnByValue=True)
        assert "exceptionDetails" not in result, result
        found += result["result"]["value"]
    return found


def readable(where: str, found: list[dict]) -> str:
    return "\n".join(f"{where}: {v['id']} ({v['help']})" + "".join(f"\n    {n}" for n in v["nodes"][:5])
                     for v in found)


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    folder = tmp_path_factory.mktemp("a11y")
    db = folder / "pan.db"
    sessions = three_games(db, TWELVE)
    proc, url = start_server(db, "--no-qr", "--dealer")
    try:
        printed = [proc.stdout.readline().strip() for _ in range(2)]
        dealer = next(line[line.index("http"):] for line in printed if "dealer=" in line)
        base, token = url.split("/?token=")
        with Browser(390, 844) as b:
            yield {"db": db, "folder": folder, "sessions": sessions, "base": base, "token": token,
                   "dealer": dealer, "browser": b}
    finally:
        stop_server(proc)


def players_pages(night, game: str) -> dict[str, str]:
    s = night["sessions"][game]
    return {"table": f"/?session={s}", "history": f"/history?session={s}", "settle": f"/settle?session={s}",
            "player": f"/player/{quote(TWELVE[2])}?session={s}", "tv": f"/tv?session={s}",
            "sessions": "/sessions?", "error": "/player/Nobody?"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_no_violation_on_any_page(night, game, lang):
    b, problems = night["browser"], []
    for name, path in players_pages(night, game).items():
        sep = "" if path.endswith("?") else "&"
        b.goto(f"{night['base']}{path}{sep}token={night['token']}&lang={lang}")
        problems.append(readable(f"{game} {lang} {name}", violations(b)))
    Pan(night["db"])(f"session use {night['sessions'][game]}")
    b.goto(f"{night['dealer']}&lang={lang}")
    b.wait_for("document.querySelectorAll('#seats .seat').length === 6")
    problems.append(readable(f"{game} {lang} dealer", violations(b, DOCKED)))
    sheet = night["folder"] / f"sheet-{game}-{lang}.html"
    Pan(night["db"])(f"--lang {lang} report {night['sessions'][game]} --html {sheet}")
    b.goto(sheet.as_uri())
    problems.append(readable(f"{game} {lang} sheet", violations(b)))
    problems = [p for p in problems if p]
    assert not problems, "\n" + "\n".join(problems)


TARGETS = """[...document.querySelectorAll('button, a[href], input, select, summary, [role="button"]')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect();
              return [e.id || e.textContent.trim().slice(0, 30) || e.name || e.tagName, Math.round(r.width * 10) / 10,
                      Math.round(r.height * 10) / 10]; })
  .filter(x => x[1] < 44 || x[2] < 44)"""


@pytest.mark.parametrize("lang", LANGS)  # Russian's long words, Japanese's two-kanji buttons (出る)
@pytest.mark.parametrize("game", GAMES)
def test_every_tap_target_of_the_dealers_page_is_44_px(night, game, lang):
    b = night["browser"]
    Pan(night["db"])(f"session use {night['sessions'][game]}")
    b.goto(f"{night['dealer']}&lang={lang}")
    b.wait_for("document.querySelectorAll('#seats .seat').length === 6")
    b.tap("document.querySelector('#whoes button') || document.body")
    assert b.evaluate("document.querySelectorAll('button, a[href], input, select').length") > 10
    assert b.evaluate(TARGETS) == []


# Every control of the dealer's page, focused as the keyboard focuses it, in view above the dock
# (WCAG 2.4.11 Focus Not Obscured): the ones the dock covers where they are.
UNDER_DOCK = """(() => { const dock = document.getElementById('dock'), hidden = [];
  for (const e of document.querySelectorAll('main button, main a[href], main input, main select')) {
    if (e.offsetParent === null || e.disabled || dock.contains(e)) continue;
    window.scrollTo(0, 0); e.focus();
    const r = e.getBoundingClientRect(), d = dock.getBoundingClientRect();
    if (r.bottom > d.top + 1 || r.top < 0) hidden.push(e.id || e.textContent.trim().slice(0, 30));
  }
  return hidden; })()"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_focused_control_of_the_dealers_page_is_never_under_the_dock(night, lang):
    b = night["browser"]
    Pan(night["db"])(f"session use {night['sessions']['panguingue']}")
    b.goto(f"{night['dealer']}&lang={lang}")
    b.wait_for("document.querySelectorAll('#seats .seat').length === 6")
    assert b.evaluate("document.querySelectorAll('main button').length") > 40
    assert b.evaluate(UNDER_DOCK) == []
