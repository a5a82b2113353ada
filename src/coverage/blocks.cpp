// The coverage index's block rule (docs/coverage.md, "Block level"). Code lines replaced or deleted in
// place, each recorded, are answered by the tests that ran them (as before the block rule); anything
// else inside a body (an insertion, a line no test ran, code put in an outer block of the body) by the
// innermost function body of the base version that holds it: a test whose call phase ran none of that
// body's lines never entered the function there, and a call of a plain function runs (and coverage.py
// records) at least the body's first statement, so the change cannot act on that test before some
// other changed line does, and that line is judged the same way.
#include "coverage/blocks.hpp"

#include "coverage/bound_names.hpp"

#include "impact/python/function_blocks.hpp"
#include "impact/python/text_reads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <optional>
#include <set>

namespace impact {

namespace {

// The width of a line's leading whitespace (a tab to the next multiple of 8, as Python's tokenizer
// counts it), or -1 for a line without code (blank, or only a comment).
int indentation(std::string_view line) {
  int width = 0;
  for (char c : line) {
    if (c == ' ') ++width;
    else if (c == '\t') width = (width / 8 + 1) * 8;
    else if (c == '\f' || c == '\r') continue;
    else return c == '#' ? -1 : width;
  }
  return -1;
}

class Judge {
public:
  Judge(std::string_view path, std::string_view base, std::string_view current,
        const std::map<uint32_t, std::vector<uint32_t>>& lines, bool whole_suite, bool arcs)
      : m_path(path), m_base(base), m_current(current), m_old(numbered_lines(base)), m_new(numbered_lines(current)), m_blocks(function_blocks(base)),
        m_starts(statement_starts(base)), m_lines(lines), m_whole_suite(whole_suite), m_arcs(arcs) {}

  BlockAnswer run(const std::vector<Hunk>& hunks) {
    m_hunks = &hunks;
    for (const auto& h : hunks) {
      if (!hunk(h)) return std::move(m_out);
    }
    for (int32_t b : m_units) {
      if (!unit(m_blocks[static_cast<size_t>(b)])) return std::move(m_out);
    }
    std::sort(m_out.bodies.begin(), m_out.bodies.end());
    m_out.bodies.erase(std::unique(m_out.bodies.begin(), m_out.bodies.end()), m_out.bodies.end());
    return std::move(m_out);
  }

private:
  bool fail(CoverageFallback why, std::string detail) {
    m_out.fallback = why;
    m_out.detail = std::move(detail);
    m_out.tests.clear();
    m_out.bodies.clear();
    return false;
  }

  // Finds the body that holds the hunk, or fails.
  bool hunk(const Hunk& h) {
    std::vector<uint32_t> touched; // the base's code lines replaced or deleted
    for (uint32_t l = h.old_start; l < h.old_start + h.old_count && l < m_old.size(); ++l) {
      if (indentation(m_old[l]) >= 0) touched.push_back(l);
    }
    int least_new = INT_MAX; // the least indentation of the code the hunk puts in
    for (uint32_t l = h.new_start; l < h.new_start + h.new_count && l < m_new.size(); ++l) {
      if (int w = indentation(m_new[l]); w >= 0) least_new = std::min(least_new, w);
    }
    if (touched.empty() && least_new == INT_MAX) {
      // Comments and blank lines run nowhere, except an encoding declaration (lines 1 and 2), which
      // decides what every byte of the file means.
      if (h.old_start <= 2 || h.new_start <= 2) {
        return fail(CoverageFallback::not_implementation,
                    fmt::format("{}: a comment on line 1 or 2 may declare the file's encoding", m_path));
      }
      return true;
    }
    int32_t found = -1;
    if (!touched.empty()) {
      found = innermost_block(m_blocks, touched.front());
      for (uint32_t l : touched) {
        while (found >= 0 && !m_blocks[static_cast<size_t>(found)].in_body(l)) found = m_blocks[static_cast<size_t>(found)].parent;
        if (found < 0) {
          return fail(CoverageFallback::not_implementation,
                      fmt::format("{}:{} is outside any function body (a signature, a decorator, a class body or module "
                                  "level: it runs at import)",
                                  m_path, l));
        }
      }
    } else {
      // Code inserted (or put in place of blank and comment lines) after base line `after`: it joins the
      // body of the innermost function whose header or body holds the code line before it, if it is
      // indented at least as that body is.
      uint32_t after = h.old_count == 0 ? h.old_start : h.old_start - 1;
      uint32_t before = std::min<uint32_t>(after, static_cast<uint32_t>(m_old.size() - 1));
      while (before > 0 && indentation(m_old[before]) < 0) --before;
      for (size_t i = 0; i < m_blocks.size() && before > 0; ++i) {
        const FunctionBlock& b = m_blocks[i];
        if (b.header_last <= before && before <= b.last_line && least_new >= static_cast<int>(b.body_indent)) {
          found = static_cast<int32_t>(i);
        }
      }
      if (found < 0) {
        return fail(CoverageFallback::insertion,
                    fmt::format("{}: the code inserted after line {} is outside any function body", m_path, after));
      }
    }
    const FunctionBlock& b = m_blocks[static_cast<size_t>(found)];
    if (least_new != INT_MAX && least_new < static_cast<int>(b.body_indent)) {
      return fail(CoverageFallback::dedent, fmt::format("{}: code moved out of the body of lines {}-{} runs for tests "
                                                        "that never entered it",
                                                        m_path, b.body_first(), b.last_line));
    }
    if (runs_unrecorded(b)) return later(b);
    if (defined_unrecorded(b)) {
      return fail(CoverageFallback::outside_tests,
                  fmt::format("{}:{}: its `def` line ran under no coverage context: the module was imported before "
                              "coverage.py started (a plugin pytest loads with -p), where it may also have run",
                              m_path, b.first_line));
    }
    // Line by line only where a frame holds no state another test's call reads later: no closure, no
    // generator (a resumed frame reads what the replaced lines bound for the test that created it).
    if (!touched.empty() && !b.has_nested && !b.runs_later && !mutable_default(found) && same_bindings(h) &&
        same_structure(h) && by_lines(touched, least_new)) {
      return true;
    }
    m_units.insert(found);
    return true;
  }

