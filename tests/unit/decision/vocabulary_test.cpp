// Every value of the decision's typed vocabulary is documented where docs/json.md promises it (the
// strings are never renamed): a value added to an enum without its docs entry fails here.
#include "impact/decision.hpp"
#include "impact/semantic.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace impact;

namespace {

// The row of a Markdown table whose first cell is `key` (in backticks).
std::string row(const std::string& text, const std::string& key) {
  auto at = text.find("| `" + key + "` |");
  REQUIRE(at != std::string::npos);
  return text.substr(at, text.find('\n', at) - at);
}

} // namespace

TEST_CASE("every value of the typed vocabulary is documented in docs/json.md", "[vocabulary]") {
  std::string json = testing::doc_text("json.md");
  SECTION("Outcome: the decision row") {
    for (Outcome o : {Outcome::selected, Outcome::run_all, Outcome::nothing}) {
      INFO(to_string(o));
      CHECK(row(json, "decision").find(fmt::format("`\"{}\"`", to_string(o))) != std::string::npos);
    }
  }
  SECTION("Confidence: impact changes' confidence row") {
    for (Confidence c : {Confidence::high, Confidence::low}) {
      INFO(to_string(c));
      CHECK(row(json, "confidence").find(fmt::format("`{}`", to_string(c))) != std::string::npos);
    }
  }
  SECTION("FileKind: the changed files' kind row") {
    for (int k = 0; k <= static_cast<int>(FileKind::pins); ++k) {
      auto kind = static_cast<FileKind>(k);
      INFO(to_string(kind));
      CHECK(row(json, ".kind").find(fmt::format("`{}`", to_string(kind))) != std::string::npos);
    }
  }
  SECTION("TestSource: the changed files' source row") {
    CHECK(to_string(TestSource::none).empty()); // written as null
    for (TestSource s : {TestSource::coverage, TestSource::static_}) {
      INFO(to_string(s));
      CHECK(row(json, ".source").find(fmt::format("`{}`", to_string(s))) != std::string::npos);
    }
  }
  SECTION("CoverageFallback: the changed files' fallback row") {
    for (int k = 1; k <= static_cast<int>(CoverageFallback::tests_missing); ++k) {
      auto fallback = static_cast<CoverageFallback>(k);
      INFO(to_string(fallback));
      CHECK(row(json, ".fallback").find(fmt::format("`{}`", to_string(fallback))) != std::string::npos);
    }
  }
}

TEST_CASE("every reason is in the reasons table of docs/selection.md", "[vocabulary]") {
  std::string selection = testing::doc_text("selection.md");
  CHECK(to_string(Reason::none).empty()); // written as null
  for (Reason r : all_reasons()) {
    INFO(to_string(r));
    CHECK(!to_string(r).empty());
    row(selection, std::string(to_string(r)));
  }
}
