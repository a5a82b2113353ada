#pragma once
// docs/selection.md `conftest-subtree`: pytest calls most hooks (pytest_collection_modifyitems,
// pytest_configure, pytest_sessionstart, ...) for the whole session, from every conftest.py and plugin
// it loaded, wherever it lies; only the hooks of a node's own path stay within a conftest.py's folder.
#include "decision/decide_parts.hpp"
#include "decision/walk.hpp"
#include "impact/graph.hpp"
#include "impact/project.hpp"
#include "impact/python/project_facts.hpp"

#include <cstdint>
#include <optional>
#include <utility>

namespace impact::decision::rules {

// The first conftest.py or plugin `walk` reached that implements a whole-session hook (session_hook()),
// with the hook's line.
std::optional<std::pair<uint32_t, uint32_t>> session_hook_file(const ImportGraph& graph, const ProjectFacts& facts,
                                                               const ReverseWalk& walk);
// When `reach` (by default `walk` itself; a walk `walk` holds all of) reached such a file, links every
// test file to it in `walk` (relation `pytest_hook`) and runs the walk on: the hook may change how any
// test runs (`pytest_collection_modifyitems` marking a test of another folder xfail,
// `pytest_configure` setting the environment).
void link_session_hooks(const DecisionInput& in, ReverseWalk& walk, const ReverseWalk* reach = nullptr);

// The line of a hook `wanted` accepts when `node` is a conftest.py or plugin defining one: a function, a
// method of a plugin object (`config.pluginmanager.register(Plugin())`), or a name bound by assignment
// (`pytest_collect_file = make_hook(".case")`, line 1).
std::optional<uint32_t> hook_line(const ImportGraph& graph, const ProjectFacts& facts, uint32_t node, FactsView& view,
                                  bool (*wanted)(std::string_view));

// docs/selection.md `collect-hook`: a conftest.py or plugin defining `pytest_collect_file` makes pytest
// items of files that may not be Python, or of Python files no test imports (YAML cases, `.case`
// files, examples run as tests), which no graph node stands for: the whole suite runs, the hook named.
//
// Whether `name` is a hook that makes items pytest would not: pytest_collect_file,
// pytest_pycollect_makeitem, pytest_pycollect_makemodule, pytest_collect_directory.
bool collect_hook_name(std::string_view name);
// When `walk` reached such a file (its hook may run the change).
std::optional<Trigger> collect_hook_trigger(const DecisionInput& in, const ReverseWalk& walk);
// When `node` itself defines one (its computed import may load the change).
std::optional<Trigger> collect_hook_at(const DecisionInput& in, uint32_t node);
// For a hook (in `node`, on `line`) the symbol walk reached (SymbolResult::collect_hook).
Trigger collect_hook_trigger(const ImportGraph& graph, uint32_t node, uint32_t line);
// When a hook may collect `file` itself: a full run visits its folder (`layout`; nullptr: it may), and a
// conftest.py in its folder or above defines one, or a plugin.
std::optional<Trigger> collect_hook_over(const ImportGraph& graph, const ProjectFacts& facts, const ProjectLayout* layout,
                                         const RepoPath& file);

} // namespace impact::decision::rules
