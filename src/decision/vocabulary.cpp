// The decision's vocabulary as text: the one place its enums become the words that text and JSON
// output print (docs/json.md: they are never renamed).
#include "impact/decision.hpp"

namespace impact {

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
  case Outcome::selected: return "selected";
  case Outcome::run_all: return "run_all";
  case Outcome::nothing: return "nothing";
  }
  return "nothing";
}

std::string_view to_string(Mode mode) {
  switch (mode) {
  case Mode::fast: return "fast";
  case Mode::balanced: return "balanced";
  case Mode::safe: return "safe";
  }
  return "balanced";
}

std::optional<Mode> parse_mode(std::string_view text) {
  if (text == "fast") return Mode::fast;
  if (text == "balanced") return Mode::balanced;
  if (text == "safe") return Mode::safe;
  return std::nullopt;
}

} // namespace impact
