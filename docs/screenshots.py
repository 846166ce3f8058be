"""Phone-width screenshots of every `pan serve` page, into docs/serve-*.png. Run by hand:

    .venv/bin/python docs/screenshots.py
    .venv/bin/python docs/screenshots.py --lang bg ja es [--out docs/screenshots]

With --lang, every phone page (the table, history, settle-up, a player, the sessions, a contract
and a Polish Pan game, a hand that is over, the TV board and the dealer's page) in each language
given, 390 px wide, into OUT/<page>-<lang>-390.png; for each page it prints what is wider than the
phone and every character drawn without a font that has it (tests/glyphs.py), so that a page in a
script without its font (boxes for kana) is said, not just pictured.

Builds a demo database (examples/tonight.pan, a hand in play, earlier nights whose last hand is over,
a contract game, a Polish game and a session brought in from another device),
serves it on 127.0.0.1 and has headless Chromium (Debian's `chromium`) capture each page 390 px wide, the TV board (/tv) at 1280x720 and 1920x1080,
and the score sheet of `pan report --html` as it prints (A4).
"""

from __future__ import annotations

import argparse
import base64
import re
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from cdp import Browser  # noqa: E402
from glyphs import missing_glyphs  # noqa: E402
from helpers import Pan, start_server, stop_server  # noqa: E402

NAMES = ["ana", "ben", "cruz", "dee", "eli", "fay", "gus"]


def earlier_night(db: Path, name: str, date: str, shift: int) -> None:
    """examples/tonight.pan again, the players' names rotated, as an earlier night of the season."""
    turn = {n: NAMES[(i + shift) % len(NAMES)] for i, n in enumerate(NAMES)}
    text = (ROOT / "examples" / "tonight.pan").read_text()
    text = re.sub(r"\b(" + "|".join(NAMES) + r")\b", lambda m: turn[m.group(1).lower()].title(), text,
                  flags=re.IGNORECASE)
    text = text.replace("session new tonight", f"session new {name}")
    script = db.parent / f"{name}.pan"
    script.write_text(text)
    Pan(db)(f"table --quiet --script {script}")
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE sessions SET created_at = ? WHERE name = ?", [f"{date}T21:00:00+00:00", name])
    con.close()


def demo(db: Path) -> None:
    pan = Pan(db)
    for name, date, shift in (("sep-night", "2026-09-25", 2), ("oct-night", "2026-10-16", 5),
                              ("nov-night", "2026-11-06", 3)):
        earlier_night(db, name, date, shift)
    pan(f"table --quiet --script {ROOT / 'examples' / 'tonight.pan'}")
    pan("session new rummy --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    for line in ['contract lay ana "7S 7H 7D + QC QD QS"', "contract out ana --discard 2H",
                 "contract left ben 9C 9D", "contract left cruz AS 5H 5D", "contract left dee --points 12",
                 'contract lay cruz "4H 4D 4C + 5S 6S 7S 8S"']:
        pan(line)
    pan("session new polski --game polish --players Ola,Piotr,Zosia,Marek")
    for loser in ("piotr", "ola", "piotr", "marek"):
        pan(f"polish lost {loser}")
    away = db.parent / "ana.db"
    shared = db.parent / "shared"
    Pan(away)("session new saturday --players Ana,Ben,Cruz --dealer Cruz")
    Pan(away)(f"sync {shared} --create --device-name ana-laptop")
    pan(f"sync {shared} --device-name ben-laptop")
    pan("session use tonight")
    for line in ["deal", "drop eli fay", "meld gus 5S 5S 5S", "add gus 5S", "meld dee AH 2H 3H",
                 "meld ana KC KC KC", "meld ben 4D 5D 6D 7D", "meld cruz JS QS KS"]:
        pan(line)


# Each phone page of the demo night, by the name its screenshot takes (as in docs/serve-*.png).
PAGES = {
    "table": "/", "history": "/history", "settle": "/settle", "player": "/player/Ana",
    "sessions": "/sessions", "contract": "/?session=rummy", "polish": "/?session=polski",
    "hand-over": "/?session=nov-night", "tv": "/tv",
}


