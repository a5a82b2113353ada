#pragma once
// impact's own output is not a change. `impact select --format json > impact.json` run in the working
// tree has the shell create impact.json before impact starts, and the analysis would see an untracked
// non-Python file and run everything; `impact audit --format json > audit.json` likewise.
#include "impact/config.hpp"
#include "impact/decision.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace impact::app {

// When standard output is a regular file inside the working tree at `root`, leaves it out of the
// analysis (an ignore pattern anchored at the root) and returns its repository-relative path.
std::optional<std::string> ignore_own_output(ImpactConfig& config, const std::filesystem::path& root);

// Says in the file's verdict what it is, rather than "ignored by [tool.impact] ignore".
void label_own_output(Decision& decision, const std::optional<std::string>& path);

} // namespace impact::app
