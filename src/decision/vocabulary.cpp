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

} // namespace impact
