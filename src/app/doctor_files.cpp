// `impact doctor`: the files that are not Python and would run the whole suite if they changed, with
// no rule to bound them. Each is judged by the decision itself, as a change to it would be.
#include "app/doctor.hpp"

#include "app/non_python_input.hpp"
#include "impact/environment.hpp"
#include "impact/decision.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"

#include <fmt/format.h>

#include <map>

namespace impact::app {

namespace {

// Every file of the state under test that is not Python, as a change to it.
ChangeSet every_non_python_file(const ChangeSet& base, const std::vector<SourceFile>& inventory) {
  ChangeSet out;
  out.base = base.base;
  for (const auto& f : inventory) {
    if (f.path.ends_with(".py")) continue;
    ChangedFile change;
    change.status = FileStatus::modified;
    change.old_path = f.path;
    change.new_path = f.path;
    out.files.push_back(std::move(change));
  }
  return out;
}

// The top-level folder that holds `path`, as an ignore glob would name it: a repository with many
// nested folders is summed up in a few lines, each one fix.
std::string folder_of(const RepoPath& path) {
  std::string_view p = path.view();
  size_t slash = p.find('/');
  return slash == std::string_view::npos ? std::string("(root)") : std::string(p.substr(0, slash + 1));
}

// A glob for the fix: the first folder's, or the first file's when only the root holds any.
std::string ignore_example(const std::map<std::string, size_t>& folders, const std::vector<std::string>& files) {
  for (const auto& [folder, n] : folders) {
    if (folder != "(root)") return folder + "**";
  }
  return files.front();
}

} // namespace

Check non_python_check(Repository& repo, const DoctorProject& project, const ImpactConfig& config,
                       const PytestConfig& pytest, const EnvLookup& env) {
  Check c{"non_python", CheckStatus::ok, "", "", {}, {}};
  if (config.mode.value == Mode::safe) {
    c.what = "--mode safe runs the whole suite for every file that is not Python, by choice";
    return c;
  }
  ChangeSet changes = every_non_python_file(project.changes, project.inventory);
  std::vector<FileSemantics> semantics; // no Python file is in the change
  DecisionInput input{changes, *project.graph, config.ignore.value, config.strict.value, config.mode.value};
  input.facts = project.facts;
  input.layout = project.layout;
  input.semantics = &semantics;
  input.text_doctests = project.text_doctests;
  input.triggers = config.triggers.value; // a list trigger bounds a file no other rule does
  // What the rules read besides the facts, read as a selection reads it for the same change set.
  std::optional<Environment> environment;
  input.non_python = non_python_input(repo, changes, project.inventory, pytest, config, env, environment);
  input.non_python.facts = project.facts;
  Decision decision = decide(input);

  std::string run_all = fmt::format("run_all: {}", to_string(Reason::non_python_changed));
  std::vector<std::string> files;
  std::map<std::string, size_t> folders;
  for (const auto& verdict : decision.files) {
    if (verdict.effect != run_all) continue;
    files.push_back(verdict.path.str);
    ++folders[folder_of(verdict.path)];
  }
  c.lists = {{"files", files}};
  if (files.empty()) {
    c.what = fmt::format("every file that is not Python ({}) has a rule that bounds what a change to it runs",
                         changes.files.size());
    return c;
  }
  for (const auto& [folder, n] : folders) c.items.push_back(fmt::format("{} ({})", folder, n));
  c.status = CheckStatus::warn;
  c.what = fmt::format("{} file(s) that are not Python would run the whole suite if they changed "
                       "(non_python_changed): no rule bounds them",
                       files.size());
  c.fix = fmt::format("if no test reads them, add their folders to [tool.impact] ignore (ignore = [\"{}\"]); if "
                      "tests read them in ways no string shows, name the files in an # impact-loads: comment of the "
                      "reader, or declare [tool.impact] triggers",
                      ignore_example(folders, files));
  return c;
}

} // namespace impact::app
