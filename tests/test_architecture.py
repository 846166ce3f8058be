"""The layout is the architecture: these tests keep the layers apart.

* Game and core modules are pure: no database, no terminal, no files, no clock.
* Every SQL statement lives in pancli/storage: nothing else imports sqlite3 or sqlite-utils.
* No module reaches into another module's private names.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pancli.games import DEFAULT_GAME

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
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("execute", "executemany", "executescript") \
                and not (isinstance(node.func.value, ast.Name) and node.func.value.id in ("self", "shell")):
            # (a TableShell runs a line with its own execute, called on self or, from the script
            # that drives it, on the shell)
            pytest.fail(f"{rel(path)}:{node.lineno} runs SQL: add a Store method in pancli/storage")


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


# A named tuple's own public API, underscored only so as not to clash with its fields.
NAMED_TUPLE_API = {"_fields", "_field_defaults", "_asdict", "_make", "_replace"}


@pytest.mark.parametrize("path", modules("."), ids=rel)
def test_no_module_uses_another_modules_private_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = private_names_defined(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pancli"):
            # `_` is gettext's name for "translate this" (pancli.core.i18n), not a private one
            private = [a.name for a in node.names if a.name.startswith("_") and a.name != "_"]
            assert not private, f"{rel(path)} imports private {private} from {node.module}"
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if node.attr in own or node.attr in NAMED_TUPLE_API or isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue  # its own objects' insides (another instance of the same class included)
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            pytest.fail(f"{rel(path)}:{node.lineno} reaches into .{node.attr} of another object")


# Which layers each layer may import (function-local imports included). The faces (cli, web)
# stand on the application layer; storage and the games stand on the pure core alone.
MAY_IMPORT = {
    "core": {"core"},
    "games": {"games", "core"},
    "storage": {"storage", "core"},
    "app": {"app", "games", "storage", "core"},
    "web": {"web", "app", "games", "storage", "core"},
    "cli": {"cli", "web", "app", "games", "storage", "core"},  # `pan serve` starts the web face
}


def layer_of(dotted: str) -> str:
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else ""


def pancli_imports(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("pancli.")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("pancli."):
            out.append((node.lineno, node.module))
    return out


@pytest.mark.parametrize("path", [p for p in modules(*MAY_IMPORT)], ids=rel)
def test_imports_run_one_way(path):
    own = path.relative_to(PACKAGE).parts[0]
    for line, name in pancli_imports(path):
        assert layer_of(name) in MAY_IMPORT[own], \
            f"{rel(path)}:{line} imports {name}: {own} may import only {sorted(MAY_IMPORT[own])}"


def test_the_command_line_has_three_catch_all_excepts_each_at_an_edge_that_reports_a_bug():
    """A catch-all `except` in cli/ is an edge that says a bug in one line and logs it: a shell
    line (``TableShell.execute``), what the prompt draws around it (``_at_edge``) and Tab
    (``tab_offers``); nowhere else (an error pancli expects is named)."""
    found = []
    for path in modules("cli"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.ExceptHandler) and (
                        node.type is None or isinstance(node.type, ast.Name) and node.type.id in ("Exception", "BaseException")):
                    found.append(fn.name)
    assert sorted(found) == ["_at_edge", "execute", "tab_offers"], found


def test_the_json_option_is_defined_once():
    """`--json` is cli/options.py's (``JSON``, or ``json_option`` for a command that says what its
    JSON holds): no command module writes its own."""
    where = [rel(p) for p in modules("cli") if '"--json"' in p.read_text(encoding="utf-8")]
    assert where == ["pancli/cli/options.py"], where


def test_a_command_lives_where_its_name_and_room_say():
    """`pan` finds a command from where it lives, without importing every module: the command NAME
    is the module cli/commands/<room>/NAME.py (a room a panel of `pan --help`), which adds it and
    nothing else, or one of the default game's declared actions. A module that adds a command its
    room does not name (or a room naming a command nothing makes) would silently go missing."""
    from importlib import import_module

    from pancli.cli.registry import DECLARED, module_of, own_names, own_panels
    from pancli.games import default_game

    for path in modules("cli"):
        module = import_module(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        commands = getattr(module, "commands", None)
        if commands is None or not hasattr(commands, "registered_commands"):
            continue
        defined = [c.name or c.callback.__name__.lower().replace("_", "-") for c in commands.registered_commands]
        defined += [g.name for g in commands.registered_groups]
        assert defined == [path.stem.rstrip("_")], f"{rel(path)} adds {defined}: a module adds the command of its name"
        assert module_of(path.stem.rstrip("_")) == module.__name__, f"{rel(path)}: its room does not name it"
    declared = {a.command[0] for a in default_game().actions if len(a.command) == 1}
    for name in own_names():
        where = module_of(name)
        assert where == DECLARED and name in declared or where != DECLARED and name not in declared, name
    in_panels = [n for _, names in own_panels() for n in names]
    assert len(in_panels) == len(set(in_panels)), "a command is in two panels of `pan --help`"
    assert declared <= set(in_panels), "a declared action is in no panel of `pan --help`"


# Panguingue is one game behind the protocol like the others: only its own folder and its faces
# (the dispute commands) may know it by name, and the registry that registers the built-in games.
# Everything else asks the game (pancli.games.protocol).
PANGUINGUE_OWN = ("games/panguingue/", "cli/commands/disputes/check.py", "cli/commands/disputes/turn.py", "games/__init__.py")


def knows_panguingue(path: Path) -> list[str]:
    """Where a module imports pancli.games.panguingue or compares something with "panguingue"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names
                      if a.name.startswith("pancli.games.panguingue")]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("pancli.games.panguingue") or (
                    node.module == "pancli.games" and any(a.name == "panguingue" for a in node.names)):
                found.append(f"{node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            literals = [c for s in sides for c in ([s] if isinstance(s, ast.Constant) else
                                                  getattr(s, "elts", []) if isinstance(s, (ast.Tuple, ast.List, ast.Set)) else [])]
            if any(isinstance(c, ast.Constant) and c.value == "panguingue" for c in literals):
                found.append(f"{node.lineno}: compares with 'panguingue'")
    return found


