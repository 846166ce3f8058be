"""Chess clock for timed Polish Pan (spec B.3 "Timed play", Q-B9)."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from pancli.core.errors import InputError, RuleError
from pancli.games.polish import clock as k, engine as polish

MINUTE = 60_000


def test_new_clock_is_paused_with_equal_time():
    clock = k.new_clock(["A", "B", "C"], 5 * MINUTE)
    assert not clock.running and clock.turn == "A"
    assert k.remaining(clock, 123) == {"A": 5 * MINUTE, "B": 5 * MINUTE, "C": 5 * MINUTE}
    assert k.new_clock(["A", "B"], MINUTE, first="B").turn == "B"


def test_only_the_player_in_turn_loses_time():
    clock = k.start(k.new_clock(["A", "B", "C"], MINUTE), now_ms=1_000)
    assert k.remaining(clock, 11_000) == {"A": 50_000, "B": MINUTE, "C": MINUTE}
    clock = k.press(clock, now_ms=11_000)
    assert clock.turn == "B" and clock.running
    assert k.remaining(clock, 14_000) == {"A": 50_000, "B": 57_000, "C": MINUTE}


def test_press_can_name_the_next_player():
    # spades back: the turn goes to the previous player
    clock = k.press(k.start(k.new_clock(["A", "B", "C", "D"], MINUTE), 0), 2_000, next_player="D")
    assert clock.turn == "D"


def test_pause_stops_the_time():
    clock = k.start(k.new_clock(["A", "B"], MINUTE), 0)
    clock = k.pause(clock, 5_000)
    assert not clock.running
    assert k.remaining(clock, 500_000) == {"A": 55_000, "B": MINUTE}
    clock = k.start(clock, 600_000)
    assert k.remaining(clock, 601_000)["A"] == 54_000


def test_flag_falls_and_names_the_loser():
    clock = k.start(k.new_clock(["A", "B"], 10_000), 0)
    clock = k.press(clock, 4_000)                     # A used 4 s
    assert k.flag_fallen(clock, 13_999) is None
    assert k.flag_fallen(clock, 14_000) == "B"
    clock = k.tick(clock, 20_000)
    assert clock.flagged == "B" and clock.flagged_at_ms == 14_000 and not clock.running
    assert k.remaining(clock, 20_000) == {"A": 6_000, "B": 0}
    assert k.flag_event(clock) == {"kind": "clock_flag", "player": "B"}


def test_press_after_time_ran_out_does_not_save_the_player():
    clock = k.press(k.start(k.new_clock(["A", "B"], 10_000), 0), 10_001)
    assert clock.flagged == "A" and clock.turn == "A"


def test_flag_event_feeds_polish_pan():
    clock = k.tick(k.start(k.new_clock(["X", "Y"], 1_000), 0), 1_000)
    state = polish.new_state(polish.PolishRules(), ["X", "Y"])
    step = polish.apply(state, k.flag_event(clock))
    assert step.state.letters_of("X") == "P"


def test_no_flag_without_a_fall():
    clock = k.new_clock(["A", "B"], 1_000)
    assert k.flag_event(clock) is None and k.flag_fallen(clock, 10**9) is None


def test_increment_is_added_on_press():
    clock = k.start(k.new_clock(["A", "B"], 10_000, increment_ms=2_000), 0)
    clock = k.press(clock, 3_000)
    assert k.remaining(clock, 3_000) == {"A": 9_000, "B": 10_000}


def test_finished_clock_refuses_everything():
    clock = k.tick(k.start(k.new_clock(["A", "B"], 1_000), 0), 5_000)
    for operation in (k.start, k.pause, k.press, k.tick):
        with pytest.raises(RuleError, match="time has run out"):
            operation(clock, 6_000)


@pytest.mark.parametrize("call", [
    lambda: k.new_clock(["A"], 1_000),
    lambda: k.new_clock(["A", "A"], 1_000),
    lambda: k.new_clock(["A", "B"], 0),
    lambda: k.new_clock(["A", "B"], -5),
    lambda: k.new_clock(["A", "B"], 1.5),
    lambda: k.new_clock(["A", "B"], 1_000, first="C"),
    lambda: k.start(k.new_clock(["A", "B"], 1_000), "now"),
    lambda: k.tick(k.start(k.new_clock(["A", "B"], 1_000), 500), 400),
    lambda: k.press(k.start(k.new_clock(["A", "B"], 1_000), 0), 10, next_player="Q"),
])
def test_unreadable_input(call):
    with pytest.raises(InputError):
        call()


def test_starting_twice_is_refused():
    with pytest.raises(RuleError, match="already running"):
        k.start(k.start(k.new_clock(["A", "B"], 1_000), 0), 1)


@pytest.mark.parametrize("ms, face", [(300_000, "5:00"), (61_999, "1:01"), (10_000, "0:10"), (9_950, "9.9"),
                                      (0, "0.0"), (-5, "0.0")])
def test_format_ms(ms, face):
    assert k.format_ms(ms) == face


def test_clock_is_json_friendly():
    clock = k.press(k.start(k.new_clock(["A", "B"], MINUTE, increment_ms=500), 0), 1_234)
    assert k.Clock.from_dict(json.loads(json.dumps(clock.to_dict()))) == clock


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["press", "pause", "start", "tick"]), st.integers(0, 5_000)), max_size=30))
def test_time_is_conserved_until_a_flag_falls(ops):
    """Total time left plus time used always equals the time handed out."""
    total, now = 20_000, 0
    clock = k.new_clock(["A", "B", "C"], total)
    used = {"A": 0, "B": 0, "C": 0}
    for op, gap in ops:
        before = clock
        now += gap
        if before.running:
            used[before.turn] += gap
        if op == "start" and before.running:
            continue
        clock = {"press": k.press, "pause": k.pause, "start": k.start, "tick": k.tick}[op](before, now)
        if clock.flagged:
            assert used[clock.flagged] >= total
            assert k.remaining(clock, now)[clock.flagged] == 0
            return
    left = k.remaining(clock, now)
    assert all(left[p] == max(0, total - used[p]) for p in left)  # a flag not yet asked about shows 0, never less
