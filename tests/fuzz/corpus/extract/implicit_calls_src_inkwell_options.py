"""Options set from keyword arguments with setattr: only property setters run code on the way in."""


class Options:
    def __init__(self, **values):
        for name, value in values.items():
            setattr(self, name, value)

    @property
    def width(self):
        return self._width

    @width.setter
    def width(self, value):
        self._width = max(0, value)

    @property
    def area(self):
        return self._width * self._width

    def has(self, name):
        return hasattr(self, name)

    def describe(self):
        return f"{len(vars(self))} option(s)"