@pytest.mark.parametrize("path", [p for p in modules(".")
                                  if not rel(p).removeprefix("pancli/").startswith(PANGUINGUE_OWN)], ids=rel)
def test_only_panguingue_and_its_faces_know_panguingue(path):
    found = knows_panguingue(path)
    assert not found, f"{rel(path)} knows Panguingue by name ({'; '.join(found)}): ask the game instead"


def test_the_check_finds_what_it_looks_for(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from pancli.games.panguingue.cards import RANKS\nimport pancli.games.panguingue.rules\n"
                      "def f(s):\n    from pancli.games import panguingue\n"
                      "    return s['game'] == 'panguingue' or s['game'] in ('panguingue', 'x')\n", encoding="utf-8")
    assert len(knows_panguingue(sample)) == 5


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return name.removesuffix(".__init__")


def test_no_import_cycles():
    """Modules import each other one way (function-local imports too): a cycle means two modules
    that cannot be understood, tested or loaded one without the other."""
    names = {module_name(p): p for p in modules(".")}
    graph = {}
    for name, path in names.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        graph[name] = {t for t in targets if t in names and t != name}

    def cycle_from(start):
        path, seen = [start], set()

        def walk(node):
            for nxt in sorted(graph[node]):
                if nxt == start:
                    return path + [start]
                if nxt not in seen:
                    seen.add(nxt)
                    path.append(nxt)
                    found = walk(nxt)
                    if found:
                        return found
                    path.pop()
            return None

        return walk(start)

    for name in sorted(graph):
        found = cycle_from(name)
        assert not found, "import cycle: " + " -> ".join(found)


def is_the_default_game(n: ast.AST) -> bool:
    """DEFAULT_GAME (a name or an attribute), default_game() or a ``default_game`` attribute
    (``self.default_game``: a copy of it), or its name written out ("panguingue")."""
    if isinstance(n, ast.Constant):
        return n.value == DEFAULT_GAME
    if isinstance(n, ast.Name):
        return n.id == "DEFAULT_GAME"
    if isinstance(n, ast.Attribute):
        return n.attr in ("DEFAULT_GAME", "default_game")
    return isinstance(n, ast.Call) and getattr(n.func, "id", None) == "default_game"


