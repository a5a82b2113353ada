from shapes.base import Shape


class Rect(Shape):
    name = "rect"

    def __init__(self, width, height):
        self.width = width
        self.height = height

    def area(self):
        return self.width * self.height

    def perimeter(self):
        return 2 * (self.width + self.height)

    def is_square(self):
        return self.width == self.height


class Square(Rect):
    name = "square"

    def __init__(self, side):
        super().__init__(side, side)

    def diagonal(self):
        return self.width * 2**0.5

    def describe(self):
        return super().describe() + ", all sides equal"
