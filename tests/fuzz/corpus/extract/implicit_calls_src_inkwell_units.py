"""Units, made from the subclasses of Unit that Python lists: no code names them."""


class Unit:
    symbol = ""

    @classmethod
    def all(cls):
        return [sub() for sub in cls.__subclasses__()]


class Metre(Unit):
    symbol = "m"

    def __str__(self):
        return "1 " + self.symbol

    def __bool__(self):
        return True

    def __len__(self):
        return 0
