"""Phone-width screenshots of the dealer's page (`pan serve --dealer`), into docs/dealer-*.png. Run by hand:

    .venv/bin/python docs/dealer_screenshots.py

The demo night of docs/screenshots.py, served with --dealer; headless Chromium (Debian's `chromium`)
opens the dealer's page 390 px wide, taps Ana and a card to add to her meld, and captures the page;
then two new melds with "/ next meld" between them, each judged by the live verdict;
then the page of a contract deal (its contract, its 52-card picker, Ana's discard chosen to go out),
and the page of a Polish Pan game (a seat's "Lost the deal", no card picker: it has no action for one).
It also prints every tap target smaller than 44 px (there should be none).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "docs"))

from screenshots import demo  # noqa: E402

from dealer_page import Dealer, button, choose, served_dealer_page, small_targets  # noqa: E402
from helpers import Pan  # noqa: E402


def shoot(b, name: str, full_page: bool = True) -> None:
    out = ROOT / "docs" / name
    b.screenshot(out, full_page=full_page)
    print(f"wrote {out.relative_to(ROOT)}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        demo(db)
        with served_dealer_page(db) as b:
            shoot(b, "dealer-page.png")
            b.tap(button(who="Ana"))
            meld = int(b.evaluate("document.querySelector('#melds [data-onto]').dataset.onto"))
            Dealer(b).pick("Ana", "KC", onto=meld)
            b.evaluate("document.getElementById('picker-box').scrollIntoView()")
            shoot(b, "dealer-picker.png", full_page=False)
            b.tap("document.getElementById('clear')")  # two new melds, judged one by one
            b.tap(button(who="Ana"))
            chosen = []
            for card in "2C 3C 4C / 5H 5D 5S".split():
                b.tap("document.getElementById('separate')" if card == "/" else button(card=card))
                chosen.append(card)
                b.wait_for(f"document.getElementById('verdict').dataset.cards === '{' '.join(chosen)}'")
            b.evaluate("document.getElementById('picker-box').scrollIntoView()")
            shoot(b, "dealer-melds.png", full_page=False)
            for target in small_targets(b):
                print(f"smaller than 44 px: {target}")
        contract(Path(tmp) / "contract.db")
        polish(Path(tmp) / "polish.db")


def contract(db: Path) -> None:
    pan = Pan(db)
    pan("session new tuesday --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan("contract lay ana 7S 7H 7D / QC QD QS")
    with served_dealer_page(db) as b:
        choose(b, "Ana", "QH")
        b.evaluate("document.getElementById('picker-box').scrollIntoView()")
        shoot(b, "dealer-contract.png", full_page=False)
        for target in small_targets(b):
            print(f"smaller than 44 px: {target}")


def polish(db: Path) -> None:
    pan = Pan(db)
    pan("session new sunday --game polish --players Ola,Piotr,Zosia,Marek")
    for loser in ("piotr", "ola"):
        pan(f"polish lost {loser}")
    with served_dealer_page(db) as b:
        shoot(b, "dealer-polish.png")
        for target in small_targets(b):
            print(f"smaller than 44 px: {target}")


if __name__ == "__main__":
    main()
