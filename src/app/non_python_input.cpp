#include "app/non_python_input.hpp"

#include "app/file_mentions.hpp"
#include "app/pytest_command.hpp"

#include "impact/config_sections.hpp"
#include "impact/environment.hpp"
#include "impact/error.hpp"
#include "impact/pins.hpp"
#include "impact/run.hpp"
#include "util/cache_dir.hpp"

#include <algorithm>
#include <set>

namespace impact::app {

namespace {

FileRead current_read(Repository& repo, const std::vector<SourceFile>& inventory, const RepoPath& path) {
  auto it = std::lower_bound(inventory.begin(), inventory.end(), path,
                             [](const SourceFile& f, const RepoPath& p) { return f.path < p; });
  if (it == inventory.end() || it->path != path) return FileRead::absent();
  return repo.read_current(*it);
}

// Both sides of a changed file; a side that is not there is empty. `unread` when a side could not be
// read: its change is then unknown (every section, every pin), never "nothing changed".
struct Sides {
  std::string before, after;
  bool unread = false;
};

Sides sides_of(Repository& repo, const ChangeSet& changes, const std::vector<SourceFile>& inventory,
               const ChangedFile& change) {
  Sides s;
  auto take = [&s](FileRead read, std::string& into) {
    s.unread = s.unread || read.is_error();
    if (read.has_content()) into = std::move(read.text);
  };
  if (!change.old_path.empty()) take(repo.read_base(changes, change.old_path), s.before);
  if (!change.new_path.empty()) take(current_read(repo, inventory, change.new_path), s.after);
  return s;
}

// pyproject.toml's dependency lists, group by group, as one pin change.
PinChange dependency_lists_change(const RepoPath& path, const Sides& s) {
  auto a = dependency_lists(s.before);
  auto b = dependency_lists(s.after);
  if (!a || !b) return PinChange{path, std::nullopt};
  std::set<std::string> groups;
  for (const auto* lists : {&*a, &*b}) {
    for (const auto& [group, items] : *lists) groups.insert(group);
  }
  PinDiff total;
  std::set<std::string> moved;
  for (const auto& group : groups) {
    auto find = [&](const auto& lists) {
      auto it = std::find_if(lists.begin(), lists.end(), [&](const auto& l) { return l.first == group; });
      return it == lists.end() ? std::vector<std::string>{} : it->second;
    };
    auto diff = requirement_list_diff(find(*a), find(*b));
    if (!diff) return PinChange{path, std::nullopt};
    moved.insert(diff->distributions.begin(), diff->distributions.end());
  }
  total.distributions.assign(moved.begin(), moved.end());
  return PinChange{path, total};
}

} // namespace

std::optional<Environment> pytest_environment(const ImpactConfig& config, const EnvLookup& env,
                                              const std::filesystem::path& root) {
  auto pytest = find_configured_pytest(config, env, root);
  if (!pytest) return std::nullopt;
  auto interpreter = interpreter_of(pytest->argv);
  if (!interpreter) return std::nullopt;
  auto cache = util::cache_dir(root, env) / "environment.json";
  return read_environment_cached(*interpreter, root, cache, env("PYTHONPATH").value_or(""));
}

bool needs_facts_for_non_python(const ChangeSet& changes) {
  return std::any_of(changes.files.begin(), changes.files.end(), [](const ChangedFile& f) {
    return !f.submodule && (non_python_reads_facts(f.new_path) || non_python_reads_facts(f.old_path));
  });
}

NonPythonInput non_python_input(Repository& repo, const ChangeSet& changes, const std::vector<SourceFile>& inventory,
                                const PytestConfig& pytest, const ImpactConfig& config, const EnvLookup& env,
                                std::optional<Environment>& environment) {
  NonPythonInput in;
  in.pytest_args = pytest.addopts;
  if (config.mode.value == Mode::safe) return in; // every such file runs everything: nothing to read
  for (const auto& change : changes.files) {
    const RepoPath& path = change.new_path.empty() ? change.old_path : change.new_path;
    if (change.submodule || path.ends_with(".py")) continue;
    if (sectioned_config(path)) {
      Sides s = sides_of(repo, changes, inventory, change);
      auto sections = s.unread ? std::nullopt : changed_sections(path, s.before, s.after);
      std::vector<std::string> no_tests;
      if (path.filename() == "tox.ini" && sections) no_tests = sections_running_no_tests(s.before, s.after, *sections);
      in.sections.push_back(ConfigSections{path, sections, std::move(no_tests)});
      if (path.filename() == "pyproject.toml" && sections &&
          std::any_of(sections->begin(), sections->end(), [](const std::string& x) { return dependency_section(x); })) {
        in.pins.push_back(s.unread ? PinChange{path, std::nullopt} : dependency_lists_change(path, s));
      }
    } else if (PinFile kind = pin_file_kind(path); kind != PinFile::none) {
      Sides s = sides_of(repo, changes, inventory, change);
      in.pins.push_back(PinChange{path, s.unread ? std::nullopt : pin_diff(kind, s.before, s.after)});
    }
  }
  if (std::any_of(in.pins.begin(), in.pins.end(), [](const PinChange& p) { return p.diff.has_value(); })) {
    environment = pytest_environment(config, env, repo.root());
    if (environment) in.environment = &*environment;
  }
  // Read only when a file that may be quiet changed: the readme and license rule is the only reader.
  if (needs_facts_for_non_python(changes)) {
    // Unread, its readme and license files would look quiet: stop instead.
    FileRead pyproject = current_read(repo, inventory, RepoPath("pyproject.toml"));
    if (pyproject.is_error()) throw Error("{}; impact reads its [project] readme and license: make it readable", pyproject.problem);
    in.packaging_files = packaging_files(pyproject.text);
  }
  MentionSearch search = find_mentions(repo, changes, inventory);
  in.mentions = std::move(search.mentions);
  in.mentions_unknown = std::move(search.unknown);
  return in;
}

} // namespace impact::app
