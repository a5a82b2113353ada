#include "impact/python/facts.hpp"

#include <catch2/catch.hpp>

using namespace impact;

TEST_CASE("ImportKind and SymbolKind have stable names", "[kinds]") {
  CHECK(to_string(ImportKind::plain) == "import");
  CHECK(to_string(ImportKind::from) == "from");
  CHECK(to_string(ImportKind::star) == "star");
  CHECK(to_string(ImportKind::dynamic) == "dynamic");
  CHECK(to_string(ImportKind::plugin) == "plugin");
  CHECK(to_string(ImportKind::string_ref) == "string_ref");
  CHECK(to_string(SymbolKind::function) == "function");
  CHECK(to_string(SymbolKind::method) == "method");
  CHECK(to_string(SymbolKind::class_) == "class");
}
