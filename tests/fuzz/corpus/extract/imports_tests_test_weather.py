import pytest

from atlas.weather import temperature


def test_celsius_is_passed_through():
    assert temperature(21.5) == 21.5


@pytest.mark.parametrize(("unit", "expected"), [("F", 212), ("K", 373.15)])
def test_boiling_point(unit, expected):
    assert temperature(100, unit) == pytest.approx(expected)