def every_language(langs: list[str], out: Path) -> int:
    """The phone pages in each language into OUT/<page>-<lang>-390.png; how many pages were wider
    than the phone or drew a character without its font (each said on stderr)."""
    out.mkdir(parents=True, exist_ok=True)
    faults = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        demo(db)
        proc, url = start_server(db, "--no-qr", "--dealer")
        try:
            dealer = ""
            while not dealer.startswith("http"):  # the players' address is url; the dealer's comes after it
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError("pan serve printed no dealer's address")
                dealer = line[line.find("http"):].strip() if "dealer=" in line else ""
            base, token = url.split("/?token=")
            with Browser(390, 844) as browser:
                for lang in langs:
                    for name, path in [*PAGES.items(), ("dealer", None)]:
                        if path is None:
                            browser.goto(f"{dealer}&lang={lang}")
                            browser.wait_for("document.querySelectorAll('#seats .seat').length > 0")
                        else:
                            sep = "&" if "?" in path else "?"
                            browser.goto(f"{base}{path}{sep}token={token}&lang={lang}")
                            browser.wait_for("!document.getElementById('live-status').hidden")
                        wide = browser.evaluate("document.documentElement.scrollWidth")
                        missing = missing_glyphs(browser)
                        target = out / f"{name}-{lang}-390.png"
                        browser.screenshot(target)
                        print(f"wrote {target}")
                        if wide > 390:
                            print(f"  {name} ({lang}) is {wide} px wide", file=sys.stderr)
                        for ch, text, fonts in missing:
                            print(f"  {name} ({lang}): U+{ord(ch):04X} {ch!r} in {text!r} has no font"
                                  f" ({', '.join(fonts)})", file=sys.stderr)
                        faults += bool(wide > 390 or missing)
        finally:
            stop_server(proc)
    return faults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", nargs="+", metavar="CODE", help="the phone pages in these languages")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots",
                        help="where --lang writes (docs/screenshots)")
    args = parser.parse_args()
    if args.lang:
        sys.exit(1 if every_language(args.lang, args.out) else 0)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        demo(db)
        proc, url = start_server(db, "--no-qr")
        base, token = url.split("/?token=")
        pages = {
            "table": "/", "history": "/history", "settle": "/settle", "player": "/player/Ana",
            "sessions": "/sessions", "contract": "/?session=rummy", "polish": "/?session=polski",
            "hand-over": "/?session=nov-night",
        }
        try:
            with Browser(390, 844) as browser:
                for name, path in pages.items():
                    sep = "&" if "?" in path else "?"
                    browser.goto(f"{base}{path}{sep}token={token}")
                    browser.wait_for("!document.getElementById('live-status').hidden", 5)
                    out = ROOT / "docs" / f"serve-{name}.png"
                    browser.screenshot(out)
                    print(f"wrote {out.relative_to(ROOT)}")
            for width, height in ((1280, 720), (1920, 1080)):  # the TV board, one screen each
                with Browser(width, height) as browser:
                    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                                 deviceScaleFactor=1, mobile=False)
                    browser.goto(f"{base}/tv?token={token}")
                    browser.wait_for("document.getElementById('live-status').textContent === '● live'", 5)
                    out = ROOT / "docs" / f"serve-tv-{height}p.png"
                    data = browser.call("Page.captureScreenshot", format="png")["data"]
                    out.write_bytes(base64.b64decode(data))
                    print(f"wrote {out.relative_to(ROOT)}")
            sheet = Path(tmp) / "sheet.html"  # the score sheet as it prints: A4 at 96 px an inch
            Pan(db)(f"report tonight --html {sheet}")
            with Browser(794, 1123) as browser:
                browser.call("Emulation.setDeviceMetricsOverride", width=794, height=1123, deviceScaleFactor=1,
                             mobile=False)
                browser.goto(sheet.as_uri())
                browser.call("Emulation.setEmulatedMedia", media="print")
                out = ROOT / "docs" / "report-sheet-print.png"
                out.write_bytes(base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"]))
                print(f"wrote {out.relative_to(ROOT)}")
        finally:
            stop_server(proc)


if __name__ == "__main__":
    main()
