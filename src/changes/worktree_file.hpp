#pragma once
// Reading a work-tree file the way git sees it: a symbolic link is its target path (git stores the
// link, not what it points to), and only regular files of bounded size are opened, so that a FIFO, a
// device or a link to /dev/zero can neither hang impact nor exhaust its memory.
#include "util/files.hpp"

#include <filesystem>
#include <string>

namespace impact {

// One work-tree path as git would store it.
struct WorktreeFile {
  util::ReadStatus status = util::ReadStatus::missing;
  bool symlink = false;
  std::string content; // the file's bytes, or a symlink's target path; empty unless status is ok
};

// Reads `path` without following a symbolic link and without opening anything but a regular file of
// at most util::k_max_read_bytes. Never throws.
WorktreeFile read_worktree_file(const std::filesystem::path& path);

// The git blob id (40 hex digits) of what git would store for `file` at `path`: a file too large to
// read is hashed as a stream; anything impact does not read (a FIFO, a device) hashes as empty.
std::string worktree_blob_oid(const WorktreeFile& file, const std::filesystem::path& path);

} // namespace impact
