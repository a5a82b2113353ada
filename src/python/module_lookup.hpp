#pragma once
// `sys.modules["a.b"]`, `sys.modules.get("a.b")` and `sys.modules[__name__]`: a lookup by a literal key
// gives one module, or none of the project's (docs/selection.md `dynamic-access`). The reference
// collector holds the chain `sys.modules` back at the bracket, and this decides from the next tokens
// whether it is recorded as a lookup of that one module (k_module_lookup) or as it was.
#include "impact/python/facts.hpp"
#include "python/lexer.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace impact::python {

class ModuleLookup {
public:
  // At bracket `kind` (`[` or `(`) ending the open chain `chain` of owner `owner`: whether it is
  // `sys.modules[` or `sys.modules.get(` (then the chain is held here, and not to be recorded yet).
  bool opens(std::string_view chain, Tok kind, int32_t owner);
  // The token after the bracket, then the one after the key: the chain to record once the lookup is
  // decided (for owner()), else nullopt while it is still open.
  std::optional<std::string> next(Tok kind, std::string_view text);
  bool active() const { return m_stage != 0; }
  int32_t owner() const { return m_owner; }

private:
  int m_stage = 0; // 1: after the bracket; 2: after a literal key
  Tok m_close = Tok::rbracket;
  int32_t m_owner = -1;
  std::string m_chain;
  std::string m_key;
};

} // namespace impact::python
