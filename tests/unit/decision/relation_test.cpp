// The relations of evidence chains (impact/relations.def): each is documented in docs/symbols.md
// (Evidence), its word reads back as itself, and it names the docs/selection.md rules it serves.
#include "decision/relation.hpp"
#include "impact/decision.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cctype>
#include <optional>
#include <set>
#include <string>

using namespace impact;

namespace {

// The text of section `heading` (a line "### Evidence" or "## Evidence") up to the next heading of
// the same level or above.
std::string section(const std::string& text, const std::string& heading) {
  auto at = text.find("\n" + heading + "\n");
  REQUIRE(at != std::string::npos);
  size_t level = heading.find(' ');
  size_t end = at + heading.size() + 1;
  for (;;) {
    end = text.find("\n#", end + 1);
    if (end == std::string::npos) break;
    size_t hashes = text.find_first_not_of('#', end + 1) - (end + 1);
    if (hashes <= level) break;
  }
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// A heading's anchor as GitHub makes it: lower case, spaces to dashes, punctuation dropped.
std::string anchor(std::string_view heading) {
  std::string out;
  for (char c : heading) {
    if (c == ' ') out += '-';
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') out += static_cast<char>(std::tolower(c));
  }
  return out;
}

bool has_heading_anchor(const std::string& text, const std::string& wanted) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with('#')) continue;
    auto title = line.substr(line.find_first_not_of('#'));
    if (anchor(title.substr(title.find_first_not_of(' '))) == wanted) return true;
  }
  return false;
}

} // namespace

TEST_CASE("every relation is documented in docs/symbols.md's Evidence", "[vocabulary][relation]") {
  std::string evidence = section(testing::doc_text("symbols.md"), "### Evidence");
  for (Relation r : all_relations()) {
    INFO(to_string(r));
    CHECK(evidence.find(fmt::format("`{}`", to_string(r))) != std::string::npos);
  }
}

TEST_CASE("every relation's word is its own and reads back as it", "[vocabulary][relation]") {
  std::set<std::string_view> seen;
  for (Relation r : all_relations()) {
    INFO(to_string(r));
    CHECK(seen.insert(to_string(r)).second);
    CHECK(relation_named(to_string(r)) == r);
  }
  CHECK(relation_named("calls") == std::nullopt);
}

TEST_CASE("every relation names the rules it serves, each a documented rule", "[vocabulary][relation]") {
  std::string selection = testing::doc_text("selection.md");
  for (Relation r : all_relations()) {
    INFO(to_string(r));
    auto rules = words(rules_of(r));
    CHECK(!rules.empty());
    for (const auto& rule : rules) {
      INFO(rule);
      auto hash = rule.find('#');
      if (hash == std::string::npos) {
        CHECK(selection.find(fmt::format("\n### `{}`\n", rule)) != std::string::npos);
      } else {
        CHECK(has_heading_anchor(testing::doc_text(rule.substr(0, hash)), rule.substr(hash + 1)));
      }
    }
  }
}

TEST_CASE("the relations taken from the graph's and the diff's words keep those words", "[vocabulary][relation]") {
  for (int k = 0; k <= static_cast<int>(EdgeKind::name_match); ++k) {
    auto kind = static_cast<EdgeKind>(k);
    CHECK(to_string(decision::relation_of(kind)) == to_string(kind));
  }
  for (FileStatus s : {FileStatus::added, FileStatus::modified, FileStatus::deleted, FileStatus::renamed,
                       FileStatus::type_changed}) {
    CHECK(to_string(decision::relation_of(s)) == to_string(s));
  }
  for (int k = 0; k <= static_cast<int>(ChangeKind::syntax_error); ++k) {
    auto kind = static_cast<ChangeKind>(k);
    CHECK(to_string(decision::relation_of(kind)) == to_string(kind));
  }
}
