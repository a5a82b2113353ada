#include "impact/python/facts.hpp"
#include "impact/python/project_facts.hpp"
#include "python/facts_codec.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;

namespace {

// `head`, then padding past k_max_parsed_bytes, then `tail`.
std::string oversized(std::string_view head, std::string_view tail) {
  std::string source(head);
  std::string line = "def filler(x):\n    return x  # padding padding padding padding padding\n\n\n";
  while (source.size() <= k_max_parsed_bytes) source += line;
  source += tail;
  return source;
}

} // namespace

TEST_CASE("a file too large to parse keeps its imports and is marked for the file level", "[extract]") {
  std::string source = oversized("import os\nfrom pkg.alpha import alpha\n",
                                 "from pkg import beta\nTARGET = 'pkg.gamma.run'\n"
                                 "mod = importlib.import_module(name)\n");
  FileFacts facts = testing::extract(source);
  CHECK(facts.oversized);
  CHECK(facts.parse_error); // every rule treats it whole
  CHECK(facts.symbols.empty());
  std::vector<std::string> modules;
  for (const auto& i : facts.imports) modules.push_back(i.module);
  CHECK_THAT(modules, Catch::VectorContains(std::string("os")) && Catch::VectorContains(std::string("pkg.alpha")) &&
                          Catch::VectorContains(std::string("pkg")) &&
                          Catch::VectorContains(std::string("pkg.gamma.run")));
  REQUIRE(facts.uncertain_imports.size() == 1); // not walked: a computed import is unbounded
  CHECK(facts.uncertain_imports[0].call == "import_module");
  SECTION("the mark survives the facts cache's encoding") {
    std::string blob = python::encode(facts);
    FactsHeader header;
    REQUIRE(python::decode_header(blob, header));
    CHECK(header.oversized);
    CHECK(header.parse_error);
  }
  SECTION("a file at the limit is parsed") {
    std::string small(k_max_parsed_bytes - 20, ' ');
    small.replace(0, 10, "import os\n");
    CHECK_FALSE(testing::extract(small).oversized);
  }
}
