"""Output formats, registered by name as they are defined (__init_subclass__)."""

_FORMATS = {}


class Format:
    name = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _FORMATS[cls.name] = cls

    def encode(self, data):
        raise NotImplementedError


class Hex(Format):
    name = "hex"

    def __init__(self, upper=False):
        self.upper = upper

    def encode(self, data):
        text = data.hex()
        return text.upper() if self.upper else text


def create(name, **options):
    return _FORMATS[name](**options)
