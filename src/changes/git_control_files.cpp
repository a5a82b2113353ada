// The files git itself reads while it diffs (ignore and attribute files). libgit2, like git, opens
// them with a blocking open: a FIFO named .gitignore would hang the run before impact reads a byte.
// The ones at fixed places are checked here; a FIFO named .gitignore in a subfolder hangs `git
// status` too and is a known limit (docs/selection.md#files-impact-does-not-read-whole).
#include "changes/git_repository.hpp"
#include "impact/error.hpp"

#include <sys/stat.h>

namespace impact {

void GitRepository::refuse_special_control_files() const {
  std::filesystem::path git_dir = git_repository_path(m_repo.get());
  std::filesystem::path common_dir = git_repository_commondir(m_repo.get());
  const std::pair<std::filesystem::path, std::string> files[] = {
      {m_root / ".gitignore", ".gitignore"},
      {m_root / ".gitattributes", ".gitattributes"},
      {common_dir / "info" / "exclude", (common_dir / "info" / "exclude").string()},
      {common_dir / "info" / "attributes", (common_dir / "info" / "attributes").string()},
      {git_dir / "index", (git_dir / "index").string()},
  };
  for (const auto& [path, name] : files) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) continue; // absent (or a dangling link): git skips it too
    if (!S_ISREG(st.st_mode)) {
      throw Error("{} is not a regular file (a FIFO, socket, device or folder), and git would block or fail reading "
                  "it; replace it with a regular file",
                  name);
    }
  }
}

} // namespace impact
