#pragma once
// RAII owners for libgit2 objects and the error helper shared by the changes stage.
#include <git2.h>

#include <memory>
#include <string>

namespace impact::git {

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const noexcept { Free(p); }
};

using RepositoryPtr = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using ObjectPtr = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, Deleter<git_tree_entry, git_tree_entry_free>>;
using BlobPtr = std::unique_ptr<git_blob, Deleter<git_blob, git_blob_free>>;
using IndexPtr = std::unique_ptr<git_index, Deleter<git_index, git_index_free>>;
using DiffPtr = std::unique_ptr<git_diff, Deleter<git_diff, git_diff_free>>;
using PatchPtr = std::unique_ptr<git_patch, Deleter<git_patch, git_patch_free>>;
using ReferencePtr = std::unique_ptr<git_reference, Deleter<git_reference, git_reference_free>>;

// libgit2's message for the last failed call, or a generic one.
inline std::string last_error() {
  const git_error* e = git_error_last();
  return e != nullptr && e->message != nullptr ? std::string(e->message) : std::string("unknown libgit2 error");
}

inline std::string oid_hex(const git_oid& oid) {
  char buffer[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buffer, sizeof buffer, &oid);
  return buffer;
}

} // namespace impact::git
