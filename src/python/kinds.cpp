#include "impact/python/facts.hpp"

namespace impact {

std::string_view to_string(ImportKind kind) {
  switch (kind) {
  case ImportKind::plain: return "import";
  case ImportKind::from: return "from";
  case ImportKind::star: return "star";
  case ImportKind::dynamic: return "dynamic";
  case ImportKind::plugin: return "plugin";
  case ImportKind::string_ref: return "string_ref";
  }
  return "import";
}

std::string_view to_string(SymbolKind kind) {
  switch (kind) {
  case SymbolKind::function: return "function";
  case SymbolKind::method: return "method";
  case SymbolKind::class_: return "class";
  }
  return "function";
}

} // namespace impact
