// Module-level names whose value no code of the file can change (FileFacts::constant_names,
// python/constant_names.hpp).
#include "impact/python/facts.hpp"
#include "impact/python/text_reads.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace impact;
using impact::testing::extract;

namespace {

bool constant(const std::string& source, std::string_view name) {
  auto facts = extract(source);
  return std::find(facts.constant_names.begin(), facts.constant_names.end(), name) != facts.constant_names.end();
}

} // namespace

TEST_CASE("immutable values are constant whatever reads them", "[extract][constants]") {
  std::string source = "import re\n"
                       "PAT = r\"(\\d+)\"\n"
                       "ALL = r\"(%s)\" % \"|\".join(['a', 'b'])\n"
                       "TYPES = (list, tuple)\n"
                       "LIMIT = -100\n"
                       "RX = re.compile(PAT + \"x\", re.IGNORECASE)\n"
                       "CHARS = frozenset(chr(i) for i in range(32)) | frozenset('\\x7f')\n"
                       "def use(v):\n"
                       "    helper(PAT, ALL, TYPES, LIMIT, RX, CHARS)\n"
                       "    return isinstance(v, TYPES) and RX.match(v)\n";
  for (std::string_view name : {"PAT", "ALL", "TYPES", "LIMIT", "RX", "CHARS"}) {
    INFO(name);
    CHECK(constant(source, name));
  }
}

TEST_CASE("containers of immutable items are constant while every use only reads them", "[extract][constants]") {
  std::string reads = "TABLE = {'a': 1, 'b': 2}\n"
                      "KINDS = set(list('abc') + ['t' + c for c in 'xy'])\n"
                      "NAMES = ['x', 'y']\n"
                      "def use(k):\n"
                      "    if k in KINDS and k not in NAMES:\n"
                      "        return TABLE[k], TABLE.get(k), sorted(NAMES), len(TABLE), '|'.join(NAMES)\n"
                      "    for n in NAMES:\n"
                      "        print(n)\n";
  CHECK(constant(reads, "TABLE"));
  CHECK(constant(reads, "KINDS"));
  CHECK(constant(reads, "NAMES"));

  auto prefix = std::string("TABLE = {'a': 1}\n");
  CHECK_FALSE(constant(prefix + "def f(k):\n    TABLE[k] = compute(k)\n", "TABLE"));
  CHECK_FALSE(constant(prefix + "def f(k):\n    return TABLE.setdefault(k, compute(k))\n", "TABLE"));
  CHECK_FALSE(constant(prefix + "def f(k):\n    fill(TABLE, k)\n", "TABLE"));
  CHECK_FALSE(constant(prefix + "def f(k):\n    t = TABLE\n    t[k] = 1\n", "TABLE"));
  CHECK_FALSE(constant(prefix + "def f():\n    return TABLE\n", "TABLE"));
  CHECK_FALSE(constant(prefix + "def f(k):\n    del TABLE[k]\n", "TABLE"));
  CHECK_FALSE(constant(prefix + "def f(k):\n    TABLE.clear()\n", "TABLE"));
  CHECK_FALSE(constant(prefix + "f = lambda k: TABLE.update(k=compute(k))\n", "TABLE"));
  CHECK_FALSE(constant(prefix + "def f():\n    return TABLE or {}\n", "TABLE"));
  // Items that are containers themselves could be changed through an item.
  CHECK_FALSE(constant("TABLE = {'a': []}\ndef f(k):\n    x = TABLE['a']\n    x.append(k)\n", "TABLE"));
}

TEST_CASE("a read-only view of a literal mapping is constant", "[extract][constants]") {
  std::string source = "from types import MappingProxyType\n"
                       "import types\n"
                       "ESCAPES = MappingProxyType({'\\b': '\\\\b', '\\t': '\\\\t'})\n"
                       "CODES = types.MappingProxyType({c: ord(c) for c in 'abc'})\n"
                       "_raw = {'a': 1}\n"
                       "VIEW = MappingProxyType(_raw)\n"
                       "MIXED = MappingProxyType({'a': []})\n"
                       "def use(s):\n"
                       "    keep(ESCAPES, CODES, VIEW, MIXED)\n"
                       "    return ESCAPES.get(s) or CODES[s]\n";
  CHECK(constant(source, "ESCAPES"));
  CHECK(constant(source, "CODES"));
  CHECK_FALSE(constant(source, "VIEW"));  // `_raw` still holds the mapping under it
  CHECK_FALSE(constant(source, "MIXED")); // a list inside may change
  // Another MappingProxyType than the standard one.
  CHECK_FALSE(constant("from mylib import MappingProxyType\nT = MappingProxyType({'a': 1})\ndef f():\n    keep(T)\n", "T"));
}

