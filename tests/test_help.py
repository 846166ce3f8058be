"""Every command's --help carries an example, and the generated command reference is current."""

import click
import pytest
import typer
from typer.testing import CliRunner

from pancli.cli import app


def command_paths(group: click.Group, prefix=()):
    for name, cmd in group.commands.items():
        path = prefix + (name,)
        yield path
        if isinstance(cmd, click.Group):
            yield from command_paths(cmd, path)


ROOT = typer.main.get_command(app)
PATHS = [()] + list(command_paths(ROOT))


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "pan")
def test_help_has_an_example(path):
    result = CliRunner().invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example: pan" in result.output, f"`pan {' '.join(path)} --help` has no example"


def test_docs_commands_md_is_up_to_date(tmp_path):
    """docs/commands.md is what `typer pancli.cli utils docs --name pan` writes."""
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "commands.md"
    subprocess.run([sys.executable, "-m", "typer", "pancli.cli", "utils", "docs", "--name", "pan",
                    "--output", str(out)], check=True, capture_output=True)
    docs = Path(__file__).resolve().parent.parent / "docs" / "commands.md"
    assert docs.read_text(encoding="utf-8") == out.read_text(encoding="utf-8"), \
        "regenerate it: typer pancli.cli utils docs --name pan --output docs/commands.md"
