// CoverageFallback in words: the decision document's `fallback` (docs/json.md), never renamed.
#include "impact/coverage.hpp"

namespace impact {

std::string_view to_string(CoverageFallback fallback) {
  switch (fallback) {
  case CoverageFallback::none: return "";
  case CoverageFallback::untracked: return "untracked";
  case CoverageFallback::added: return "added";
  case CoverageFallback::deleted: return "deleted";
  case CoverageFallback::renamed: return "renamed";
  case CoverageFallback::type_changed: return "type_changed";
  case CoverageFallback::conftest: return "conftest";
  case CoverageFallback::syntax_error: return "syntax_error";
  case CoverageFallback::not_implementation: return "not_implementation";
  case CoverageFallback::not_indexed: return "not_indexed";
  case CoverageFallback::untrusted: return "untrusted";
  case CoverageFallback::drift: return "drift";
  case CoverageFallback::line_endings: return "line_endings";
  case CoverageFallback::memoized: return "memoized";
  case CoverageFallback::insertion: return "insertion";
  case CoverageFallback::unrecorded: return "unrecorded";
  case CoverageFallback::outside_tests: return "outside_tests";
  case CoverageFallback::dedent: return "dedent";
  case CoverageFallback::runs_later: return "runs_later";
  case CoverageFallback::tests_missing: return "tests_missing";
  case CoverageFallback::safe_mode: return "safe_mode";
  }
  return "";
}

} // namespace impact
