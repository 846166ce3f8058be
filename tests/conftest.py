import os

import pytest
from hypothesis import HealthCheck, settings

from helpers import Pan, catalog_tool

# No property test depends on the machine being quiet: Hypothesis's per-example deadline (200 ms)
# and its too-slow health check are wall-clock bounds that a machine busy with other work misses.
settings.register_profile("pancli", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pancli")

# The suite reads pancli in English whatever the machine's locale (a Polish host running it
# included); the tests of other languages choose theirs.
for _var in ("PANCLI_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "PANCLI_LOCALE_DIR"):
    os.environ.pop(_var, None)
if os.environ.get("LANG", "C").split("_")[0].split(".")[0].lower() not in ("c", "posix", "en"):
    os.environ["LANG"] = "C.UTF-8"


@pytest.fixture
def pan(tmp_path):
    return Pan(tmp_path / "pan.db")


@pytest.fixture
def sh(tmp_path, monkeypatch):
    """A table shell on a database of its own, at a session of Ana, Ben and Cruz."""
    from pancli.cli.shell.table_shell import TableShell

    monkeypatch.delenv("PANCLI_DB", raising=False)
    shell = TableShell(db=str(tmp_path / "pan.db"))
    assert shell.execute("session new fri --players Ana,Ben,Cruz").ok
    yield shell
    shell.close()


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A command run in-process with --lang leaves its language in force, as a process keeps
    it; each test starts from English."""
    yield
    from pancli.storage.catalogs import use_language

    use_language("en")


@pytest.fixture(scope="session")
def qps_dir(tmp_path_factory) -> str:
    """A folder holding the pseudo-language qps (every message wrapped in ⟦…⟧), made from the
    code as it is now: PANCLI_LOCALE_DIR=qps_dir and --lang qps."""
    folder = tmp_path_factory.mktemp("qps")
    catalog_tool().main(["pseudo", str(folder)])
    return str(folder)
