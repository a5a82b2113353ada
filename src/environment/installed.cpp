#include "impact/environment.hpp"
#include "impact/error.hpp"

#include "impact/pins.hpp"
#include "util/files.hpp"
#include "util/subprocess.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace impact {

namespace fs = std::filesystem;

namespace {

// A metadata file, whole; one that is missing, not a regular file or too large reads as empty (its
// distribution's modules are then unknown, which the caller treats as uncertain).
std::string read_small(const fs::path& path) { return util::read_regular_file(path).content; }

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    pos = end + 1;
  }
  return out;
}

// The value of an email-style header ("Name: requests") in METADATA / PKG-INFO, headers only.
std::vector<std::string> header_values(std::string_view metadata, std::string_view header) {
  std::vector<std::string> out;
  for (auto line : lines_of(metadata)) {
    if (line.empty()) break; // the body (the long description) starts here
    if (line.size() > header.size() + 1 && line.substr(0, header.size()) == header && line[header.size()] == ':') {
      std::string_view value = line.substr(header.size() + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      out.emplace_back(value);
    }
  }
  return out;
}

// A top-level module name from one installed path ("requests/__init__.py" -> "requests",
// "six.py" -> "six", "_cffi_backend.cpython-311-x86_64-linux-gnu.so" -> "_cffi_backend"); "" for
// metadata, scripts outside the folder and .pth files.
std::string top_level_of(std::string_view path) {
  if (path.starts_with("..") || path.starts_with("/")) return {};
  size_t slash = path.find('/');
  std::string_view first = path.substr(0, slash);
  if (first.ends_with(".dist-info") || first.ends_with(".egg-info") || first.ends_with(".data") ||
      first == "__pycache__" || first.empty()) {
    return {};
  }
  if (slash != std::string_view::npos) return std::string(first);
  if (first.ends_with(".pth")) return {};
  for (std::string_view ext : {".py", ".so", ".pyd", ".pyc"}) {
    if (first.ends_with(ext)) {
      std::string_view stem = first.substr(0, first.size() - ext.size());
      return std::string(stem.substr(0, stem.find('.')));
    }
  }
  return {};
}

// The first field of a RECORD line (CSV: a path with commas is quoted).
std::string_view record_path(std::string_view line) {
  if (line.starts_with("\"")) {
    size_t end = line.find('"', 1);
    return end == std::string_view::npos ? std::string_view() : line.substr(1, end - 1);
  }
  return line.substr(0, line.find(','));
}

bool has_pytest11(std::string_view entry_points) {
  for (auto line : lines_of(entry_points)) {
    std::string_view l = line;
    while (!l.empty() && l.front() == ' ') l.remove_prefix(1);
    if (l.starts_with("[pytest11]")) return true;
  }
  return false;
}

// Where one requirement goes by the extras that ask for it: none (always required), only development
// extras (dropped), or some feature extra.
enum class Need { always, development, feature };

Need need_of(const std::vector<std::string>& extras) {
  if (extras.empty()) return Need::always;
  for (const auto& e : extras) {
    if (!development_extra(e)) return Need::feature;
  }
  return Need::development;
}

void add_requirement(Distribution& d, std::string name, Need need) {
  if (name.empty() || need == Need::development) return;
  (need == Need::always ? d.requirements : d.extra_requirements).push_back(std::move(name));
}

// The extras a Requires-Dist marker names (`; extra == "test"`, `; python_version < "3.8" and
// (extra == 'a' or extra == 'b')`); none for a requirement with no extra in its marker.
std::vector<std::string> extras_of_marker(std::string_view requirement) {
  std::vector<std::string> out;
  size_t semi = requirement.find(';');
  if (semi == std::string_view::npos) return out;
  std::string_view marker = requirement.substr(semi + 1);
  for (size_t at = marker.find("extra"); at != std::string_view::npos; at = marker.find("extra", at + 5)) {
    bool word_start = at == 0 || !(std::isalnum(static_cast<unsigned char>(marker[at - 1])) || marker[at - 1] == '_');
    size_t i = at + 5;
    while (i < marker.size() && marker[i] == ' ') ++i;
    if (!word_start || marker.substr(i, 2) != "==") continue;
    i += 2;
    while (i < marker.size() && marker[i] == ' ') ++i;
    if (i >= marker.size() || (marker[i] != '"' && marker[i] != '\'')) continue;
    size_t end = marker.find(marker[i], i + 1);
    if (end == std::string_view::npos) continue;
    out.emplace_back(marker.substr(i + 1, end - i - 1));
  }
  return out;
}

// requires.txt (egg-info): requirements, then `[extra]`, `[extra:marker]` or `[:marker]` sections.
void read_requires_txt(std::string_view text, Distribution& d) {
  std::vector<std::string> extras;
  for (auto line : lines_of(text)) {
    if (line.starts_with("[")) {
      std::string_view section = line.substr(1, line.find(']') - 1);
      std::string_view extra = section.substr(0, section.find(':'));
      extras.clear();
      if (!extra.empty()) extras.emplace_back(extra);
      continue;
    }
    add_requirement(d, requirement_name(line), need_of(extras));
  }
}

std::optional<Distribution> read_distribution(const fs::path& info) {
  std::error_code ec;
  bool folder = fs::is_directory(info, ec);
  std::string stem = info.filename().string();
  stem = stem.substr(0, stem.rfind('.'));
  Distribution d;
  std::string metadata = folder ? read_small(info / (info.extension() == ".dist-info" ? "METADATA" : "PKG-INFO"))
                                : read_small(info);
  auto names = header_values(metadata, "Name");
  d.name = normalize_distribution(names.empty() ? stem.substr(0, stem.find('-')) : names.front());
  auto versions = header_values(metadata, "Version");
  if (!versions.empty()) d.version = versions.front();
  if (d.name.empty()) return std::nullopt;
  for (const auto& r : header_values(metadata, "Requires-Dist")) {
    add_requirement(d, requirement_name(r), need_of(extras_of_marker(r)));
  }
  std::set<std::string> imports;
  if (folder) {
    std::string top_level = read_small(info / "top_level.txt");
    for (auto line : lines_of(top_level)) {
      if (!line.empty()) imports.emplace(line.substr(0, line.find('/')));
    }
    std::string record = read_small(info / "RECORD");
    for (auto line : lines_of(record)) {
      std::string top = top_level_of(record_path(line));
      if (!top.empty()) imports.insert(top);
    }
    read_requires_txt(read_small(info / "requires.txt"), d);
    d.pytest_plugin = has_pytest11(read_small(info / "entry_points.txt"));
  }
  d.import_names.assign(imports.begin(), imports.end());
  for (auto* list : {&d.requirements, &d.extra_requirements}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  return d;
}

} // namespace

bool development_extra(std::string_view extra) {
  std::string name;
  for (char c : extra) name += c == '_' || c == '.' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::string_view k_words[] = {
      "test",   "tests",  "testing", "dev",    "devel",  "develop", "development", "doc",   "docs",
      "documentation", "lint", "linting", "linters", "typing", "types", "mypy",  "check", "checks",
      "style",  "qa",      "bench",  "benchmark", "benchmarks", "coverage", "cov", "release",
      "pre-commit", "tox", "ci"};
  for (auto word : k_words) {
    if (name == word) return true;
    if (name.size() > word.size() && name.starts_with(word) && name[word.size()] == '-') return true;
  }
  return false;
}

Environment read_environment(const std::vector<fs::path>& site_dirs) {
  Environment env;
  env.site_dirs = site_dirs;
  for (const auto& dir : site_dirs) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) continue;
    for (const auto& entry : it) {
      auto ext = entry.path().extension();
      if (ext != ".dist-info" && ext != ".egg-info") continue;
      auto d = read_distribution(entry.path());
      if (!d) continue;
      // The first folder of sys.path wins, as it does for imports.
      env.distributions.emplace(d->name, std::move(*d));
    }
  }
  return env;
}

