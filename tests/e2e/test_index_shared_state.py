"""What one test's run leaves behind for another, end to end with a real index (docs/coverage.md,
"Block level", "Imports inside a test's call", `memoized`): a replaced line that makes a name local,
a generator's frame shared by tests, module code first imported inside a test's call, a session
fixture first set up inside one, results a decorator or a call at module level may cache, and a
mutable default value. Each case breaks a test that did not run the changed line when the index was
built, and the index must still select it.
"""
import pytest

from harness import answer_for, failed_tests, indexed_repo, selected_ids

PYPROJECT = '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n'


def indexed(tmp_path, files):
    return indexed_repo(tmp_path, {"pyproject.toml": PYPROJECT, "src/pkg/__init__.py": "", **files})


def covers(decision, test):
    return any(test == s or test.startswith(s + "::") for s in selected_ids(decision))


def test_a_replaced_line_that_makes_a_module_name_local_selects_every_test_of_the_body(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/conf.py": "LIMIT = 10\n\n\ndef clamp(x, strict):\n    if not strict:\n        return min(x, LIMIT)\n"
                           "    cap = 5\n    return min(x, cap)\n",
        "tests/test_conf.py": "from pkg.conf import clamp\n\n\ndef test_loose():\n    assert clamp(20, False) == 10\n\n\n"
                              "def test_strict():\n    assert clamp(20, True) == 5\n",
    })
    repo.replace("src/pkg/conf.py", "    cap = 5\n    return min(x, cap)\n", "    LIMIT = 5\n    return min(x, LIMIT)\n")
    assert failed_tests(repo) == ["tests/test_conf.py::test_loose"]  # UnboundLocalError on a line it did run
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/conf.py") == ("coverage", None)
    assert covers(warm, "tests/test_conf.py::test_loose")


def test_a_replaced_line_of_a_shared_generator_selects_the_tests_that_resumed_it(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/seq.py": "def counter():\n    step = 1\n    n = 0\n    while True:\n        yield n\n        n += step\n\n\n"
                          "SHARED = counter()\n\n\ndef take():\n    return next(SHARED)\n",
        "tests/test_seq.py": "from pkg.seq import take\n\n\ndef test_a():\n    assert take() == 0\n\n\n"
                             "def test_b():\n    assert take() == 1\n",
    })
    repo.replace("src/pkg/seq.py", "step = 1", "step = 2")
    assert failed_tests(repo) == ["tests/test_seq.py::test_b"]
    assert covers(repo.decide(), "tests/test_seq.py::test_b")


def test_module_code_first_imported_inside_a_test_keeps_the_static_answer(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/heavy.py": "def build_table():\n    return {'a': 1, 'b': 2}\n\n\ndef make():\n    return build_table()\n\n\n"
                            "TABLE = make()\n",
        "tests/test_heavy.py": "def test_a():\n    from pkg import heavy\n    assert heavy.TABLE['a'] == 1\n\n\n"
                               "def test_b():\n    from pkg import heavy\n    assert heavy.TABLE['b'] == 2\n",
    })
    repo.replace("src/pkg/heavy.py", "'b': 2", "'b': 3")
    assert failed_tests(repo) == ["tests/test_heavy.py::test_b"]  # test_b never ran build_table's body
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/heavy.py") == ("static", "outside_tests")
    assert selected_ids(warm) == selected_ids(repo.decide("--no-index"))


