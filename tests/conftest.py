import pytest
from hypothesis import HealthCheck, settings

from helpers import Pan

# No property test depends on the machine being quiet: Hypothesis's per-example deadline (200 ms)
# and its too-slow health check are wall-clock bounds that a machine busy with other work misses.
settings.register_profile("pancli", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pancli")


@pytest.fixture
def pan(tmp_path):
    return Pan(tmp_path / "pan.db")
