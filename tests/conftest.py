import pytest

from helpers import Pan


@pytest.fixture
def pan(tmp_path):
    return Pan(tmp_path / "pan.db")
