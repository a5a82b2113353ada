#pragma once
// A Repository without git, for unit tests (as ninja's VirtualFileSystem stands in for the disk): the
// files of the base and of the state under test are strings, the change set is given, and a read can
// be told to fail the way git fails (a FileRead error).
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
  // Reading `path` of the state under test fails, as a file that cannot be read does.
  void fail_current_read(const std::string& path) { m_failing_now.insert(path); }
  // How many times the base of `path` was read.
  int base_reads(const std::string& path) const {
    auto it = m_base_reads.find(path);
    return it == m_base_reads.end() ? 0 : it->second;
  }

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
  FileRead read_current(const SourceFile& file) override {
    if (m_failing_now.contains(file.path.str)) return FileRead::error(file.path.str + " cannot be read");
    auto it = m_now.find(file.path.str);
    return it == m_now.end() ? FileRead::absent() : FileRead::found(it->second);
  }
  FileRead read_base(const ChangeSet&, const RepoPath& path) override {
    ++m_base_reads[path.str];
    if (auto f = m_failing.find(path.str); f != m_failing.end() && f->second-- <= 0) {
      return FileRead::error(fmt::format("cannot read {} at the base: object not found; the repository is damaged (git fsck)", path.str));
    }
    auto it = m_base.find(path.str);
    return it == m_base.end() ? FileRead::absent() : FileRead::found(it->second);
  }
  std::string head_commit() override { return std::string(40, 'b'); }
  bool has_revision(const std::string&) override { return true; }
  Ancestry ancestry(const std::string&) override { return Ancestry::head_or_ancestor; }
  bool is_shallow() override { return false; }

private:
  std::filesystem::path m_root;
  std::map<std::string, std::string> m_base, m_now;
  std::map<std::string, int> m_failing, m_base_reads;
  std::set<std::string> m_failing_now;
  ChangeSet m_changes;
};

} // namespace impact::testing
