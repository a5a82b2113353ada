#include "impact/pins.hpp"

#include "config/logical_lines.hpp"

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace impact {

namespace {

using Entries = std::map<std::string, std::multiset<std::string>>; // name (or "?line") -> its texts

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_'; }

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// pip's comment rule: '#' at the start of a line or after whitespace.
std::string strip_comment(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) return trim(line.substr(0, i));
  }
  return trim(line);
}

std::string collapse_spaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '\t') continue;
    out += c;
  }
  return out;
}

} // namespace

std::vector<std::string> logical_lines(std::string_view text) {
  std::vector<std::string> out;
  std::string pending;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\\') {
      pending.append(line.substr(0, line.size() - 1));
      pending += ' ';
    } else {
      pending.append(line);
      std::string logical = strip_comment(pending);
      if (!logical.empty()) out.push_back(std::move(logical));
      pending.clear();
    }
    pos = end + 1;
  }
  if (!pending.empty()) {
    std::string logical = strip_comment(pending);
    if (!logical.empty()) out.push_back(std::move(logical));
  }
  return out;
}

namespace {

void add_requirement(Entries& entries, std::string_view line) {
  std::string name = line.starts_with("-") ? std::string() : requirement_name(line);
  // The key is built by appending: GCC 12 at -O3 warns (-Wrestrict) on a literal + a temporary string.
  std::string key = "?";
  key += collapse_spaces(line);
  if (name.empty()) entries[key].insert(collapse_spaces(line));
  else entries[name].insert(collapse_spaces(line));
}

// Names whose entries differ; false when an unnamed line ("?...") differs.
bool differing(const Entries& a, const Entries& b, std::set<std::string>& out) {
  std::set<std::string> keys;
  for (const auto* e : {&a, &b}) {
    for (const auto& [k, v] : *e) keys.insert(k);
  }
  static const std::multiset<std::string> none;
  for (const auto& k : keys) {
    auto x = a.find(k);
    auto y = b.find(k);
    const auto& xs = x == a.end() ? none : x->second;
    const auto& ys = y == b.end() ? none : y->second;
    if (xs == ys) continue;
    if (k.starts_with("?")) return false;
    out.insert(k);
  }
  return true;
}

std::optional<Entries> requirement_entries(std::string_view text) {
  Entries entries;
  for (const auto& line : logical_lines(text)) add_requirement(entries, line);
  return entries;
}

// The distributions two sides' entries differ in; nullopt when a side cannot be read or an unnamed
// line differs. No graph: what depends on them is the installed environment's to say.
std::optional<PinDiff> entries_diff(const std::optional<Entries>& a, const std::optional<Entries>& b) {
  std::set<std::string> changed;
  if (!a || !b || !differing(*a, *b, changed)) return std::nullopt;
  return PinDiff{std::vector<std::string>(changed.begin(), changed.end()), {}, false};
}

// --- lockfiles -------------------------------------------------------------------------------------

struct Locked {
  Entries entries;                                       // name -> the package tables, as text
  std::map<std::string, std::set<std::string>> depends;  // name -> names it depends on
  std::map<std::string, std::set<std::string>> members;  // workspace member -> its dependency names
};

std::string text_of(const toml::table& t) {
  std::ostringstream out;
  out << t;
  return out.str();
}

std::set<std::string> dependency_names(PinFile kind, const toml::table& package) {
  std::set<std::string> out;
  auto add_array = [&](const toml::array* deps) {
    if (deps == nullptr) return;
    for (const auto& d : *deps) {
      if (const auto* t = d.as_table()) {
        if (auto n = (*t)["name"].value<std::string>()) out.insert(normalize_distribution(*n));
      } else if (auto s = d.value<std::string>()) {
        std::string n = requirement_name(*s);
        if (!n.empty()) out.insert(n);
      }
    }
  };
  if (kind == PinFile::poetry_lock) {
    if (const auto* deps = package["dependencies"].as_table()) {
      for (const auto& [k, v] : *deps) out.insert(normalize_distribution(k.str()));
    }
    return out;
  }
  add_array(package["dependencies"].as_array());
  for (std::string_view group : {"optional-dependencies", "dev-dependencies"}) {
    if (const auto* groups = package[group].as_table()) {
      for (const auto& [k, v] : *groups) add_array(v.as_array());
    }
  }
  return out;
}

// A uv workspace member (the project itself, or a path dependency built from the repository): its
// entry changes with the project's own requirements, not with anything installed from an index.
bool workspace_member(const toml::table& package) {
  const auto* source = package["source"].as_table();
  if (source == nullptr) return false;
  return source->contains("editable") || source->contains("virtual") || source->contains("directory");
}

std::optional<Locked> lock_entries(PinFile kind, std::string_view text) {
  Locked locked;
  if (text.empty()) return locked;
  toml::table doc;
  try {
    doc = toml::parse(text);
  } catch (const toml::parse_error&) {
    return std::nullopt;
  }
  const auto* packages = doc["package"].as_array();
  if (packages == nullptr) return locked;
  for (const auto& node : *packages) {
    const auto* package = node.as_table();
    if (package == nullptr) return std::nullopt;
    auto name = (*package)["name"].value<std::string>();
    if (!name) return std::nullopt;
    std::string n = normalize_distribution(*name);
    auto deps = dependency_names(kind, *package);
    if (kind == PinFile::uv_lock && workspace_member(*package)) {
      locked.members[n].insert(deps.begin(), deps.end());
      continue;
    }
    locked.entries[n].insert(text_of(*package));
    locked.depends[n].insert(deps.begin(), deps.end());
  }
  return locked;
}

std::optional<Entries> pipfile_entries(std::string_view text) {
  Entries entries;
  if (text.empty()) return entries;
  auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  for (const char* section : {"default", "develop"}) {
    auto it = doc.find(section);
    if (it == doc.end()) continue;
    if (!it->is_object()) return std::nullopt;
    for (const auto& [name, entry] : it->items()) {
      entries[normalize_distribution(name)].insert(std::string(section) + entry.dump());
    }
  }
  return entries;
}

// Every distribution that depends on one of `changed`, transitively, with `changed` itself.
std::set<std::string> with_dependents(const std::set<std::string>& changed,
                                      const std::map<std::string, std::set<std::string>>& depends) {
  std::map<std::string, std::vector<std::string>> reverse;
  for (const auto& [name, deps] : depends) {
    for (const auto& d : deps) reverse[d].push_back(name);
  }
  std::set<std::string> out(changed.begin(), changed.end());
  std::vector<std::string> queue(changed.begin(), changed.end());
  while (!queue.empty()) {
    std::string next = std::move(queue.back());
    queue.pop_back();
    auto it = reverse.find(next);
    if (it == reverse.end()) continue;
    for (const auto& parent : it->second) {
      if (out.insert(parent).second) queue.push_back(parent);
    }
  }
  return out;
}

std::optional<PinDiff> lock_diff(PinFile kind, std::string_view before, std::string_view after) {
  auto a = lock_entries(kind, before);
  auto b = lock_entries(kind, after);
  if (!a || !b) return std::nullopt;
  std::set<std::string> changed;
  differing(a->entries, b->entries, changed);
  // A workspace member's changed dependency names are distributions that came or went.
  std::set<std::string> members;
  for (const auto* l : {&*a, &*b}) {
    for (const auto& [m, deps] : l->members) members.insert(m);
  }
  for (const auto& m : members) {
    auto x = a->members.find(m);
    auto y = b->members.find(m);
    std::set<std::string> xs = x == a->members.end() ? std::set<std::string>() : x->second;
    std::set<std::string> ys = y == b->members.end() ? std::set<std::string>() : y->second;
    std::set_symmetric_difference(xs.begin(), xs.end(), ys.begin(), ys.end(), std::inserter(changed, changed.end()));
  }
  auto graph = a->depends;
  for (const auto& [name, deps] : b->depends) graph[name].insert(deps.begin(), deps.end());
  PinDiff diff{std::vector<std::string>(changed.begin(), changed.end()), {}, true};
  for (const auto& name : changed) {
    auto all = with_dependents({name}, graph);
    all.erase(name);
    diff.dependents.emplace(name, std::vector<std::string>(all.begin(), all.end()));
  }
  return diff;
}

} // namespace

