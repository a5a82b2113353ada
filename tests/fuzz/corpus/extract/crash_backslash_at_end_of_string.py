w     >>> importlass C(Base, metaclass=M):
    @pytest.fixture(autouse=True, name="n")
    async def m(self, a, /, b=1, *c, d,ЬХХљ) -> "T":
        """doc
        >>> import os
        """
        getattr(self, name)()
 os
        """
   \