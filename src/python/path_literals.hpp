#pragma once
// What a file's string literals could name on disk, and whether it lists folders: the input of the
// rule that links a changed non-Python file to the code that can read it (docs/selection.md,
// `file-readers`). Read from the token pass the reference collector already made, so it costs no
// second lexing of the file.
#include "impact/python/facts.hpp"
#include "python/lexer.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace impact::python {

// One path-like fragment of a string literal: "README.md", "../docs", "*.rst", "/templates/", ".json".
// Fragments are the runs of characters a path can hold; an f-string's replacement fields split them.
struct PathLiteral {
  std::string text;
  uint32_t line = 0; // the first line where the fragment occurs
  bool operator==(const PathLiteral&) const = default;
};

struct PathReads {
  std::vector<PathLiteral> literals; // deduplicated, in order of first occurrence
  // The first call that lists a folder whose contents no literal bounds (os.walk, os.listdir,
  // os.scandir, Path.iterdir, Path.walk, shutil.copytree, importlib.resources' contents, a glob call in
  // a file with no wildcard literal): such code may read any file. 0 when there is none.
  uint32_t listing_line = 0;
  // More fragments than k_max_path_literals: the file counts as a reader of every file.
  bool truncated = false;
};

constexpr size_t k_max_path_literals = 4096;

// Reads `tokens` (lex(source)) for path-like string fragments and folder listings. Strings longer
// than a line of code (docstrings, messages) give only fragments that look like paths: with a '/', a
// wildcard, or a file extension. Strings assigned to `collect_ignore` / `collect_ignore_glob` name
// files pytest must not collect, not files anything reads, and are skipped.
PathReads read_path_literals(std::string_view source, const std::vector<Token>& tokens);

// The same, into a file's facts.
void read_paths(std::string_view source, const std::vector<Token>& tokens, PathStrings& out);

} // namespace impact::python
