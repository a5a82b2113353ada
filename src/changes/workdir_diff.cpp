// The work-tree side of the diff, narrowed (docs/performance.md, "changes"). libgit2 walks every
// folder and stats every file through its absolute path on one thread; `git status` does the same work
// faster with relative paths and several threads. Here the scan only has to find a superset of the
// paths that differ: every doubt (a stat field that differs, a racily clean entry, a conflict, a
// skip-worktree or intent-to-add entry, a submodule, a name the index lacks) makes the path a
// candidate, and libgit2 then decides each candidate exactly as its whole diff would.
#include "changes/workdir_diff.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string_view>
#include <thread>
#include <unordered_set>

namespace impact::git {

namespace {

bool same_stat(const struct stat& a, const struct stat& b) {
  return a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec && a.st_size == b.st_size &&
         a.st_ino == b.st_ino && a.st_dev == b.st_dev && a.st_ctim.tv_sec == b.st_ctim.tv_sec &&
         a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

// git's file type and executable bit for a work-tree file, as an index entry's mode holds them.
uint32_t index_mode_of(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return 0120000;
  if (S_ISDIR(st.st_mode)) return 0040000;
  if (!S_ISREG(st.st_mode)) return 0;
  return (st.st_mode & 0100) != 0 ? 0100755 : 0100644;
}

// True when the work-tree file may differ from `entry`: git's stat comparison, made stricter (every
// field, nanoseconds included), plus git's racy-clean rule: an entry whose file was modified in the
// same second as the index was written (or later) is checked by content.
bool may_differ(const git_index_entry& entry, const struct stat& st, const struct timespec& index_mtime) {
  if (static_cast<int64_t>(entry.mtime.seconds) >= static_cast<int64_t>(index_mtime.tv_sec)) return true;
  return index_mode_of(st) != entry.mode || static_cast<uint32_t>(st.st_size) != entry.file_size ||
         static_cast<uint32_t>(st.st_ino) != entry.ino || static_cast<int64_t>(st.st_mtim.tv_sec) != entry.mtime.seconds ||
         static_cast<uint32_t>(st.st_mtim.tv_nsec) != entry.mtime.nanoseconds ||
         static_cast<int64_t>(st.st_ctim.tv_sec) != entry.ctime.seconds ||
         static_cast<uint32_t>(st.st_ctim.tv_nsec) != entry.ctime.nanoseconds || st.st_uid != entry.uid ||
         st.st_gid != entry.gid || (entry.dev != 0 && static_cast<uint32_t>(st.st_dev) != entry.dev);
}

// Entries whose work-tree state libgit2 judges by more than stat data: always candidates.
bool special(const git_index_entry& entry) {
  constexpr uint16_t k_assume_valid = 0x8000;
  return GIT_INDEX_ENTRY_STAGE(&entry) != 0 || (entry.flags & k_assume_valid) != 0 ||
         (entry.flags_extended & (GIT_INDEX_ENTRY_INTENT_TO_ADD | GIT_INDEX_ENTRY_SKIP_WORKTREE)) != 0 ||
         (entry.mode & 0170000) == 0160000 || (entry.mode & 0170000) == 0040000;
}

std::string_view folder_of(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

// Stats entries [begin, end) relative to their folder's descriptor (entries are sorted by path, so a
// folder is opened once), appending the candidates to `out`.
void stat_range(git_index& index, size_t begin, size_t end, int root_fd, const struct timespec& index_mtime,
                std::vector<std::string>& out) {
  std::string_view open_folder;
  int folder_fd = -1;
  bool folder_open = false;
  std::string name;
  for (size_t i = begin; i < end; ++i) {
    const git_index_entry* entry = git_index_get_byindex(&index, i);
    if (entry == nullptr) continue;
    std::string_view path = entry->path;
    if (special(*entry)) {
      out.emplace_back(path);
      continue;
    }
    std::string_view folder = folder_of(path);
    if (!folder_open || folder != open_folder) {
      if (folder_fd >= 0) ::close(folder_fd);
      folder_fd = folder.empty() ? ::dup(root_fd)
                                 : ::openat(root_fd, std::string(folder).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      open_folder = folder;
      folder_open = true;
    }
    name.assign(folder.empty() ? path : path.substr(folder.size() + 1));
    struct stat st {};
    if (folder_fd < 0 || ::fstatat(folder_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        may_differ(*entry, st, index_mtime)) {
      out.emplace_back(path);
    }
  }
  if (folder_fd >= 0) ::close(folder_fd);
}

struct Tracked {
  std::unordered_set<std::string_view> files;   // every index path
  std::unordered_set<std::string_view> folders; // every folder that holds an index path, at any depth
};

// Lists `folder` (relative, "" for the root) for names the index lacks; folders that hold tracked
// files are listed in turn, the others are candidates whole (libgit2 knows untracked from ignored).
void list_untracked(int root_fd, const std::string& folder, const Tracked& tracked, std::vector<std::string>& out) {
  int fd = folder.empty() ? ::dup(root_fd) : ::openat(root_fd, folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    out.push_back(folder);
    return;
  }
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    ::close(fd);
    out.push_back(folder);
    return;
  }
  std::vector<std::string> subfolders;
  while (const dirent* e = ::readdir(dir)) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    if (folder.empty() && name == ".git") continue;
    std::string path = folder.empty() ? std::string(name) : folder + "/" + std::string(name);
    if (tracked.files.contains(path)) continue; // its own stat decides (a folder where a file was: a type change)
    bool is_dir = e->d_type == DT_DIR;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st {};
      is_dir = ::fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
    }
    if (is_dir && tracked.folders.contains(path)) subfolders.push_back(std::move(path));
    else out.push_back(is_dir ? path + "/" : std::move(path)); // a trailing slash: a folder
  }
  ::closedir(dir);
  for (const auto& sub : subfolders) list_untracked(root_fd, sub, tracked, out);
}

bool stat_of(const std::string& path, struct stat& st) { return ::stat(path.c_str(), &st) == 0; }

} // namespace

std::optional<std::vector<std::string>> paths_that_may_differ(git_repository& repo, git_index& index,
                                                              const std::filesystem::path& root) {
  int ignorecase = 0;
  git_config* config = nullptr;
  if (git_repository_config_snapshot(&config, &repo) != 0) return std::nullopt;
  bool icase = git_config_get_bool(&ignorecase, config, "core.ignorecase") == 0 && ignorecase != 0;
  git_config_free(config);
  if (icase || git_index_path(&index) == nullptr) return std::nullopt;

  // The index as libgit2 holds it must be the file on disk, unchanged while the scan runs: its time is
  // the racy-clean threshold.
  std::string index_path = git_index_path(&index);
  struct stat before {};
  struct stat after {};
  if (!stat_of(index_path, before) || git_index_read(&index, 0) != 0 || !stat_of(index_path, after) ||
      !same_stat(before, after)) {
    return std::nullopt;
  }
  int root_fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return std::nullopt;

  size_t count = git_index_entrycount(&index);
  Tracked tracked;
  tracked.files.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    std::string_view path = git_index_get_byindex(&index, i)->path;
    tracked.files.insert(path);
    for (std::string_view f = folder_of(path); !f.empty() && tracked.folders.insert(f).second; f = folder_of(f)) {
    }
  }
  std::vector<std::string> first;
  std::vector<std::string> second;
  std::vector<std::string> untracked;
  // The stats in two halves and the listing, each on its own thread (the listing costs about as much
  // as half the stats).
  std::thread stat_helper([&] { stat_range(index, count / 2, count, root_fd, before.st_mtim, second); });
  std::thread list_helper([&] { list_untracked(root_fd, "", tracked, untracked); });
  stat_range(index, 0, count / 2, root_fd, before.st_mtim, first);
  stat_helper.join();
  list_helper.join();
  ::close(root_fd);

