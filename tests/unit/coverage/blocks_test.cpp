#include "coverage/blocks.hpp"

#include <catch2/catch.hpp>

using impact::answer_by_blocks;
using impact::CoverageFallback;
using impact::Hunk;
using impact::k_import_time;

namespace {

// Lines 1-9: two functions; `area` ran for tests 1 and 2, `perimeter` for test 3, `unused` for none.
constexpr const char* k_base = "import math\n"                  // 1
                               "\n"                             // 2
                               "def area(r):\n"                 // 3
                               "    if r < 0:\n"                // 4
                               "        raise ValueError(r)\n"  // 5
                               "    return math.pi * r * r\n"   // 6
                               "\n"                             // 7
                               "def perimeter(r):\n"            // 8
                               "    return 2 * math.pi * r\n"   // 9
                               "\n"                             // 10
                               "def unused():\n"                // 11
                               "    return 0\n";                // 12

std::map<uint32_t, std::vector<uint32_t>> k_lines = {
    {1, {k_import_time}}, {3, {k_import_time}}, {4, {1, 2}}, {6, {1}}, {8, {k_import_time}}, {9, {3}}, {11, {k_import_time}}};

std::vector<uint32_t> ids(const impact::BlockAnswer& a) {
  std::vector<uint32_t> out;
  for (const auto& [id, line] : a.tests) out.push_back(id);
  return out;
}

} // namespace

TEST_CASE("blocks: an inserted line in a body selects every test that ran any line of that body", "[coverage][blocks]") {
  std::string now = k_base;
  now.insert(now.find("    return math.pi"), "    print(r)\n");
  auto a = answer_by_blocks("a.py", {Hunk{5, 0, 6, 1}}, k_base, now, k_lines, false, false);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2}); // test 2 ran line 4 only, and line 5 never ran
  REQUIRE(a.bodies.size() == 1);
  CHECK(a.bodies[0].first == 4);
  CHECK(a.bodies[0].last == 6);
}

TEST_CASE("blocks: a replaced line no test ran is answered by its body's tests", "[coverage][blocks]") {
  std::string now = k_base;
  now.replace(now.find("raise ValueError(r)"), 19, "raise TypeError(r)");
  auto a = answer_by_blocks("a.py", {Hunk{5, 1, 5, 1}}, k_base, now, k_lines, false, false);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: code appended after a body's last line joins it only when indented as the body is",
          "[coverage][blocks]") {
  std::string now = k_base;
  SECTION("indented: the body of perimeter") {
    now.insert(now.find("\ndef unused"), "    x = 1\n");
    auto a = answer_by_blocks("a.py", {Hunk{9, 0, 10, 1}}, k_base, now, k_lines, false, false);
    REQUIRE(a.fallback == CoverageFallback::none);
    CHECK(ids(a) == std::vector<uint32_t>{3});
  }
  SECTION("at module level: not a body") {
    now.insert(now.find("\ndef unused"), "x = 1\n");
    auto a = answer_by_blocks("a.py", {Hunk{9, 0, 10, 1}}, k_base, now, k_lines, false, false);
    CHECK(a.fallback == CoverageFallback::insertion);
  }
}

TEST_CASE("blocks: a changed signature, decorator or module line belongs to the enclosing scope", "[coverage][blocks]") {
  std::string now = k_base;
  now.replace(now.find("def area(r)"), 11, "def area(q)");
  auto a = answer_by_blocks("a.py", {Hunk{3, 1, 3, 1}}, k_base, now, k_lines, true, false);
  CHECK(a.fallback == CoverageFallback::not_implementation);
}

TEST_CASE("blocks: code moved out of the body falls back", "[coverage][blocks]") {
  std::string now = k_base;
  now.replace(now.find("    return 2 * math.pi * r"), 26, "return 2 * math.pi * r");
  auto a = answer_by_blocks("a.py", {Hunk{9, 1, 9, 1}}, k_base, now, k_lines, true, false);
  CHECK(a.fallback == CoverageFallback::dedent);
}

TEST_CASE("blocks: a body any of whose lines ran outside a test falls back", "[coverage][blocks]") {
  auto lines = k_lines;
  lines[6] = {1, k_import_time};
  std::string now = k_base;
  now.replace(now.find("raise ValueError(r)"), 19, "raise TypeError(r)");
  auto a = answer_by_blocks("a.py", {Hunk{5, 1, 5, 1}}, k_base, now, lines, true, false);
  CHECK(a.fallback == CoverageFallback::outside_tests);
}

