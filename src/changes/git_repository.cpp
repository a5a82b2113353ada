#include "changes/git_repository.hpp"
#include "changes/workdir_diff.hpp"

#include "changes/worktree_file.hpp"
#include "impact/error.hpp"
#include "util/files.hpp"

#include <git2/sys/repository.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace impact {

namespace {

// libgit2 sets up its TLS backend in git_libgit2_init, and that reads the whole system CA bundle
// (Debian's 220 KB, 140 certificates, parsed on every run). impact never talks to a remote. Built
// with OpenSSL, libgit2 reads the file SSL_CERT_FILE names: it is pointed at /dev/null for the
// duration of the call and the caller's setting is restored before anything else (pytest) can
// inherit it. Read with getenv, not through EnvLookup: this edits the process's own environment,
// which libgit2 and pytest inherit; it is no setting of impact's. Built with mbedTLS (Debian's
// libgit2 1.5), it reads a path fixed at its build: see mbedtls_x509_crt_parse_file below.
void init_libgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* previous = std::getenv("SSL_CERT_FILE");
    std::optional<std::string> saved = previous != nullptr ? std::optional<std::string>(previous) : std::nullopt;
    ::setenv("SSL_CERT_FILE", "/dev/null", 1);
    git_libgit2_init();
    git_error_clear(); // mbedTLS: "failed to load CA certificates", which nothing here needs
    if (saved) ::setenv("SSL_CERT_FILE", saved->c_str(), 1);
    else ::unsetenv("SSL_CERT_FILE");
    // impact only reads: skip the checks that matter when objects are written or fetched.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  });
}

bool is_bytecode_artifact(std::string_view path) {
  return path.ends_with(".pyc") || path.ends_with(".pyo") || path.find("__pycache__/") != std::string_view::npos ||
         path.ends_with("__pycache__");
}

uint32_t count_lines(std::string_view content) {
  if (content.empty()) return 0;
  auto lines = static_cast<uint32_t>(std::count(content.begin(), content.end(), '\n'));
  return content.back() == '\n' ? lines : lines + 1;
}

bool looks_binary(std::string_view content) {
  return content.substr(0, 8000).find('\0') != std::string_view::npos;
}

bool is_file_mode(uint16_t mode) { return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE; }

FileStatus status_of(git_delta_t status) {
  switch (status) {
  case GIT_DELTA_ADDED:
  case GIT_DELTA_COPIED:
  case GIT_DELTA_UNTRACKED: return FileStatus::added;
  case GIT_DELTA_DELETED: return FileStatus::deleted;
  case GIT_DELTA_RENAMED: return FileStatus::renamed;
  case GIT_DELTA_TYPECHANGE: return FileStatus::type_changed;
  default: return FileStatus::modified;
  }
}

} // namespace

GitRepository::GitRepository(const std::filesystem::path& start, const EnvLookup& env) {
  init_libgit2();
  git_repository* repo = nullptr;
  int rc = git_repository_open_ext(&repo, start.c_str(), 0, nullptr);
  if (rc == GIT_ENOTFOUND) {
    throw Error("not a git repository: {}; run impact inside a git working tree (or create one with git init)",
                start.string());
  }
  if (rc != 0) throw Error("cannot open the git repository at {}: {}", start.string(), git::last_error());
  m_repo.reset(repo);
  const char* workdir = git_repository_workdir(repo);
  if (workdir == nullptr) {
    throw Error("{} is a bare repository; run impact in a working tree", git_repository_path(repo));
  }
  m_root = std::filesystem::path(workdir).lexically_normal();
  if (m_root.has_filename() == false) m_root = m_root.parent_path();
  // Inside a hook of `git commit -a` or `git commit PATHS`, git stages into a temporary index named by
  // GIT_INDEX_FILE: that index, not .git/index, is what the commit will hold.
  if (auto index_file = env("GIT_INDEX_FILE"); index_file && !index_file->empty()) { // unset or empty: .git/index
    std::filesystem::path index_path = std::filesystem::absolute(*index_file);
    // libgit2 opens a missing index as an empty one, which would read as every file deleted.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(index_path, ec)) {
      throw Error("GIT_INDEX_FILE={} {}; unset GIT_INDEX_FILE or point it at the index file git is using",
                  index_path.string(), std::filesystem::exists(index_path, ec) ? "is not a regular file" : "does not exist");
    }
    git_index* index = nullptr;
    if (git_index_open(&index, index_path.c_str()) != 0) {
      throw Error("cannot read the index named by GIT_INDEX_FILE={}: {}", index_path.string(), git::last_error());
    }
    int set = git_repository_set_index(repo, index);
    git_index_free(index);
    if (set != 0) throw Error("cannot use the index {}: {}", index_path.string(), git::last_error());
  }
}