  struct stat last {};
  if (!stat_of(index_path, last) || !same_stat(before, last)) return std::nullopt;
  first.insert(first.end(), second.begin(), second.end());
  // Names git ignores are no candidates (a __pycache__ folder in every package would make a thousand);
  // git_ignore_path_is_ignored applies the rules the diff applies, parent folders included.
  std::erase_if(untracked, [&](const std::string& path) {
    int ignored = 0;
    return git_ignore_path_is_ignored(&ignored, &repo, path.c_str()) == 0 && ignored == 1;
  });
  first.insert(first.end(), untracked.begin(), untracked.end());
  // libgit2 1.5 reports an untracked name in a tracked folder only when the narrowed index side holds
  // something under that folder too (else it never descends into it): add the folder's first entry.
  for (const auto& path : untracked) {
    std::string_view folder = folder_of(std::string_view(path).substr(0, path.size() - (path.ends_with('/') ? 1 : 0)));
    size_t at = 0;
    if (!folder.empty() && git_index_find_prefix(&at, &index, (std::string(folder) + "/").c_str()) == 0) {
      first.emplace_back(git_index_get_byindex(&index, at)->path);
    }
  }
  std::sort(first.begin(), first.end());
  first.erase(std::unique(first.begin(), first.end()), first.end());
  // Past a point the narrowed diff saves nothing (a fresh clone, every entry racily clean; a checkout
  // that touched every file). Below it, a candidate costs libgit2 one look-up: a __pycache__ folder
  // in every package (ignored, but a name the index lacks) is still far cheaper narrowed.
  if (first.size() > std::max<size_t>(1024, count / 2)) return std::nullopt;
  return first;
}

DiffPtr tree_to_workdir(git_repository& repo, git_tree* base, git_index& index, const std::filesystem::path& root,
                        const git_diff_options& opts, bool narrow) {
  std::optional<std::vector<std::string>> paths;
  if (narrow) paths = paths_that_may_differ(repo, index, root);
  // libgit2 1.5 still reads a pathspec entry's `[`, `*`, `?` or `\` as a pattern for untracked files,
  // GIT_DIFF_DISABLE_PATHSPEC_MATCH or not (`tests/v[2]/test_a.py` went unreported): no narrowing then.
  if (paths && std::any_of(paths->begin(), paths->end(), [](const std::string& p) { return p.find_first_of("[*?\\") != std::string::npos; })) {
    paths.reset();
  }
  git_diff* staged = nullptr;
  if (git_diff_tree_to_index(&staged, &repo, base, &index, &opts) != 0) return nullptr;
  DiffPtr out(staged);
  git_diff_options worktree_opts = opts;
  std::vector<char*> strings;
  if (paths) {
    if (paths->empty()) return out;
    for (auto& p : *paths) strings.push_back(p.data());
    worktree_opts.pathspec.strings = strings.data();
    worktree_opts.pathspec.count = strings.size();
    worktree_opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  }
  git_diff* worktree = nullptr;
  if (git_diff_index_to_workdir(&worktree, &repo, &index, &worktree_opts) != 0) return nullptr;
  DiffPtr worktree_owner(worktree);
  if (git_diff_merge(out.get(), worktree) != 0) return nullptr;
  return out;
}

} // namespace impact::git
