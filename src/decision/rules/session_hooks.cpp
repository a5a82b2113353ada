#include "decision/rules/session_hooks.hpp"

#include "decision/rules/registration.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace impact::decision::rules {

namespace {

// The line of a `from m import name` of `node` whose bound name `wanted` accepts: a hook defined in a
// helper module and imported into a conftest.py (`from hooks import pytest_collection_modifyitems`).
std::optional<uint32_t> imported_name(const ProjectFacts& facts, uint32_t node, bool (*wanted)(std::string_view)) {
  ImportScratch scratch;
  facts.imports(node, scratch);
  for (const ImportView& imp : scratch.imports) {
    if (imp.kind != ImportKind::from) continue;
    for (size_t a = imp.aliases_begin; a < imp.aliases_end; ++a) {
      if (wanted(scratch.aliases[a])) return imp.line;
    }
  }
  return std::nullopt;
}

// Hooks are read from conftest.py files and plugins (`pytest_plugins`, `-p`, entry points) only.
bool hook_holder(const ImportGraph& graph, uint32_t node) {
  return graph.nodes[node].conftest || std::any_of(graph.in[node].begin(), graph.in[node].end(), [](const auto& e) {
           return e.second.kind == EdgeKind::pytest_plugin;
         });
}

} // namespace

std::optional<std::pair<uint32_t, uint32_t>> session_hook_file(const ImportGraph& graph, const ProjectFacts& facts,
                                                               const ReverseWalk& walk) {
  FactsView view;
  for (uint32_t node : walk.order()) {
    if (auto line = hook_line(graph, facts, node, view, &session_hook_name)) return std::pair{node, *line};
  }
  return std::nullopt;
}

void link_session_hooks(const DecisionInput& in, ReverseWalk& walk, const ReverseWalk* reach) {
  const ProjectFacts* facts = facts_read(in);
  auto hook = facts != nullptr ? session_hook_file(in.graph, *facts, reach != nullptr ? *reach : walk) : std::nullopt;
  if (!hook) return;
  for (uint32_t node = 0; node < in.graph.nodes.size(); ++node) {
    const GraphNode& n = in.graph.nodes[node];
    if (n.test && !n.ghost) walk.link(node, hook->first, Relation::pytest_hook, hook->second);
  }
  walk.run();
}

std::optional<uint32_t> hook_line(const ImportGraph& graph, const ProjectFacts& facts, uint32_t node, FactsView& view,
                                  bool (*wanted)(std::string_view)) {
  if (node >= facts.size() || graph.nodes[node].ghost || !hook_holder(graph, node)) return std::nullopt;
  facts.view(node, view);
  for (const SymbolView& s : view.symbols) {
    std::string_view qualname = s.qualname;
    if (wanted(qualname.substr(qualname.rfind('.') + 1))) return s.def_line;
  }
  for (std::string_view name : view.module_names) {
    if (wanted(name)) return 1u;
  }
  return imported_name(facts, node, wanted);
}

namespace {

std::optional<uint32_t> collect_hook_line(const ImportGraph& graph, const ProjectFacts& facts, uint32_t node,
                                          FactsView& view) {
  return hook_line(graph, facts, node, view, &collect_hook_name);
}

} // namespace

bool collect_hook_name(std::string_view name) {
  return name == "pytest_collect_file" || name == "pytest_pycollect_makeitem" || name == "pytest_pycollect_makemodule" ||
         name == "pytest_collect_directory";
}

std::optional<Trigger> collect_hook_trigger(const DecisionInput& in, const ReverseWalk& walk) {
  const ProjectFacts* facts = facts_read(in);
  if (facts == nullptr) return std::nullopt;
  FactsView view;
  for (uint32_t node : walk.order()) {
    if (auto line = collect_hook_line(in.graph, *facts, node, view)) return collect_hook_trigger(in.graph, node, *line);
  }
  return std::nullopt;
}

std::optional<Trigger> collect_hook_at(const DecisionInput& in, uint32_t node) {
  const ProjectFacts* facts = facts_read(in);
  FactsView view;
  auto line = facts != nullptr ? collect_hook_line(in.graph, *facts, node, view) : std::nullopt;
  return line ? std::optional<Trigger>(collect_hook_trigger(in.graph, node, *line)) : std::nullopt;
}

Trigger collect_hook_trigger(const ImportGraph& graph, uint32_t node, uint32_t line) {
  return Trigger{Reason::collect_hook,
                 fmt::format("{}:{} defines a collection hook (pytest_collect_file and its kind) and the change reaches it: the items it makes from "
                             "files that may not be Python are not known before pytest collects them",
                             graph.nodes[node].path.str, line)};
}

std::optional<Trigger> collect_hook_over(const ImportGraph& graph, const ProjectFacts& facts, const ProjectLayout* layout,
                                         const RepoPath& file) {
  if (layout != nullptr && !layout->is_collected_path(file)) return std::nullopt; // pytest never visits it
  FactsView view;
  for (uint32_t node = 0; node < graph.nodes.size(); ++node) {
    const GraphNode& n = graph.nodes[node];
    if (n.conftest && !file.is_within(n.path.parent())) continue;
    auto line = collect_hook_line(graph, facts, node, view);
    if (!line) continue;
    return Trigger{Reason::collect_hook,
                   fmt::format("{}:{} defines a collection hook (pytest_collect_file and its kind), which may collect {} as a test; no import leads "
                               "there from a test file",
                               n.path.str, *line, file)};
  }
  return std::nullopt;
}

} // namespace impact::decision::rules
