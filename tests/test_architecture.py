"""The layout is the architecture: these tests keep the layers apart.

* Game and core modules are pure: no database, no terminal, no files, no clock.
* Every SQL statement lives in pancli/storage: nothing else imports sqlite3 or sqlite-utils.
* No module reaches into another module's private names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pancli"

IMPURE = {"sqlite3", "sqlite_utils", "typer", "click", "rich", "prompt_toolkit", "os", "io", "pathlib",
          "shutil", "tempfile", "time", "datetime", "socket", "subprocess", "threading", "tomllib", "tomli_w",
          "sys", "signal", "select", "termios"}
SQL = {"sqlite3", "sqlite_utils"}


def modules(*parts: str) -> list[Path]:
    return sorted(p for part in parts for p in (PACKAGE / part).rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every top-level module name the file imports, anywhere in it (lazy imports too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def rel(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


@pytest.mark.parametrize("path", modules("games", "core"), ids=rel)
def test_game_and_core_modules_are_pure(path):
    bad = imported(path) & IMPURE
    assert not bad, f"{rel(path)} imports {sorted(bad)}: game and core code takes events and returns state"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not calls & {"open", "input", "print"}, f"{rel(path)} does I/O: {sorted(calls & {'open', 'input', 'print'})}"


@pytest.mark.parametrize("path", [p for p in modules(".") if "storage" not in p.parts], ids=rel)
def test_sql_lives_in_storage(path):
    bad = imported(path) & SQL
    assert not bad, f"{rel(path)} imports {sorted(bad)}: SQL belongs in pancli/storage"
    text = path.read_text(encoding="utf-8")
    assert ".conn.execute" not in text and ".conn.executemany" not in text, \
        f"{rel(path)} runs SQL on a Store's connection: add a Store method"


def private_names_defined(tree) -> set[str]:
    """Private names a module defines itself: its functions, attributes it sets, its __slots__."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("_"):
            names.add(node.value)  # __slots__ entries
    return {n for n in names if n.startswith("_")}


@pytest.mark.parametrize("path", modules("."), ids=rel)
def test_no_module_uses_another_modules_private_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = private_names_defined(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pancli"):
            private = [a.name for a in node.names if a.name.startswith("_")]
            assert not private, f"{rel(path)} imports private {private} from {node.module}"
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if node.attr in own or isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue  # its own objects' insides (another instance of the same class included)
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            pytest.fail(f"{rel(path)}:{node.lineno} reaches into .{node.attr} of another object")
