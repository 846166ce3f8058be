"""The key files, made and read as secrets: the check-mark key of `pan db check` (and `pan serve`'s keys,
tests/test_serve_keys.py). Made owner-only; anything but a regular file of this user's that nobody
else may read, within a few hundred bytes, is refused in one line naming the file and the fix."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from pancli.storage import secret_file

from helpers import HANG, PAN, Pan, child_env, sql_value

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes, links and FIFOs")


@pytest.fixture
def night(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new friday --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    pan("meld ana 5S 5S 5S")
    return db


def db_check(db, data) -> subprocess.CompletedProcess:
    """`pan db check` in a process of its own with ``data`` as pancli's data folder; the timeout
    only guards against a hang (a FIFO read as the key waited for ever)."""
    env = dict(child_env(), XDG_DATA_HOME=str(data))
    return subprocess.run([*PAN, "--db", str(db), "db", "check"], capture_output=True, text=True, env=env,
                          timeout=HANG)


def key_of(data):
    return data / "pancli" / "check-marks.key"


def test_the_check_mark_key_is_made_owner_only_and_seals_the_marks(night, tmp_path):
    data = tmp_path / "data"
    r = db_check(night, data)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(key_of(data).stat().st_mode) == 0o600 and len(key_of(data).read_bytes()) == 32
    assert sql_value(night, "SELECT count(*) FROM check_marks") == 1
    assert db_check(night, data).returncode == 0


def readable_by_others(key):
    key.write_bytes(os.urandom(32))
    key.chmod(0o644)
    return f"chmod 600 {key}"


def link_to_a_readable_file(key):
    target = key.with_name("elsewhere")
    target.write_bytes(os.urandom(32))
    target.chmod(0o644)
    key.symlink_to(target)
    return f"remove {key} and a new key is made"


def link_to_an_owner_only_file(key):
    target = key.with_name("elsewhere")
    target.write_bytes(os.urandom(32))
    target.chmod(0o600)
    key.symlink_to(target)
    return f"remove {key} and a new key is made"


def fifo(key):
    os.mkfifo(key, 0o600)
    return f"remove {key} and a new key is made"


def oversize(key):
    key.write_bytes(os.urandom(64 * 1024))
    key.chmod(0o600)
    return f"remove {key} and a new key is made"


def folder(key):
    key.mkdir(mode=0o700)
    return f"remove {key} and a new key is made"


def too_short(key):
    key.write_bytes(b"x")
    key.chmod(0o600)
    return f"remove {key} and a new key is made"


@pytest.mark.parametrize("hostile", [readable_by_others, link_to_a_readable_file, link_to_an_owner_only_file, fifo,
                                     oversize, folder, too_short])
def test_a_key_file_not_to_trust_is_refused_in_one_line_and_seals_nothing(night, tmp_path, hostile):
    data = tmp_path / "data"
    key = key_of(data)
    key.parent.mkdir(parents=True)
    fix = hostile(key)
    r = db_check(night, data)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and str(key) in r.stderr and fix in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert sql_value(night, "SELECT count(*) FROM check_marks") == 0


def test_a_fixed_key_file_is_used_again(night, tmp_path):
    data = tmp_path / "data"
    key = key_of(data)
    key.parent.mkdir(parents=True)
    readable_by_others(key)
    assert db_check(night, data).returncode == 2
    key.chmod(0o600)
    assert db_check(night, data).returncode == 0
    assert sql_value(night, "SELECT count(*) FROM check_marks") == 1


def test_made_whole_owner_only_and_never_over_another(tmp_path):
    old = os.umask(0)
    try:
        key = secret_file.read_or_make(tmp_path / "k" / "a.key")
    finally:
        os.umask(old)
    path = tmp_path / "k" / "a.key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_bytes() == key and len(key) == 32
    assert secret_file.read_or_make(path) == key
    assert [p.name for p in path.parent.iterdir()] == ["a.key"]  # no temporary file left


def test_replace_puts_a_new_key_in_place_of_a_link_never_through_it(tmp_path):
    target = tmp_path / "precious"
    target.write_bytes(b"p" * 32)
    link = tmp_path / "a.key"
    link.symlink_to(target)
    key = secret_file.replace(link)
    assert not link.is_symlink() and link.read_bytes() == key and target.read_bytes() == b"p" * 32
    assert stat.S_IMODE(link.stat().st_mode) == 0o600


def test_on_windows_the_mode_and_owner_are_not_asked(tmp_path, monkeypatch):
    key = tmp_path / "a.key"
    key.write_bytes(b"k" * 32)
    key.chmod(0o644)
    with pytest.raises(secret_file.SecretFileError):
        secret_file.read(key)
    monkeypatch.setattr(sys, "platform", "win32")
    assert secret_file.read(key) == b"k" * 32
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(secret_file.SecretFileError):  # still only a regular file
        secret_file.read(tmp_path / "fifo")