  // Whether block `b`, or one around it, has a default value that a call can change and the next call
  // sees (`def record(x, _seen=[])`): what a replaced line did to it in one test, a later test reads.
  bool mutable_default(int32_t b) const {
    for (; b >= 0; b = m_blocks[static_cast<size_t>(b)].parent) {
      const FunctionBlock& f = m_blocks[static_cast<size_t>(b)];
      for (uint32_t l = f.first_line; l <= f.header_last && l < m_old.size(); ++l) {
        for (size_t at = m_old[l].find('='); at != std::string_view::npos; at = m_old[l].find('=', at + 1)) {
          std::string_view value = m_old[l].substr(at + 1);
          value.remove_prefix(std::min(value.find_first_not_of(' '), value.size()));
          for (std::string_view start : {"[", "{", "dict(", "list(", "set(", "bytearray(", "defaultdict(", "collections.", "OrderedDict("}) {
            if (value.starts_with(start)) return true;
          }
        }
      }
    }
    return false;
  }

  // Whether the hunk's new lines bind the names its old lines did: a name bound anywhere in a function is
  // local to all of it, so binding another one (`LIMIT = 5` in place of `cap = 5`) changes how lines
  // the replaced lines' tests never ran read it (an UnboundLocalError there).
  bool same_bindings(const Hunk& h) const {
    auto text = [](const std::vector<std::string_view>& lines, uint32_t from, uint32_t count) {
      std::string out;
      for (uint32_t l = from; l < from + count && l < lines.size(); ++l) out.append(lines[l]).push_back('\n');
      return out;
    };
    return bound_names(text(m_old, h.old_start, h.old_count)) == bound_names(text(m_new, h.new_start, h.new_count));
  }

  // Whether the hunk's new lines open the same clauses as its old ones, in order: `elif` made `if`
  // runs where only the branch before it did; an `else:` or `except` dropped or added moves the code
  // under it; a clause's header is no statement coverage.py records (`else:`, `try:`).
  bool same_structure(const Hunk& h) const {
    auto clauses = [](const std::vector<std::string_view>& lines, uint32_t from, uint32_t count) {
      std::vector<std::string_view> out;
      for (uint32_t l = from; l < from + count && l < lines.size(); ++l) {
        std::string_view line = lines[l].substr(std::min(lines[l].size(), lines[l].find_first_not_of(" \t")));
        size_t end = 0;
        while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) ++end;
        std::string_view word = line.substr(0, end);
        for (std::string_view k : {"if", "elif", "else", "for", "while", "try", "except", "finally", "with", "match",
                                   "case", "async", "def", "class"}) {
          if (word == k) out.push_back(word);
        }
      }
      return out;
    };
    return clauses(m_old, h.old_start, h.old_count) == clauses(m_new, h.new_start, h.new_count);
  }

