#include "app/explain_target.hpp"

#include "impact/why_not_selected.hpp"
#include "impact/error.hpp"
#include "impact/python/facts.hpp"
#include "impact/node_id.hpp"
#include "util/files.hpp"
#include "util/quote.hpp"

#include <algorithm>
#include <optional>

namespace impact::app {

namespace {

constexpr std::string_view k_fix = "pass a node id as pytest prints it (pytest --collect-only -q)";
constexpr std::uintmax_t k_largest_read = 8u << 20; // past this, the file's names are not checked

// The names `facts` binds at module level, or nullopt when it may bind names nobody can list.
std::optional<std::vector<std::string>> module_bindings(const FileFacts& facts) {
  if (facts.parse_error || facts.module_dynamic_access || facts.defines_module_getattr) return std::nullopt;
  std::vector<std::string> names = facts.module_names;
  for (const auto& s : facts.symbols) {
    if (s.parent < 0) names.push_back(s.qualname);
  }
  for (const auto& i : facts.imports) {
    if (i.kind == ImportKind::star) return std::nullopt;
    if (i.kind == ImportKind::from) names.insert(names.end(), i.aliases.begin(), i.aliases.end());
    if (i.kind == ImportKind::plain) {
      std::string alias = i.aliases.empty() ? std::string() : i.aliases.front();
      names.push_back(alias.empty() ? i.module.substr(0, i.module.find('.')) : alias);
    }
  }
  return names;
}

// The module-level name a node id starts with: "TestA" for "t.py::TestA::test_b[1]".
std::string first_name(const std::string& target) {
  std::string_view rest = NodeId::of(target).test;
  return std::string(rest.substr(0, std::min(rest.find("::"), rest.find('['))));
}

} // namespace

void check_explain_target(const std::string& target, const Decision& decision, const std::filesystem::path& root) {
  if (target.empty()) {
    throw Error("explain '' names no test; pass a test node id, a test file or a changed file "
                "(impact explain tests/test_cart.py::test_total)");
  }
  // A file whose own name holds "::" is still that file (pytest cannot name it, but explain can).
  std::error_code ec;
  std::string file = file_of(target);
  for (const auto& f : decision.files) {
    if (f.path.str == file || f.old_path.str == file || f.path.str == target || f.old_path.str == target) return;
  }
  if (std::filesystem::symlink_status(root / target, ec).type() != std::filesystem::file_type::not_found) return;
  auto full = root / file;
  auto status = std::filesystem::symlink_status(full, ec);
  if (file.empty() || status.type() == std::filesystem::file_type::not_found) {
    throw Error("explain {}: no such test in the collected suite: {} does not exist in the work tree; {}",
                util::quote_name(target), util::quote_name(file.empty() ? target : file), k_fix);
  }
  // Only a regular Python file is read (never a FIFO or a device), and only when it is of a sane size.
  bool names_a_test = !NodeId::of(target).whole_file;
  if (!names_a_test || !file.ends_with(".py") || status.type() != std::filesystem::file_type::regular) return;
  if (std::filesystem::file_size(full, ec) > k_largest_read || ec) return;
  auto source = util::read_file(full);
  if (!source) return;
  FactsExtractor extractor;
  auto names = module_bindings(extractor.extract(*source));
  std::string name = first_name(target);
  if (!names || std::find(names->begin(), names->end(), name) != names->end()) return;
  throw Error("explain {}: no such test in the collected suite: {} defines no {}; {}", util::quote_name(target),
              util::quote_name(file), util::quote_name(name), k_fix);
}

} // namespace impact::app
