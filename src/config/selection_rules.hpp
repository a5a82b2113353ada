#pragma once
// [tool.impact] always-run and triggers: the selection rules a user declares (docs/configuration.md).
#include "config/pyproject.hpp"
#include "impact/vocabulary.hpp"

#include <string>
#include <vector>

namespace impact::config {

// `always-run = ["tests/test_smoke.py", "tests/api/*"]`: node ids, test files or globs. Throws
// impact::Error naming `file`, the key and the fix.
std::vector<std::string> read_always_run(const toml::node& node, const std::string& file);

// `triggers = [{ paths = ["schema/*.sql"], run = "all" }, { name = "ui", paths = [...], run = [...] }]`.
std::vector<TriggerRule> read_triggers(const toml::node& node, const std::string& file);

} // namespace impact::config
