from roster.shifts import Shift


def _length_check(start, end, hours):
    def check():
        assert Shift("ana", start, end).hours == hours

    return check


test_day_shift = _length_check(9, 17, 8)
test_night_shift = _length_check(22, 30, 8)
