"""A one-line summary of an order, the way the shop's emails show it."""
from orders.money import Money
from orders.pricing import total


def summary(order):
    return f"{order.customer}: {Money(total(order))}"


def headline(order):
    return f"{len(order.items)} lines for {order.customer}"
