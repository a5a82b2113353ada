// GitRepository's answers about history: where a commit stands relative to HEAD, and whether the clone
// is shallow. Kept apart from git_repository.cpp, which reads changes.
#include "changes/git_repository.hpp"

#include <git2.h>

namespace impact {

Ancestry GitRepository::ancestry(const std::string& commit) {
  git_oid oid;
  if (commit.size() != 40 || git_oid_fromstr(&oid, commit.c_str()) != 0) return Ancestry::missing;
  git_commit* found = nullptr;
  if (git_commit_lookup(&found, m_repo.get(), &oid) != 0) return Ancestry::missing;
  git::CommitPtr owner(found);
  git_oid head;
  if (git_reference_name_to_id(&head, m_repo.get(), "HEAD") != 0) return Ancestry::not_ancestor;
  if (git_oid_equal(&head, &oid) != 0) return Ancestry::head_or_ancestor;
  return git_graph_descendant_of(m_repo.get(), &head, &oid) == 1 ? Ancestry::head_or_ancestor : Ancestry::not_ancestor;
}

bool GitRepository::is_shallow() { return git_repository_is_shallow(m_repo.get()) == 1; }

} // namespace impact