PinFile pin_file_kind(const RepoPath& path) {
  std::string_view name = path.filename();
  if (name == "uv.lock") return PinFile::uv_lock;
  if (name == "poetry.lock") return PinFile::poetry_lock;
  if (name == "pdm.lock") return PinFile::pdm_lock;
  if (name == "Pipfile.lock") return PinFile::pipfile_lock;
  bool req_name = name.starts_with("requirements") || name.starts_with("constraints");
  bool req_dir = path.parent().ends_with("requirements");
  bool req_ext = name.ends_with(".txt") || name.ends_with(".in");
  return (req_name || req_dir) && req_ext ? PinFile::requirements : PinFile::none;
}

std::string normalize_distribution(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (!out.empty() && out.back() != '-') out += '-';
      continue;
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string requirement_name(std::string_view requirement) {
  std::string r = trim(requirement);
  if (r.empty() || std::isalnum(static_cast<unsigned char>(r[0])) == 0) return {};
  size_t end = 0;
  while (end < r.size() && name_char(r[end])) ++end;
  if (end < r.size() && std::string_view(" \t[<>=!~;@(,").find(r[end]) == std::string_view::npos) return {};
  std::string_view name(r.data(), end);
  for (std::string_view archive : {".whl", ".tar.gz", ".zip", ".tgz", ".tar.bz2"}) {
    if (name.ends_with(archive)) return {};
  }
  return normalize_distribution(name);
}

std::optional<PinDiff> pin_diff(PinFile kind, std::string_view before, std::string_view after) {
  switch (kind) {
  case PinFile::none: return std::nullopt;
  case PinFile::requirements: return entries_diff(requirement_entries(before), requirement_entries(after));
  case PinFile::pipfile_lock: return entries_diff(pipfile_entries(before), pipfile_entries(after));
  case PinFile::uv_lock:
  case PinFile::poetry_lock:
  case PinFile::pdm_lock: return lock_diff(kind, before, after);
  }
  return std::nullopt;
}

std::optional<PinDiff> requirement_list_diff(const std::vector<std::string>& before,
                                             const std::vector<std::string>& after) {
  Entries a, b;
  for (const auto& r : before) add_requirement(a, r);
  for (const auto& r : after) add_requirement(b, r);
  std::set<std::string> changed;
  if (!differing(a, b, changed)) return std::nullopt;
  return PinDiff{std::vector<std::string>(changed.begin(), changed.end()), {}, false};
}

} // namespace impact
