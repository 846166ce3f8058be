"""The CSV sheet opened by LibreOffice Calc itself: `soffice --headless` converts the files of
`pan report --csv` (with its byte order mark, and without: --no-bom) to xlsx, and every cell read back is what was meant:
names with accents, Polish and Cyrillic letters, commas and quotes as text, a name that looks like
a formula as text (never run), chips and money (negative ones too) as numbers.

LibreOffice is told the file is UTF-8, as its Text Import dialog is: without that, a headless
conversion reads any CSV, a byte order mark or not, in an 8-bit character set of the system."""

from __future__ import annotations

import csv
import io
import re
import shlex
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
    """What each cell of our CSV must be in the spreadsheet (read in English): a number where we wrote one, else the
    very text (a leading apostrophe stays: it is what keeps a formula from running)."""
    want = {}
    for r, row in enumerate(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")), 1):
        for c, cell in enumerate(row, 1):
            if cell == "":
                continue
            want[(r, c)] = ("n", float(cell)) if re.fullmatch(r"-?\d+(\.\d+)?(E-\d+)?", cell) else ("s", cell)
    return want


def test_libreoffice_opens_every_cell_of_the_csv_sheet_as_meant(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new noc --players Zoë,Łucja,Жанна,Ben,Eve,Fay --dealer Fay --chip-value 0.25")
    for _ in range(2):
        for line in CYCLE:
            pan(line.replace(" a ", " zoë "))
    plain, bom = tmp_path / "plain.csv", tmp_path / "bom.csv"
    pan(f"report --csv {plain} --no-bom")
    pan(f"report --csv {bom}")
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
    pan(f"report --csv {polski}")
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
# -- under a Polish locale: the CSV by default, and the workbook (`pan report --xlsx`) ------------

ODS = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
       "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
       "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}
ODD = ["Zoë", "Łucja", "Жанна", '=HYPERLINK("x")', "+1+2", "@SUM(A1)", "-2+3"]  # accents, Cyrillic, formulas


@pytest.fixture(scope="module")
def polish(tmp_path_factory) -> dict[str, str]:
    """The environment of a Polish system (pl_PL.UTF-8, made with localedef where the machine has
    none: Debian's `locales` holds its source), in which LibreOffice reads numbers as Polish
    writes them: a decimal comma."""
    import os

    folder = tmp_path_factory.mktemp("locale")
    made = subprocess.run(["localedef", "-i", "pl_PL", "-f", "UTF-8", str(folder / "pl_PL.UTF-8")],
                          capture_output=True, text=True) if shutil.which("localedef") else None
    if made is None or not (folder / "pl_PL.UTF-8").exists():
        if os.environ.get("CI"):
            raise RuntimeError("the Polish locale cannot be made: apt-get install locales")
        pytest.skip("no localedef or no pl_PL source (apt-get install locales)")
    return dict(os.environ, LOCPATH=str(folder), LANG="pl_PL.UTF-8", LC_ALL="pl_PL.UTF-8", LANGUAGE="pl")


def libreoffice(tmp_path, files, to: str, env: dict, infilter: str | None = None) -> dict:
    """Each file opened and saved again as ``to`` by LibreOffice in ``env``: {stem: path}."""
    out = tmp_path / f"{to}-{abs(hash(infilter))}"
    subprocess.run([SOFFICE, f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}", "--headless",
                    *([f"--infilter={infilter}"] if infilter else []), "--convert-to", to, "--outdir", str(out),
                    *map(str, files)], check=True, capture_output=True, timeout=600, env=env)
    return {f.stem: out / f"{f.stem}.{to}" for f in files}


def ods_sheets(path) -> dict[str, list[list[tuple]]]:
    """Every sheet of an ODS file, as rows of cells (type, value, currency, text, formula): the
    type is LibreOffice's own (string, float, currency), the value the number it holds."""
    t, o, x = (f"{{{ODS[k]}}}" for k in ("table", "office", "text"))
    with zipfile.ZipFile(path) as z:
        root = ElementTree.fromstring(z.read("content.xml"))
    sheets = {}
    for table in root.iter(f"{t}table"):
        rows = []
        for row in table.iter(f"{t}table-row"):
            cells = []
            for c in row.findall(f"{t}table-cell"):
                cell = (c.get(f"{o}value-type"), c.get(f"{o}value"), c.get(f"{o}currency"),
                        "\n".join("".join(p.itertext()) for p in c.findall(f"{x}p")), c.get(f"{t}formula"))
                cells += [cell] * min(int(c.get(f"{t}number-columns-repeated", "1")), 64)
            while cells and cells[-1][0] is None:
                cells.pop()
            rows += [cells] * min(int(row.get(f"{t}number-rows-repeated", "1")), 4)
        while rows and not rows[-1]:
            rows.pop()
        sheets[table.get(f"{t}name")] = rows
    return sheets


def odd_night(tmp_path) -> Pan:
    """A night of seven with the oddest names, a chip worth 0.25 zł: Zoë goes out, each of the
    six others pays 13 chips (-3,25 zł)."""
    pan = Pan(tmp_path / "pan.db")
    pan(f"session new noc --players {shlex.quote(','.join(ODD))} --dealer Łucja --chip-value 0.25 --currency PLN")
    for line in ("deal", "meld zoë 5S 5S 5S", "add zoë 5S", "meld zoë KH KD KS KC", "out zoë 4H 4D 4C"):
        pan(line)
    return pan


def test_a_polish_libreoffice_reads_the_csv_money_as_numbers_and_the_names_whole(tmp_path, polish):
    """The sheet's CSV as it is written by default (no option): UTF-8 with a byte order mark, and
    money that LibreOffice under a Polish locale reads as numbers, as it does under an English one;
    a money cell with a decimal point, as pancli wrote it before, is text to the Polish one."""
    pan = odd_night(tmp_path)
    sheet = tmp_path / "noc.csv"
    pan(f"--lang pl report --csv {sheet}")
    raw = sheet.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the encoding, for Excel and LibreOffice's Text Import
    before = tmp_path / "before.csv"
    before.write_text("\ufeffpieniądze,-3.25,19.50\r\n", encoding="utf-8", newline="")
    # the character set as the Text Import dialog takes it from the byte order mark (UTF-8); the
    # language of the numbers left to LibreOffice: the system's
    infilter = "CSV:44,34,UTF8,1"
    for env, lang in ((polish, "pl"), (dict(polish, LANG="C.UTF-8", LC_ALL="C.UTF-8", LANGUAGE="en"), "en")):
        got = {stem: ods_sheets(path) for stem, path in libreoffice(tmp_path / lang, [sheet, before], "ods", env,
                                                                    infilter).items()}
        (rows,) = got["noc"].values()
        # every name whole, as text; one a spreadsheet would run kept from running by an apostrophe
        assert [c[3] for c in rows[0]] == ["rozdanie", *ODD[:3], *("'" + n for n in ODD[3:])], lang
        assert all(c[0] == "string" for c in rows[0]), lang
        money = rows[3]
        assert money[0][3] == "pieniądze (PLN)"
        assert [(c[0], float(c[1])) for c in money[1:]] == [("float", 19.5)] + [("float", -3.25)] * 6, lang
        assert [(c[0], float(c[1])) for c in rows[1][1:]] == [("float", 78.0)] + [("float", -13.0)] * 6, lang
        assert not [c for r in rows for c in r if c[4]]  # nothing was run as a formula
        (old,) = got["before"].values()
        if lang == "pl":  # the locale is in force: the money of before is text to it
            assert [c[0] for c in old[0][1:]] == ["string", "string"]


def test_a_polish_libreoffice_reads_the_workbook_money_as_money_and_names_as_text(tmp_path, polish):
    """`pan report --xlsx` in Polish, opened by LibreOffice under a Polish locale (and saved as
    ODS, whose cells say their type): a sheet for the standings, the settle-up and the night hand
    by hand, headed in Polish; chips as whole numbers, money as złoty (a currency cell of PLN),
    every name text and whole, nothing run as a formula. The contract game's sheet holds points
    and Polish Pan's letters, and neither has a settle-up."""
    from pancli.core.i18n import _
    from pancli.storage import catalogs

    pan = odd_night(tmp_path)
    book = tmp_path / "noc.xlsx"
    pan(f"--lang pl report --xlsx {book}")
    pan("session new rummy --game contract --players Zoë,Жанна,+1+2")
    pan("contract deal --out zoë --left Жанна=5 --left +1+2=10")
    rummy = tmp_path / "rummy.xlsx"
    pan(f"--lang pl report --xlsx {rummy}")
    pan("session new polski --game polish --players Zoë,Жанна,-2+3")
    pan("polish lost жанна")
    polski = tmp_path / "polski.xlsx"
    pan(f"--lang pl report --xlsx {polski}")
    opened = {stem: ods_sheets(path) for stem, path in libreoffice(tmp_path, [book, rummy, polski], "ods",
                                                                   polish).items()}
    with catalogs.speaking("pl"):
        standings, settle, hands, deals = _("Standings"), _("Settle-up"), _("Hand by hand"), _("Deal by deal")
    assert standings != "Standings" and settle != "Settle-up"  # in the reader's language
    sheets = opened["noc"]
    assert list(sheets) == [standings, settle, hands]
    rows = sheets[standings]
    assert rows[0][0][3] == "gracz" and rows[0][1][3] == "żetony" and rows[0][2][3] == "pieniądze"
    names = [r[0] for r in rows[1:8]]
    assert sorted(c[3] for c in names) == sorted(ODD) and all(c[0] == "string" for c in names)
    for r in rows[1:8]:
        chips, money = r[1], r[2]
        assert chips[0] == "float" and float(chips[1]) == (78 if r[0][3] == "Zoë" else -13)
        assert money[0] == "currency" and money[2] == "PLN" and float(money[1]) == (19.5 if r[0][3] == "Zoë" else -3.25)
        assert money[3] in ("19,50 zł", "-3,25 zł")
    payments = sheets[settle]
    assert {(r[0][3], r[1][3]) for r in payments[1:7]} == {(name, "Zoë") for name in ODD[1:]}
    assert all(r[0][0] == r[1][0] == "string" and r[3][0] == "currency" and float(r[3][1]) == 3.25
               for r in payments[1:7])
    grid = sheets[hands]
    assert [c[3] for c in grid[0][1:]] == ODD and grid[1][0][:2] == ("float", "1")
    assert [c[0] for c in grid[-1][1:]] == ["currency"] * 7
    for sheet in opened.values():
        assert not [c for rows in sheet.values() for r in rows for c in r if c[4]]  # no formula anywhere
    assert list(opened["rummy"]) == [standings, deals]
    contract = opened["rummy"][standings]
    assert [c[3] for c in contract[0][:3]] == ["miejsce", "gracz", "punkty"]
    by_name = {r[1][3]: r for r in contract[1:]}
    assert set(by_name) == {"Zoë", "Жанна", "+1+2"} and by_name["+1+2"][1][0] == "string"
    assert all(r[2][0] == "float" for r in contract[1:])
    assert list(opened["polski"]) == [standings, deals]
    letters = {r[1][3]: r[2] for r in opened["polski"][standings][1:]}
    assert letters["Жанна"][:1] == ("string",) and letters["Жанна"][3] == "P"
    assert "-2+3" in letters