std::string GitRepository::head_commit() {
  git_oid oid;
  if (git_reference_name_to_id(&oid, m_repo.get(), "HEAD") != 0) return {};
  return git::oid_hex(oid);
}

git::CommitPtr GitRepository::resolve_commit(const std::string& rev) {
  git_object* object = nullptr;
  if (git_revparse_single(&object, m_repo.get(), rev.c_str()) != 0) {
    if (is_shallow()) {
      throw Error("unknown revision '{}' in this shallow clone; fetch it with its history ({})", rev,
                  fetch_command(rev, true));
    }
    throw Error("unknown revision '{}'; check the name, or fetch it ({})", rev, fetch_command(rev, false));
  }
  git::ObjectPtr owner(object);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object, GIT_OBJECT_COMMIT) != 0) {
    throw Error("revision '{}' does not name a commit; pass a branch, tag or commit", rev);
  }
  return git::CommitPtr(reinterpret_cast<git_commit*>(peeled));
}

git::CommitPtr GitRepository::merge_base_with_head(const std::string& rev, const git_commit& target) {
  auto head = resolve_commit("HEAD");
  git_oid base;
  int rc = git_merge_base(&base, m_repo.get(), git_commit_id(head.get()), git_commit_id(&target));
  if (rc != 0) {
    if (is_shallow()) {
      throw Error("shallow clone: the merge-base of {} and HEAD is not in the fetched history; fetch the rest of "
                  "it ({}), or set fetch-depth: 0 in actions/checkout",
                  rev, fetch_command(rev, true));
    }
    throw Error("{} and HEAD have no common history; pass a revision that HEAD's branch started from", rev);
  }
  git_commit* commit = nullptr;
  if (git_commit_lookup(&commit, m_repo.get(), &base) != 0) {
    throw Error("cannot read the merge-base commit {}: {}", git::oid_hex(base), git::last_error());
  }
  return git::CommitPtr(commit);
}

git::TreePtr GitRepository::tree_of(const std::string& commit_hex) {
  git_oid oid;
  git_commit* commit = nullptr;
  if (git_oid_fromstr(&oid, commit_hex.c_str()) != 0 || git_commit_lookup(&commit, m_repo.get(), &oid) != 0) {
    throw Error("cannot read commit {}: {}", commit_hex, git::last_error());
  }
  git::CommitPtr owner(commit);
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, commit) != 0) {
    throw Error("cannot read the tree of commit {}: {}", commit_hex, git::last_error());
  }
  return git::TreePtr(tree);
}