TEST_CASE("blocks: a body no test ran selects nothing only when the index saw the whole suite", "[coverage][blocks]") {
  std::string now = k_base;
  now.replace(now.find("return 0"), 8, "return 1");
  SECTION("whole suite") {
    auto a = answer_by_blocks("a.py", {Hunk{12, 1, 12, 1}}, k_base, now, k_lines, true, false);
    REQUIRE(a.fallback == CoverageFallback::none);
    CHECK(a.tests.empty());
    CHECK(a.bodies.size() == 1);
  }
  SECTION("a partial index") {
    auto a = answer_by_blocks("a.py", {Hunk{12, 1, 12, 1}}, k_base, now, k_lines, false, false);
    CHECK(a.fallback == CoverageFallback::unrecorded);
  }
}

TEST_CASE("blocks: a generator's body falls back", "[coverage][blocks]") {
  std::string base = "def gen():\n    x = 1\n    yield x\n";
  std::string now = "def gen():\n    x = 1\n    yield x\n    raise ValueError\n";
  auto a = answer_by_blocks("a.py", {Hunk{3, 0, 4, 1}}, base, now, {{1, {k_import_time}}, {2, {1}}, {3, {1}}}, true, false);
  CHECK(a.fallback == CoverageFallback::runs_later);
}

TEST_CASE("blocks: with arcs, a generator's body is answered by the tests that ran it", "[coverage][blocks]") {
  // Test 1 ran the body up to the yield, test 2 resumed it after the yield: with arcs, its exit arc
  // (3, -1) puts line 3 in test 2's lines.
  std::string base = "def gen():\n    x = 1\n    yield x\n";
  std::string now = "def gen():\n    x = 1\n    yield x\n    raise ValueError\n";
  auto a = answer_by_blocks("a.py", {Hunk{3, 0, 4, 1}}, base, now, {{1, {k_import_time}}, {2, {1}}, {3, {1, 2}}}, true, true);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: with arcs, a frame that resumes silently still falls back", "[coverage][blocks]") {
  std::map<uint32_t, std::vector<uint32_t>> lines = {{1, {k_import_time}}, {2, {1}}, {3, {1}}};
  SECTION("yield from") {
    std::string base = "def gen(it):\n    x = 1\n    yield from it\n";
    std::string now = "def gen(it):\n    x = 1\n    yield from it\n    raise ValueError\n";
    CHECK(answer_by_blocks("a.py", {Hunk{3, 0, 4, 1}}, base, now, lines, true, true).fallback ==
          CoverageFallback::runs_later);
  }
  SECTION("async def") {
    std::string base = "async def get(c):\n    x = 1\n    return x\n";
    std::string now = "async def get(c):\n    x = 2\n    return x\n";
    CHECK(answer_by_blocks("a.py", {Hunk{2, 1, 2, 1}}, base, now, lines, true, true).fallback ==
          CoverageFallback::runs_later);
  }
  SECTION("two yields on one line") {
    std::string base = "def gen():\n    x = 1\n    yield x; yield x\n";
    std::string now = "def gen():\n    x = 1\n    yield x; yield x\n    raise ValueError\n";
    CHECK(answer_by_blocks("a.py", {Hunk{3, 0, 4, 1}}, base, now, lines, true, true).fallback ==
          CoverageFallback::runs_later);
  }
  SECTION("a change that removes the yield: the body now runs in calls that never iterated it") {
    std::string base = "def gen():\n    x = 1\n    yield x\n";
    std::string now = "def gen():\n    x = 1\n    return x\n";
    CHECK(answer_by_blocks("a.py", {Hunk{3, 1, 3, 1}}, base, now, lines, true, true).fallback ==
          CoverageFallback::runs_later);
  }
}

TEST_CASE("blocks: a change that makes a plain function a generator is answered by the tests that called it",
          "[coverage][blocks]") {
  std::string base = "def f():\n    x = 1\n    return x\n";
  std::string now = "def f():\n    x = 1\n    yield x\n";
  auto a = answer_by_blocks("a.py", {Hunk{3, 1, 3, 1}}, base, now, {{1, {k_import_time}}, {2, {1}}, {3, {1}}}, true, true);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1});
}

TEST_CASE("blocks: comments and blank lines run nowhere, but lines 1-2 may declare the encoding", "[coverage][blocks]") {
  std::string now = k_base;
  SECTION("a comment inside a body") {
    now.insert(now.find("    return 2 * math.pi"), "    # why\n");
    auto a = answer_by_blocks("a.py", {Hunk{8, 0, 9, 1}}, k_base, now, k_lines, false, false);
    REQUIRE(a.fallback == CoverageFallback::none);
    CHECK(a.tests.empty());
  }
  SECTION("a comment on line 1") {
    now.insert(0, "# -*- coding: latin-1 -*-\n");
    auto a = answer_by_blocks("a.py", {Hunk{0, 0, 1, 1}}, k_base, now, k_lines, true, false);
    CHECK(a.fallback == CoverageFallback::not_implementation);
  }
}

