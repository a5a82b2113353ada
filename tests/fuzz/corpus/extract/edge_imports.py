import a.b as c, d
from . import x
from ..p.q import (r as s,
  t)
from m import *
importlib.import_module("pkg.my mod")
__import__(name)
pytest_plugins = ["a.b", c]
__all__ = ["x"] + y
collect_ignore = ["setup.py"]
