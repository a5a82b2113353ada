from inkwell.members import functions


def test_lookup_through_getmembers():
    assert functions()["neg"](2) == -2


def test_getmembers_lists_every_operation():
    assert sorted(functions()) == ["add", "mul", "neg"]
