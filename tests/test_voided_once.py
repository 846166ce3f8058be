"""What an undo voids is said once in SQL (pancli/storage/voided.py): an event is voided by an
undo of its own session. A player's career, read over every session at once, voids by the same
rule as one session's standings, so a forged undo naming another session's event changes
neither."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import forge_an_undo_of_the_other_sessions_event, two_nights

PACKAGE = Path(__file__).resolve().parent.parent / "pancli"
# The schema's history (its first views and the undo indexes) says it in DDL of its own.
SAYS_IT = {"storage/voided.py", "storage/migrations.py"}


def test_the_voided_condition_is_written_in_one_place():
    said = [f"{p.relative_to(PACKAGE)}:{n}" for p in sorted(PACKAGE.rglob("*.py"))
            if str(p.relative_to(PACKAGE)) not in SAYS_IT
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"undo_of\s+IS\s+NOT\s+NULL", line, re.IGNORECASE)]
    assert not said, f"the voided condition written again: {said}; use pancli/storage/voided.py"


def test_a_cross_session_undo_leaves_the_career_of_the_other_session_as_it_was(tmp_path):
    pan = two_nights(tmp_path)
    before = pan.json("player Ana")
    pan("session use one")
    standings = pan.json("standings")
    forge_an_undo_of_the_other_sessions_event(pan)  # session two's undo names session one's #2
    assert pan.json("standings") == standings
    assert pan.json("player Ana") == before
