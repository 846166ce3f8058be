"""The settle-up page's Copy button in headless Chromium: the night's summary (the same lines as
`pan report --text`, in the page's language) is in a box to select, and tapping Copy copies it and
says so. From 127.0.0.1 the page is a secure context and copies through navigator.clipboard; over
plain HTTP at the machine's address on the LAN it is not, has no navigator.clipboard, and copies
the box's selected text with document.execCommand("copy")."""

import json
import os

import pytest

from cdp import Browser, chromium_path
from helpers import CYCLE, Pan, start_server, stop_server

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

COPIED = {"en": "Copied", "pl": "Skopiowano", "ru": "Скопировано"}


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    db = tmp_path_factory.mktemp("share") / "pan.db"
    pan = Pan(db)
    pan("session new piątek --players Zoë,Łucja,Жанна,Ben,Eve,Fay --dealer Fay --chip-value 0.25 --currency PLN")
    for line in CYCLE:
        pan(line.replace(" a ", " zoë "))
    return db


def tap_copy(b: Browser, lang: str) -> dict:
    """Tap Copy and wait until the page says it copied; what the page shows and what was copied."""
    b.evaluate("window.__copied = null; document.addEventListener('copy', () => {"
               " const box = document.getElementById('summary');"
               " window.__copied = box.value.substring(box.selectionStart, box.selectionEnd); })")
    b.tap("document.querySelector('button.copy')")
    b.wait_for(f"document.querySelector('.copied').textContent === {json.dumps(COPIED[lang])}")
    return {"box": b.evaluate("document.getElementById('summary').value"),
            "said": b.text(".copied"), "secure": b.evaluate("window.isSecureContext"),
            "clipboard": b.evaluate("typeof navigator.clipboard"), "copied": b.evaluate("window.__copied")}


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_copy_on_the_settle_up_page_copies_the_nights_summary(night, lang):
    summary = Pan(night)(f"--lang {lang} report --text").stdout.rstrip("\n")
    assert "Zoë" in summary and "Łucja" in summary
    proc, url = start_server(night, "--no-qr")
    try:
        with Browser(390, 844) as b:
            b.call("Browser.grantPermissions", permissions=["clipboardReadWrite", "clipboardSanitizedWrite"])
            b.goto(url.replace("/?", "/settle?") + f"&lang={lang}")
            assert b.evaluate("document.querySelectorAll('button.copy').length") == 1
            assert b.text("button.copy") != "" and b.evaluate("document.documentElement.scrollWidth") <= 390
            got = tap_copy(b, lang)
            assert got["secure"] is True and got["box"] == summary and got["said"] == COPIED[lang]
            b.evaluate("window.focus()")
            pasted = b.call("Runtime.evaluate", expression="navigator.clipboard.readText()", awaitPromise=True,
                            returnByValue=True)["result"].get("value")
            assert pasted == summary  # what the clipboard holds
    finally:
        stop_server(proc)


def test_copy_works_over_plain_http_on_the_lan(night):
    """No secure context, no navigator.clipboard: the summary is selected in its box and copied
    with execCommand, and the page says Copied in its language. As a phone opens a host's address
    on the LAN: the page is served on loopback (the tests send nothing elsewhere) at a name that
    Chromium is told is 127.0.0.1, an origin it holds insecure as it holds a LAN address."""
    proc, url = start_server(night, "--no-qr")
    flags = ("--host-resolver-rules=MAP pan.test 127.0.0.1",)
    url = url.replace("127.0.0.1", "pan.test")
    try:
        with Browser(390, 844, flags=flags) as b:
            b.goto(url.replace("/?", "/settle?") + "&lang=pl")
            got = tap_copy(b, "pl")
            assert got["secure"] is False and got["clipboard"] == "undefined"
            assert got["copied"] == got["box"] and "Zoë" in got["box"] and "Kto komu płaci:" in got["box"]
            assert b.evaluate("document.activeElement.id") == "summary"  # selected, to copy by hand too
    finally:
        stop_server(proc)
