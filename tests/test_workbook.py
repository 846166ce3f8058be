"""`pan report --xlsx` as written, read back from the file's own XML (LibreOffice reads it in
tests/test_sheet_libreoffice.py): a sheet per part of the report, every name a text cell holding
the name whole, no formula anywhere, chips as numbers, money as numbers in the number format of
the session's currency as the reader's language writes it."""

from __future__ import annotations

import re
import shlex
import zipfile
from xml.etree import ElementTree

import pytest

from pancli.app.workbook import money_format, sheet_title
from pancli.storage import catalogs

from helpers import Pan

X = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
ODD = ["Zoë", "Łucja", "Жанна", '=HYPERLINK("x")', "+1+2", "@SUM(A1)", "-2+3"]


def book(path) -> dict:
    """{sheet name: {cell: (kind, value, number format)}}: kind "s" text, "n" a number, "f" a formula."""
    with zipfile.ZipFile(path) as z:
        names = {n: z.read(n) for n in z.namelist()}
    shared = ["".join(t.text or "" for t in si.iter(f"{X}t"))
              for si in ElementTree.fromstring(names["xl/sharedStrings.xml"]).iter(f"{X}si")]
    styles = ElementTree.fromstring(names["xl/styles.xml"])
    formats = {int(f.get("numFmtId")): f.get("formatCode") for f in styles.iter(f"{X}numFmt")}
    xfs = [int(xf.get("numFmtId", "0")) for xf in styles.find(f"{X}cellXfs")]
    workbook = ElementTree.fromstring(names["xl/workbook.xml"])
    out = {}
    for i, sheet in enumerate(workbook.iter(f"{X}sheet"), 1):
        cells = {}
        for c in ElementTree.fromstring(names[f"xl/worksheets/sheet{i}.xml"]).iter(f"{X}c"):
            v, f = c.find(f"{X}v"), c.find(f"{X}f")
            fmt = formats.get(xfs[int(c.get("s", "0"))])
            if f is not None:
                cells[c.get("r")] = ("f", f.text, fmt)
            elif c.get("t") == "s":
                cells[c.get("r")] = ("s", shared[int(v.text)], fmt)
            elif v is not None:
                cells[c.get("r")] = ("n", float(v.text), fmt)
        out[sheet.get("name")] = cells
    return out


def test_every_name_is_text_whole_and_money_is_a_number_in_its_currency(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan(f"session new noc --players {shlex.quote(','.join(ODD))} --dealer Łucja --chip-value 0.25 --currency PLN")
    for line in ("deal", "meld zoë 5S 5S 5S", "add zoë 5S", "meld zoë KH KD KS KC", "out zoë 4H 4D 4C"):
        pan(line)
    path = tmp_path / "noc.xlsx"
    pan(f"report --xlsx {path}")
    sheets = book(path)
    assert list(sheets) == ["Standings", "Settle-up", "Hand by hand"]
    assert not [c for cells in sheets.values() for c in cells.values() if c[0] == "f"]
    standings = sheets["Standings"]
    assert [standings[f"{col}1"][1] for col in "ABC"] == ["player", "chips", "money"]
    assert sorted(standings[f"A{r}"][1] for r in range(2, 9)) == sorted(ODD)
    assert all(standings[f"A{r}"][0] == "s" for r in range(2, 9))
    row = {standings[f"A{r}"][1]: r for r in range(2, 9)}
    assert standings[f"B{row['Zoë']}"] == ("n", 78.0, "+0;-0;0")
    assert standings[f"C{row['-2+3']}"] == ("n", -3.25, "[$PLN]#,##0.00")
    grid = sheets["Hand by hand"]
    assert [grid[f"{col}1"][1] for col in "BCDEFGH"] == ODD
    assert grid["A2"][:2] == ("n", 1.0) and grid["A4"][1] == "money"
    assert [grid[f"{col}4"][1] for col in "BCDEFGH"] == [19.5] + [-3.25] * 6
    payments = sheets["Settle-up"]
    assert {payments[f"A{r}"][1] for r in range(2, 8)} == set(ODD[1:])
    assert all(payments[f"D{r}"][1:] == (3.25, "[$PLN]#,##0.00") for r in range(2, 8))


def test_a_game_without_chips_has_no_settle_up_sheet(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new polski --game polish --players Ana,Ben,Cruz")
    pan("polish lost ana")
    path = tmp_path / "polski.xlsx"
    pan(f"--lang ru report --xlsx {path}")
    with catalogs.speaking("ru"):
        from pancli.core.i18n import _

        expected = [_("Standings"), _("Deal by deal")]
    sheets = book(path)
    assert list(sheets) == expected
    standings = sheets[expected[0]]
    letters = {standings[f"B{r}"][1]: standings.get(f"C{r}") for r in range(2, 5)}
    assert letters["Ana"][:2] == ("s", "P") and letters["Cruz"] is None  # no letters: an empty cell


@pytest.mark.parametrize("lang, currency, digits, expected", [
    ("en", None, 2, "#,##0.00"),
    ("en", "PLN", 2, "[$PLN]#,##0.00"),
    ("pl", "PLN", 2, "#,##0.00\\ [$zł]"),
    ("ru", "RUB", 2, "#,##0.00\\ [$₽]"),
    ("en", "JPY", 0, "[$¥]#,##0"),
])
def test_money_is_formatted_as_the_readers_language_writes_the_currency(lang, currency, digits, expected):
    with catalogs.speaking(lang):
        assert money_format(currency, digits) == expected


def test_a_sheets_name_is_one_a_spreadsheet_takes():
    taken: set[str] = set()
    assert sheet_title("Standings", taken) == "Standings"
    assert sheet_title("standings", taken) == "standings 2"
    long = sheet_title("a/b:c*d?e[f]g\\h" + "x" * 40, taken)
    assert len(long) <= 31 and not re.search(r"[\[\]:*?/\\]", long)
