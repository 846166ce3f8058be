"""`pan history` piped says every line exactly as it did before it was made fast: a night of each
game (every kind of event, undos, voided events, an undo reaching back a page, every payment
code, pools, payments of pancli 0.1, names that would forge output or break a line) printed in
several languages and filters is compared byte for byte with the text the earlier code printed
(tests/fixtures/history_golden: the night as JSON and each output, gzipped; made by
``make.py`` there)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pancli.core.ledger import NO_PARAMS, Params, Payment, Tally
from pancli.core.rows import LoggedEvent
from pancli.games import game
from pancli.storage.store import Store

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "history_golden"
ROOT = GOLDEN.parent.parent.parent

# (game, language, options): each a golden file of the piped output.
RUNS = [
    ("panguingue", "en", []), ("panguingue", "pl", []), ("panguingue", "ja", []), ("panguingue", "ru", []),
    ("panguingue", "ja", ["--ambiguous-wide"]), ("panguingue", "en", ["--ambiguous-wide"]),
    ("panguingue", "es", ["--hand", "3"]),
    ("panguingue", "en", ["--player", "P03"]), ("panguingue", "en", ["--last", "40"]),
    ("panguingue", "bg", ["--player", "Ana", "--last", "7"]), ("panguingue", "en", ["--hand", "999"]),
    ("contract", "en", []), ("contract", "ja", []), ("contract", "pl", ["--last", "5"]),
    ("polish", "en", []), ("polish", "ru", []), ("polish", "ja", ["--hand", "2"]),
]


def golden_name(name: str, lang: str, options: list[str]) -> str:
    return "-".join([name, lang, *(o.strip("-") for o in options)]) + ".txt.gz"


def build(night: dict, folder: Path) -> dict[str, Path]:
    """A database of each game's night (as the JSON fixture holds it), by game."""
    dbs = {}
    for name, session in night.items():
        g = game(name)
        path = folder / f"{name}.db"
        store = Store(path)
        with store.lock():
            sid = store.create_session(session["name"], name, session["players"], None,
                                       g.rules_to_dict(g.rules_from_dict({})), 0.25)
            store.set_setting("current_session", str(sid))
            store.log.append_many(sid, [
                LoggedEvent(e["seq"], e["kind"], e["payload"], e["hand"],
                            payments=tuple(Payment(payer, payee, chips, code,
                                                   Params.from_json(params) if params is not None else NO_PARAMS,
                                                   None, reason)
                                           for payer, payee, chips, code, params, reason in e["payments"]),
                            tallies=tuple(Tally(*t) for t in e["tallies"]), undo_of=e["undo_of"])
                for e in session["events"]])
        store.close()
        dbs[name] = path
    return dbs


def piped(db: Path, lang: str, options: list[str]) -> bytes:
    """What `pan history` writes to a pipe, as a process of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PANCLI_", "LC_", "LANG"))}
    env.update(COLUMNS="80", PYTHONIOENCODING="utf-8")
    first = [o for o in options if o == "--ambiguous-wide"]  # an option of `pan` itself
    r = subprocess.run([sys.executable, "-m", "pancli", *first, "--db", str(db), "--lang", lang, "history",
                        *[o for o in options if o not in first]],
                       env=env, cwd=ROOT, capture_output=True, check=False)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stderr == b""
    return r.stdout


@pytest.fixture(scope="module")
def nights(tmp_path_factory) -> dict[str, Path]:
    with gzip.open(GOLDEN / "night.json.gz", "rt", encoding="utf-8") as f:
        night = json.load(f)
    return build(night, tmp_path_factory.mktemp("golden"))


@pytest.mark.parametrize(("name", "lang", "options"), RUNS, ids=[golden_name(*r)[:-7] for r in RUNS])
def test_piped_history_is_byte_for_byte_what_it_was(nights, name, lang, options):
    expected = gzip.decompress((GOLDEN / golden_name(name, lang, options)).read_bytes())
    got = piped(nights[name], lang, options)
    if got != expected:  # the first line that differs, to read
        for n, (a, b) in enumerate(zip(got.splitlines(), expected.splitlines()), 1):
            assert a == b, f"line {n}"
        assert len(got.splitlines()) == len(expected.splitlines())
    assert got == expected
