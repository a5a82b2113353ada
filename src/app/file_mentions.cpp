#include "app/file_mentions.hpp"
#include "impact/config_sections.hpp"
#include "util/ascii.hpp"
#include "util/glob.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace impact::app {

namespace {

// Limits of the search: past them, no data file is bounded (the decision runs everything).
constexpr size_t k_max_files = 20000;
constexpr size_t k_max_bytes = size_t{256} << 20;
constexpr size_t k_max_file_bytes = size_t{4} << 20; // larger files are data blobs, not lists of names
constexpr size_t k_max_targets = 500;

// Formats whose bytes are compressed or encoded: a name inside them is not text a search can find,
// and none of them lists files for a reader to follow.
bool binary_format(std::string_view name) {
  static constexpr std::array<std::string_view, 40> k_exts = {
      ".png", ".jpg", ".jpeg", ".gif", ".ico", ".webp", ".bmp", ".tif", ".tiff", ".pdf",
      ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".zst", ".whl", ".egg", ".jar",
      ".so", ".pyc", ".pyd", ".dll", ".dylib", ".woff", ".woff2", ".ttf", ".otf", ".eot",
      ".mp3", ".mp4", ".wav", ".ogg", ".avi", ".mov", ".npy", ".npz", ".h5", ".parquet"};
  return std::any_of(k_exts.begin(), k_exts.end(), [&](std::string_view e) { return name.ends_with(e); });
}

struct Text {
  const SourceFile* file;
  std::string lowered;
  std::string original; // kept for pyproject.toml, setup.cfg and tox.ini only: read by section
  std::vector<std::pair<std::string, size_t>> patterns; // wildcard_names(lowered)
};

bool name_char(unsigned char c) {
  return std::isalnum(c) != 0 || c >= 0x80 || c == '_' || c == '-' || c == '.' || c == '*' || c == '?' || c == '[' || c == ']';
}

// The wildcard patterns of a text, as their last path component with its offset: `cat data/*.txt`
// in a shell script gives `*.txt`. A lone `*` (a shell's `$*`, a Markdown bullet) names nothing.
std::vector<std::pair<std::string, size_t>> wildcard_names(const std::string& text) {
  std::vector<std::pair<std::string, size_t>> out;
  for (size_t at = text.find_first_of("*?"); at != std::string::npos; at = text.find_first_of("*?", at + 1)) {
    size_t begin = at, end = at;
    while (begin > 0 && name_char(static_cast<unsigned char>(text[begin - 1]))) --begin;
    while (end < text.size() && name_char(static_cast<unsigned char>(text[end]))) ++end;
    std::string word = text.substr(begin, end - begin);
    bool named = std::any_of(word.begin(), word.end(), [](unsigned char c) { return std::isalnum(c) != 0 || c >= 0x80; });
    if (named && (out.empty() || out.back().second != begin)) out.emplace_back(std::move(word), begin);
    at = std::max(at, end);
  }
  return out;
}

uint32_t line_at(std::string_view text, size_t offset) {
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n') + 1);
}

// The section a line of an INI or TOML file belongs to: "testenv:docs", "flake8", "tool.codespell"
// (a TOML table under [tool] is known by the tool's own table); "" before the first header.
std::string section_at(std::string_view text, size_t offset) {
  std::string section;
  for (size_t pos = 0; pos < text.size() && pos <= offset;) {
    size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (!line.starts_with("[")) continue;
    while (line.starts_with("[")) line.remove_prefix(1);
    std::string_view name = line.substr(0, line.find(']'));
    if (name.starts_with("tool.")) name = name.substr(0, name.find('.', 5));
    section = std::string(name);
  }
  return section;
}

// A mention in a config file's lint section ([tool.codespell] ignore-words) or in a tox environment
// that starts no test run is read by that tool only: no test reads the file through it.
bool tool_section_mention(const Text& text, size_t at) {
  if (text.original.empty()) return false;
  std::string section = section_at(text.original, at);
  if (section.empty()) return false;
  if (lint_section(section)) return true;
  return text.file->path.filename() == "tox.ini" && section_runs_no_tests(text.original, section);
}

} // namespace

