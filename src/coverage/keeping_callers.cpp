// Callers that may keep a changed function's result (keeping_callers.hpp).
#include "coverage/keeping_callers.hpp"

#include "coverage/memoized.hpp"
#include "impact/coverage.hpp"
#include "impact/python/function_blocks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace impact {

namespace {

bool calls(std::string_view ref, std::string_view name) {
  if (ref == name) return true;
  if (ref.starts_with(name) && ref.size() > name.size() && (ref[name.size()] == '.' || ref[name.size()] == '(')) return true;
  return ref.size() > name.size() && ref.ends_with(name) && ref[ref.size() - name.size() - 1] == '.';
}

// What in lines `first`..`last` of `lines` may keep a value across calls: an item stored into an
// attribute (`self.data[key] = value`, `cls._cache[k] = v`, `type(self).seen[k] = v`) or `setdefault`.
std::optional<std::string> keeps_items(const std::vector<std::string_view>& lines, uint32_t first, uint32_t last) {
  for (uint32_t l = first; l <= last && l < lines.size(); ++l) {
    std::string_view line = lines[l];
    size_t code = line.find_first_not_of(" \t");
    if (code == std::string_view::npos || line[code] == '#') continue;
    if (line.find(".setdefault(") != std::string_view::npos) return fmt::format("line {} calls setdefault", l);
    // `<target>[...] = ` where the target holds a dot: an item of an attribute.
    size_t open = line.find('[', code);
    if (open == std::string_view::npos) continue;
    std::string_view target = line.substr(code, open - code);
    if (target.find('.') == std::string_view::npos || target.find_first_of(" =(,") != std::string_view::npos) continue;
    int depth = 0;
    size_t close = std::string_view::npos;
    for (size_t i = open; i < line.size(); ++i) {
      if (line[i] == '[') ++depth;
      if (line[i] == ']' && --depth == 0) {
        close = i;
        break;
      }
    }
    if (close == std::string_view::npos) continue;
    std::string_view rest = line.substr(close + 1);
    size_t op = rest.find_first_not_of(" \t");
    if (op == std::string_view::npos || rest[op] != '=' || (op + 1 < rest.size() && rest[op + 1] == '=')) continue;
    return fmt::format("line {} stores an item of {}", l, target);
  }
  return std::nullopt;
}

// Line `line` of the current file at the base: shifted by the hunks before it; inside a hunk, the
// hunk's first base line (`end`: its last), so that a span only widens.
uint32_t to_base(uint32_t line, const std::vector<Hunk>& hunks, bool end) {
  int64_t shift = 0;
  for (const Hunk& h : hunks) {
    bool before = h.new_count == 0 ? line <= h.new_start : line < h.new_start;
    if (before) break;
    if (h.new_count > 0 && line < h.new_start + h.new_count) return end ? h.old_start + h.old_count : std::max<uint32_t>(1, h.old_start);
    shift += static_cast<int64_t>(h.new_count) - static_cast<int64_t>(h.old_count);
  }
  return static_cast<uint32_t>(std::max<int64_t>(1, static_cast<int64_t>(line) - shift));
}

} // namespace

std::vector<KeepingCaller> keeping_callers(const ProjectFacts& facts, const ImportGraph& graph, size_t at,
                                           std::string_view file, const FileSemantics& sem, std::string_view content) {
  FactsView view;
  facts.view(at, view);
  std::vector<std::string_view> lines = numbered_lines(content);
  std::vector<KeepingCaller> out;
  for (const auto& change : sem.symbols) {
    // Callers found so far, with the names they are called by; each round goes one call further up.
    std::set<std::string_view> seen{change.qualname};
    std::vector<std::string_view> frontier{change.qualname};
    for (int depth = 0; depth < k_keeping_depth && !frontier.empty(); ++depth) {
      std::vector<std::string_view> next;
      for (const auto& caller : view.symbols) {
        if (caller.kind == SymbolKind::class_ || seen.contains(caller.qualname)) continue;
        bool reached = std::any_of(frontier.begin(), frontier.end(), [&](std::string_view callee) {
          std::string_view name = callee.substr(callee.rfind('.') == std::string_view::npos ? 0 : callee.rfind('.') + 1);
          return std::any_of(view.begin(caller.refs), view.end(caller.refs), [&](std::string_view r) { return calls(r, name); });
        });
        if (!reached) continue;
        seen.insert(caller.qualname);
        next.push_back(caller.qualname);
        FileSemantics as_changed;
        as_changed.symbols.push_back(SymbolChange{std::string(caller.qualname), caller.kind, ChangeKind::implementation, {}, {}, false});
        if (auto cached = memoized(facts, graph, at, file, as_changed)) {
          out.push_back(KeepingCaller{std::string(caller.qualname), caller.def_line, caller.last_line, change.qualname,
                                      fmt::format("it is memoized ({})", cached->second), true});
        } else if (auto how = keeps_items(lines, caller.def_line + 1, caller.last_line)) {
          out.push_back(KeepingCaller{std::string(caller.qualname), caller.def_line, caller.last_line, change.qualname, *how, false});
        }
      }
      frontier = std::move(next);
    }
  }
  return out;
}

std::optional<std::string> add_caller_tests(uint32_t def_line, uint32_t last_line, const std::vector<Hunk>& hunks,
                                            std::string why, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                                            BlockAnswer& blocks) {
  uint32_t first = to_base(def_line, hunks, false), last = to_base(last_line, hunks, true);
  for (auto it = lines.upper_bound(first); it != lines.end() && it->first <= last; ++it) {
    for (uint32_t test : it->second) {
      if (test == k_import_time) return why;
      blocks.tests.emplace(test, it->first);
    }
  }
  blocks.bodies.push_back(LineSpan{first + 1, last});
  return std::nullopt;
}

} // namespace impact