  // Code lines replaced or deleted in place: the tests that ran them, exactly, when every one of them
  // was recorded, only in tests' calls, and no new code sits in a block outside theirs. A test that did
  // not run a replaced statement in the base does not reach its replacement either: the code before it
  // is unchanged (other hunks are judged on their own). Not in a body holding a nested def, class or
  // lambda (the caller checks): a closure another test calls reads what the replaced lines bound.
  bool by_lines(const std::vector<uint32_t>& touched, int least_new) {
    int least_old = INT_MAX;
    for (uint32_t l : touched) least_old = std::min(least_old, indentation(m_old[l]));
    // Indented otherwise, the new code runs where the old lines did not: out of a block (less), or into
    // the loop or `finally` before it (more: before a later iteration's `return`, on the exception path).
    if (least_new != INT_MAX && least_new != least_old) return false;
    std::map<uint32_t, uint32_t> tests;
    for (uint32_t l : touched) {
      // A nested def's header runs when the enclosing body does, but a test calling the function it made
      // later (a closure kept) runs only its body: that needs the body's unit.
      for (const auto& b : m_blocks) {
        if (b.first_line <= l && l <= b.header_last) return false;
      }
      // A multi-line statement: a test may record any of its lines and not the first (the first
      // instruction can sit on a later line, and one that raises there stops before the store on the
      // first: `share = (\n self.amount\n / n\n)` dividing by zero records lines 2 and 3 only).
      uint32_t statement = l < m_starts.size() && m_starts[l] != 0 ? m_starts[l] : l;
      bool ran = false;
      for (uint32_t s = statement; s < m_old.size() && (s == statement || (s < m_starts.size() && m_starts[s] == statement)); ++s) {
        auto it = m_lines.find(s);
        if (it == m_lines.end()) continue;
        for (uint32_t t : it->second) {
          if (t == k_import_time) return false;
          tests.emplace(t, l);
          ran = true;
        }
      }
      if (!ran) return false;
    }
    for (const auto& [t, l] : tests) m_out.tests.emplace(t, l);
    m_out.bodies.push_back(LineSpan{touched.front(), touched.back()});
    return true;
  }

  // Whether the module-level function or method `b`'s header (decorators, the `def` line) ran under
  // no coverage context: its module was imported before coverage.py started, by a plugin pytest loads
  // with `-p` (addopts, PYTEST_ADDOPTS) or PYTEST_PLUGINS, whose start-up code (`pytest_addoption`,
  // an `addini` default) and whatever it called ran unrecorded. (A file no process loaded records
  // nothing either; the rule for such files answers first.)
  bool defined_unrecorded(const FunctionBlock& b) const {
    if (b.parent >= 0) return false; // a nested def runs when its enclosing function does
    auto it = m_lines.lower_bound(b.first_line);
    return it == m_lines.end() || it->first > b.header_last;
  }

  // Whether a test may have resumed block `b` without coverage.py recording a line of it for that test.
  // With line data, any resumed generator or coroutine: resumed after its last `yield`, it returns
  // without a line event. With arcs, only one that resumes silently: any other resumed frame records
  // at least its exit arc, whose first end is a line of the body.
  bool runs_unrecorded(const FunctionBlock& b) const {
    if (!b.runs_later) return false;
    if (!m_arcs || b.resumes_silently) return true;
    // A change that adds or removes a `yield` or an `await` can make a generator a plain function (its
    // body then runs in calls that never iterated it, and recorded nothing) or the reverse. Asked
    // once, and only here: it parses both versions.
    if (!m_kinds_changed) m_kinds_changed = kinds_may_differ(*m_hunks, m_base, m_current);
    return *m_kinds_changed;
  }

  bool later(const FunctionBlock& b) {
    return fail(CoverageFallback::runs_later,
                fmt::format("{}:{}-{}: a generator, a coroutine or a lazy generator expression: its code runs when "
                            "resumed, which coverage.py may not record",
                            m_path, b.first_line, b.last_line));
  }

