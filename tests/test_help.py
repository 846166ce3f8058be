"""Every command's --help carries an example, and the generated command reference is current."""

import pytest
import typer
from typer.testing import CliRunner

from pancli.cli import app

from helpers import command_paths

ROOT = typer.main.get_command(app)
PATHS = [()] + list(command_paths(ROOT))


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "pan")
def test_help_has_an_example(path):
    result = CliRunner().invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example: pan" in result.output, f"`pan {' '.join(path)} --help` has no example"


def test_command_reference_is_current():
    """docs/commands.md is generated: `typer pancli.cli utils docs --name pan --output docs/commands.md`."""
    from pathlib import Path

    from typer.cli import get_docs_for_click

    ctx = typer.Context(ROOT)
    generated = get_docs_for_click(obj=ROOT, ctx=ctx, name="pan").strip() + "\n"
    on_disk = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    assert generated == on_disk, "docs/commands.md is stale: regenerate it (see the test's docstring)"
