import pytest

from pantry.store import make_store


@pytest.fixture
def store():
    return make_store(capacity=7)


def test_staples_fill_a_small_store(stocked):
    assert stocked.total_units() == stocked.capacity
