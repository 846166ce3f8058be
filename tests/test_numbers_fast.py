"""Counts and amounts without a currency in the languages pancli ships are written from
``core.numbers.SYMBOLS`` without loading Babel's locale data: exactly what Babel writes, for every
catalog in pancli/locale that SYMBOLS names; and `pan standings` in such a language imports no Babel."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from pancli.core import numbers
from pancli.storage.catalogs import speaking

LOCALE = Path(__file__).resolve().parent.parent / "pancli" / "locale"
SHIPPED = sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/pancli.mo"))
COUNTS = [0, 7, 42, 999, 1000, 1234, 9999, 10000, 12345, 999999, 1000000, 1234567890]
AMOUNTS = ["0", "0.005", "0.015", "0.125", "0.5", "2.675", "12.5", "999.995", "1234.5", "12345.675",
           "1000000", "9999999.999"]


def test_every_shipped_language_but_english_has_its_symbols():
    assert set(SHIPPED) - {"en"} <= set(numbers.SYMBOLS), "add the new language's CLDR signs to SYMBOLS"


@pytest.mark.parametrize("code", sorted(numbers.SYMBOLS))
def test_the_symbols_are_babels(code):
    from babel import Locale

    locale = Locale.parse(code)
    assert locale.default_numbering_system == "latn"
    assert numbers.SYMBOLS[code] == (locale.number_symbols["latn"]["decimal"], locale.number_symbols["latn"]["group"])
    assert locale.decimal_formats[None].grouping == (3, 3)


@pytest.mark.parametrize("code", sorted(numbers.SYMBOLS))
def test_counts_and_amounts_are_written_as_babel_writes_them(code, monkeypatch):
    import babel.numbers

    with speaking(code):
        fast_counts = [numbers.number(n) for n in COUNTS + [-n for n in COUNTS]]
        fast = [numbers._amount(Decimal(a), None, digits, grouped_) for a in AMOUNTS for digits in (0, 1, 2, 3)
                for grouped_ in (True, False)]
        monkeypatch.setattr(numbers, "_written", lambda *a, **k: None)  # Babel alone, as before
        slow_counts = [numbers.number(n) for n in COUNTS + [-n for n in COUNTS]]
        slow = [numbers._amount(Decimal(a), None, digits, grouped_) for a in AMOUNTS for digits in (0, 1, 2, 3)
                for grouped_ in (True, False)]
    assert fast_counts == slow_counts
    assert fast == slow
    assert babel.numbers  # imported by the slow path


def test_standings_in_another_language_import_no_babel(tmp_path):
    db = tmp_path / "night.db"
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    pan = str(Path(sys.executable).with_name("pan"))
    subprocess.run([pan, "--db", str(db), "session", "new", "fri", "--players", "Ana,Ben,Cruz", "--chip-value",
                    "0.25"], env=env, check=True, capture_output=True)
    code = ("import sys\nfrom pancli.cli import main\nsys.argv = ['pan', '--db', sys.argv[1], 'standings']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('babel' in sys.modules, file=sys.stderr)")
    for lang in sorted(numbers.SYMBOLS):
        done = subprocess.run([sys.executable, "-c", code, str(db)], env=env | {"PANCLI_LANG": lang},
                              capture_output=True, text=True, check=True)
        assert done.stderr.strip().splitlines()[-1] == "False", (lang, done.stdout, done.stderr)
        assert "Ana" in done.stdout
