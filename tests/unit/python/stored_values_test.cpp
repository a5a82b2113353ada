// Module-level values that only hold what they name (FileFacts::stored_values, module_stored).
#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace impact;
using impact::testing::extract;

namespace {

// The module-level chains read only in stored positions, and the others.
std::pair<std::vector<std::string>, std::vector<std::string>> split(const FileFacts& facts) {
  auto cut = facts.module_refs.end() - facts.module_stored;
  return {std::vector<std::string>(cut, facts.module_refs.end()), std::vector<std::string>(facts.module_refs.begin(), cut)};
}

const StoredValue* value(const FileFacts& facts, std::string_view name) {
  for (const auto& v : facts.stored_values) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

bool has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

} // namespace

TEST_CASE("aliases, containers, partial and a first argument are stored positions", "[extract][stored]") {
  auto facts = extract("import functools\nfrom . import cli\n\n"
                       "def f(): pass\ndef g(): pass\n\n"
                       "ALIAS = f\n"
                       "TABLE = {\"a\": f, \"b\": cli.g, key(): g}\n"
                       "BOUND = functools.partial(f, 1, sep=g)\n"
                       "OLD = deprecated(cli.cmd, replace=\"x\")\n");
  auto [stored, other] = split(facts);
  CHECK(has(stored, "f"));
  CHECK(has(stored, "g"));
  CHECK(has(stored, "cli.g"));
  CHECK(has(stored, "cli.cmd"));
  // Callees and dict keys run at import.
  CHECK(has(other, "key"));
  CHECK(has(other, "deprecated"));
  CHECK(has(other, "functools.partial"));
  // A value's own name is bound, not read.
  CHECK_FALSE(has(other, "ALIAS"));
  CHECK_FALSE(has(stored, "ALIAS"));
  REQUIRE(value(facts, "TABLE") != nullptr);
  CHECK(value(facts, "TABLE")->refs == std::vector<std::string>{"f", "cli.g", "g"});
  CHECK(value(facts, "TABLE")->line == 8);
  REQUIRE(value(facts, "OLD") != nullptr);
  CHECK(value(facts, "OLD")->refs == std::vector<std::string>{"cli.cmd"});
  CHECK(value(facts, "OLD")->wrappers == std::vector<std::string>{"deprecated"});
  CHECK(value(facts, "BOUND")->wrappers == std::vector<std::string>{"", ""});
}

TEST_CASE("a name also read by other module-level code is not stored only", "[extract][stored]") {
  auto facts = extract("def f(): pass\n\nALIAS = f\nf()\nrun(ALIAS)\n");
  auto [stored, other] = split(facts);
  CHECK(stored.empty());
  CHECK(has(other, "f"));
  CHECK(has(other, "run"));
  CHECK(has(other, "ALIAS")); // read by run(ALIAS)
}

TEST_CASE("what is not a stored position stays module-level code", "[extract][stored]") {
  auto facts = extract("from functools import partial\n"
                       "def partial_of(x): pass\n"
                       "A = [*items]\n"      // iterated at import
                       "B = f or g\n"        // truth-tested at import
                       "C = obj.attr()\n"    // called
                       "D, E = f, g\n"       // more than one target
                       "F = G = h\n"         // chained
                       "H = wrap(x)(y)\n"    // the callee is a call
                       "I = partial(k, m)\n" // from functools
                       "J = a . b\n");       // not one slice of the source
  auto [stored, other] = split(facts);
  CHECK(stored == std::vector<std::string>{"k", "m"});
  for (std::string_view name : {"items", "f", "g", "obj.attr", "h", "wrap", "x", "y", "a.b"}) {
    INFO(name);
    CHECK(has(other, name));
  }
}

TEST_CASE("a partial the module defines itself is no functools.partial", "[extract][stored]") {
  auto facts = extract("def partial(fn, *a): return fn(*a)\n\nX = partial(setup, 1)\n");
  auto [stored, other] = split(facts);
  // Called as a possible wrapper of its first argument (the decision checks the callee), not as partial.
  REQUIRE(value(facts, "X") != nullptr);
  CHECK(value(facts, "X")->wrappers == std::vector<std::string>{"partial"});
  CHECK(stored == std::vector<std::string>{"setup"});
}

TEST_CASE("a class body's alias of a method defined above it is the method's, not a class-body read", "[extract][stored]") {
  auto facts = extract("class C:\n"
                       "    early = later\n"
                       "    def __next__(self):\n        return 1\n"
                       "    next = __next__\n"
                       "    def __add__(self, o):\n        return 2\n"
                       "    __radd__ = __add__\n"
                       "    label = str\n"
                       "    def later(self):\n        pass\n");
  auto method = [&](std::string_view q) -> const Symbol& {
    for (const auto& s : facts.symbols) {
      if (s.qualname == q) return s;
    }
    FAIL("no symbol " << q);
    return facts.symbols.front();
  };
  CHECK(method("C.__next__").aliases == std::vector<std::string>{"next"});
  CHECK(method("C.__add__").aliases == std::vector<std::string>{"__radd__"});
  CHECK(method("C.later").aliases.empty()); // bound after the alias statement ran: `later` is not it yet
  const auto& body = method("C").refs;
  CHECK_FALSE(has(body, "__next__"));
  CHECK_FALSE(has(body, "__add__"));
  CHECK(has(body, "later"));
  CHECK(has(body, "str"));
}

TEST_CASE("a string a value's call hands on is held by the value, where its line is its own", "[extract][stored]") {
  auto facts = extract("import functools\nfrom . import cli\nfrom .w import deprecated\n\n"
                       "old = deprecated(cli.run, replace=\"pkg.cli.run\")\n"
                       "bound = functools.partial(cli.run, \"pkg.cli.other\")\n"
                       "both = deprecated(cli.run, replace=\"pkg.cli.run\", x=load(\"pkg.cli.x\"))\n"
                       "computed = deprecated(make(), replace=\"pkg.cli.made\")\n"
                       "NAME = \"pkg.cli.plain\"\n"
                       "two = deprecated(cli.run, replace=\"pkg.cli.two\"); LOOK = \"pkg.cli.look\"\n");
  auto held = [&](std::string_view module) {
    for (const auto& imp : facts.imports) {
      if (imp.kind == ImportKind::string_ref && imp.module == module) return (imp.flags & k_import_held) != 0;
    }
    FAIL("no string reference " << module);
    return false;
  };
  CHECK(held("pkg.cli.run"));         // deprecated(f, replace=...): handed to the wrapper
  CHECK(held("pkg.cli.other"));       // partial keeps its arguments for the later call
  CHECK_FALSE(held("pkg.cli.x"));     // under a call that runs at import; and it shares the line
  CHECK_FALSE(held("pkg.cli.made"));  // the value wraps nothing the walk can follow
  CHECK_FALSE(held("pkg.cli.plain")); // module-level code's string
  CHECK_FALSE(held("pkg.cli.two"));   // another statement on the same line
  CHECK_FALSE(held("pkg.cli.look"));
}

TEST_CASE("a parametrize mark's argvalues are held by the function it decorates", "[extract][stored]") {
  auto facts = extract("import pytest\nfrom pkg import casing, label\n\n"
                       "@pytest.mark.parametrize(\"fn\", [casing.title, (casing.swap, 1), pytest.param(casing.upper, marks=casing.mark)],\n"
                       "                         ids=label)\n"
                       "def test_apply(fn):\n    pass\n\n"
                       "@pytest.mark.parametrize(argvalues=[casing.lower(\"a\")], argnames=\"x\")\n"
                       "def test_called(x):\n    pass\n");
  auto [stored, module] = split(facts);
  const StoredValue* held = value(facts, "test_apply");
  REQUIRE(held != nullptr);
  CHECK(held->parametrize);
  CHECK(held->line == 4);
  CHECK(held->refs == std::vector<std::string>{"casing.title", "casing.swap", "casing.upper"});
  CHECK(has(stored, "casing.title"));
  CHECK(has(stored, "casing.upper"));
  // ids= runs at collection, marks= at import, a call in the values at import: module-level code.
  CHECK(has(module, "label"));
  CHECK(has(module, "casing.mark"));
  CHECK(has(module, "casing.lower"));
  CHECK(value(facts, "test_called") == nullptr);
}

TEST_CASE("parametrize is pytest's only by the spellings pytest's imports give", "[extract][stored]") {
  auto mine = extract("from pkg import mark, f\n\n@mark.parametrize(\"fn\", [f])\ndef test_a(fn):\n    pass\n");
  CHECK(value(mine, "test_a") == nullptr);
  auto theirs = extract("from pytest import mark, param\nfrom pkg import f, g\n\n"
                        "@mark.parametrize(\"fn\", [f, param(g)])\ndef test_a(fn):\n    pass\n");
  const StoredValue* held = value(theirs, "test_a");
  REQUIRE(held != nullptr);
  CHECK(held->refs == std::vector<std::string>{"f", "g"});
}