TEST_CASE("a second binding or a global statement keeps a name out", "[extract][constants]") {
  CHECK_FALSE(constant("LIMIT = 1\nLIMIT = 2\n", "LIMIT"));
  CHECK_FALSE(constant("LIMIT = 1\ndef f():\n    global LIMIT\n    LIMIT = compute()\n", "LIMIT"));
  CHECK_FALSE(constant("try:\n    LIMIT = 1\nexcept ImportError:\n    LIMIT = 2\n", "LIMIT"));
  CHECK_FALSE(constant("LIMIT = 1\nfor LIMIT in range(3):\n    pass\n", "LIMIT"));
  CHECK_FALSE(constant("A = B = 'x'\n", "A"));
  // A local of the same name is counted as the module's name: over-counted, never missed.
  CHECK(constant("LIMIT = 1\ndef f():\n    LIMIT = 2\n    return LIMIT\n", "LIMIT"));
}

TEST_CASE("values that may hold anything are never constant", "[extract][constants]") {
  CHECK_FALSE(constant("_instance = None\ndef get():\n    global _instance\n    _instance = build()\n", "_instance"));
  CHECK_FALSE(constant("REGISTRY = Registry()\ndef f(k):\n    return REGISTRY.get(k)\n", "REGISTRY"));
  CHECK_FALSE(constant("HANDLERS = {'a': handle}\n", "HANDLERS"));
  CHECK_FALSE(constant("TYPES = (Model, list)\n", "TYPES"));
  // A builtin the module rebinds is not the builtin.
  CHECK_FALSE(constant("def set(*a):\n    return Registry()\nKINDS = set('abc')\n", "KINDS"));
  CHECK_FALSE(constant("import mylib as re\nRX = re.compile('x')\n", "RX"));
}

TEST_CASE("flags of another module's UPPER_CASE names are constant while only read", "[extract][constants]") {
  std::string source = "from . import css_types as ct\nfrom .css_types import SEL_A\n"
                       "DIR_FLAGS = ct.SEL_DIR_LTR | ct.SEL_DIR_RTL\n"
                       "RANGES = (ct.SEL_IN_RANGE | SEL_A) | 4\n"
                       "def match(flags):\n    return flags & DIR_FLAGS and flags & RANGES\n";
  CHECK(constant(source, "DIR_FLAGS"));
  CHECK(constant(source, "RANGES"));
  CHECK_FALSE(constant(source + "def grow(x):\n    DIR_FLAGS.add(x)\n", "DIR_FLAGS"));
  CHECK_FALSE(constant("from pkg import q\nFILTER = q.Q(a=1) | q.Q(b=2)\n", "FILTER"));
  CHECK_FALSE(constant("from pkg import m\nMERGED = m.defaults | m.extra\n", "MERGED"));
  CHECK_FALSE(constant("from pkg import m\nSUM = m.A + m.B\n", "SUM"));
}

TEST_CASE("a logger is constant while only its logging methods are called", "[extract][constants]") {
  std::string source = "import logging\nlog = logging.getLogger(__name__)\ndef f(x):\n    log.debug('x %s', x)\n";
  CHECK(constant(source, "log"));
  CHECK_FALSE(constant(source + "def g(h):\n    log.addHandler(h)\n", "log"));
  CHECK_FALSE(constant(source + "def g():\n    return log\n", "log"));
}

TEST_CASE("another file changes a module's value only by more than reading it", "[extract][constants]") {
  auto may_change = [](std::string_view source, std::string_view name) {
    return !impact::python::names_it_may_change(source, {name}).empty();
  };
  CHECK_FALSE(may_change("import parse\ndef test():\n    fmt = '_'.join([k for k in parse.TABLE if k])\n", "TABLE"));
  CHECK_FALSE(may_change("from pkg.fmt import TABLE\ndef test():\n    assert TABLE['a'] == 1 and 'b' in TABLE\n", "TABLE"));
  CHECK(may_change("from pkg import lazy\ndef remember(k, v):\n    lazy.TABLE[k] = v\n", "TABLE"));
  CHECK(may_change("from pkg.lazy import TABLE\ndef remember(k, v):\n    TABLE.setdefault(k, v)\n", "TABLE"));
  CHECK(may_change("import pkg.lazy\ndef keep():\n    return pkg.lazy.TABLE\n", "TABLE"));
  CHECK(may_change("from pkg.lazy import TABLE as T\n", "TABLE"));
  CHECK(may_change("import pkg.lazy\ndef f():\n    global TABLE\n", "TABLE"));
  CHECK(may_change("import pkg.lazy\ndef f(:\n    pkg.lazy.TABLE\n", "TABLE"));
}

TEST_CASE("one read of another file answers for several names", "[extract][constants]") {
  using impact::python::names_it_may_change;
  std::string source = "from pkg import lazy\ndef f(k, v):\n    lazy.CACHE[k] = v\n    return lazy.KINDS[k] + lazy.ORDER[0]\n";
  CHECK(names_it_may_change(source, {"KINDS", "CACHE", "ORDER", "ABSENT"}) == std::vector<std::string_view>{"CACHE"});
  CHECK(names_it_may_change("def f(:\n", {"A", "B"}) == std::vector<std::string_view>{"A", "B"});
}
