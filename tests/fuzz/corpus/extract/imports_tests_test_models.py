from atlas.models import Place


class FakeStore:
    def __init__(self):
        self.items = {}

    def put(self, key, value):
        self.items[key] = value


def test_save_puts_coordinates():
    store = FakeStore()
    Place("Oslo", 59.91, 10.75).save(store)
    assert store.items == {"Oslo": (59.91, 10.75)}