TEST_CASE("blocks: code lines replaced in place are answered by the tests that ran them, exactly", "[coverage][blocks]") {
  std::string now = k_base;
  now.replace(now.find("return math.pi * r * r"), 22, "return math.pi * r ** 2");
  auto a = answer_by_blocks("a.py", {Hunk{6, 1, 6, 1}}, k_base, now, k_lines, false, false);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1}); // test 2 ran line 4 and raised: it never reached line 6
  REQUIRE(a.bodies.size() == 1);
  CHECK(a.bodies[0].first == 6);
}

TEST_CASE("blocks: code moved to an outer block of the same body is answered by the body", "[coverage][blocks]") {
  std::string now = k_base;
  now.replace(now.find("        raise ValueError(r)"), 27, "    r = -r");
  auto a = answer_by_blocks("a.py", {Hunk{5, 1, 5, 1}}, k_base, now, k_lines, false, false);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: a nested def's header is answered by the enclosing body, which holds the nested body's lines",
          "[coverage][blocks]") {
  // Test 1 made the closure, test 2 only called it later.
  std::string base = "def make(k):\n    def add(x, y=1):\n        return x + k\n    return add\n";
  std::string now = "def make(k):\n    def add(x, y=2):\n        return x + k\n    return add\n";
  auto a = answer_by_blocks("a.py", {Hunk{2, 1, 2, 1}}, base, now, {{1, {k_import_time}}, {2, {1}}, {3, {2}}, {4, {1}}}, false, false);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: a line of a body holding a closure is answered by the whole body, the closure's lines included",
          "[coverage][blocks]") {
  // Test 1 made the closure (ran line 2), test 2 only called it later (line 4).
  std::string base = "def make(n):\n    k = n + 1\n    def add(x):\n        return x + k\n    return add\n";
  std::string now = "def make(n):\n    k = n + 2\n    def add(x):\n        return x + k\n    return add\n";
  auto a = answer_by_blocks("a.py", {Hunk{2, 1, 2, 1}}, base, now, {{1, {k_import_time}}, {2, {1}}, {3, {1}}, {4, {2}}, {5, {1}}}, false, false);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: a replaced line that binds another name is answered by the whole body", "[coverage][blocks]") {
  // `LIMIT = 5` in place of `cap = 5` makes LIMIT local to all of clamp: test 1's path (line 3), which
  // never ran line 4, now fails on line 3 (UnboundLocalError).
  std::string base = "def clamp(x, strict):\n    if not strict:\n        return min(x, LIMIT)\n    cap = 5\n    return min(x, cap)\n";
  std::map<uint32_t, std::vector<uint32_t>> lines = {{1, {k_import_time}}, {2, {1, 2}}, {3, {1}}, {4, {2}}, {5, {2}}};
  SECTION("another name bound: the body") {
    std::string now = "def clamp(x, strict):\n    if not strict:\n        return min(x, LIMIT)\n    LIMIT = 5\n    return min(x, cap)\n";
    auto a = answer_by_blocks("a.py", {Hunk{4, 1, 4, 1}}, base, now, lines, false, false);
    REQUIRE(a.fallback == CoverageFallback::none);
    CHECK(ids(a) == std::vector<uint32_t>{1, 2});
  }
  SECTION("an import binding another name: the body") {
    std::string now = "def clamp(x, strict):\n    if not strict:\n        return min(x, LIMIT)\n    import LIMIT\n    return min(x, cap)\n";
    auto a = answer_by_blocks("a.py", {Hunk{4, 1, 4, 1}}, base, now, lines, false, false);
    CHECK(ids(a) == std::vector<uint32_t>{1, 2});
  }
  SECTION("the same name bound to another value: line by line") {
    std::string now = "def clamp(x, strict):\n    if not strict:\n        return min(x, LIMIT)\n    cap = 6\n    return min(x, cap)\n";
    auto a = answer_by_blocks("a.py", {Hunk{4, 1, 4, 1}}, base, now, lines, false, false);
    CHECK(ids(a) == std::vector<uint32_t>{2});
  }
}