def compares_with_default_game(path: Path) -> list[str]:
    """Where a module compares something with DEFAULT_GAME or default_game(), or asks
    ``is_default``: what a game is like is asked of the game (pancli.games.protocol), never told
    by being the default one."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            if any(is_the_default_game(n) for side in [node.left, *node.comparators] for n in ast.walk(side)):
                found.append(f"{node.lineno}: compares with the default game")
        elif isinstance(node, ast.ImportFrom) and any(a.name == "is_default" for a in node.names):
            found.append(f"{node.lineno}: imports is_default")
        elif (isinstance(node, ast.Name) and node.id == "is_default") or (
                isinstance(node, ast.Attribute) and node.attr == "is_default"):
            found.append(f"{node.lineno}: asks is_default")
    return found


@pytest.mark.parametrize("path", [p for p in modules(".") if rel(p) != "pancli/games/__init__.py"], ids=rel)
def test_only_the_wiring_compares_with_the_default_game(path):
    found = compares_with_default_game(path)
    assert not found, f"{rel(path)} {'; '.join(found)}: ask the game (at_top, in_chips, pack, actions …) instead"


def test_the_default_game_check_finds_what_it_looks_for(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from pancli import games\nfrom pancli.games import DEFAULT_GAME, default_game, is_default\n"
                      "def f(s, schema):\n    return s == DEFAULT_GAME or s is default_game() or s != games.DEFAULT_GAME\n"
                      "def g(s, schema):\n    return schema.game == schema.default_game or s == games.default_game().name\n"
                      "def h(s):\n    return is_default(s) or games.is_default(s)\n"
                      "def by_name(s):\n    return s.game == 'panguingue'\n"
                      "def fine(s):\n    return default_game().in_chips and s.game_option() == ''\n",
                      encoding="utf-8")
    assert len(compares_with_default_game(sample)) == 9


# -- a game's words name no face's commands ------------------------------------------------------

GETTEXT = {"_", "N_", "ngettext", "pgettext", "npgettext"}
COMMAND_WORDS = re.compile(r"`pan |\bpan [a-z]+ |`[a-z]+`|(?<![\w-])--[a-z]")


def messages_naming_commands(source: str) -> list[str]:
    """The messages of a module (its gettext calls' strings) that name a command or an option."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in GETTEXT:
            found += [arg.value for arg in node.args
                      if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and COMMAND_WORDS.search(arg.value)]
    return found


@pytest.mark.parametrize("path", modules("games"), ids=rel)
def test_no_game_message_names_a_command_or_an_option(path):
    """A hint is a code each face words (pancli/core/hints.py): the CLI names its commands
    (cli/words/hints.py), the phone its buttons (web/taps.py); what a game says names neither."""
    assert messages_naming_commands(path.read_text(encoding="utf-8")) == []


def test_the_command_words_check_finds_what_it_looks_for():
    source = ('_("start one with `pan deal`")\nN_("say which with --to")\nngettext("pan out takes", "x", 2)\n'
              '_("type `deal` to start it")\n_("e.g. 5S")\n_("AS 2S 3S / 5S")\n_("a 24-card pack")\n')
    assert messages_naming_commands(source) == ["start one with `pan deal`", "say which with --to", "pan out takes",
                                                "type `deal` to start it"]


# -- the tests themselves ------------------------------------------------------------------------

TESTS = Path(__file__).resolve().parent


def imports_of_test_files(path: Path) -> list[str]:
    """Where a file of tests/ (or a script of docs/) imports a test file (test_*.py), anywhere in it (lazy imports too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0].startswith("test_")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0].startswith("test_"):
            found.append(f"{node.lineno}: from {node.module} import …")
    return found


def test_no_test_file_imports_from_another():
    """What test files share lives in tests/helpers.py and the support modules beside it, each named
    for what it holds (never test_*.py, so pytest does not collect it): a test file importing
    another runs the other's module-level code (its skips included), and neither can then be
    changed, moved or renamed alone (docs/development.md)."""
    files = sorted(TESTS.glob("*.py")) + sorted((TESTS.parent / "docs").glob("*.py"))  # the screenshots' scripts too
    found = [f"{path.relative_to(TESTS.parent)}:{where}" for path in files for where in imports_of_test_files(path)]
    assert not found, "a test file imported, not a support module:\n" + "\n".join(found)


def test_the_test_files_check_finds_what_it_looks_for(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from test_club import three\nimport test_docs, helpers\nfrom helpers import Pan\n"
                      "def f():\n    from test_toy_game import HighCard\n    import test_docs.x as d\n"
                      "from club_hosts import three\nfrom .test_x import y\n", encoding="utf-8")
    assert imports_of_test_files(sample) == ["1: from test_club import …", "2: import test_docs",
                                           "5: from test_toy_game import …", "6: import test_docs.x"]
