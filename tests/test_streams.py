"""Output errors come through the Guarded standard streams (pancli.cli.streams), not from guessing
at stack frames: a full disk behind standard output is one line naming it, a reader that went away
or a closed standard output ends the command quietly. Through real pipes and descriptors."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import pytest

from pancli.cli.streams import Guarded, OutputError, os_error_line

from helpers import HANG, PAN, Pan, child_env

FULL = "Error: cannot write to standard output (/dev/full): No space left on device\n"


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new fri --players Ana,Ben,Cruz")
    for _ in range(40):  # more history than a pipe holds
        pan("deal")
        pan("void")
    return db


@pytest.mark.parametrize("words", [["export", "-o", "-"], ["history"], ["rules", "show", "--markdown"],
                                   ["check", "5S", "5S", "5S"]])
def test_a_full_disk_behind_standard_output_is_one_line_naming_it(db, words):
    """`export -o -` writes through a bound method deep in the archive writer: the frames once
    told it apart from standard output ("the command stopped: No space left on device")."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([*PAN, "--db", str(db), *words], stdout=full, stderr=subprocess.PIPE, text=True,
                           env=child_env(), timeout=HANG)
    assert (r.returncode, r.stderr) == (2, FULL), words


def test_a_reader_that_went_away_ends_the_command_quietly(db):
    read, write = os.pipe()
    os.close(read)
    try:
        r = subprocess.run([*PAN, "--db", str(db), "history"], stdout=write, stderr=subprocess.PIPE, text=True,
                           env=child_env(), timeout=HANG)
    finally:
        os.close(write)
    assert (r.returncode, r.stderr) == (1, "")


def test_a_closed_standard_output_ends_the_command_quietly(db):
    r = subprocess.run([*PAN, "--db", str(db), "history"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, env=child_env(), timeout=HANG, pass_fds=(), preexec_fn=lambda: os.close(1))
    assert "Traceback" not in r.stderr and r.stderr == ""
    assert r.returncode in (0, 1)


def test_the_guarded_stream_names_itself_and_lets_a_gone_reader_pass():
    full = open("/dev/full", "w")
    out = Guarded(full, "standard output")
    out.write("x" * 10)  # buffered: the disk is met at the flush
    with pytest.raises(OutputError) as e:
        out.flush()
    with contextlib.suppress(OSError):  # the buffer is still full
        full.close()
    assert (e.value.stream, e.value.where) == ("standard output", " (/dev/full)")
    assert os_error_line(e.value) == FULL.removeprefix("Error: ").rstrip("\n")
    read, write = os.pipe()
    os.close(read)
    with open(write, "w") as pipe:
        gone = Guarded(pipe, "standard output")
        gone.write("x")
        with pytest.raises(BrokenPipeError):
            gone.flush()
        assert os_error_line(BrokenPipeError(32, "Broken pipe")) is None
        with contextlib.suppress(BrokenPipeError):
            pipe.close()
    with pytest.raises(ValueError):  # closed: passes as it is, for `main`
        gone.write("x")


def test_an_os_error_elsewhere_is_not_taken_for_standard_output():
    """A write to some other file fails the command, in words that do not blame standard output."""
    line = os_error_line(OSError(28, "No space left on device"))
    assert line == "the command stopped: No space left on device"


def test_no_stack_frames_are_read():
    text = Path(__file__).resolve().parent.parent.joinpath("pancli", "cli", "streams.py").read_text()
    assert "tb_frame" not in text and "__traceback__" not in text and "linecache" not in text
