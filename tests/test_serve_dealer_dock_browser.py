"""The dealer's dock under the thumb, in headless Chromium at 390x844: in English, Polish and
Russian the not-live notice, the taps waiting, Retry and a refused tap's choices are whole (no
label clipped, nothing wider than the screen); the answer region (#said, aria-live) changes once
per tap, never on a refresh of the table."""

import os
import subprocess
import sys

import pytest

from cdp import Browser, chromium_path
from dealer_page import ROOT, Server, button, opened, tap_meld, waiting
from helpers import Pan

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

CLIPPED = ("[...document.querySelectorAll('#dock button, #dock #net-text, #dock #said')]"
           ".filter(e => e.offsetParent !== null)"
           ".filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > 390.5"
           " || e.getBoundingClientRect().left < -0.5 || e.getBoundingClientRect().width < 44 && e.tagName === 'BUTTON')"
           ".map(e => [e.id || e.textContent.trim(), e.scrollWidth, e.clientWidth])")


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_the_docks_notice_and_a_refused_taps_choices_are_whole_at_390_px(tmp_path, lang):
    pan = Pan(tmp_path / "pan.db")
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan("deal")
    server = Server(tmp_path / "pan.db")
    try:
        url = server.start()
        with Browser(390, 844) as b:
            d = opened(b, f"{url}&lang={lang}")
            server.kill()
            b.wait_for("!document.getElementById('net').hidden")
            tap_meld(b, d, "Ana", "2D 5H 7C")  # refused once it arrives
            d.act(button(act="drop", player="Cruz"))
            waiting(b, 2)
            assert {"en": "2 taps waiting", "pl": "2 stuknięcia czekają", "ru": "2 нажатия ждут"}[lang] in b.text("#net")
            assert b.evaluate(CLIPPED) == [] and b.evaluate("document.documentElement.scrollWidth") <= 390
            assert b.evaluate("document.getElementById('retry').getBoundingClientRect().bottom") <= 844  # in view
            server.start()
            b.wait_for("!document.getElementById('stop').hidden")
            assert b.evaluate(CLIPPED) == [] and b.evaluate("document.documentElement.scrollWidth") <= 390
            for id_ in ("stop-again", "stop-drop", "retry"):
                assert b.evaluate(f"document.getElementById('{id_}').getBoundingClientRect().bottom") <= 844, id_
    finally:
        server.stop()


def test_the_answer_is_announced_once_per_tap_never_on_a_refresh(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    server = Server(tmp_path / "pan.db")
    try:
        url = server.start()
        with Browser(390, 844) as b:
            d = opened(b, url)
            assert b.evaluate("document.getElementById('said').getAttribute('aria-live')") == "polite"
            assert b.evaluate("document.getElementById('heard').getAttribute('aria-live')") == "polite"
            b.evaluate("window.said = 0; new MutationObserver(m => { window.said += 1; })"
                       ".observe(document.getElementById('said'), {childList: true, characterData: true, subtree: true})")
            b.evaluate("window.heard = []; new MutationObserver(m => { window.heard.push("
                       "document.getElementById('heard').textContent); })"
                       ".observe(document.getElementById('heard'), {childList: true, characterData: true, subtree: true})")
            assert d.act(button(act="deal")).startswith("Hand 1: Dee deals")
            b.wait_for("!document.body.classList.contains('busy')")
            assert b.evaluate("window.said") == 1 and b.evaluate("window.heard") == []  # its own tap: said once
            # another dealer at the keyboard: the table is read afresh, nothing is said in the answer's
            # place, and the event is announced to a screen reader in the page's words
            subprocess.run([sys.executable, "-m", "pancli", "--db", str(server.db), "drop", "cruz"], check=True,
                           capture_output=True, cwd=ROOT)
            b.wait_for("document.getElementById('undo-preview').textContent.includes('Cruz')")
            b.wait_for("window.heard.length > 0")
            assert b.evaluate("window.said") == 1 and "Cruz" in b.evaluate("window.heard")[-1]
            d.act(button(act="stay", player="Ana"))
            b.wait_for("!document.body.classList.contains('busy')")
            assert b.evaluate("window.said") == 2 and len(b.evaluate("window.heard")) == 1
    finally:
        server.stop()
