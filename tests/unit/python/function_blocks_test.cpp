#include "impact/python/function_blocks.hpp"

#include <catch2/catch.hpp>

using impact::function_blocks;
using impact::generator_functions;
using impact::innermost_block;

TEST_CASE("function_blocks: the header ends at the colon; decorators and a multi-line signature are header",
          "[function_blocks]") {
  auto blocks = function_blocks("import x\n"         // 1
                                "@deco\n"            // 2
                                "def f(a,\n"         // 3
                                "      b=1):\n"      // 4
                                "    # a comment\n"  // 5
                                "    return a + b\n" // 6
                                "\n"                 // 7
                                "class C:\n"         // 8
                                "    def m(self):\n" // 9
                                "        return 1\n" // 10
                                "    X = 2\n");      // 11
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].first_line == 2);
  CHECK(blocks[0].header_last == 4);
  CHECK(blocks[0].last_line == 6);
  CHECK(blocks[0].body_indent == 4);
  CHECK(blocks[1].header_last == 9);
  CHECK(blocks[1].body_indent == 8);
  CHECK(blocks[1].parent == -1); // a class is no function: methods have no enclosing block
  CHECK(innermost_block(blocks, 3) == -1);  // the signature
  CHECK(innermost_block(blocks, 6) == 0);
  CHECK(innermost_block(blocks, 10) == 1);
  CHECK(innermost_block(blocks, 11) == -1); // the class body
}

TEST_CASE("function_blocks: a nested def is its own block; its header lies in the enclosing body",
          "[function_blocks]") {
  auto blocks = function_blocks("def outer():\n"        // 1
                                "    @wraps(g)\n"       // 2
                                "    def inner(x=1):\n" // 3
                                "        return x\n"    // 4
                                "    k = lambda: 2\n"   // 5
                                "    return inner\n");  // 6
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[1].parent == 0);
  CHECK(innermost_block(blocks, 2) == 0);
  CHECK(innermost_block(blocks, 3) == 0);
  CHECK(innermost_block(blocks, 4) == 1);
  CHECK(innermost_block(blocks, 5) == 0); // a lambda belongs to the body it is written in
  CHECK_FALSE(blocks[0].runs_later);
}

TEST_CASE("function_blocks: generators, coroutines and lazy generator expressions run later, and so do the "
          "bodies around them",
          "[function_blocks]") {
  SECTION("yield") {
    auto blocks = function_blocks("def f():\n    def g():\n        yield 1\n    return g\n\ndef h():\n    return 1\n");
    REQUIRE(blocks.size() == 3);
    CHECK(blocks[0].runs_later);
    CHECK(blocks[1].runs_later);
    CHECK_FALSE(blocks[2].runs_later);
  }
  SECTION("async def") {
    auto blocks = function_blocks("async def f():\n    await g()\n");
    REQUIRE(blocks.size() == 1);
    CHECK(blocks[0].runs_later);
  }
  SECTION("a generator expression returned, or passed to a builtin that exhausts it") {
    auto blocks = function_blocks("def lazy(xs):\n    return (x for x in xs)\n\n"
                                  "def eager(xs):\n    return sum(x for x in xs) + len(','.join(str(x) for x in xs))\n");
    REQUIRE(blocks.size() == 2);
    CHECK(blocks[0].runs_later);
    CHECK_FALSE(blocks[1].runs_later);
  }
}

TEST_CASE("function_blocks: a frame resumes silently when it delegates, awaits or yields twice on one line",
          "[function_blocks]") {
  SECTION("a plain generator: resumed, it records its exit arc") {
    auto blocks = function_blocks("def g():\n    yield 1\n    yield 2\n");
    REQUIRE(blocks.size() == 1);
    CHECK(blocks[0].runs_later);
    CHECK_FALSE(blocks[0].resumes_silently);
  }
  SECTION("yield from") {
    auto blocks = function_blocks("def g(it):\n    yield from it\n");
    REQUIRE(blocks.size() == 1);
    CHECK(blocks[0].resumes_silently);
  }
  SECTION("await, async for and async def") {
    auto blocks = function_blocks("async def f():\n    await g()\n\n"
                                  "def outer():\n    async def inner():\n        return 1\n    return inner\n");
    REQUIRE(blocks.size() == 3);
    CHECK(blocks[0].resumes_silently);
    CHECK(blocks[1].resumes_silently); // it holds the lines of an async def
    CHECK(blocks[2].resumes_silently);
  }
  SECTION("two yields on one line") {
    auto blocks = function_blocks("def g():\n    yield 1; yield 2\n");
    REQUIRE(blocks.size() == 1);
    CHECK(blocks[0].resumes_silently);
  }
  SECTION("a lazy generator expression records its exit arc on its own line") {
    auto blocks = function_blocks("def lazy(xs):\n    return (x for x in xs)\n");
    REQUIRE(blocks.size() == 1);
    CHECK(blocks[0].runs_later);
    CHECK_FALSE(blocks[0].resumes_silently);
  }
}

TEST_CASE("function_blocks: a one-line def has no body line of its own", "[function_blocks]") {
  auto blocks = function_blocks("def f(): return 1\n");
  REQUIRE(blocks.size() == 1);
  CHECK(blocks[0].header_last == 1);
  CHECK(innermost_block(blocks, 1) == -1);
}

TEST_CASE("function_blocks: a body holding a def, a class or a lambda has nested code", "[function_blocks]") {
  auto blocks = function_blocks("def a():\n    return lambda: 1\n\ndef b():\n    class C:\n        pass\n    return C\n\n"
                                "def c():\n    return [x for x in ()]\n");
  REQUIRE(blocks.size() == 3);
  CHECK(blocks[0].has_nested);
  CHECK(blocks[1].has_nested);
  CHECK_FALSE(blocks[2].has_nested); // a comprehension runs at once
}

TEST_CASE("numbered_lines: 1-based, a last line without a newline kept, a lone '\\r' no line end",
          "[python][function_blocks]") {
  using V = std::vector<std::string_view>;
  CHECK(impact::numbered_lines("") == V{""});
  CHECK(impact::numbered_lines("a\nb\n") == V{"", "a", "b"});
  CHECK(impact::numbered_lines("a\n\nb") == V{"", "a", "", "b"});
  CHECK(impact::numbered_lines("a\rb\r\n") == V{"", "a\rb\r"});
}

TEST_CASE("generator_functions names the functions whose own body yields", "[function_blocks]") {
  std::string source = "def rows(data):\n    def _split(line):\n        return line.split(',')\n"
                       "    for line in data.splitlines():\n        yield _split(line)\n\n\n"
                       "class Reader:\n    def items(self):\n        yield from self.data\n\n"
                       "    def size(self):\n        return len(list(x for x in self.data))\n\n\n"
                       "def lazy():\n    return lambda: (yield)\n";
  CHECK(generator_functions(source) == std::vector<std::string>{"Reader.items", "rows"});
  // Without the `for` line the yield belongs to _split.
  std::string moved = "def rows(data):\n    def _split(line):\n        return line.split(',')\n"
                      "        yield _split(line)\n";
  CHECK(generator_functions(moved) == std::vector<std::string>{"rows._split"});
}
