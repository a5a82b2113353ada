#include "app/executed_texts.hpp"

#include "impact/python/text_reads.hpp"
#include "util/ascii.hpp"
#include "util/glob.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace impact::app {

namespace {

// A text file run as code is small: past these, a file is data, and the search stops reading.
constexpr size_t k_max_file_bytes = size_t{1} << 20;
constexpr size_t k_max_total_bytes = size_t{32} << 20;

struct Candidate {
  const SourceFile* file;
  std::string name; // lower-cased file name
  std::string ext;  // lower-cased extension with its dot (".rules"), "" when none
  std::string stem;
};

// Whether `lit` holds `name` as a whole word: not inside a longer name (`pyflakes_builtins`,
// `_pyflakes_parent` name no `pyflakes`; `bin/pyflakes`, `pyflakes.cfg` and `"pyflakes"` do). A
// printf field just before it (`"%spyflakes"`, `"%(dir)spyflakes"`) is a boundary.
bool holds_name(std::string_view lit, std::string_view name) {
  auto word = [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || static_cast<unsigned char>(ch) >= 0x80;
  };
  for (size_t at = lit.find(name); at != std::string_view::npos; at = lit.find(name, at + 1)) {
    bool field = at >= 2 && lit[at - 1] == 's' && (lit[at - 2] == '%' || lit[at - 2] == ')');
    bool starts = at == 0 || !word(lit[at - 1]) || field;
    bool ends = at + name.size() == lit.size() || !word(lit[at + name.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// How a string (lower-cased) may name the file.
enum class Naming { none, whole, stem };

// `whole`: `lit` holds the name (as a whole word), is its extension, or its last component is a
// wildcard the name matches. `stem`: `lit` is only its stem (`"curry"`, `"extensions"`), which names a
// file only together with what adds the extension or finds the folder (stem_completed). No folder
// match: a folder holds many files, and an exec'ing file that lists one is rare enough to be left to
// the data-files rule's listing readers.
Naming names(std::string_view lit, const Candidate& c) {
  if (holds_name(lit, c.name)) return Naming::whole;
  if (!c.ext.empty() && (lit == c.ext || lit == std::string_view(c.ext).substr(1))) return Naming::whole;
  auto slash = lit.rfind('/');
  std::string_view last = slash == std::string_view::npos ? lit : lit.substr(slash + 1);
  // A glob of files (`"*.rules"`, `"example_*"`, `"*"` in a listed folder), not a piece of a regular
  // expression (`[/?#]\S*` of a URL pattern, whose `s*` fnmatch would take for one matching
  // `sandbox.rst`): a dot, or three characters of a name outside the wildcards and brackets.
  size_t spelled = 0;
  for (size_t i = 0, depth = 0; i < last.size(); ++i) {
    if (last[i] == '[') ++depth;
    else if (last[i] == ']' && depth > 0) --depth;
    else if (depth == 0 && last[i] != '*' && last[i] != '?') ++spelled;
  }
  bool glob = last.find_first_of("*?[") != std::string_view::npos &&
              lit.find_first_of("^$()+|{} \t\r\n") == std::string_view::npos &&
              (last == "*" || last == "**" || last.find('.') != std::string_view::npos || spelled >= 3);
  if (glob && util::fnmatch(last, c.name)) return Naming::whole;
  return !c.stem.empty() && lit == c.stem ? Naming::stem : Naming::none;
}

// Whether a file whose strings (`lits`, lower-cased) hold the text file's stem can open it: code that
// has only the stem adds the extension (`stem + ".rules"`, `with_suffix(".rules")`: a string holding
// it; a wildcard matching the name names the file whole), or lists its own folder and compares stems
// (`Path(__file__).parent`, the text file being at or below it). A folder's name proves nothing: the
// path strings are words too, and "see the docs" holds `docs`.
bool stem_completed(const std::vector<std::string>& lits, const Candidate& c, std::string_view reader_dir) {
  if (c.file->path.is_within(reader_dir)) return true;
  for (const auto& lit : lits) {
    if (!c.ext.empty() && (lit.ends_with(c.ext) || lit == std::string_view(c.ext).substr(1))) return true;
  }
  return false;
}

} // namespace

std::vector<ExecutedText> executed_texts(Repository& repo, const ProjectFacts& facts,
                                         const std::vector<SourceFile>& inventory) {
  std::vector<ExecutedText> out;
  std::vector<size_t> executors;
  for (size_t i = 0; i < facts.size(); ++i) {
    if (facts.header(i).has_dynamic_access) executors.push_back(i);
  }
  // doctest's runners of text files run their examples, imports included: `doctest.testfile("README.md")`.
  for (std::string_view runner : {"testfile", "DocFileSuite", "DocFileTest", "DoctestTextfile"}) {
    for (uint32_t i : facts.files_mentioning(runner)) executors.push_back(i);
  }
  std::sort(executors.begin(), executors.end());
  executors.erase(std::unique(executors.begin(), executors.end()), executors.end());
  if (executors.empty()) return out;
  std::vector<Candidate> candidates;
  for (const auto& f : inventory) {
    if (f.path.ends_with(".py") || f.not_checked_out) continue;
    Candidate c{&f, ascii_lower(f.path.filename()), {}, {}};
    if (auto dot = c.name.rfind('.'); dot != std::string::npos && dot != 0) {
      c.ext = c.name.substr(dot);
      c.stem = c.name.substr(0, dot);
    }
    candidates.push_back(std::move(c));
  }
  // Each file is read once, whichever readers name it: its imports, or none.
  std::vector<std::optional<std::vector<std::pair<std::string, uint32_t>>>> imports(candidates.size());
  size_t read_bytes = 0;
  auto imports_of = [&](size_t k) -> const std::vector<std::pair<std::string, uint32_t>>& {
    if (!imports[k]) {
      imports[k].emplace();
      if (read_bytes > k_max_total_bytes) return *imports[k];
      FileRead text = repo.read_current(*candidates[k].file);
      if (!text.has_content() || text.text.size() > k_max_file_bytes) return *imports[k];
      read_bytes += text.text.size();
      if (std::string_view(text.text).substr(0, 8000).find('\0') != std::string_view::npos) return *imports[k]; // binary
      *imports[k] = python::code_text_imports(text.text);
    }
    return *imports[k];
  };
  for (size_t i : executors) {
    PathStrings paths = facts.paths(i);
    std::vector<std::string> lits;
    for (const auto& [literal, line] : paths.strings) {
      lits.push_back(ascii_lower(literal));
      std::replace(lits.back().begin(), lits.back().end(), '\\', '/');
    }
    std::string_view reader_dir = facts.files[i].path.parent();
    std::vector<bool> taken(candidates.size());
    for (size_t s = 0; s < lits.size(); ++s) {
      const std::string& lit = lits[s];
      uint32_t line = paths.strings[s].second;
      for (size_t k = 0; k < candidates.size(); ++k) {
        if (taken[k]) continue;
        Naming naming = names(lit, candidates[k]);
        if (naming == Naming::none || (naming == Naming::stem && !stem_completed(lits, candidates[k], reader_dir))) continue;
        taken[k] = true;
        const auto& modules = imports_of(k);
        if (!modules.empty()) out.push_back(ExecutedText{facts.files[i].path, line, candidates[k].file->path, modules});
      }
    }
  }
  return out;
}

} // namespace impact::app
