#include "impact/python/text_reads.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using Imports = std::vector<std::pair<std::string, uint32_t>>;

TEST_CASE("doctest_imports reads the imports of >>> and ... prompts with their file lines", "[doctest]") {
  std::string_view text = "Intro text that says import nothing.\n"
                          "\n"
                          "   >>> import ranked.sortedmap as sm, os\n"
                          "   >>> from ranked import (SortedMap,\n"
                          "   ...     tools)\n"
                          "   >>> x = 1; from app.core import run\n"
                          "   >>> from . import local\n"
                          "   import not_a_prompt\n";
  Imports got = python::doctest_imports(text);
  Imports want{{"ranked.sortedmap", 3}, {"os", 3},         {"ranked", 4}, {"ranked.SortedMap", 4},
               {"app.core", 6},         {"app.core.run", 6}};
  CHECK(got == want);
}

TEST_CASE("doctest_imports of a text without prompts is empty", "[doctest]") {
  CHECK(python::doctest_imports("import os\nfrom a import b\n").empty());
  CHECK(python::doctest_imports("").empty());
}

TEST_CASE("doctest_imports reads the prompts as CPython does: universal newlines, NFKC names", "[doctest]") {
  SECTION("a lone carriage return ends a line") {
    Imports got = python::doctest_imports(">>> import app.one\r>>> import app.two\r\n");
    CHECK(got == Imports{{"app.one", 1}, {"app.two", 2}});
  }
  SECTION("a fullwidth module name is the ASCII name") {
    CHECK(python::doctest_imports(">>> import ａｐｐ.ｏｎｅ\n") == Imports{{"app.one", 1}});
  }
}

TEST_CASE("doctest_names spells every word of the prompts' code, and tells a computed name", "[doctest]") {
  auto got = python::doctest_names("Prose names shout but is no code.\n"
                                   "   >>> from shop.cart import total\n"
                                   "   >>> total([1, 2]).as_text(\"plain_text\")\n"
                                   "   '3'\n"
                                   "   ... _private2 + 3\n");
  using Names = std::vector<std::string>;
  CHECK(got.names == Names{"_private2", "as_text", "cart", "from", "import", "plain_text", "shop", "total"});
  CHECK_FALSE(got.dynamic);
  CHECK(python::doctest_names(">>> getattr(cart, 'to' + kind)()\n").dynamic);
  CHECK(python::doctest_names(">>> x = getfixture('tmp_path')\n").dynamic);
  CHECK(python::doctest_names(">>> import importlib; importlib.import_module(name)\n").dynamic);
  CHECK(python::doctest_names("no prompts here\n").names.empty());
}

TEST_CASE("the examples in a module's strings import what they name, a docstring's first line included",
          "[doctest]") {
  std::string source = "\"\"\">>> from pkg.b import f\n"
                       "\"\"\"\n"
                       "def g():\n"
                       "    \"\"\"Doubles.\n\n"
                       "    >>> import pkg.c as c; c.twice(1)\n"
                       "    2\n"
                       "    \"\"\"\n"
                       "    import pkg.d\n"
                       "    return pkg.d.x >> 2\n";
  CHECK(impact::python::example_imports(source) == std::vector<std::string>{"pkg.b", "pkg.b.f", "pkg.c"});
  CHECK(impact::python::example_imports("import os\n").empty());
}

TEST_CASE("code_text_imports reads the import lines of a text run as code, prompts or not", "[doctest]") {
  std::string_view text = "# Pricing rules\n"
                          "\n"
                          "```python\n"
                          "from pkg.money import vat\n"
                          "    import pkg.rates as rates, os\n"
                          ">>> from pkg import tax\n"
                          "RESULT = vat(PRICE); import pkg.late\n"
                          "from . import local\n"
                          "```\n";
  Imports got = python::code_text_imports(text);
  Imports want{{"pkg.money", 4}, {"pkg.money.vat", 4}, {"pkg.rates", 5}, {"os", 5},
               {"pkg", 6},       {"pkg.tax", 6},       {"pkg.late", 7}};
  CHECK(got == want);
  CHECK(python::code_text_imports("Plain prose: nothing is imported here.\n").empty());
}
