"""A store of named goods and how many of each it holds."""

STAPLES = [("flour", 5), ("salt", 2)]


class Store:
    def __init__(self, capacity):
        self.capacity = capacity
        self.goods = {}

    def put(self, name, count=1):
        if self.total_units() + count > self.capacity:
            raise OverflowError("the store is full")
        self.goods[name] = self.goods.get(name, 0) + count

    def take(self, name, count=1):
        have = self.goods.get(name, 0)
        if have < count:
            raise KeyError(name)
        self.goods[name] = have - count

    def stock_of(self, name):
        return self.goods.get(name, 0)

    def total_units(self):
        return sum(self.goods.values())


def make_store(capacity=100):
    return Store(capacity)


def fill_with_staples(store):
    for name, count in STAPLES:
        store.put(name, count)
    return store
