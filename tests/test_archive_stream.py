"""Archives at the size of a club's night: export and import stream, a segment of events at a
time, and write and read the very archives pancli wrote before they streamed."""

import json
import shutil
from pathlib import Path

import pytest

from pancli.app import archive, archive_write
from pancli.storage.store import Store

from helpers import pan_in_process as pan

EXPORTS = Path(__file__).parent / "fixtures" / "export_0_2"
EXPORTED_AT = "2026-12-01T12:00:00+00:00"  # make.py wrote the fixtures with this time
SESSIONS = sorted(p.stem for p in EXPORTS.glob("*.toml"))


@pytest.fixture
def old_store(tmp_path):
    shutil.copyfile(EXPORTS / "pancli.db", tmp_path / "p.db")
    store = Store(tmp_path / "p.db")
    yield store
    store.close()


@pytest.mark.parametrize("fmt", ["toml", "json"])
@pytest.mark.parametrize("segment", [1000, 7])
def test_export_writes_the_bytes_it_wrote_before_it_streamed(old_store, fmt, segment):
    for name in SESSIONS:
        session = old_store.session(name)
        out: list[str] = []
        archive_write.export(old_store, session, fmt, out.append, EXPORTED_AT if fmt == "toml" else None, segment)
        assert "".join(out) == (EXPORTS / f"{name}.{fmt}").read_text(encoding="utf-8"), (name, fmt)
        whole = archive.build(old_store, session)  # what `pan sync` writes, whole
        text = archive.to_toml(whole, EXPORTED_AT) if fmt == "toml" else archive.to_json(whole)
        assert text == "".join(out), (name, fmt)


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_pan_export_writes_the_same_bytes(tmp_path, fmt):
    shutil.copyfile(EXPORTS / "pancli.db", tmp_path / "p.db")
    path = tmp_path / f"tonight.{fmt}"
    pan(tmp_path / "p.db", ["export", "tonight", "--format", fmt, "-o", str(path)])
    want = untimed((EXPORTS / f"tonight.{fmt}").read_text(encoding="utf-8"))
    assert untimed(path.read_text(encoding="utf-8")) == want
    assert untimed(pan(tmp_path / "p.db", ["export", "tonight", "--format", fmt, "-o", "-"]).output) == want


def untimed(text: str) -> str:
    """An archive without its time of writing, the one line two exports of a session differ in."""
    return "".join(line for line in text.splitlines(True) if not line.startswith("exported_at = "))


def test_an_empty_session_and_a_nested_null_are_written_as_before(tmp_path):
    """The two shapes the fixtures lack: no events at all, and a payload holding a null inside a
    list (kept as JSON text in TOML)."""
    db = tmp_path / "p.db"
    pan(db, "session new empty --players Ana,Ben")
    store = Store(db)
    session = store.session("empty")
    for fmt, whole in (("toml", lambda d: archive.to_toml(d, EXPORTED_AT)), ("json", archive.to_json)):
        out: list[str] = []
        archive_write.export(store, session, fmt, out.append, EXPORTED_AT if fmt == "toml" else None)
        assert "".join(out) == whole(archive.build(store, session))
    text = "".join(out)
    assert json.loads(text)["events"] == [] and text.endswith('"events": []\n}\n')
    event = {"seq": 1, "hand": None, "kind": "x", "created_at": EXPORTED_AT, "undo_of": None,
             "payload": {"kind": "x", "melds": [["5S", None]]}, "payments": []}
    assert archive_write.toml_event(event, "m")["payload_json"] == '{"kind": "x", "melds": [["5S", null]]}'
    store.close()
