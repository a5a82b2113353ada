"""Plane shapes, and a canvas to collect them."""
from .circle import Circle
from .rect import Rect, Square

__all__ = ["Circle", "Rect", "Square"]