std::optional<std::vector<fs::path>> site_dirs_of(const std::string& interpreter, const fs::path& cwd) {
  util::Captured out;
  try {
    out = util::run_and_capture({interpreter, "-c", "import sys\nfor p in sys.path: print(p)"}, cwd);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (out.code != 0) return std::nullopt;
  std::vector<fs::path> dirs;
  for (auto line : lines_of(out.out)) {
    if (line.empty()) continue;
    std::error_code ec;
    if (fs::is_directory(fs::path(line), ec)) dirs.emplace_back(line);
  }
  return dirs;
}

std::optional<std::string> interpreter_of(const std::vector<std::string>& pytest_argv) {
  if (pytest_argv.empty()) return std::nullopt;
  const std::string& program = pytest_argv.front();
  std::string name = fs::path(program).filename().string();
  if (name.starts_with("python")) return program;
  std::string head = util::read_head(program, 512);
  if (!head.starts_with("#!")) return std::nullopt;
  std::string_view line = std::string_view(head).substr(2, head.find('\n') - 2);
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  std::vector<std::string> words;
  std::istringstream split{std::string(line)};
  for (std::string w; split >> w;) words.push_back(w);
  if (words.empty()) return std::nullopt;
  if (fs::path(words[0]).filename() == "env" && words.size() > 1) return words[1];
  return words[0];
}

} // namespace impact
