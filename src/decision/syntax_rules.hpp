#pragma once
// docs/selection.md, syntax-error: a changed file that CPython may not compile breaks every import of
// it. Its importers are selected at file level (FileSemantics::runs_at_import); when a conftest.py or a
// session plugin loads it, pytest cannot start the session, and only a full run shows it.
#include "impact/decision.hpp"

#include <optional>
#include <string>

namespace impact::decision {

// The conftest.py or pytest plugin that loads `node` (or is it), directly or through imports; nullopt
// when no session-wide file does.
std::optional<std::string> session_loader(const ImportGraph& graph, uint32_t node);

// The run_all detail for a file that does not compile and that `loader` loads into every session.
std::string session_failure(const SyntaxProblem& problem, const std::string& loader);

} // namespace impact::decision
