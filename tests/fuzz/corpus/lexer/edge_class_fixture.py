class C(Base, metaclass=M):
    @pytest.fixture(autouse=True, name="n")
    async def m(self, a, /, b=1, *c, d, **e) -> "T":
        """doc
        >>> import os
        """
        getattr(self, name)()
