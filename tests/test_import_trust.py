"""What `pan import` trusts: an archive is hostile until it is checked (issue 31)."""

from pathlib import Path

import pytest

from helpers import db_dump, pan_in_process as pan

MAIN = Path(__file__).parent / "fixtures" / "main_9347d07"


def refused_in_one_line(db, path) -> str:
    before = db_dump(db)
    result = pan(db, ["import", str(path)], ok=False)
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and lines[0].startswith("Error: ") and "Traceback" not in result.output, result.output
    assert db_dump(db) == before  # nothing stored
    return result.output


# -- a JSON archive with a key twice in one table ---------------------------------------------

def _twice(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("where, old, new", [
    ("header", '  "name": "warsaw",\n', '  "name": "warsaw",\n  "name": "krakow",\n'),
    ("event", '   "hand": 1,\n', '   "hand": 1,\n   "hand": 2,\n'),
    ("payload", '    "loser": "Piotr"', '    "loser": "Ola",\n    "loser": "Piotr"'),
])
@pytest.mark.parametrize("layout", ["as written", "on one line"])
def test_a_json_archive_with_a_key_twice_is_refused(tmp_path, where, old, new, layout):
    text = _twice((MAIN / "exports" / "warsaw.json").read_text(encoding="utf-8"), old, new)
    if layout == "on one line":  # not the writer's layout: read whole
        text = text.replace("\n", " ")
    path = tmp_path / "warsaw.json"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "p.db"
    pan(db, "session new other --players A,B")
    said = refused_in_one_line(db, path)
    assert "twice" in said, said


def test_a_json_archive_with_each_key_once_imports(tmp_path):
    db = tmp_path / "p.db"
    assert "Imported session warsaw" in pan(db, ["import", str(MAIN / "exports" / "warsaw.json")]).output
