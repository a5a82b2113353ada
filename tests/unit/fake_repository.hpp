#pragma once
// A Repository without git, for unit tests (as ninja's VirtualFileSystem stands in for the disk): the
// files of the base and of the state under test are strings, the change set is given, and a read can
// be told to fail the way git fails (impact::Error).
#include "impact/changes.hpp"
#include "impact/error.hpp"
#include "util/sha256.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace impact::testing {

class FakeRepository : public Repository {
public:
  explicit FakeRepository(std::filesystem::path root) : m_root(std::move(root)) {}

  // The file `path` holds `text` at the base and now.
  void add(const std::string& path, const std::string& text) { m_base[path] = m_now[path] = text; }
  // `path` holds `text` now: modified (or added), with `hunks`.
  void modify(const std::string& path, const std::string& text, std::vector<Hunk> hunks) {
    bool added = !m_base.contains(path);
    m_now[path] = text;
    ChangedFile f;
    f.status = added ? FileStatus::added : FileStatus::modified;
    f.old_path = added ? RepoPath{} : RepoPath{path};
    f.new_path = RepoPath{path};
    f.hunks = std::move(hunks);
    m_changes.files.push_back(std::move(f));
  }
  // Reading `path` at the base fails (after `after` reads that succeed), as a git error does.
  void fail_base_read(const std::string& path, int after = 0) { m_failing[path] = after; }

  const std::filesystem::path& root() const override { return m_root; }
  ChangeSet changes(const ChangeRequest& request) override {
    ChangeSet out = m_changes;
    out.base.mode = request.mode;
    out.base.rev = request.rev.value_or("HEAD");
    out.base.commit = std::string(40, 'b');
    out.base.source = request.rev ? request.rev_source : "default";
    return out;
  }
  std::vector<SourceFile> inventory(const ChangeSet&) override {
    std::vector<SourceFile> out;
    for (const auto& [path, text] : m_now) {
      SourceFile f;
      f.path = RepoPath{path};
      f.oid = util::git_blob_id(text);
      out.push_back(std::move(f));
    }
    return out;
  }
  std::optional<std::string> read_current(const SourceFile& file) override {
    auto it = m_now.find(file.path.str);
    return it == m_now.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  std::optional<std::string> read_base(const ChangeSet&, const RepoPath& path) override {
    if (auto f = m_failing.find(path.str); f != m_failing.end() && f->second-- <= 0) {
      throw Error("cannot read {} at the base: object not found; the repository is damaged (git fsck)", path.str);
    }
    auto it = m_base.find(path.str);
    return it == m_base.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  std::string head_commit() override { return std::string(40, 'b'); }
  bool has_revision(const std::string&) override { return true; }
  Ancestry ancestry(const std::string&) override { return Ancestry::head_or_ancestor; }
  bool is_shallow() override { return false; }

private:
  std::filesystem::path m_root;
  std::map<std::string, std::string> m_base, m_now;
  std::map<std::string, int> m_failing;
  ChangeSet m_changes;
};

} // namespace impact::testing
