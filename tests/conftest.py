import json
import shlex

import pytest
from typer.testing import CliRunner

from pancli.cli import app


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
