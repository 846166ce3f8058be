import hashlib
import json
import shlex
import sqlite3

import pytest
from typer.testing import CliRunner

from pancli.cli import app

runner = CliRunner()


def db_dump(path) -> str:
    """A digest of every row of every table: equal digests mean the database did not change."""
    con = sqlite3.connect(path)
    try:
        return hashlib.sha256("\n".join(con.iterdump()).encode()).hexdigest()
    finally:
        con.close()


def run_pan(db, line, ok=True):
    """One `pan` command in-process on a database, as a fresh process would see it."""
    result = runner.invoke(app, ["--db", str(db)] + (shlex.split(line) if isinstance(line, str) else list(line)))
    if ok:
        assert result.exit_code == 0, f"pan {line}: {result.output}"
    return result


class Pan:
    """Runs `pan` commands in-process against one temporary database."""

    def __init__(self, db):
        self.db = str(db)
        self.runner = CliRunner()

    def __call__(self, line: str, ok: bool = True, code: int | None = None):
        result = self.runner.invoke(app, ["--db", self.db, *shlex.split(line)])
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        if code is not None:
            assert result.exit_code == code, f"`pan {line}` exited {result.exit_code}: {result.output}"
        elif ok:
            assert result.exit_code == 0, f"`pan {line}` failed: {result.output}"
        return result

    def json(self, line: str):
        return json.loads(self(line + " --json").stdout)

    def nets(self) -> dict:
        return {p["name"]: p["net"] for p in self.json("standings")["players"]}


@pytest.fixture
def pan(tmp_path):
    return Pan(tmp_path / "pan.db")
