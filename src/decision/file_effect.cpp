#include "decision/file_effect.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace impact::decision {

std::string file_effect(const FileVerdict& v, long tests, const std::vector<SyntaxProblem>& syntax_problems,
                        const CoverageUse* coverage) {
  std::string what = v.change.empty() ? std::string(to_string(v.status)) : v.change;
  if (!v.symbols.empty()) {
    std::vector<std::string> names;
    for (const auto& s : v.symbols) {
      if (names.size() == 3) {
        names.push_back("...");
        break;
      }
      names.push_back(s.qualname);
    }
    what += fmt::format(" ({})", fmt::join(names, ", "));
  }
  for (const auto& p : syntax_problems) {
    if (p.path == v.path) what += fmt::format(" [{}]", p.why);
  }
  std::string effect = tests == 0 ? fmt::format("{}: no test reaches it", what)
                                 : fmt::format("{}: {} selected test(s) lead here", what, tests);
  if (v.source == TestSource::coverage) {
    // The index says why, where its answer is not the tests that ran the change (a file never loaded).
    const std::string& detail = coverage != nullptr ? coverage->detail : std::string();
    effect += detail.empty() ? std::string(" (coverage index)") : fmt::format(" (coverage index: {})", detail);
  }
  else if (v.fallback != CoverageFallback::none) {
    // The reason word, then what it was about: "drift: src/app/views.py changed since the index ...".
    const std::string& detail = coverage != nullptr ? coverage->detail : std::string();
    effect += detail.empty() ? fmt::format(" (static analysis; coverage index: {})", to_string(v.fallback))
                             : fmt::format(" (static analysis; coverage index: {}: {})", to_string(v.fallback), detail);
  }
  return effect;
}

std::pair<Reason, std::string> nothing_reason(const std::vector<FileVerdict>& files,
                                                   const std::set<std::string>& quiet, bool no_changes, bool cosmetic) {
  auto ignored = [](const FileVerdict& v) { return v.kind == FileKind::ignored; };
  if (no_changes) return {Reason::no_changes, "no files changed"};
  if (std::all_of(files.begin(), files.end(), ignored)) {
    return {Reason::only_ignored_files, "every changed file is ignored by [tool.impact] ignore"};
  }
  if (!quiet.empty() && std::all_of(files.begin(), files.end(), [&](const FileVerdict& v) {
        return ignored(v) || quiet.contains(v.path.str);
      })) {
    return {Reason::only_quiet_files, "every changed file is documentation or tool configuration that no test reads"};
  }
  if (cosmetic) return {Reason::only_comments_or_formatting, "only comments or formatting changed"};
  return {Reason::no_tests_reached, "no test reaches the changed code"};
}

FileVerdict environment_verdict() {
  FileVerdict v;
  v.path = RepoPath(std::string(k_environment_path));
  return v;
}

} // namespace impact::decision
