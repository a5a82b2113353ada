import pytest

from pantry.store import Store


@pytest.fixture
def store():
    return Store(capacity=3)
