"""Orders: line items, prices, shipping and documents."""
from .models import LineItem, Order
from .util import slug

__all__ = ["LineItem", "Order", "slug"]
