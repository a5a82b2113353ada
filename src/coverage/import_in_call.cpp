// Tests whose call ran import-time code: coverage/import_in_call.hpp.
#include "coverage/import_in_call.hpp"

#include "impact/python/function_blocks.hpp"
#include "impact/python/text_reads.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace impact {

namespace {

// Whether one of the lines from `b`'s first decorator to its `def` names a fixture (`@pytest.fixture`,
// `@fixture(scope="session")`): a decorator line that says "fixture" is enough.
bool decorated_as_fixture(const FunctionBlock& b, const std::vector<std::string_view>& lines) {
  for (uint32_t l = b.first_line; l < b.header_last && l < lines.size(); ++l) {
    std::string_view text = lines[l];
    size_t at = text.find_first_not_of(" \t");
    if (at != std::string_view::npos && text[at] == '@' && text.find("fixture") != std::string_view::npos) return true;
  }
  return false;
}

// Whether import-time statement `line` may run code of the project as it runs: a call, a decorator, a
// subscript, a class with bases (__init_subclass__, a metaclass), a default value made by a call. What
// such a call computes outlives the test that first imported the module; an import statement, a plain
// `def` or `class`, a literal assigned, run nothing (a module an import loads is judged on its own lines).
bool may_call(uint32_t line, const std::vector<std::string_view>& lines, const std::vector<uint32_t>& starts,
              const std::vector<FunctionBlock>& blocks) {
  std::string text;
  for (const auto& b : blocks) {
    if (b.first_line <= line && line <= b.header_last) { // a def's header, decorators included
      for (uint32_t l = b.first_line; l <= b.header_last && l < lines.size(); ++l) text.append(lines[l]).push_back('\n');
      return text.find('@') != std::string::npos || std::count(text.begin(), text.end(), '(') > 1;
    }
  }
  for (uint32_t l = line; l < lines.size() && (l == line || (l < starts.size() && starts[l] == line)); ++l) {
    text.append(lines[l]).push_back('\n');
  }
  std::string_view t = text;
  t.remove_prefix(std::min(t.find_first_not_of(" \t"), t.size()));
  if (t.starts_with("import ") || t.starts_with("from ")) return false;
  if (t.find('(') != std::string_view::npos || t.find('@') != std::string_view::npos) return true;
  for (size_t at = t.find('['); at != std::string_view::npos; at = t.find('[', at + 1)) {
    size_t before = t.find_last_not_of(" \t", at == 0 ? 0 : at - 1);
    if (at > 0 && before != std::string_view::npos && (std::isalnum(static_cast<unsigned char>(t[before])) || t[before] == '_' ||
                                                       t[before] == ')' || t[before] == ']')) {
      return true; // a subscript (`__getitem__`, `__class_getitem__`), not a list display
    }
  }
  return false;
}

} // namespace

void find_imports_in_calls(const MeasuredFile& f, std::string_view content, std::unordered_set<uint32_t>& tests) {
  bool any = std::any_of(f.lines.begin(), f.lines.end(), [](const auto& l) {
    return l.first != k_loaded_line && !l.second.empty() && l.second.back() != k_import_time;
  });
  if (!any) return;
  std::vector<std::string_view> lines = numbered_lines(content);
  std::vector<FunctionBlock> blocks = function_blocks(content);
  std::vector<uint32_t> starts = statement_starts(content);
  for (const auto& [line, ran] : f.lines) {
    if (line == k_loaded_line || ran.empty()) continue;
    int32_t b = innermost_block(blocks, line);
    // sorted: k_import_time (0) comes first
    bool import_time = b < 0 && ran.front() != k_import_time && may_call(line, lines, starts, blocks);
    bool fixture = b >= 0 && decorated_as_fixture(blocks[static_cast<size_t>(b)], lines);
    if (!import_time && !fixture) continue;
    for (uint32_t t : ran) {
      if (t != k_import_time) tests.insert(t);
    }
  }
}

void mark_imports_in_calls(CoverageIndex& index, const std::unordered_set<uint32_t>& tests) {
  if (tests.empty()) return;
  for (auto& f : index.files) {
    for (auto& [line, ran] : f.lines) {
      if (line == k_loaded_line || ran.empty() || ran.front() == k_import_time) continue;
      if (std::none_of(ran.begin(), ran.end(), [&](uint32_t t) { return tests.contains(t); })) continue;
      std::vector<uint32_t> with{k_import_time}; // k_import_time first, as the lines are sorted
      with.insert(with.end(), ran.begin(), ran.end());
      ran = std::move(with);
    }
  }
}

} // namespace impact
