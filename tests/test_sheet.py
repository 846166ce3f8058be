"""The score sheet as CSV (`pan report --csv`): hands x players, totals and money, that Excel and
LibreOffice open as it is: UTF-8 (with a byte order mark on --bom), plain numbers, quoted names,
nothing a spreadsheet would run as a formula. The payments CSV of `pan export` is unchanged."""

import csv
import io

from pancli.app.reports import build_sheet, sheet_csv

from helpers import CYCLE, Pan


def test_the_csv_sheet_is_hands_by_players_with_totals(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new night --players Zoë,Ben,Cruz,Dee,Eve,Fay --dealer Fay --chip-value 0.25")
    for _ in range(3):
        for line in CYCLE:
            pan(line.replace(" a ", " zoë "))
    plain, bom = tmp_path / "plain.csv", tmp_path / "excel.csv"
    pan(f"report --csv {plain}")
    pan(f"report --csv {bom} --bom")
    raw = plain.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and bom.read_bytes() == b"\xef\xbb\xbf" + raw
    rows = list(csv.reader(io.StringIO(bom.read_text(encoding="utf-8-sig"), newline="")))
    assert rows[0] == ["hand", "Zoë", "Ben", "Cruz", "Dee", "Eve", "Fay"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "total", "money"]
    assert rows[1] == ["1", "54", "-13", "-13", "-13", "-13", "-2"]  # ASCII minus: a number to a spreadsheet
    assert rows[4] == ["total", "162", "-39", "-39", "-39", "-39", "-6"]
    assert rows[5][1] == "40.50" and rows[5][2] == "-9.75"
    assert b"\r\n" in raw and raw.count(b"\r\n") == 6
    export = pan("export --format csv").stdout
    assert export.startswith("seq,hand,kind,payer,payee,chips,reason,created_at\n")  # as it was


def test_a_name_a_spreadsheet_would_run_is_kept_as_text():
    from pancli.core.rows import Session

    session = Session(id=1, name="s", game="panguingue", created_at="2026-01-01T00:00:00+00:00",
                      players=("=HYPERLINK(1)", "@A", 'Ann "Q", Jr'), dealer=None, rules={}, chip_value=None,
                      closed_at=None, origin=None, device=None, uid=None)
    text = sheet_csv(build_sheet(session, {(1, "=HYPERLINK(1)"): 5, (1, "@A"): -5}, 1))
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["hand", "'=HYPERLINK(1)", "'@A", 'Ann "Q", Jr']
    assert rows[1] == ["1", "5", "-5", "0"] and rows[2] == ["total", "5", "-5", "0"]


def test_bom_without_csv_is_refused_in_one_line(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new night --players Ana,Ben,Cruz")
    r = pan("report --bom", ok=False)
    assert r.exit_code != 0 and "--bom is for the CSV sheet" in r.output and "Traceback" not in r.output
