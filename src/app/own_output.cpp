#include "app/own_output.hpp"

#include "util/files.hpp"

#include <sys/stat.h>
#include <unistd.h>

namespace impact::app {

std::optional<std::string> ignore_own_output(ImpactConfig& config, const std::filesystem::path& root) {
  struct stat st {};
  if (::fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::error_code ec;
  // Linux names the file behind a descriptor; elsewhere the output simply counts as a change.
  auto target = std::filesystem::read_symlink("/proc/self/fd/1", ec);
  if (ec || !target.is_absolute()) return std::nullopt;
  auto canonical_root = std::filesystem::weakly_canonical(root, ec);
  if (ec) return std::nullopt;
  auto rel = util::relative_to(std::filesystem::weakly_canonical(target, ec), canonical_root);
  // A name with glob characters cannot be written as a literal ignore pattern: leave it counted.
  if (ec || !rel || rel->empty() || rel->find_first_of("*?[\\") != std::string::npos) return std::nullopt;
  config.ignore.value.push_back("/" + *rel);
  return rel;
}

void label_own_output(Decision& decision, const std::optional<std::string>& path) {
  if (!path) return;
  for (auto& f : decision.files) {
    if (f.path.str == *path && f.kind == FileKind::ignored) f.effect = "impact's own output (standard output): not a change";
  }
}

} // namespace impact::app
