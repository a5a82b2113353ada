#include "changes/worktree_file.hpp"

#include "changes/git_handles.hpp"

#include <sys/stat.h>

namespace impact {

WorktreeFile read_worktree_file(const std::filesystem::path& path) {
  WorktreeFile out;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return out;
  if (S_ISLNK(st.st_mode)) {
    out.symlink = true;
    if (auto target = util::read_link(path)) {
      out.status = util::ReadStatus::ok;
      out.content = std::move(*target);
    } else {
      out.status = util::ReadStatus::unreadable;
    }
    return out;
  }
  auto read = util::read_regular_file(path, util::k_max_read_bytes, false);
  out.status = read.status;
  out.content = std::move(read.content);
  return out;
}

std::string worktree_blob_oid(const WorktreeFile& file, const std::filesystem::path& path) {
  git_oid oid;
  if (file.status == util::ReadStatus::too_large && git_odb_hashfile(&oid, path.c_str(), GIT_OBJECT_BLOB) == 0) {
    return git::oid_hex(oid);
  }
  const std::string& content = file.status == util::ReadStatus::ok ? file.content : std::string();
  git_odb_hash(&oid, content.data(), content.size(), GIT_OBJECT_BLOB);
  return git::oid_hex(oid);
}

} // namespace impact
