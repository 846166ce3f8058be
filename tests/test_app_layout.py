"""The application and storage layers stay small and honest: no module in app/ over 500 lines,
and a catch-all `except` only at the few edges that hold a failure to report it in one line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pancli"
MAX_LINES = 500
MAX_CATCH_ALLS = 4


def _modules(*parts: str) -> list[Path]:
    return sorted(p for part in parts for p in (PACKAGE / part).rglob("*.py"))


def catch_alls(path: Path) -> list[int]:
    """Lines of `except:`, `except Exception`, `except BaseException` (alone or in a tuple)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ExceptHandler):
            continue
        kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        if node.type is None or any(isinstance(k, ast.Name) and k.id in ("Exception", "BaseException")
                                    for k in kinds):
            found.append(node.lineno)
    return found


@pytest.mark.parametrize("path", _modules("app"), ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_no_app_module_over_500_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines: split it by job"


def test_few_catch_all_excepts_in_app_and_storage():
    found = [f"{p.relative_to(PACKAGE.parent)}:{line}" for p in _modules("app", "storage") for line in catch_alls(p)]
    assert len(found) <= MAX_CATCH_ALLS, f"{len(found)} catch-all excepts: narrow them ({', '.join(found)})"


def test_the_catch_all_finder_finds_each_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("try:\n    pass\nexcept:\n    pass\ntry:\n    pass\nexcept Exception:\n    pass\n"
                      "try:\n    pass\nexcept (OSError, BaseException) as e:\n    pass\n"
                      "try:\n    pass\nexcept OSError:\n    pass\n", encoding="utf-8")
    assert catch_alls(sample) == [3, 7, 11]
