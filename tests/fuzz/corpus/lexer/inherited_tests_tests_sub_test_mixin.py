import os

from checks import EnvBase, StoreChecks


class TestStore(StoreChecks):
    pass


class TestEnv(EnvBase):
    def test_mode_is_test(self):
        assert os.environ["DEPOT_MODE"] == "test"
