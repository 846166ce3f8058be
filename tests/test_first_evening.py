"""A stranger's first evening: `pan demo`, where the database lives, --version, -h, completion,
the root help's panels, and the hints a newcomer meets first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pancli.cli import app
from pancli.storage import paths as storage

from helpers import Pan

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An empty home folder, and no database named by the environment."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for var in ("PANCLI_DB", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def run(*args, **kw):
    return CliRunner().invoke(app, list(args), prog_name="pan", **kw)


# -- pan demo ---------------------------------------------------------------------------------------

@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the XDG data folder")
def test_the_demo_runs_again_and_again_and_never_touches_the_default_database(home):
    for _ in range(2):
        r = run("demo")
        assert r.exit_code == 0, r.output
        assert "~/.local/share/pancli/demo.db" in r.stdout
        assert "│ Ana    │ +81 │ +20.25 │" in r.stdout
        assert r.stdout.rstrip().splitlines()[-1].split()[:2] == ["pan", "table"]
        assert "Try next:" in r.stdout
        assert len(r.stdout.splitlines()) <= 30 and max(map(len, r.stdout.splitlines())) <= 80
    assert not (home / ".local" / "share" / "pancli" / "pancli.db").exists()
    demo = Pan(home / ".local" / "share" / "pancli" / "demo.db")
    assert demo.nets()["Ana"] == 81
    assert [s["name"] for s in demo.json("session list")] == ["tonight"]


def test_the_demo_ignores_the_database_named_by_the_user(home, tmp_path):
    mine = tmp_path / "mine.db"
    assert run("--db", str(mine), "demo").exit_code == 0
    assert run("demo", env={"PANCLI_DB": str(mine)}).exit_code == 0
    assert not mine.exists()


def test_the_sample_evening_ships_inside_the_package():
    from importlib.resources import files

    packaged = files("pancli").joinpath("data", "tonight.pan").read_text(encoding="utf-8")
    assert packaged == (ROOT / "examples" / "tonight.pan").read_text(encoding="utf-8")
    assert "data/*.pan" in (ROOT / "pyproject.toml").read_text()


# -- where the database lives --------------------------------------------------------------------------

@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the XDG data folder")
def test_the_default_database_is_in_the_user_data_folder(home, monkeypatch):
    r = run("db", "path")
    assert r.stdout.strip() == str(home / ".local" / "share" / "pancli" / "pancli.db")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert run("db", "path").stdout.strip() == str(home / "data" / "pancli" / "pancli.db")


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the config and data folders are apart on Linux")
def test_a_database_at_the_old_place_keeps_working(home):
    old = home / ".config" / "pancli" / "pancli.db"
    Pan(old)("session new fri --players Ana,Ben")
    code = ("import sys; from pancli.cli import main; sys.argv = ['pan', 'standings', '--json']; main()")
    env = {k: v for k, v in os.environ.items() if k not in ("PANCLI_DB", "XDG_DATA_HOME", "XDG_CONFIG_HOME")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**env, "HOME": str(home)})
    assert proc.returncode == 0, proc.stderr
    assert '"session": "fri"' in proc.stdout
    assert proc.stderr.count("\n") == 1 and f"using the database at its old place {old}" in proc.stderr
    assert storage.default_path() == old
    # Once a database exists at the new place, that one is used.
    new = home / ".local" / "share" / "pancli" / "pancli.db"
    Pan(new)("session new sat --players Ana,Ben")
    assert storage.default_path() == new


# -- --version, -h, completion -----------------------------------------------------------------------

def test_version():
    from importlib.metadata import version

    import pancli

    r = run("--version")
    assert r.exit_code == 0 and r.stdout == f"pan (pancli) {pancli.__version__}\n"
    assert version("panguingue") == pancli.__version__  # the installed distribution's, the same


@pytest.mark.parametrize("path", [(), ("meld",), ("session", "new"), ("db", "path"), ("contract", "lay")])
def test_dash_h_is_help(path):
    short, long = run(*path, "-h"), run(*path, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "-h, --help" in short.stdout


def test_completion_can_be_shown_and_installed(home, monkeypatch):
    monkeypatch.setenv("SHELL", "/bin/bash")
    r = run("--show-completion")
    assert r.exit_code == 0 and "_PAN_COMPLETE" in r.stdout
    r = run("--install-completion")
    assert r.exit_code == 0 and "bash completion installed" in r.stdout
    assert "pan.sh" in (home / ".bashrc").read_text()


def test_completion_answers_the_shell():
    env = {**os.environ, "_PAN_COMPLETE": "complete_bash", "COMP_WORDS": "pan mel", "COMP_CWORD": "1"}
    pan = Path(sys.executable).with_name("pan")
    if not pan.exists():
        pytest.skip("pan is not installed next to this Python")
    proc = subprocess.run([str(pan)], capture_output=True, text=True, env=env)
    assert proc.stdout.split() == ["meld"]


def test_completion_stays_off_the_startup_path():
    code = ("import sys; from pancli.cli import main; sys.argv = ['pan', 'check', '5S', '5S', '5S']\n"
            "try: main()\nexcept SystemExit: pass\n"
            "import typer._click.shell_completion as sc, typer.completion as tc\n"
            "print(sorted(sc._available_shells))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    # click's own bash/zsh/fish only: typer's completion classes were never registered.
    assert "powershell" not in proc.stdout, proc.stdout + proc.stderr


# -- the root help's panels ----------------------------------------------------------------------------

def test_root_help_groups_commands_in_the_order_a_host_needs_them():
    out = run("--help").stdout
    panels = ["Sessions and seats:", "Recording a hand:", "Disputes:", "After the game:",
              "The other games called Pan:", "The database:"]
    where = [out.index(p) for p in panels]
    assert where == sorted(where)
    disputes = out[out.index("Disputes:"):out.index("After the game:")]
    assert [line.split()[0] for line in disputes.splitlines()[1:] if line.strip()] == ["check", "turn", "rules"]
    after = out[out.index("After the game:"):out.index("The other games")]
    for name in ("standings", "report", "settle", "export"):
        assert f"\n  {name} " in after


# -- hints ---------------------------------------------------------------------------------------------

def test_a_mistyped_player_gets_did_you_mean(pan):
    pan("session new fri --players Ana,Ben,Cruz,Dee")
    pan("deal")
    r = pan("meld cruse 5S 5S 5S", code=2)
    assert "no player 'cruse' in this session: did you mean Cruz? (players: Ana, Ben, Cruz, Dee)" in r.output
    r = pan("meld zed 5S 5S 5S", code=2)
    assert "did you mean" not in r.output and "players: Ana, Ben, Cruz, Dee" in r.output


def test_out_hints_match_the_situation(pan):
    pan("session new fri --players Ana,Ben,Cruz,Dee")
    pan("deal")
    r = pan("out ben", code=1)
    assert "Ben has no melds yet" in r.output and "`pan spread ben" in r.output
    r = pan("out ben 5S 5S 5S", code=1)
    assert "would be Ben's only meld" in r.output and "`pan spread ben" in r.output
    pan("meld ben 5S 5S 5S")
    r = pan("out ben 5S", code=1)
    assert "with 5♠ Ben would have 4 cards melded; going out needs 11: 7 more" in r.output
    r = pan("out ben", code=1)
    assert "name the final cards: `pan out ben CARD...`" in r.output


def test_cards_with_the_emoji_variation_selector(pan):
    r = pan("check 5♠\ufe0f 5♠\ufe0f 5♠\ufe0f")
    assert r.stdout.startswith("5♠ 5♠ 5♠\n  legal set")
    pan("session new warsaw --game polish --players Ola,Piotr")
    assert "Legal" in pan("polish check --pile 9H --play 10\u2665\ufe0f").stdout


@pytest.mark.parametrize("players", ["Ana", ",".join(f"P{i}" for i in range(20))])
def test_the_same_kind_of_mistake_gets_the_same_exit_code(pan, players):
    r = pan(f"session new fri --players {players}", code=1)
    assert "Error:" in r.output


def test_archives_point_to_format_documentation_that_ships_with_pancli(pan, tmp_path):
    pan("session new fri --players Ana,Ben")
    out = tmp_path / "fri.toml"
    pan(f"export fri -o {out}")
    assert "`pan export --format-doc` describes the format" in out.read_text()
    r = pan("export --format-doc")
    assert r.stdout.startswith("# Session archives") and 'format = "pancli-archive"' in r.stdout