git::DiffPtr GitRepository::diff_for(const ChangeRequest& request, git_tree* base_tree) {
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE;
  opts.ignore_submodules = GIT_SUBMODULE_IGNORE_UNTRACKED;
  opts.context_lines = 0;
  opts.interhunk_lines = 0;
  git_diff* diff = nullptr;
  int rc = 0;
  if (request.mode == DiffMode::staged) {
    git_index* index = nullptr;
    if (git_repository_index(&index, m_repo.get()) != 0) {
      throw Error("cannot read the git index: {}", git::last_error());
    }
    git::IndexPtr owner(index);
    rc = git_diff_tree_to_index(&diff, m_repo.get(), base_tree, index, &opts);
  } else {
    // Untracked directories are reported whole and expanded here, so that an unignored virtualenv is
    // skipped without libgit2 listing every file in it.
    opts.flags |= GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_ENABLE_FAST_UNTRACKED_DIRS;
    git_index* index = nullptr;
    if (git_repository_index(&index, m_repo.get()) != 0) {
      throw Error("cannot read the git index: {}", git::last_error());
    }
    git::IndexPtr owner(index);
    diff = git::tree_to_workdir(*m_repo, base_tree, *index, m_root, opts, true).release();
    rc = diff == nullptr ? -1 : 0;
  }
  if (rc != 0) throw Error("cannot compute the diff: {}", git::last_error());
  git::DiffPtr owned(diff);
  git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
  find.flags = GIT_DIFF_FIND_RENAMES;
  if (git_diff_find_similar(diff, &find) != 0) throw Error("cannot detect renames: {}", git::last_error());
  return owned;
}

ChangedFile GitRepository::untracked_file(const std::string& path) {
  ChangedFile file;
  file.status = FileStatus::added;
  file.new_path = RepoPath(path);
  file.untracked = true;
  WorktreeFile read = read_worktree_file(m_root / path);
  file.symlink = read.symlink;
  file.binary = looks_binary(read.content);
  if (!file.binary) {
    uint32_t lines = read.status == util::ReadStatus::too_large ? 1 : count_lines(read.content);
    if (lines > 0) file.hunks.push_back(Hunk{0, 0, 1, lines});
  }
  file.new_oid = worktree_blob_oid(read, m_root / path);
  return file;
}

void GitRepository::add_untracked_directory(const std::string& dir, std::vector<ChangedFile>& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path top = m_root / dir;
  if (fs::exists(top / "pyvenv.cfg", ec) || fs::exists(top / ".git", ec)) return; // a virtualenv, a nested repo
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(top, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    auto rel = util::relative_to(it->path(), m_root);
    if (!rel) continue;
    bool is_dir = it->is_directory(ec) && !it->is_symlink(ec);
    std::string probe = is_dir ? *rel + "/" : *rel;
    int ignored = 0;
    git_ignore_path_is_ignored(&ignored, m_repo.get(), probe.c_str());
    if (ignored == 1 || is_bytecode_artifact(probe) ||
        (is_dir && (fs::exists(it->path() / "pyvenv.cfg", ec) || fs::exists(it->path() / ".git", ec)))) {
      if (is_dir) it.disable_recursion_pending();
      continue;
    }
    if (!is_dir) files.push_back(*rel);
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) out.push_back(untracked_file(f));
}

DiffBase GitRepository::resolve_base(const ChangeRequest& request, git::CommitPtr& base) {
  DiffBase out;
  out.mode = request.mode;
  if (request.mode == DiffMode::staged) {
    base = resolve_commit("HEAD");
    out.rev = "HEAD";
    out.source = "--staged";
  } else if (request.rev) {
    auto target = resolve_commit(*request.rev);
    base = merge_base_with_head(*request.rev, *target);
    out.rev = *request.rev;
    out.source = request.rev_source;
    out.merge_base = true;
  } else {
    base = resolve_commit("HEAD");
    out.rev = "HEAD";
    out.source = "default";
  }
  out.commit = git::oid_hex(*git_commit_id(base.get()));
  return out;
}

