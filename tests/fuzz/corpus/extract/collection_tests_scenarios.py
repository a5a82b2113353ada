"""Scenarios shared by every rule set: subclasses named Test* inherit these tests."""
from roster.shifts import Shift


class WeeklyLimitScenarios:
    limit = None

    def check(self, shifts):
        raise NotImplementedError

    def test_short_week_is_fine(self):
        assert self.check([Shift("ana", 0, 8), Shift("ana", 24, 32)])

    def test_double_shifts_all_week_are_not(self):
        assert not self.check([Shift("ana", day * 24, day * 24 + 16) for day in range(7)])
