"""The typing gate (scripts/typecheck.py, run by .ci/run after `mypy pancli`): `mypy --strict` once,
its errors counted by package and held to .ci/typing.toml: core/ and games/ clean, the others
within their budgets. A new error in a clean package, or one past a budget, fails it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def gate():
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / "scripts" / "typecheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def strict_output(tmp_path: Path, files: dict[str, str]) -> Path:
    """What `mypy --strict pancli` prints for a small package laid out as pancli is."""
    for name, text in files.items():
        path = tmp_path / "pancli" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "pancli"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    out = tmp_path / "mypy.txt"
    out.write_text(done.stdout, encoding="utf-8")
    return out


def run_gate(output: Path, limits: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "typecheck.py"), "--output", str(output),
                           "--limits", str(limits)], capture_output=True, text=True)


CLEAN = {"__init__.py": "", "core/__init__.py": "", "core/ok.py": "def f(x: int) -> int:\n    return x\n",
         "cli/__init__.py": "", "cli/loose.py": "def g(x):\n    return x\n"}


def test_the_gate_passes_within_its_limits_and_fails_on_a_new_error_in_a_clean_package(tmp_path):
    limits = tmp_path / "typing.toml"
    limits.write_text('clean = ["core"]\n[budget]\ncli = 1\n', encoding="utf-8")
    ok = run_gate(strict_output(tmp_path / "a", CLEAN), limits)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "ok   core: 0 errors" in ok.stdout and "ok   cli: 1 errors (budget 1)" in ok.stdout

    broken = {**CLEAN, "core/ok.py": "def f(x: int) -> int:\n    return str(x)\n"}  # one new error in core/
    failed = run_gate(strict_output(tmp_path / "b", broken), limits)
    assert failed.returncode == 1
    assert "FAIL core: 1 errors, must be clean" in failed.stdout


def test_the_gate_fails_past_a_budget_and_on_a_package_it_does_not_name(tmp_path):
    limits = tmp_path / "typing.toml"
    limits.write_text('clean = ["core"]\n[budget]\ncli = 1\n', encoding="utf-8")
    more = {**CLEAN, "cli/looser.py": "def h(y):\n    return y\n", "web/__init__.py": "",
            "web/new.py": "def k(z):\n    return z\n"}
    failed = run_gate(strict_output(tmp_path, more), limits)
    assert failed.returncode == 1
    assert "FAIL cli: 2 errors, over its budget of 1" in failed.stdout
    assert "FAIL web: 1 errors, must be clean" in failed.stdout


def test_the_checked_in_limits_keep_core_and_games_clean_and_web_and_cli_under_their_ceilings():
    data = tomllib.loads((ROOT / ".ci" / "typing.toml").read_text(encoding="utf-8"))
    assert {"core", "games"} <= set(data["clean"])
    assert data["budget"]["web"] < 100
    assert set(gate().limits()) >= {"core", "games", "app", "storage", "cli", "web"}


def test_ci_runs_the_gate_right_after_mypy():
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    at = lines.index("python -m mypy pancli")
    assert lines[at + 1].startswith("python scripts/typecheck.py")