namespace {

std::vector<Hunk> hunks_of(git_patch* patch) {
  std::vector<Hunk> out;
  size_t hunks = git_patch_num_hunks(patch);
  for (size_t h = 0; h < hunks; ++h) {
    const git_diff_hunk* hunk = nullptr;
    size_t lines = 0;
    if (git_patch_get_hunk(&hunk, &lines, patch, h) != 0) continue;
    out.push_back(Hunk{static_cast<uint32_t>(hunk->old_start), static_cast<uint32_t>(hunk->old_lines),
                       static_cast<uint32_t>(hunk->new_start), static_cast<uint32_t>(hunk->new_lines)});
  }
  return out;
}

git_diff_options zero_context() {
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.context_lines = 0;
  opts.interhunk_lines = 0;
  return opts;
}

} // namespace

// The hunks between the base blob `old_id` (or nothing) and `current` content.
std::vector<Hunk> GitRepository::hunks_against(const git_oid& old_id, std::string_view current) {
  git_blob* blob = nullptr;
  if (!git_oid_is_zero(&old_id)) git_blob_lookup(&blob, m_repo.get(), &old_id);
  git::BlobPtr owner(blob);
  git_diff_options opts = zero_context();
  git_patch* patch = nullptr;
  if (git_patch_from_blob_and_buffer(&patch, blob, nullptr, current.data(), current.size(), nullptr, &opts) != 0) {
    return {};
  }
  git::PatchPtr patch_owner(patch);
  return patch != nullptr ? hunks_of(patch) : std::vector<Hunk>{};
}

ChangeSet GitRepository::changes(const ChangeRequest& request) {
  if (git_repository_head_unborn(m_repo.get()) == 1) {
    throw Error("HEAD has no commits yet in {}; commit once (or check out a branch with commits) so that impact has "
                "a base to compare with",
                m_root.string());
  }
  refuse_special_control_files();
  ChangeSet set;
  git::CommitPtr base;
  set.base = resolve_base(request, base);

  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, base.get()) != 0) throw Error("cannot read the base tree: {}", git::last_error());
  git::TreePtr tree_owner(tree);
  auto diff = diff_for(request, tree);
  git_index* index = nullptr;
  if (git_repository_index(&index, m_repo.get()) != 0) throw Error("cannot read the git index: {}", git::last_error());
  git::IndexPtr index_owner(index);

  std::unordered_map<std::string, size_t> deleted_by_oid; // old blob id -> index in set.files
  std::vector<ChangedFile> untracked;
  size_t count = git_diff_num_deltas(diff.get());
  for (size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);
    if (delta->status == GIT_DELTA_UNMODIFIED || delta->status == GIT_DELTA_IGNORED) continue;
    if (delta->status == GIT_DELTA_UNTRACKED) {
      std::string path = delta->new_file.path;
      if (is_bytecode_artifact(path)) continue;
      if (path.ends_with('/')) {
        path.pop_back();
        add_untracked_directory(path, untracked);
      } else {
        untracked.push_back(untracked_file(path));
      }
      continue;
    }
    auto file = describe_delta(*diff, i, *index, *tree, request.mode);
    if (!file) continue;
    if (file->status == FileStatus::deleted && !file->binary) deleted_by_oid[git::oid_hex(delta->old_file.id)] = set.files.size();
    set.files.push_back(std::move(*file));
  }

  // A file moved without `git mv` shows as deleted + untracked: pair identical contents as a rename
  // (and a file only removed from the index, unchanged on disk, as no change at all).
  std::vector<char> dropped(set.files.size(), 0);
  for (auto& file : untracked) {
    auto it = deleted_by_oid.find(file.new_oid);
    if (it != deleted_by_oid.end()) {
      ChangedFile& gone = set.files[it->second];
      if (gone.old_path == file.new_path) {
        dropped[it->second] = 1;
      } else {
        gone.status = FileStatus::renamed;
        gone.new_path = file.new_path;
        gone.new_oid = file.new_oid;
        gone.untracked = true;
      }
      deleted_by_oid.erase(it);
      continue;
    }
    set.files.push_back(std::move(file));
  }
  std::vector<ChangedFile> kept;
  kept.reserve(set.files.size());
  for (size_t i = 0; i < set.files.size(); ++i) {
    if (i >= dropped.size() || dropped[i] == 0) kept.push_back(std::move(set.files[i]));
  }
  set.files = std::move(kept);
  if (request.mode == DiffMode::working_tree) add_hidden_edits(*index, *tree, set.files);
  std::sort(set.files.begin(), set.files.end(),
            [](const ChangedFile& a, const ChangedFile& b) { return a.path() < b.path(); });
  return set;
}

