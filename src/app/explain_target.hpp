#pragma once
// What `impact explain` may be asked about: a test node id, a test file or folder, or a changed file.
// A target that is none of these is a typo, and "[SKIPPED]" for it would read as "safe to skip".
#include "impact/decision.hpp"

#include <filesystem>
#include <string>

namespace impact::app {

// Throws impact::Error (exit 2) when `target` is empty, when its file part (before the first "::") is
// neither a changed file of `decision` nor a file or folder of the work tree at `root`, or when it
// names a test function or class that its Python file does not bind at module level (checked only
// where the file can be read and says all it binds: no star import, no computed globals).
void check_explain_target(const std::string& target, const Decision& decision, const std::filesystem::path& root);

} // namespace impact::app