def test_a_session_fixture_first_set_up_inside_a_test_keeps_the_static_answer(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/db.py": "def connect():\n    return {'rows': 3}\n",
        "tests/conftest.py": "import pytest\n\nfrom pkg import db\n\n\n@pytest.fixture(scope='session')\n"
                             "def conn():\n    return db.connect()\n",
        "tests/test_db.py": "def test_a(request):\n    assert request.getfixturevalue('conn')['rows'] == 3\n\n\n"
                            "def test_b(conn):\n    assert conn['rows'] > 2\n",
    })
    repo.replace("src/pkg/db.py", "'rows': 3", "'rows': 1")
    assert failed_tests(repo) == ["tests/test_db.py::test_a", "tests/test_db.py::test_b"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/db.py") == ("static", "outside_tests")
    assert covers(warm, "tests/test_db.py::test_b")


@pytest.mark.parametrize("head,decorator", [
    ("import functools\n", None),                                         # load = lru_cache(...)(_settings)
    ("from functools import cache as remember\n", "@remember\n"),
    ("import functools\nkeep = functools.lru_cache(maxsize=None)\n", "@keep\n"),
    ("from pkg.util import once\n", "@once\n"),                             # a decorator the project makes
], ids=["wrapped-by-a-call", "aliased-import", "assigned-decorator", "project-decorator"])
def test_a_function_whose_results_may_be_cached_keeps_the_static_answer(tmp_path, head, decorator):
    body = "def _settings():\n    return {'name': 'demo', 'size': 3}\n"
    if decorator is None:
        cfg = head + "\n\n" + body + "\n\nsettings = functools.lru_cache(maxsize=None)(_settings)\n"
    else:
        cfg = head + "\n\n" + decorator + body.replace("_settings", "settings") + "\n\ndef _settings():\n    return settings()\n"
    repo = indexed(tmp_path, {
        "src/pkg/util.py": "def once(fn):\n    box = []\n\n    def wrapper():\n        if not box:\n            box.append(fn())\n"
                           "        return box[0]\n    return wrapper\n",
        "src/pkg/cfg.py": cfg,
        "tests/test_cfg.py": "from pkg import cfg\n\n\ndef test_name():\n    assert cfg.settings()['name'] == 'demo'\n\n\n"
                             "def test_size():\n    assert cfg.settings()['size'] == 3\n",
    })
    repo.replace("src/pkg/cfg.py", "'size': 3", "'size': 4")
    assert failed_tests(repo) == ["tests/test_cfg.py::test_size"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/cfg.py") == ("static", "memoized")
    assert covers(warm, "tests/test_cfg.py::test_size")


# Project code that may put a cached copy where the tests find the function (docs/coverage.md, `memoized`).
ID = "def register(fn):\n    return fn\n"
BODY = "    value = 21\n    return value * 2\n"
CACHED = {
    # a project decorator named like a trusted one, bound to a cache below its def
    "name-rebound": ("def register(fn):\n    return fn\n\n\nregister = functools.lru_cache(maxsize=None)\n",
                     "from pkg.util import register\n\n\n@register\ndef rate():\n" + BODY, "from pkg.cfg import rate", "rate()"),
    # a decorator that gives back the function, after hanging a cached copy on it
    "cached-copy": ("def register(fn):\n    fn.cached = functools.lru_cache(maxsize=None)(fn)\n    return fn\n",
                    "from pkg.util import register\n\n\n@register\ndef rate():\n" + BODY, "from pkg.cfg import rate", "rate.cached()"),
    # a class decorator that wraps the class's methods
    "class-decorator": ("def api(cls):\n    cls.rate = staticmethod(functools.lru_cache(maxsize=None)(cls.rate))\n    return cls\n",
                        "from pkg.util import api\n\n\n@api\nclass Calc:\n    @staticmethod\n    def rate():\n" +
                        BODY.replace("    ", "        "), "from pkg.cfg import Calc", "Calc.rate()"),
    # a class body that wraps its own method; one instance shared by the tests
    "class-body": (ID, "import functools\n\n\nclass Calc:\n    def rate(self):\n" + BODY.replace("    ", "        ") +
                   "\n    rate = functools.lru_cache(maxsize=None)(rate)\n\n\nCALC = Calc()\n", "from pkg.cfg import CALC", "CALC.rate()"),
    # a function that rebinds the module's name to a cached copy, called at import
    "global-rebind": (ID, "import functools\n\n\ndef rate():\n" + BODY + "\n\ndef _install():\n    global rate\n"
                      "    rate = functools.lru_cache(maxsize=None)(rate)\n\n\n_install()\n", "from pkg import cfg", "cfg.rate()"),
    # the same through globals() and a name given as a string
    "globals-by-name": (ID, "import functools\n\n\ndef rate():\n" + BODY + "\n\ndef _install(*names):\n    for name in names:\n"
                        "        globals()[name] = functools.lru_cache(maxsize=None)(globals()[name])\n\n\n_install('rate')\n",
                        "from pkg import cfg", "cfg.rate()"),
    # lru_cache imported under a name that does not say cache
    "aliased-cache": (ID, "from functools import lru_cache as _keep\n\n\ndef _rate():\n" + BODY + "\n\nrate = _keep(maxsize=None)(_rate)\n",
                      "from pkg.cfg import rate", "rate()"),
}


@pytest.mark.parametrize("util,cfg,head,call", CACHED.values(), ids=CACHED.keys())
def test_project_code_that_may_cache_the_function_keeps_the_static_answer(tmp_path, util, cfg, head, call):
    repo = indexed(tmp_path, {
        "src/pkg/util.py": "import functools\n\n\n" + util,
        "src/pkg/cfg.py": cfg,
        "tests/test_a.py": f"{head}\n\n\ndef test_first():\n    assert {call} == 42\n",
        "tests/test_b.py": f"{head}\n\n\ndef test_second():\n    assert {call} == 42\n",
    })
    repo.replace("src/pkg/cfg.py", "value = 21", "value = 22")
    assert failed_tests(repo) == ["tests/test_a.py::test_first", "tests/test_b.py::test_second"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/cfg.py") == ("static", "memoized")
    assert covers(warm, "tests/test_a.py::test_first") and covers(warm, "tests/test_b.py::test_second")


# soupsieve compiles its `:disabled` and like pseudo-classes lazily, in a class attribute's map, three
# calls above the parser: only the first test that used one ran the parser.
PARSER = (
    "class Parser:\n"
    "    def __init__(self, text):\n        self.text = text\n\n"
    "    def parse_nth(self):\n        return self.text.count('n') * 2\n\n"
    "    def parse(self):\n        return ('nth', self.parse_nth())\n\n"
    "    def process(self):\n        return [self.parse()]\n\n\n"
    "class Lazy:\n"
    "    def __init__(self):\n        self.data = {}\n\n"
    "    def get(self, key):\n        if key not in self.data:\n"
    "            self.data[key] = Parser(key).process()\n        return self.data[key]\n\n\n"
    "PATTERNS = Lazy()\n"
)


def test_a_caller_three_calls_up_that_keeps_results_in_an_attribute_selects_the_tests_that_ran_it(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/css.py": PARSER,
        "tests/test_css.py": "from pkg.css import PATTERNS\n\n\n"
                             "def test_first():\n    assert PATTERNS.get('nn') == [('nth', 4)]\n\n\n"
                             "def test_second():\n    assert PATTERNS.get('nn')[0][1] == 4\n",
    })
    repo.replace("src/pkg/css.py", "count('n') * 2", "count('n') * 3")
    assert failed_tests(repo) == ["tests/test_css.py::test_first", "tests/test_css.py::test_second"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/css.py") == ("coverage", None)
    assert covers(warm, "tests/test_css.py::test_second")  # it ran Lazy.get, never parse_nth


def test_a_memoized_caller_two_calls_up_keeps_the_static_answer(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/css.py": "import functools\n\n\n" + PARSER.split("class Lazy:")[0] +
                          "@functools.lru_cache(maxsize=None)\ndef compile_pattern(text):\n    return Parser(text).process()\n",
        "tests/test_css.py": "from pkg.css import compile_pattern\n\n\n"
                             "def test_first():\n    assert compile_pattern('nn') == [('nth', 4)]\n\n\n"
                             "def test_second():\n    assert compile_pattern('nn')[0][1] == 4\n",
    })
    repo.replace("src/pkg/css.py", "count('n') * 2", "count('n') * 3")
    assert failed_tests(repo) == ["tests/test_css.py::test_first", "tests/test_css.py::test_second"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/css.py") == ("static", "memoized")  # a cache hit runs no line of compile_pattern
    assert covers(warm, "tests/test_css.py::test_second")


# Two tests in two files ask for the same kept result; only the first ran compute().
KEEPERS = {
    "module-dict-two-calls-up": "_cache = {}\n\n\ndef mid(k):\n    return compute(k)\n\n\ndef lookup(k):\n"
                                "    if k not in _cache:\n        _cache[k] = mid(k)\n    return _cache[k]\n",
    "local-alias-of-an-attribute": "class Box:\n    def __init__(self):\n        self._c = {}\n\n    def get(self, k):\n"
                                   "        c = self._c\n        if k not in c:\n            c[k] = compute(k)\n        return c[k]\n\n\n"
                                   "BOX = Box()\n\n\ndef lookup(k):\n    return BOX.get(k)\n",
    "update-of-an-attribute": "class Box:\n    def __init__(self):\n        self._c = {}\n\n    def get(self, k):\n"
                              "        if k not in self._c:\n            self._c.update({k: compute(k)})\n        return self._c[k]\n\n\n"
                              "BOX = Box()\n\n\ndef lookup(k):\n    return BOX.get(k)\n",
    "closure-dict": "def _memo():\n    c = {}\n\n    def get(k):\n        if k not in c:\n            c[k] = compute(k)\n"
                    "        return c[k]\n    return get\n\n\nlookup = _memo()\n",
    "default-argument-dict": "def lookup(k, _c={}):\n    if k not in _c:\n        _c[k] = compute(k)\n    return _c[k]\n",
    "append-on-a-module-level-instance": "class Box:\n    def __init__(self):\n        self._items = []\n\n    def get(self, k):\n"
                                         "        if not self._items:\n            self._items.append(compute(k))\n"
                                         "        return self._items[0]\n\n\nBOX = Box()\n\n\ndef lookup(k):\n    return BOX.get(k)\n",
    "defaultdict-factory": "import collections\n\n\nclass Box:\n    def __init__(self):\n"
                           "        self._c = collections.defaultdict(lambda: compute(3))\n\n    def get(self, k):\n"
                           "        return self._c[k]\n\n\nBOX = Box()\n\n\ndef lookup(k):\n    return BOX.get(k)\n",
    "module-level-generator": "def _gen():\n    base = compute(3)\n    while True:\n        yield base\n\n\nGEN = _gen()\n\n\n"
                              "def lookup(k):\n    return next(GEN)\n",
    "nonlocal-name": "def _make():\n    state = None\n\n    def get(k):\n        nonlocal state\n        if state is None:\n"
                     "            state = compute(k)\n        return state\n    return get\n\n\nlookup = _make()\n",
    "singleton-attribute": "class Service:\n    _inst = None\n\n    def __new__(cls):\n        if cls._inst is None:\n"
                           "            cls._inst = super().__new__(cls)\n            cls._inst.val = compute(3)\n        return cls._inst\n\n\n"
                           "def lookup(k):\n    return Service().val\n",
    "append-on-a-singleton-made-in-the-caller": "class Service:\n    _inst = None\n\n    def __new__(cls):\n"
                                                "        if cls._inst is None:\n            cls._inst = super().__new__(cls)\n"
                                                "            cls._inst.items = []\n        return cls._inst\n\n\n"
                                                "def lookup(k):\n    svc = Service()\n    if not svc.items:\n"
                                                "        svc.items.append(compute(k))\n    return svc.items[0]\n",
    "class-attribute-through-type-self": "class Parser:\n    _table = None\n\n    def table(self, k):\n"
                                         "        if type(self)._table is None:\n            type(self)._table = compute(k)\n"
                                         "        return type(self)._table\n\n\ndef lookup(k):\n    return Parser().table(k)\n",
    "module-level-defaultdict": "import collections\n\n_C = collections.defaultdict(lambda: compute(3))\n\n\n"
                                "def lookup(k):\n    return _C[k]\n",
    "attribute-of-an-imported-module": "import pkg\n\n\ndef lookup(k):\n    if getattr(pkg, 'kept', None) is None:\n"
                                       "        pkg.kept = compute(k)\n    return pkg.kept\n",
    "attribute-of-a-module-level-instance": "class Box:\n    def __init__(self):\n        self.value = None\n\n    def get(self, k):\n"
                                            "        if self.value is None:\n            self.value = compute(k)\n        return self.value\n\n\n"
                                            "BOX = Box()\n\n\ndef lookup(k):\n    return BOX.get(k)\n",
    "chained-assignment": "_cache = {}\n\n\ndef lookup(k):\n    if k in _cache:\n        return _cache[k]\n"
                          "    v = _cache[k] = compute(k)\n    return v\n",
    "dict-subclass-missing": "class _Table(dict):\n    def __missing__(self, k):\n        v = self[k] = compute(k)\n        return v\n\n\n"
                             "_T = _Table()\n\n\ndef lookup(k):\n    return _T[k]\n",
    "singleton-made-by-a-classmethod": "class Settings:\n    _inst = None\n\n    def __init__(self):\n        self.value = compute(3)\n\n"
                                       "    @classmethod\n    def get(cls):\n        if cls._inst is None:\n            cls._inst = cls()\n"
                                       "        return cls._inst\n\n\ndef lookup(k):\n    return Settings.get().value\n",
    "tuple-target-on-a-module-level-instance": "class Box:\n    def __init__(self):\n        self.v = None\n        self.n = 0\n\n"
                                               "    def get(self, k):\n        if self.v is None:\n            self.n, self.v = 1, compute(k)\n"
                                               "        return self.v\n\n\nBOX = Box()\n\n\ndef lookup(k):\n    return BOX.get(k)\n",
    "metaclass-singleton": "class Single(type):\n    _inst = {}\n\n    def __call__(cls, *a, **k):\n        if cls not in cls._inst:\n"
                           "            cls._inst[cls] = super().__call__(*a, **k)\n        return cls._inst[cls]\n\n\n"
                           "class Conf(metaclass=Single):\n    def __init__(self):\n        self.value = compute(3)\n\n\n"
                           "def lookup(k):\n    return Conf().value\n",
    "enum-member-attribute": "import enum\n\n\nclass Size(enum.Enum):\n    THREE = 3\n\n    def doubled(self):\n        try:\n"
                             "            return self._d\n        except AttributeError:\n            self._d = compute(self.value)\n"
                             "            return self._d\n\n\ndef lookup(k):\n    return Size(k).doubled()\n",
    "bracketed-target-list": "class Box:\n    def __init__(self):\n        self.v = None\n        self.n = 0\n\n    def get(self, k):\n"
                             "        if self.v is None:\n            (self.v, self.n) = compute(k), 1\n        return self.v\n\n\n"
                             "BOX = Box()\n\n\ndef lookup(k):\n    return BOX.get(k)\n",
    "context-variable-set": "import contextvars\n\n_cv = contextvars.ContextVar('t')\n\n\ndef lookup(k):\n    try:\n"
                            "        t = _cv.get()\n    except LookupError:\n        t = {k: compute(k)}\n        _cv.set(t)\n    return t[k]\n",
}


@pytest.mark.parametrize("keeper", sorted(KEEPERS))
def test_a_result_kept_by_a_caller_selects_every_test_that_asked_for_it(tmp_path, keeper):
    repo = indexed(tmp_path, {
        "src/pkg/core.py": "def compute(k):\n    return k * 2\n\n\n" + KEEPERS[keeper],
        "tests/test_a.py": "from pkg.core import lookup\n\n\ndef test_a():\n    assert lookup(3) == 6\n",
        "tests/test_b.py": "from pkg.core import lookup\n\n\ndef test_b():\n    assert lookup(3) == 6\n",
    })
    repo.replace("src/pkg/core.py", "return k * 2", "return k * 2 + 1")
    assert failed_tests(repo) == ["tests/test_a.py::test_a", "tests/test_b.py::test_b"]
    warm = repo.decide()
    assert covers(warm, "tests/test_a.py::test_a") and covers(warm, "tests/test_b.py::test_b")


# The same keepers in another module than the changed function's, which they import.
@pytest.mark.parametrize("keeper", ["module-dict-two-calls-up", "dict-subclass-missing", "singleton-made-by-a-classmethod",
                                    "attribute-of-a-module-level-instance", "chained-assignment"])
def test_a_result_kept_by_a_caller_in_another_module_selects_every_test_that_asked_for_it(tmp_path, keeper):
    repo = indexed(tmp_path, {
        "src/pkg/core.py": "def compute(k):\n    return k * 2\n",
        "src/pkg/api.py": "from pkg.core import compute\n\n\n" + KEEPERS[keeper],
        "tests/test_a.py": "from pkg.api import lookup\n\n\ndef test_a():\n    assert lookup(3) == 6\n",
        "tests/test_b.py": "from pkg.api import lookup\n\n\ndef test_b():\n    assert lookup(3) == 6\n",
    })
    repo.replace("src/pkg/core.py", "return k * 2", "return k * 2 + 1")
    assert failed_tests(repo) == ["tests/test_a.py::test_a", "tests/test_b.py::test_b"]
    warm = repo.decide()
    assert covers(warm, "tests/test_a.py::test_a") and covers(warm, "tests/test_b.py::test_b")


def test_an_attribute_kept_on_an_instance_another_module_makes_selects_every_test_that_used_it(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/framework.py": "def compute(k):\n    return k * 2\n\n\nclass App:\n    def __init__(self):\n        self._table = None\n\n"
                                "    def lookup(self, k):\n        if self._table is None:\n            self._table = {k: compute(k)}\n"
                                "        return self._table[k]\n",
        "src/pkg/app.py": "from pkg.framework import App\n\napp = App()\n",
        "tests/test_a.py": "from pkg.app import app\n\n\ndef test_a():\n    assert app.lookup(3) == 6\n",
        "tests/test_b.py": "from pkg.app import app\n\n\ndef test_b():\n    assert app.lookup(3) == 6\n",
    })
    repo.replace("src/pkg/framework.py", "return k * 2", "return k * 2 + 1")
    assert failed_tests(repo) == ["tests/test_a.py::test_a", "tests/test_b.py::test_b"]
    warm = repo.decide()
    assert covers(warm, "tests/test_a.py::test_a") and covers(warm, "tests/test_b.py::test_b")


@pytest.mark.parametrize("shape", ["alias", "constructor"])
def test_a_keeper_in_another_module_under_an_alias_or_through_a_constructor_selects_every_test(tmp_path, shape):
    # `from pkg.core import compute as _c` then `_C[k] = _c(k)`; `_INST["c"] = Conf()` where Conf.__init__
    # changed and the other module never spells `__init__`.
    core = ("def compute(k):\n    return k * 2\n" if shape == "alias" else
            "class Conf:\n    def __init__(self):\n        self.value = 6\n")
    keeper = ("from pkg.core import compute as _c\n\n_C = {}\n\n\ndef lookup(k):\n    if k not in _C:\n        _C[k] = _c(k)\n"
              "    return _C[k]\n" if shape == "alias" else
              "from pkg.core import Conf\n\n_INST = {}\n\n\ndef lookup(k):\n    if 'c' not in _INST:\n        _INST['c'] = Conf()\n"
              "    return _INST['c'].value\n")
    repo = indexed(tmp_path, {
        "src/pkg/core.py": core,
        "src/pkg/api.py": keeper,
        "tests/test_a.py": "from pkg.api import lookup\n\n\ndef test_a():\n    assert lookup(3) == 6\n",
        "tests/test_b.py": "from pkg.api import lookup\n\n\ndef test_b():\n    assert lookup(3) == 6\n",
    })
    repo.replace("src/pkg/core.py", "k * 2" if shape == "alias" else "self.value = 6", "k * 2 + 1" if shape == "alias" else "self.value = 7")
    assert failed_tests(repo) == ["tests/test_a.py::test_a", "tests/test_b.py::test_b"]
    warm = repo.decide()
    assert covers(warm, "tests/test_a.py::test_a") and covers(warm, "tests/test_b.py::test_b")


@pytest.mark.parametrize("maker", ["session-fixture", "setUpClass"])
def test_a_value_kept_on_an_instance_a_fixture_or_a_class_setup_shares_selects_every_test(tmp_path, maker):
    # Only the first test that used the shared instance built its table; the others read it.
    catalog = ("class Catalog:\n    def __init__(self):\n        self._index = None\n\n    def _build(self):\n"
               "        return {'a': 1}\n\n    def get(self, k):\n        if self._index is None:\n"
               "            self._index = self._build()\n        return self._index[k]\n")
    if maker == "session-fixture":
        tests = {
            "tests/conftest.py": "import pytest\n\nfrom pkg.catalog import Catalog\n\n\n@pytest.fixture(scope='session')\n"
                                 "def catalog():\n    return Catalog()\n",
            "tests/test_a.py": "def test_a(catalog):\n    assert catalog.get('a') == 1\n",
            "tests/test_b.py": "def test_b(catalog):\n    assert catalog.get('a') == 1\n",
        }
        broken = ["tests/test_a.py::test_a", "tests/test_b.py::test_b"]
    else:
        tests = {
            "tests/test_a.py": "import unittest\n\nfrom pkg.catalog import Catalog\n\n\nclass TestCatalog(unittest.TestCase):\n"
                               "    @classmethod\n    def setUpClass(cls):\n        cls.catalog = Catalog()\n\n"
                               "    def test_a(self):\n        self.assertEqual(self.catalog.get('a'), 1)\n\n"
                               "    def test_b(self):\n        self.assertEqual(self.catalog.get('a'), 1)\n",
        }
        broken = ["tests/test_a.py::TestCatalog::test_a", "tests/test_a.py::TestCatalog::test_b"]
    repo = indexed(tmp_path, {"src/pkg/catalog.py": catalog, **tests})
    repo.replace("src/pkg/catalog.py", "{'a': 1}", "{'a': 2}")
    assert failed_tests(repo) == broken
    warm = repo.decide()
    assert all(covers(warm, t) for t in broken)


def test_a_class_made_by_a_metaclass_of_another_module_keeps_the_static_answer(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/meta.py": "class Single(type):\n    _inst = {}\n\n    def __call__(cls, *a, **k):\n        if cls not in cls._inst:\n"
                           "            cls._inst[cls] = super().__call__(*a, **k)\n        return cls._inst[cls]\n",
        "src/pkg/core.py": "from pkg.meta import Single\n\n\nclass Conf(metaclass=Single):\n    def __init__(self):\n"
                           "        self.value = self.compute()\n\n    def compute(self):\n        return 6\n\n\n"
                           "def lookup(k):\n    return Conf().value\n",
        "tests/test_a.py": "from pkg.core import lookup\n\n\ndef test_a():\n    assert lookup(3) == 6\n",
        "tests/test_b.py": "from pkg.core import lookup\n\n\ndef test_b():\n    assert lookup(3) == 6\n",
    })
    repo.replace("src/pkg/core.py", "return 6", "return 7")
    assert failed_tests(repo) == ["tests/test_a.py::test_a", "tests/test_b.py::test_b"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/core.py") == ("static", "memoized")
    assert covers(warm, "tests/test_b.py::test_b")


def test_a_memoized_test_helper_in_another_module_keeps_the_static_answer(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/core.py": "def compute(k):\n    return k * 2\n",
        "tests/helpers.py": "import functools\n\nfrom pkg.core import compute\n\n\n@functools.lru_cache(maxsize=None)\n"
                            "def expected():\n    return compute(3)\n",
        "tests/test_a.py": "from helpers import expected\n\n\ndef test_a():\n    assert expected() == 6\n",
        "tests/test_b.py": "from helpers import expected\n\n\ndef test_b():\n    assert expected() == 6\n",
        "tests/conftest.py": "import os\nimport sys\n\nsys.path.insert(0, os.path.dirname(__file__))\n",
    })
    repo.replace("src/pkg/core.py", "return k * 2", "return k * 2 + 1")
    assert failed_tests(repo) == ["tests/test_a.py::test_a", "tests/test_b.py::test_b"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/core.py") == ("static", "memoized")
    assert covers(warm, "tests/test_b.py::test_b")


# A caller that stores into something it made itself keeps nothing once it returns.
FRESH = {
    "list-over-several-lines": "    decls = (\n        [first]\n        if first is not None\n        else []\n    )\n"
                               "    for k in more:\n        decls.append(compute(k))\n    return decls\n",
    "annotated-dict": "    out: dict = dict()\n    for k in more:\n        out[k] = compute(k)\n"
                      "    return ([first] if first is not None else []) + [out[k] for k in more]\n",
    "new-instance": "    box = Box([first] if first is not None else [])\n    for k in more:\n"
                    "        box.items.append(compute(k))\n    return box.items\n",
}


@pytest.mark.parametrize("shape", sorted(FRESH))
def test_a_caller_storing_into_what_it_made_keeps_nothing(tmp_path, shape):
    repo = indexed(tmp_path, {
        "src/pkg/core.py": "class Box:\n    def __init__(self, items):\n        self.items = items\n\n\n"
                           "def compute(k):\n    if k > 5:\n        return k * 2\n    return k\n\n\n"
                           "def collect(first, more):\n" + FRESH[shape],
        "tests/test_big.py": "from pkg.core import collect\n\n\ndef test_big():\n    assert collect(None, [6]) == [12]\n",
        "tests/test_small.py": "from pkg.core import collect\n\n\ndef test_small():\n    assert collect(1, [2]) == [1, 2]\n",
    })
    repo.replace("src/pkg/core.py", "return k * 2", "return k * 3")
    assert failed_tests(repo) == ["tests/test_big.py::test_big"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/core.py") == ("coverage", None)
    assert selected_ids(warm) == ["tests/test_big.py::test_big"]


def test_an_attribute_a_caller_sets_with_setattr_keeps_the_static_answer(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/core.py": "def compute(k):\n    return k * 2\n\n\nclass Lazy:\n    def __getattr__(self, name):\n"
                           "        v = compute(len(name))\n        setattr(self, name, v)\n        return v\n\n\nLAZY = Lazy()\n\n\n"
                           "def abc():\n    return LAZY.abc\n",  # not imported into a test module, where collection would ask it
        "tests/test_a.py": "from pkg.core import abc\n\n\ndef test_a():\n    assert abc() == 6\n",
        "tests/test_b.py": "from pkg.core import abc\n\n\ndef test_b():\n    assert abc() == 6\n",
    })
    repo.replace("src/pkg/core.py", "return k * 2", "return k * 2 + 1")
    assert failed_tests(repo) == ["tests/test_a.py::test_a", "tests/test_b.py::test_b"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/core.py") == ("static", "memoized")  # test_b never ran __getattr__
    assert covers(warm, "tests/test_b.py::test_b")


def test_a_function_with_a_mutable_default_is_answered_by_every_test_of_its_body(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/log.py": "def record(x, _seen=[]):\n    if not _seen:\n        _seen.append('init')\n    _seen.append(x)\n"
                          "    return list(_seen)\n",
        "tests/test_log.py": "from pkg import log\n\n\ndef test_a():\n    assert log.record(1) == ['init', 1]\n\n\n"
                             "def test_b():\n    assert log.record(2)[0] == 'init'\n",
    })
    repo.replace("src/pkg/log.py", "'init')", "'start')")
    assert failed_tests(repo) == ["tests/test_log.py::test_a", "tests/test_log.py::test_b"]
    warm = repo.decide()
    assert covers(warm, "tests/test_log.py::test_a") and covers(warm, "tests/test_log.py::test_b")


def test_a_test_that_skipped_itself_in_its_call_keeps_the_static_answer(tmp_path):
    # pytest.skip() in the body: the test ran lines before the skip, and runs through where DIAG is set.
    repo = indexed(tmp_path, {
        "src/pkg/geo.py": "def area(r):\n    return 3 * r * r\n\n\ndef diag(r):\n    return r * 2\n",
        "tests/test_geo.py": "import os\n\nimport pytest\n\nfrom pkg import geo\n\n\ndef test_area():\n    assert geo.area(1) == 3\n\n\n"
                             "def test_diag():\n    if not os.environ.get('DIAG'):\n        pytest.skip('no DIAG')\n"
                             "    assert geo.diag(2) == 4\n",
    })
    repo.replace("src/pkg/geo.py", "r * 2", "r * 3")
    warm = repo.decide()
    assert covers(warm, "tests/test_geo.py::test_diag")