std::optional<ChangedFile> GitRepository::describe_delta(git_diff& diff, size_t i, git_index& index,
                                                        const git_tree& base_tree, DiffMode mode) {
  const git_diff_delta* delta = git_diff_get_delta(&diff, i);
  ChangedFile file;
  file.status = status_of(delta->status);
  if (file.status != FileStatus::added) file.old_path = RepoPath(delta->old_file.path);
  if (file.status != FileStatus::deleted) file.new_path = RepoPath(delta->new_file.path);
  file.submodule = delta->old_file.mode == GIT_FILEMODE_COMMIT || delta->new_file.mode == GIT_FILEMODE_COMMIT;
  file.symlink = delta->old_file.mode == GIT_FILEMODE_LINK || delta->new_file.mode == GIT_FILEMODE_LINK;
  file.mode_changed = is_file_mode(delta->old_file.mode) && is_file_mode(delta->new_file.mode) &&
                      delta->old_file.mode != delta->new_file.mode;

  const git_index_entry* entry = git_index_get_bypath(&index, file.path().str.c_str(), 0);
  uint16_t extended = entry != nullptr ? entry->flags_extended : 0;
  // `git add -N` records an intent, not content: the next commit does not hold the file.
  if (mode == DiffMode::staged && (extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) != 0) return std::nullopt;
  // A sparse checkout leaves skip-worktree files out of the working tree: the index speaks for them.
  if (mode == DiffMode::working_tree && (extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0 &&
      file.status == FileStatus::deleted) {
    if (git_oid_equal(&entry->id, &delta->old_file.id)) return std::nullopt;
    git_blob* blob = nullptr;
    if (git_blob_lookup(&blob, m_repo.get(), &entry->id) != 0) return std::nullopt;
    git::BlobPtr owner(blob);
    file.status = FileStatus::modified;
    file.new_path = file.old_path;
    file.hunks = hunks_against(delta->old_file.id,
                               std::string_view(static_cast<const char*>(git_blob_rawcontent(blob)),
                                                static_cast<size_t>(git_blob_rawsize(blob))));
    file.new_oid = git::oid_hex(entry->id);
    return file;
  }
  if (file.submodule) return file;

  git_patch* patch = nullptr;
  if (git_patch_from_diff(&patch, &diff, i) != 0) throw Error("cannot diff {}: {}", file.path().str, git::last_error());
  git::PatchPtr patch_owner(patch);
  if (patch == nullptr) return file;
  const git_diff_delta* patched = git_patch_get_delta(patch);
  file.binary = (patched->flags & GIT_DIFF_FLAG_BINARY) != 0;
  bool valid_ids = (patched->new_file.flags & GIT_DIFF_FLAG_VALID_ID) != 0;
  if (valid_ids && file.status != FileStatus::deleted) file.new_oid = git::oid_hex(patched->new_file.id);
  file.hunks = hunks_of(patch);
  if (delta->status == GIT_DELTA_CONFLICTED && file.hunks.empty() && mode == DiffMode::working_tree) {
    // A conflicted file has no single index entry to diff: compare the base with the working tree.
    WorktreeFile current = read_worktree_file(m_root / file.path().str);
    git_tree_entry* base_entry = nullptr;
    git_oid base_id{};
    if (git_tree_entry_bypath(&base_entry, &base_tree, file.path().str.c_str()) == 0) {
      base_id = *git_tree_entry_id(base_entry);
      git_tree_entry_free(base_entry);
      file.status = FileStatus::modified;
      file.old_path = file.path();
    }
    if (current.status == util::ReadStatus::ok) file.hunks = hunks_against(base_id, current.content);
  }
  // A change staged and then undone in the working tree compares equal: no change at all.
  if (file.status == FileStatus::modified && file.hunks.empty() && !file.binary && valid_ids &&
      git_oid_equal(&patched->old_file.id, &patched->new_file.id) && patched->old_file.mode == patched->new_file.mode) {
    return std::nullopt;
  }
  return file;
}

std::vector<SourceFile> GitRepository::inventory(const ChangeSet& changes) {
  auto tree = tree_of(changes.base.commit);
  struct Walk {
    std::vector<SourceFile> files;
  } walk;
  auto callback = [](const char* root, const git_tree_entry* entry, void* payload) -> int {
    auto* w = static_cast<Walk*>(payload);
    git_filemode_t mode = git_tree_entry_filemode(entry);
    if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE || mode == GIT_FILEMODE_LINK) {
      SourceFile f;
      f.path = RepoPath(std::string(root) + git_tree_entry_name(entry));
      f.oid = git::oid_hex(*git_tree_entry_id(entry));
      f.symlink = mode == GIT_FILEMODE_LINK;
      w->files.push_back(std::move(f));
    }
    return 0;
  };
  if (git_tree_walk(tree.get(), GIT_TREEWALK_PRE, callback, &walk) != 0) {
    throw Error("cannot list the files of commit {}: {}", changes.base.commit, git::last_error());
  }
  std::unordered_map<std::string, size_t> position;
  position.reserve(walk.files.size());
  for (size_t i = 0; i < walk.files.size(); ++i) position[walk.files[i].path.str] = i;

  std::unordered_set<std::string> removed;
  for (const auto& change : changes.files) {
    if (change.submodule) continue;
    if (!change.old_path.empty() && change.old_path != change.new_path) removed.insert(change.old_path.str);
    if (change.new_path.empty()) continue;
    removed.erase(change.new_path.str);
    std::string oid = change.new_oid;
    if (oid.empty()) oid = worktree_blob_oid(read_worktree_file(m_root / change.new_path.str), m_root / change.new_path.str);
    std::error_code ec;
    bool symlink = std::filesystem::is_symlink(m_root / change.new_path.str, ec);
    if (auto it = position.find(change.new_path.str); it != position.end()) {
      walk.files[it->second].oid = oid;
      walk.files[it->second].symlink = symlink;
    } else {
      position[change.new_path.str] = walk.files.size();
      walk.files.push_back(SourceFile{change.new_path, oid, symlink, {}, false});
    }
  }
  std::vector<SourceFile> out;
  out.reserve(walk.files.size());
  for (auto& f : walk.files) {
    if (removed.contains(f.path.str)) continue;
    if (f.symlink) f.link_target = link_target_of(f, changes.base.mode);
    f.staged = changes.base.mode == DiffMode::staged;
    out.push_back(std::move(f));
  }
  std::sort(out.begin(), out.end(), [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  expand_folder_links(out);
  key_links_by_content(out);
  mark_not_checked_out(out);
  return out;
}

RepoPath GitRepository::link_target_of(const SourceFile& link, DiffMode mode) {
  std::error_code ec;
  std::filesystem::path target;
  if (mode == DiffMode::working_tree) target = std::filesystem::read_symlink(m_root / link.path.str, ec);
  if (mode != DiffMode::working_tree || ec) {
    auto text = read_blob(link.oid);
    if (!text) return {};
    target = *text;
  }
  if (target.is_absolute()) {
    auto rel = util::relative_to(target, m_root);
    return rel ? RepoPath(*rel) : RepoPath();
  }
  auto rel = util::relative_to(m_root / std::string(link.path.parent()) / target, m_root);
  return rel && !rel->empty() ? RepoPath(*rel) : RepoPath();
}

bool GitRepository::has_revision(const std::string& rev) {
  git_object* object = nullptr;
  if (git_revparse_single(&object, m_repo.get(), rev.c_str()) != 0) return false;
  git_object_free(object);
  return true;
}

std::optional<std::string> GitRepository::read_blob(const std::string& oid_hex) {
  std::lock_guard lock(m_odb_mutex); // parsing threads fall back to blobs concurrently
  git_oid oid;
  if (git_oid_fromstr(&oid, oid_hex.c_str()) != 0) return std::nullopt;
  git_blob* blob = nullptr;
  if (git_blob_lookup(&blob, m_repo.get(), &oid) != 0) return std::nullopt;
  git::BlobPtr owner(blob);
  return std::string(static_cast<const char*>(git_blob_rawcontent(blob)), static_cast<size_t>(git_blob_rawsize(blob)));
}

FileRead GitRepository::read_current(const SourceFile& file) {
  if (file.symlink) return read_through_link(file);
  if (!file.staged) {
    // Not through a link, and only a regular file: a FIFO where a module was must not hang the run.
    auto read = util::read_regular_file(m_root / file.path.str, util::k_max_read_bytes, false);
    if (read.status == util::ReadStatus::ok) return FileRead::found(std::move(read.content));
    if (read.status != util::ReadStatus::missing) {
      return FileRead::error(fmt::format("{} {}", file.path.str, util::describe(read.status)));
    }
  }
  // Staged, or gone from the working tree (outside a sparse checkout): the blob git holds, if any.
  if (auto blob = read_blob(file.oid)) return FileRead::found(std::move(*blob));
  if (file.staged) {
    return FileRead::error(fmt::format("cannot read {} from the index: blob {} is missing; the repository is damaged "
                                       "(git fsck)", file.path.str, file.oid));
  }
  return FileRead::absent();
}

FileRead GitRepository::read_base(const ChangeSet& changes, const RepoPath& path) {
  git::TreePtr tree;
  try {
    tree = tree_of(changes.base.commit);
  } catch (const Error& e) {
    return FileRead::error(e.what());
  }
  git_tree_entry* entry = nullptr;
  if (git_tree_entry_bypath(&entry, tree.get(), path.str.c_str()) != 0) return FileRead::absent();
  git::TreeEntryPtr owner(entry);
  if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) return FileRead::absent(); // a folder or a submodule
  std::string oid = git::oid_hex(*git_tree_entry_id(entry));
  if (auto blob = read_blob(oid)) return FileRead::found(std::move(*blob));
  return FileRead::error(fmt::format("cannot read {} at the base commit {}: blob {} is missing; the repository is "
                                     "damaged (git fsck)", path.str, changes.base.commit, oid));
}

std::unique_ptr<Repository> open_git_repository(const std::filesystem::path& start, const EnvLookup& env) {
  return std::make_unique<GitRepository>(start, env);
}

} // namespace impact

// libgit2 built with mbedTLS loads the CA bundle at a path fixed at its build (GIT_DEFAULT_CERT_LOCATION)
// through this function of libmbedx509, whatever the environment says: 5-15 ms of PEM decoding on
// every run (seen with strace -e trace=openat; no libgit2 option comes before git_libgit2_init). A
// function of that name in the executable comes first in the dynamic linker's search, so libgit2's
// call lands here and reads nothing: without CA certificates libgit2 initialises as it does on a
// machine without a bundle. impact never opens a TLS connection (no fetch, no clone, no remote), and
// pytest runs in a process of its own. Linked with OpenSSL instead, libgit2 never calls it.
extern "C" int mbedtls_x509_crt_parse_file(void* /*chain*/, const char* /*path*/) {
  return -0x2900; // MBEDTLS_ERR_X509_FILE_IO_ERROR
}
