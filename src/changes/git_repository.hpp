#pragma once
// GitRepository: the Repository seam implemented with libgit2.
#include "changes/git_handles.hpp"
#include "impact/changes.hpp"

#include <mutex>

namespace impact {

class GitRepository final : public Repository {
public:
  GitRepository(const std::filesystem::path& start, const EnvLookup& env);

  const std::filesystem::path& root() const override { return m_root; }
  ChangeSet changes(const ChangeRequest& request) override;
  std::vector<SourceFile> inventory(const ChangeSet& changes) override;
  FileRead read_current(const SourceFile& file) override;
  FileRead read_base(const ChangeSet& changes, const RepoPath& path) override;
  std::string head_commit() override;
  bool has_revision(const std::string& rev) override;
  Ancestry ancestry(const std::string& commit) override;
  bool is_shallow() override;

private:
  git::CommitPtr resolve_commit(const std::string& rev);
  DiffBase resolve_base(const ChangeRequest& request, git::CommitPtr& base);
  std::optional<ChangedFile> describe_delta(git_diff& diff, size_t i, git_index& index, const git_tree& base_tree,
                                           DiffMode mode);
  std::vector<Hunk> hunks_against(const git_oid& old_id, std::string_view current);
  git::CommitPtr merge_base_with_head(const std::string& rev, const git_commit& target);
  git::TreePtr tree_of(const std::string& commit_hex);
  git::DiffPtr diff_for(const ChangeRequest& request, git_tree* base_tree);
  void add_untracked_directory(const std::string& dir, std::vector<ChangedFile>& out);
  ChangedFile untracked_file(const std::string& path);
  std::optional<std::string> read_blob(const std::string& oid_hex);
  RepoPath link_target_of(const SourceFile& link, DiffMode mode);
  void expand_folder_links(std::vector<SourceFile>& files);
  void key_links_by_content(std::vector<SourceFile>& files);
  void mark_not_checked_out(std::vector<SourceFile>& files);
  bool sparse_checkout();
  void add_hidden_edits(git_index& index, git_tree& base_tree, std::vector<ChangedFile>& files);
  void deleted_under_bit(const git_index_entry& entry, git_tree& base_tree, std::vector<ChangedFile>& files);
  void refuse_special_control_files() const;
  FileRead read_through_link(const SourceFile& link);

  git::RepositoryPtr m_repo;
  std::filesystem::path m_root;
  std::mutex m_odb_mutex; // the object database is read from the facts stage's parsing threads
};

} // namespace impact
