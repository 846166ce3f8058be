"""Catch-all `except` clauses in the game cores, the shared core and `pan serve` (issue 39): only
at an edge that reports a bug in one line; anything else catches what it expects, by name. A
clause that raises what it caught again (handing it to others waiting, say) catches nothing."""

from __future__ import annotations

import ast
from pathlib import Path

PANCLI = Path(__file__).resolve().parent.parent / "pancli"
CATCH_ALL = {"Exception", "BaseException"}

# Each allowed catch-all, by module and function: the edge, and how it reports the bug.
EDGES = {
    ("web/dealer.py", "__call__"),  # the dealer's request: a bug is one line to the phone, its traceback to the log
    ("web/live.py", "run"),  # the poller: a damaged or vanished file (sqlite3's errors are storage's to name)
}


def reraises(handler: ast.ExceptHandler) -> bool:
    last = handler.body[-1]
    return isinstance(last, ast.Raise) and last.exc is None


def catch_alls(package: str) -> list[tuple[str, str, int]]:
    found = []
    for path in sorted((PANCLI / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.ExceptHandler) and not reraises(inner) and (
                        inner.type is None or (isinstance(inner.type, ast.Name) and inner.type.id in CATCH_ALL)):
                    found.append((path.relative_to(PANCLI).as_posix(), node.name, inner.lineno))
    return found


def test_core_games_and_web_catch_everything_only_at_an_edge_that_reports_the_bug():
    found = {(module, function) for package in ("core", "games", "web") for module, function, _ in catch_alls(package)}
    assert found <= EDGES, sorted(found - EDGES)
    assert len(EDGES) <= 3
