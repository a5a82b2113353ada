from inkwell.shapes import Shape
from inkwell.snap import snapshot


def test_snapshot_holds_the_data():
    shape = Shape()
    shape.sides = 4
    assert snapshot(shape) == {"sides": 4}
