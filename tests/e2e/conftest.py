import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from harness import IMPACT, make_repo  # noqa: E402


def pytest_sessionstart(session):
    if not os.access(IMPACT, os.X_OK):
        raise pytest.UsageError(f"impact binary not found at {IMPACT}; build first or set IMPACT_BIN")


@pytest.fixture
def repo_factory(tmp_path):
    """make_repo bound to this test's temporary folder: repo_factory("fixture") or files={...}."""
    counter = iter(range(1000))

    def make(fixture=None, files=None, commit=True):
        return make_repo(tmp_path / f"r{next(counter)}", fixture, files, commit)

    return make
