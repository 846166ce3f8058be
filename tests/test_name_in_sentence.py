"""A name with a point of its own ("Anna K.") ends a sentence once, and a name a shell would split
is shown quoted in the command a hint gives, so it can be typed as shown."""

from __future__ import annotations

import shlex

from pancli.core.i18n import sentence

from helpers import pan_process


def test_a_name_ending_a_sentence_lends_it_its_point():
    assert sentence("Declarations: {order}.", order="Ben, Anna K.") == "Declarations: Ben, Anna K."
    assert sentence("Declarations: {order}.", order="Ben, Cyd") == "Declarations: Ben, Cyd."
    assert sentence("{name} deals first.", name="Anna K.") == "Anna K. deals first."
    assert sentence("宣言：{order}。", order="Anna K.") == "宣言：Anna K.。"  # not a point: left as it is


def test_anna_k_at_the_table(tmp_path):
    db = tmp_path / "t.db"
    made = pan_process(db, ["session", "new", "Fri", "-p", "Anna K.,Ben,Cyd"])
    assert "Anna K., Ben, Cyd. Anna K. deals first." in made.stdout
    dealt = pan_process(db, ["deal"])
    assert dealt.stdout.splitlines()[0].endswith("Declarations: Ben, Cyd, Anna K.")
    pan_process(db, ["meld", "Anna K.", "5S", "5S", "5S"])
    refused = pan_process(db, ["out", "Anna K."])
    assert refused.returncode != 0
    shown = refused.stderr.split("`")[1]
    assert shown == "pan out 'anna k.' CARD..."
    assert shlex.split(shown)[2] == "anna k."  # typed as shown, the name is one word