  // Whether the body of `b` holds a statement coverage.py records when the function is called: not
  // only a docstring (a constant the compiler drops: `def on_start(self): """Override."""` records
  // no line for any caller, so its callers are not known; `pass` and `...` are recorded) and
  // `global`/`nonlocal` declarations (no code either).
  bool records_a_line(const FunctionBlock& b) const {
    for (uint32_t l = b.body_first(); l <= b.last_line && l < m_old.size(); ++l) {
      if (indentation(m_old[l]) < 0 || (l < m_starts.size() && m_starts[l] != 0 && m_starts[l] != l)) continue;
      std::string_view code = m_old[l].substr(m_old[l].find_first_not_of(" \t"));
      size_t quote = code.find_first_of("'\"");
      bool literal = quote != std::string_view::npos && quote <= 2 &&
                     code.substr(0, quote).find_first_not_of("rRbBuU") == std::string_view::npos;
      // `x: int` (an annotation with no value) is no code in a function either.
      size_t word = 0;
      while (word < code.size() && (std::isalnum(static_cast<unsigned char>(code[word])) || code[word] == '_')) ++word;
      size_t colon = code.find_first_not_of(" \t", word);
      bool bare_annotation = word > 0 && colon != std::string_view::npos && code[colon] == ':' &&
                             code.find('=') == std::string_view::npos && code.substr(0, word) != "else" &&
                             code.substr(0, word) != "try" && code.substr(0, word) != "finally" && code.substr(0, word) != "lambda";
      if (!literal && !bare_annotation && !code.starts_with("global ") && !code.starts_with("nonlocal ")) return true;
    }
    return false;
  }

  // The tests that ran the body of `b`, or fails.
  bool unit(const FunctionBlock& b) {
    if (runs_unrecorded(b)) return later(b);
    if (!records_a_line(b)) {
      return fail(CoverageFallback::unrecorded,
                  fmt::format("{}:{}-{}: the body holds only a docstring or declarations, which coverage.py records "
                              "for no caller",
                              m_path, b.body_first(), b.last_line));
    }
    bool ran = false;
    for (auto it = m_lines.lower_bound(b.body_first()); it != m_lines.end() && it->first <= b.last_line; ++it) {
      for (uint32_t t : it->second) {
        if (t == k_import_time) {
          return fail(CoverageFallback::outside_tests,
                      fmt::format("{}:{} (in the body of lines {}-{}) also runs outside a test's own call (at import, "
                                  "during collection or in a fixture)",
                                  m_path, it->first, b.body_first(), b.last_line));
        }
        m_out.tests.emplace(t, it->first);
        ran = true;
      }
    }
    if (!ran && !m_whole_suite) {
      return fail(CoverageFallback::unrecorded,
                  fmt::format("{}:{}-{}: no test ran this body, and the index did not see the whole suite", m_path,
                              b.body_first(), b.last_line));
    }
    m_out.bodies.push_back(LineSpan{b.body_first(), b.last_line});
    return true;
  }

  std::string_view m_path;
  std::string_view m_base, m_current;
  std::vector<std::string_view> m_old, m_new;
  std::vector<FunctionBlock> m_blocks;
  std::vector<uint32_t> m_starts; // each base line's statement's first line
  const std::map<uint32_t, std::vector<uint32_t>>& m_lines;
  bool m_whole_suite;
  bool m_arcs;                   // the index holds coverage.py's arcs, not only its lines
  mutable std::optional<bool> m_kinds_changed; // kinds_may_differ() of the change, once asked
  const std::vector<Hunk>* m_hunks = nullptr;
  std::set<int32_t> m_units; // the blocks the hunks fall in
  BlockAnswer m_out;
};

} // namespace

bool kinds_may_differ(const std::vector<Hunk>& hunks, std::string_view base_text, std::string_view current_text) {
  std::vector<std::string_view> base = numbered_lines(base_text), current = numbered_lines(current_text);
  auto any = [](const std::vector<std::string_view>& lines, uint32_t from, uint32_t count) {
    for (uint32_t l = from; l < from + count && l < lines.size(); ++l) {
      if (lines[l].find("yield") != std::string_view::npos || lines[l].find("await") != std::string_view::npos) return true;
    }
    return false;
  };
  bool touched = std::any_of(hunks.begin(), hunks.end(), [&](const Hunk& h) {
    return any(base, h.old_start, h.old_count) || any(current, h.new_start, h.new_count);
  });
  return touched || generator_functions(base_text) != generator_functions(current_text);
}

BlockAnswer answer_by_blocks(std::string_view path, const std::vector<Hunk>& hunks, std::string_view base,
                             std::string_view current, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                             bool whole_suite, bool arcs) {
  return Judge(path, base, current, lines, whole_suite, arcs).run(hunks);
}

} // namespace impact
