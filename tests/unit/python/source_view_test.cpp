#include "impact/python/source_view.hpp"

#include "impact/python/facts.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace impact;
using impact::python::cpython_source;
using impact::python::has_lone_carriage_return;
using impact::testing::extract;

namespace {

std::string view_of(std::string_view raw) {
  std::string buffer;
  return std::string(cpython_source(raw, buffer));
}

bool has(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

const Symbol* symbol(const FileFacts& f, std::string_view qualname) {
  for (const auto& s : f.symbols) {
    if (s.qualname == qualname) return &s;
  }
  return nullptr;
}

} // namespace

TEST_CASE("cpython_source translates line ends as CPython's universal newlines do", "[source_view]") {
  SECTION("a lone carriage return ends a line, in a comment too") {
    CHECK(view_of("# note\rBROKEN = 1 / 0\n") == "# note\nBROKEN = 1 / 0\n");
  }
  SECTION("CRLF is one line end") { CHECK(view_of("a = 1\r\nb = 2\r\n") == "a = 1\nb = 2\n"); }
  SECTION("old Mac files and mixed endings") { CHECK(view_of("a = 1\rb = 2\r\nc = 3\n\r") == "a = 1\nb = 2\nc = 3\n\n"); }
  SECTION("inside strings too: the interpreter's value changes the same way") {
    CHECK(view_of("s = \"\"\"a\r\nb\rc\"\"\"\n") == "s = \"\"\"a\nb\nc\"\"\"\n");
  }
  SECTION("a backslash continuation before CRLF stays a continuation") {
    CHECK(view_of("x = 1 + \\\r\n    2\r\n") == "x = 1 + \\\n    2\n");
  }
}

TEST_CASE("cpython_source NFKC-normalises identifiers in code, never in strings or comments", "[source_view]") {
  SECTION("names, attributes, definitions, imports and keyword arguments") {
    CHECK(view_of("def ｍｕｌ(a, ｂ=1):\n    return ops.ｍｕｌ(ｋｅｙ=a)\n") ==
          "def mul(a, b=1):\n    return ops.mul(key=a)\n");
    CHECK(view_of("from ｐｋｇ import ｍｕｌ\nimport ｐｋｇ.ｓｕｂ\n") == "from pkg import mul\nimport pkg.sub\n");
  }
  SECTION("a name inside an f-string's field is code") { CHECK(view_of("f\"{ｍｕｌ(1)}\"\n") == "f\"{mul(1)}\"\n"); }
  SECTION("string contents and comments are left alone") {
    CHECK(view_of("getattr(a, \"ｍｕｌ\")  # ｍｕｌ\n") == "getattr(a, \"ｍｕｌ\")  # ｍｕｌ\n");
  }
  SECTION("identifiers that are already NFKC are left alone") { CHECK(view_of("café = 1\n") == "café = 1\n"); }
  SECTION("ligatures and compatibility letters") { CHECK(view_of("ﬁle = ℌ\n") == "file = H\n"); }
  SECTION("a keyword-to-be stays a name: CPython matches keywords before it normalises") {
    CHECK(view_of("ｄｅｆ = 1\n") == "ｄｅｆ = 1\n");
  }
  SECTION("a would-be string prefix stays: CPython reads no prefix there") { CHECK(view_of("ｒ\"x\"\n") == "ｒ\"x\"\n"); }
  SECTION("text whose NFKC form is no identifier stays (CPython rejects the file)") {
    CHECK(view_of("x\u00a0= 1\n") == "x\u00a0= 1\n");
  }
}

TEST_CASE("cpython_source returns the file itself when nothing differs", "[source_view]") {
  std::string raw = "def f():\n    return 'é'  # ç\n";
  std::string buffer;
  std::string_view v = cpython_source(raw, buffer);
  CHECK(v.data() == raw.data());
  CHECK(buffer.empty());
  std::string ascii = "x = 1\n";
  CHECK(cpython_source(ascii, buffer).data() == ascii.data());
}

TEST_CASE("has_lone_carriage_return finds a CR that CPython ends a line at and git does not", "[source_view]") {
  CHECK(has_lone_carriage_return("a\rb"));
  CHECK(has_lone_carriage_return("a\r\nb\r"));
  CHECK_FALSE(has_lone_carriage_return("a\r\nb\r\n"));
  CHECK_FALSE(has_lone_carriage_return("a\nb"));
}

TEST_CASE("the facts are read from the tokens CPython sees", "[source_view][extract]") {
  SECTION("an import after a lone CR in a comment is an import") {
    FileFacts f = extract("# note\rimport json\rfrom app import models\n");
    bool found = std::any_of(f.imports.begin(), f.imports.end(), [](const ImportFact& i) { return i.module == "app"; });
    CHECK(found);
  }
  SECTION("a fullwidth attribute reads the ASCII name; a fullwidth definition defines it") {
    FileFacts f = extract("def ｒａｔｉｏ(a, b):\n    return a / b\n\n"
                          "def test_mul(ｐａｉｒ):\n    return ops.ｍｕｌ(*ｐａｉｒ)\n");
    REQUIRE(symbol(f, "ratio") != nullptr);
    const Symbol* t = symbol(f, "test_mul");
    REQUIRE(t != nullptr);
    CHECK(t->params == std::vector<std::string>{"pair"});
    CHECK(has(t->refs, "ops.mul"));
  }
  SECTION("a fullwidth decorator is the fixture decorator") {
    FileFacts f = extract("import pytest\n\n@ｐｙｔｅｓｔ.fixture\ndef ｐａｉｒ():\n    return 1\n");
    const Symbol* s = symbol(f, "pair");
    REQUIRE(s != nullptr);
    CHECK(s->fixture == "pair");
  }
  SECTION("an imported fullwidth name is the ASCII name") {
    FileFacts f = extract("from ａｐｐ.ops import ｎｅｇ\n");
    REQUIRE(f.imports.size() == 1);
    CHECK(f.imports[0].module == "app.ops");
    CHECK(f.imports[0].names == std::vector<std::string>{"neg"});
  }
}