TEST_CASE("blocks: a generator's replaced line, with arcs, is answered by the whole body", "[coverage][blocks]") {
  // One generator object shared by tests: test 1 ran `step = 1`, test 2 only resumed it (line 5).
  std::string base = "def counter():\n    step = 1\n    n = 0\n    while True:\n        yield n\n        n += step\n";
  std::string now = "def counter():\n    step = 2\n    n = 0\n    while True:\n        yield n\n        n += step\n";
  auto a = answer_by_blocks("a.py", {Hunk{2, 1, 2, 1}}, base, now, {{1, {k_import_time}}, {2, {1}}, {3, {1}}, {4, {1, 2}}, {5, {1, 2}}, {6, {2}}},
                            false, true);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: a body whose function has a mutable default is answered whole", "[coverage][blocks]") {
  // Test 1 filled the shared default list (line 3); test 2 ran only lines 2 and 4, reading what it holds.
  std::string base = "def record(x, _seen=[]):\n    if not _seen:\n        _seen.append('init')\n    _seen.append(x)\n    return list(_seen)\n";
  std::string now = "def record(x, _seen=[]):\n    if not _seen:\n        _seen.append('start')\n    _seen.append(x)\n    return list(_seen)\n";
  auto a = answer_by_blocks("a.py", {Hunk{3, 1, 3, 1}}, base, now, {{1, {k_import_time}}, {2, {1, 2}}, {3, {1}}, {4, {1, 2}}, {5, {1, 2}}}, false, false);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: a line of a multi-line statement is answered by every line of the statement", "[coverage][blocks]") {
  // Test 2 raised on line 4 (a division by zero) and never recorded line 2, where the store is.
  std::string base = "def share(total, n):\n"  // 1
                     "    part = (\n"           // 2
                     "        total\n"          // 3
                     "        / n\n"            // 4
                     "    )\n"                  // 5
                     "    return part\n";       // 6
  std::map<uint32_t, std::vector<uint32_t>> lines = {{1, {k_import_time}}, {2, {1}}, {3, {1, 2}}, {4, {1, 2}}, {6, {1}}};
  std::string now = base;
  now.replace(now.find("        / n\n"), 12, "        / (n or 1)\n");
  auto a = answer_by_blocks("a.py", {Hunk{4, 1, 4, 1}}, base, now, lines, true, true);
  REQUIRE(a.fallback == CoverageFallback::none);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: a hunk that changes a clause keyword or the indentation is answered by its body", "[coverage][blocks]") {
  std::string base = "def tier(n):\n"         // 1
                     "    name = 'low'\n"     // 2
                     "    if n >= 10:\n"      // 3
                     "        name = 'high'\n" // 4
                     "    elif n >= 5:\n"     // 5
                     "        name = 'mid'\n" // 6
                     "    return name\n";     // 7
  // Test 1 took the first branch, test 2 the elif: only test 2 recorded line 5.
  std::map<uint32_t, std::vector<uint32_t>> lines = {{1, {k_import_time}}, {2, {1, 2}}, {3, {1, 2}}, {4, {1}}, {5, {2}}, {6, {2}}, {7, {1, 2}}};
  SECTION("elif made if") {
    std::string now = base;
    now.replace(now.find("    elif"), 8, "    if");
    auto a = answer_by_blocks("a.py", {Hunk{5, 1, 5, 1}}, base, now, lines, true, true);
    CHECK(ids(a) == std::vector<uint32_t>{1, 2});
  }
  SECTION("the same clause, its condition changed: line by line") {
    std::string now = base;
    now.replace(now.find("n >= 5"), 6, "n > 5");
    auto a = answer_by_blocks("a.py", {Hunk{5, 1, 5, 1}}, base, now, lines, true, true);
    CHECK(ids(a) == std::vector<uint32_t>{2});
  }
}

TEST_CASE("blocks: a line indented into the loop before it is answered by its body", "[coverage][blocks]") {
  std::string base = "def index_of(xs, t):\n"            // 1
                     "    for i, x in enumerate(xs):\n"   // 2
                     "        if x == t:\n"               // 3
                     "            return i\n"             // 4
                     "    raise KeyError(t)\n";           // 5
  // Test 1 returned from the loop, test 2 raised after it.
  std::map<uint32_t, std::vector<uint32_t>> lines = {{1, {k_import_time}}, {2, {1, 2}}, {3, {1, 2}}, {4, {1}}, {5, {2}}};
  std::string now = base;
  now.replace(now.find("    raise"), 9, "        raise");
  auto a = answer_by_blocks("a.py", {Hunk{5, 1, 5, 1}}, base, now, lines, true, true);
  CHECK(ids(a) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("blocks: a body of only a docstring keeps the static answer", "[coverage][blocks]") {
  std::string base = "class Hooks:\n"                       // 1
                     "    def on_start(self):\n"            // 2
                     "        \"\"\"Override.\"\"\"\n"      // 3
                     "        global MODE\n"                // 4
                     "\n"                                   // 5
                     "    def run(self):\n"                 // 6
                     "        self.on_start()\n";           // 7
  std::map<uint32_t, std::vector<uint32_t>> lines = {{1, {k_import_time}}, {2, {k_import_time, 1}}, {6, {k_import_time}}, {7, {1}}};
  std::string now = base;
  now.insert(now.find("\n\n    def run"), "\n        self.started = True");
  auto a = answer_by_blocks("a.py", {Hunk{4, 0, 5, 1}}, base, now, lines, true, true);
  CHECK(a.fallback == CoverageFallback::unrecorded);
}
