#include "app/replay.hpp"

namespace impact::app {

std::optional<SavedReport> read_saved_decision(const cli::Options& options) {
  if (options.impact_file.empty()) return std::nullopt;
  std::filesystem::path path(options.impact_file);
  if (path.is_relative()) path = options.directory / path;
  return read_report(path, options.impact_file);
}

Analysis replayed_analysis(const SavedReport& saved) {
  Analysis analysis;
  analysis.decision = saved.decision;
  return analysis;
}

} // namespace impact::app
