"""Random nights at the table: zero-sum, replay equals the live state, undo restores exactly.

Drives the recorder (the path every `pan` command takes) against a real SQLite file with
random legal and illegal events.
"""


from hypothesis import HealthCheck, settings

from random_night import Night

Night.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None,
                                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestNight = Night.TestCase
