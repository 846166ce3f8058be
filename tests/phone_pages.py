"""The phone's pages served in a language, for the tests that they fit a 390 px phone: a night
with long Polish names served with its dealer page, each page's address in a language and what
shows it is ready, and the script that finds what does not fit."""

from __future__ import annotations

import pytest

from helpers import Pan, start_server, stop_server

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
