#pragma once
// Shell-style pattern matching in the two dialects impact needs.
#include <string_view>

namespace impact::util {

// Python's fnmatch.fnmatchcase: '*' matches any run of characters ('/' included), '?' one character,
// '[abc]', '[a-z]' and '[!abc]' a class. This is how pytest matches python_files, python_classes,
// python_functions and norecursedirs.
bool fnmatch(std::string_view pattern, std::string_view text);

// pytest's fnmatch_ex for file patterns: a pattern without '/' is matched against the file's name,
// one with '/' against the end of its path.
bool pytest_path_match(std::string_view pattern, std::string_view repo_path);

// A path glob in gitignore's spirit, for `[tool.impact] ignore`: '**' matches any number of whole
// directories, '*' and '?' stay within one path component. A pattern without '/' matches the name at
// any depth; a trailing '/' matches a directory and everything below it; a leading '/' anchors at
// the repository root.
bool path_glob_match(std::string_view pattern, std::string_view repo_path);

// Python's glob.glob on a repository path: '*' and '?' within one component, '**' across any number;
// the pattern must match the whole path (no implicit "and everything below").
bool glob_match(std::string_view pattern, std::string_view repo_path);

} // namespace impact::util
