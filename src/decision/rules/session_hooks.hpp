#pragma once
// docs/selection.md `conftest-subtree`: pytest calls most hooks (pytest_collection_modifyitems,
// pytest_configure, pytest_sessionstart, ...) for the whole session, from every conftest.py and plugin
// it loaded, wherever it lies; only the hooks of a node's own path stay within a conftest.py's folder.
#include "decision/walk.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"

#include <cstdint>
#include <optional>
#include <utility>

namespace impact::decision::rules {

// The first conftest.py or plugin `walk` reached that implements a whole-session hook (session_hook()),
// with the hook's line.
std::optional<std::pair<uint32_t, uint32_t>> session_hook_file(const ImportGraph& graph, const ProjectFacts& facts,
                                                               const ReverseWalk& walk);

} // namespace impact::decision::rules
