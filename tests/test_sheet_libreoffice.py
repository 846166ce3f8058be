"""The CSV sheet opened by LibreOffice Calc itself: `soffice --headless` converts the files of
`pan report --csv` (with and without --bom) to xlsx, and every cell read back is what was meant:
names with accents, Polish and Cyrillic letters, commas and quotes as text, a name that looks like
a formula as text (never run), chips and money (negative ones too) as numbers.

LibreOffice is told the file is UTF-8, as its Text Import dialog is: without that, a headless
conversion reads any CSV, a byte order mark or not, in an 8-bit character set of the system."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import zipfile
from xml.etree import ElementTree

import pytest

from pancli.app.reports import build_sheet, sheet_csv
from pancli.core.rows import Session

from helpers import CYCLE, Pan

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed "
                                "(apt-get install libreoffice-calc-nogui)")

NS = {"x": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
UTF8_CSV = "CSV:44,34,76,1"  # comma, double quote, UTF-8, from the first line


def converted(tmp_path, files) -> dict[str, dict[tuple[int, int], tuple[str, object]]]:
    """Each CSV file converted to xlsx by LibreOffice, as {(row, column): (kind, value)}: kind
    "s" text, "n" a number, "f" a formula."""
    out = tmp_path / "xlsx"
    subprocess.run([SOFFICE, f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}", "--headless",
                    f"--infilter={UTF8_CSV}", "--convert-to", "xlsx", "--outdir", str(out),
                    *map(str, files)], check=True, capture_output=True, timeout=600)
    return {f.stem: cells(out / f"{f.stem}.xlsx") for f in files}


def cells(xlsx) -> dict[tuple[int, int], tuple[str, object]]:
    with zipfile.ZipFile(xlsx) as z:
        shared = [("".join(t.text or "" for t in si.iter(f"{{{NS['x']}}}t")))
                  for si in ElementTree.fromstring(z.read("xl/sharedStrings.xml")).findall("x:si", NS)] \
            if "xl/sharedStrings.xml" in z.namelist() else []
        sheet = ElementTree.fromstring(z.read("xl/worksheets/sheet1.xml"))
    found = {}
    for c in sheet.iter(f"{{{NS['x']}}}c"):
        letters, row = re.fullmatch(r"([A-Z]+)(\d+)", c.get("r")).groups()
        col = 0
        for ch in letters:
            col = col * 26 + ord(ch) - 64
        v = c.find("x:v", NS)
        if c.find("x:f", NS) is not None:
            found[(int(row), col)] = ("f", c.find("x:f", NS).text)
        elif c.get("t") == "s":
            found[(int(row), col)] = ("s", shared[int(v.text)])
        elif c.get("t") == "inlineStr":
            found[(int(row), col)] = ("s", "".join(t.text or "" for t in c.iter(f"{{{NS['x']}}}t")))
        elif v is not None:
            found[(int(row), col)] = ("n", float(v.text))
    return found


def expected(text: str) -> dict[tuple[int, int], tuple[str, object]]:
    """What each cell of our CSV must be in the spreadsheet: a number where we wrote one, else the
    very text (a leading apostrophe stays: it is what keeps a formula from running)."""
    want = {}
    for r, row in enumerate(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")), 1):
        for c, cell in enumerate(row, 1):
            if cell == "":
                continue
            want[(r, c)] = ("n", float(cell)) if re.fullmatch(r"-?\d+(\.\d+)?", cell) else ("s", cell)
    return want


def test_libreoffice_opens_every_cell_of_the_csv_sheet_as_meant(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new noc --players Zoë,Łucja,Жанна,Ben,Eve,Fay --dealer Fay --chip-value 0.25")
    for _ in range(2):
        for line in CYCLE:
            pan(line.replace(" a ", " zoë "))
    plain, bom = tmp_path / "plain.csv", tmp_path / "bom.csv"
    pan(f"report --csv {plain}")
    pan(f"report --csv {bom} --bom")
    session = Session(id=1, name="s", game="panguingue", created_at="2026-01-01T00:00:00+00:00",
                      players=('Ann "Q", Jr', "=HYPERLINK(1)", "-Dash", "Wrocław, Łódź"), dealer=None, rules={},
                      chip_value=None, closed_at=None, origin=None, device=None, uid=None)
    odd = tmp_path / "odd.csv"
    odd.write_text(sheet_csv(build_sheet(session, {(1, 'Ann "Q", Jr'): -7, (1, "-Dash"): 7}, 1), bom=True),
                   encoding="utf-8", newline="")
    polski = tmp_path / "polski.csv"
    pan("session new polski --game polish --players Zoë,Łucja,Жанна")
    for line in ("polish lost zoë", "polish nolose", "polish lost жанна"):
        pan(line)
    pan(f"report --csv {polski} --bom")
    sheets = converted(tmp_path, [plain, bom, odd, polski])
    for f in (plain, bom, odd, polski):
        got = sheets[f.stem]
        assert got == expected(f.read_text(encoding="utf-8")), f.stem
        assert not [v for v in got.values() if v[0] == "f"]  # nothing was run as a formula
    assert sheets["plain"] == sheets["bom"]  # the byte order mark is not read as a character
    header = [sheets["bom"][(1, c)][1] for c in range(1, 8)]
    assert header == ["hand", "Zoë", "Łucja", "Жанна", "Ben", "Eve", "Fay"]
    assert sheets["bom"][(2, 3)] == ("n", -13.0) and sheets["bom"][(5, 2)] == ("n", 27.0)  # money: 108 x 0.25
    assert [sheets["odd"][(1, c)] for c in range(2, 6)] == [
        ("s", 'Ann "Q", Jr'), ("s", "'=HYPERLINK(1)"), ("s", "'-Dash"), ("s", "Wrocław, Łódź")]
    assert sheets["odd"][(2, 2)] == ("n", -7.0)
    assert sheets["polski"][(1, 3)] == ("s", "Zoë") and sheets["polski"][(4, 2)] == ("s", "Жанна") and sheets["polski"][(4, 5)] == ("s", "P")


def test_libreoffice_reads_an_exported_name_that_looks_like_a_formula_as_text(tmp_path):
    """`pan export --format csv` in the host's spreadsheet: `-2+3` stays text (never the number 1),
    `=HYPERLINK(…)`, `@SUM(…)` and `+1+2` are never run; chips and money stay numbers."""
    pan = Pan(tmp_path / "pan.db")
    hostile = ("-2+3", "=HYPERLINK(1)", "@SUM(A1)", "+1+2")
    pan(f"session new night --players Ana,{','.join(hostile)} --dealer Ana --chip-value 0.25")
    pan("deal")
    pan("meld ana 5S 5S 5S")
    payments, standings = pan("export --format csv").stdout.split("\n\n")
    files = [tmp_path / "payments.csv", tmp_path / "standings.csv"]
    for f, text in zip(files, (payments, standings), strict=True):
        f.write_text(text, encoding="utf-8")
    sheets = converted(tmp_path, files)
    for f in files:
        got = sheets[f.stem]
        assert got == expected(f.read_text(encoding="utf-8")), f.stem
        assert not [v for v in got.values() if v[0] == "f"]  # nothing was run as a formula
    assert [sheets["payments"][(r, 4)] for r in range(2, 6)] == [("s", f"'{n}") for n in hostile]
    assert [sheets["standings"][(r, 1)] for r in range(3, 7)] == [("s", f"'{n}") for n in hostile]
    assert sheets["standings"][(3, 2)] == ("n", -4.0) and sheets["standings"][(3, 3)] == ("n", -1.0)
