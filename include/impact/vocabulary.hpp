#pragma once
// Shared vocabulary types of every stage: repository paths, line hunks, the analysis mode, the
// environment seam, and their formatters. Only what two or more stages share belongs here.
#include <fmt/format.h>

#include <compare>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// Symbol hops the decision's walk follows before a file is analysed at file level (--max-depth).
inline constexpr uint32_t k_default_max_depth = 100;

// A file's path relative to the repository root: '/'-separated, no leading "./", never empty.
struct RepoPath {
  std::string str;

  RepoPath() = default;
  explicit RepoPath(std::string s) : str(std::move(s)) {}

  std::string_view view() const { return str; }
  bool empty() const { return str.empty(); }
  // The last component ("models.py" for "src/app/models.py").
  std::string_view filename() const;
  // Everything before the last '/'; "" for a file at the root.
  std::string_view parent() const;
  bool ends_with(std::string_view suffix) const { return str.ends_with(suffix); }
  // True when this path is `dir` itself or lies below it; "" is the root and contains everything.
  bool is_within(std::string_view dir) const;

  auto operator<=>(const RepoPath&) const = default;
};

// One hunk of a text diff in git's terms: `old_count` lines from `old_start` were replaced by
// `new_count` lines from `new_start` (1-based). A count of 0 marks an insertion or deletion point:
// the side's start is then the line after which the change sits (0 = before the first line).
struct Hunk {
  uint32_t old_start = 0;
  uint32_t old_count = 0;
  uint32_t new_start = 0;
  uint32_t new_count = 0;

  auto operator<=>(const Hunk&) const = default;
};

// One file of the state under test, with the git blob id of its content (40 hex digits): the key of its
// cached facts.
struct SourceFile {
  RepoPath path;
  std::string oid;
  bool symlink = false;
  RepoPath link_target; // for a symlink to a file inside the repository: that file
  // Skip-worktree in a sparse checkout and absent from disk: git still tracks it (the index speaks for
  // it), but pytest cannot collect or import it.
  bool not_checked_out = false;
  // The state under test is the index (--staged): its content is the blob `oid`, never the working
  // tree's file. Set by Repository::inventory(), so that a read needs nothing but the file.
  bool staged = false;
};

// What reading one file gives: its content, that the file is not there (a normal answer: it does not
// exist on that side), or an error (git or the disk failed to answer). A caller never takes an error
// for "not there": that could narrow a selection. It widens (the file is analysed as unknown) or stops
// with the error (docs/architecture.md, "Errors").
struct FileRead {
  enum class Status : uint8_t { content, not_found, error };

  Status status = Status::not_found;
  std::string text;    // the content, when status is content
  std::string problem; // one line, when status is error: what failed, for a message

  static FileRead found(std::string text) { return {Status::content, std::move(text), {}}; }
  static FileRead absent() { return {}; }
  static FileRead error(std::string problem) { return {Status::error, {}, std::move(problem)}; }
  bool has_content() const { return status == Status::content; }
  bool is_error() const { return status == Status::error; }
};

// An inclusive range of 1-based lines.
struct LineSpan {
  uint32_t first = 0;
  uint32_t last = 0;

  bool contains(uint32_t line) const { return first <= line && line <= last; }
  bool overlaps(LineSpan other) const { return first <= other.last && other.first <= last; }
  auto operator<=>(const LineSpan&) const = default;
};

// How hard the analysis tries to narrow (docs/symbols.md, "Modes"): a setting of config/, read by
// cli/, obeyed by decision/.
enum class Mode { fast, balanced, safe };

std::string_view to_string(Mode mode);
std::optional<Mode> parse_mode(std::string_view text);

// A distribution whose installed version differs between the coverage index's record of the
// environment and the environment now ("" where it is absent): docs/selection.md, `environment-drift`.
struct MovedDistribution {
  std::string name;
  std::string before;
  std::string after;
};

// The path under which the decision shows the installed environment when it moved since the coverage
// index recorded it: not a file of the repository.
inline constexpr std::string_view k_environment_path = "(installed environment)";

// A declared edge no analysis can see ([tool.impact] triggers, docs/selection.md `triggers`): a change
// to a file matching one of `paths` runs everything, or the tests `run` names.
struct TriggerRule {
  std::string name;               // `name = ...`, or "triggers[N]" (0-based)
  std::vector<std::string> paths; // globs, as [tool.impact] ignore writes them
  bool run_all = false;           // run = "all"
  std::vector<std::string> run;   // node ids, test files or globs over them
};

// Reads one environment variable: its value, std::nullopt when unset. The seam between the process
// environment (process_env(), ci.hpp) and every stage that reads a variable.
using EnvLookup = std::function<std::optional<std::string>(const char*)>;

} // namespace impact

template <>
struct std::hash<impact::RepoPath> {
  size_t operator()(const impact::RepoPath& p) const noexcept { return std::hash<std::string>{}(p.str); }
};

template <>
struct fmt::formatter<impact::RepoPath> : fmt::formatter<std::string_view> {
  auto format(const impact::RepoPath& p, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(p.str, ctx);
  }
};
