// The analysis mode's names (vocabulary.hpp): as `--mode`, IMPACT_MODE and [tool.impact] mode spell them.
#include "impact/vocabulary.hpp"

namespace impact {

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