MentionSearch find_mentions(Repository& repo, const ChangeSet& changes, const std::vector<SourceFile>& inventory) {
  MentionSearch out;
  std::vector<RepoPath> targets;
  for (const auto& change : changes.files) {
    for (const RepoPath* p : {&change.new_path, &change.old_path}) {
      if (!change.submodule && is_data_file(*p) &&
          std::find(targets.begin(), targets.end(), *p) == targets.end()) {
        targets.push_back(*p);
      }
    }
  }
  if (targets.empty()) return out;
  std::vector<Text> texts;
  size_t bytes = 0;
  for (const auto& file : inventory) {
    if (file.path.ends_with(".py") || file.not_checked_out || binary_format(ascii_lower(file.path.filename()))) continue;
    if (texts.size() >= k_max_files) {
      out.unknown = fmt::format("the repository has more than {} files to search for its name", k_max_files);
      return out;
    }
    FileRead read = repo.read_current(file);
    if (read.is_error()) {
      out.unknown = fmt::format("{} cannot be read to search it for the file's name ({})", file.path, read.problem);
      return out;
    }
    if (!read.has_content()) continue; // listed but gone: it names nothing
    const std::string* content = &read.text;
    if (content->size() > k_max_file_bytes || content->find('\0') != std::string::npos) continue;
    bytes += content->size();
    if (bytes > k_max_bytes) {
      out.unknown = fmt::format("the repository has more than {} MiB of text to search for its name", k_max_bytes >> 20);
      return out;
    }
    std::string lowered = ascii_lower(*content);
    // Configuration holds patterns of its own (package data, sdist lists, lint excludes) that load no file.
    bool sectioned = sectioned_config(file.path);
    bool config = sectioned || is_config_file(file.path) || file.path.filename() == "MANIFEST.in";
    auto patterns = config ? std::vector<std::pair<std::string, size_t>>() : wildcard_names(lowered);
    texts.push_back(Text{&file, std::move(lowered), sectioned ? *content : std::string(), std::move(patterns)});
  }
  std::vector<const SourceFile*> links; // the symbolic links to a file of the repository
  for (const auto& file : inventory) {
    if (file.symlink && !file.link_target.empty()) links.push_back(&file);
  }
  for (size_t t = 0; t < targets.size(); ++t) {
    if (t >= k_max_targets) {
      out.unknown = fmt::format("more than {} files name one another", k_max_targets);
      return out;
    }
    // A symbolic link to the file is the file under another name (`current.json -> schemas/v2.json`):
    // whoever names the link reads the target.
    for (const SourceFile* link : links) {
      if (link->link_target != targets[t]) continue;
      out.mentions.push_back(FileMention{link->path, targets[t], 0});
      if (std::find(targets.begin(), targets.end(), link->path) == targets.end()) targets.push_back(link->path);
    }
    std::string name = ascii_lower(targets[t].filename());
    for (const auto& text : texts) {
      if (text.file->path == targets[t]) continue;
      size_t at = text.lowered.find(name);
      while (at != std::string::npos && tool_section_mention(text, at)) at = text.lowered.find(name, at + 1);
      // A wildcard pattern the name matches names it too (`cat data/*.txt` in a script a test runs).
      for (auto p = text.patterns.begin(); at == std::string::npos && p != text.patterns.end(); ++p) {
        if (util::fnmatch(p->first, name) && !tool_section_mention(text, p->second)) at = p->second;
      }
      if (at == std::string::npos) continue;
      out.mentions.push_back(FileMention{text.file->path, targets[t], line_at(text.lowered, at)});
      if (is_data_file(text.file->path) && std::find(targets.begin(), targets.end(), text.file->path) == targets.end()) {
        targets.push_back(text.file->path);
      }
    }
  }
  return out;
}

} // namespace impact::app
