#pragma once
// `globals()` followed token by token (docs/selection.md `dynamic-access`): code that only stores into
// the module's namespace (`globals()[key] = value`, `globals().update(...)`) reads no name by it; any
// other use (a subscript read, `.get`, `+=`, the dict passed on) may read any name.
#include "python/lexer.hpp"

#include <cstdint>
#include <string_view>

namespace impact::python {

struct NamespaceCall {
  int stage = 0;      // 0: none; 1: after `globals(`; then step() moves it on
  int32_t owner = -1; // whose code called globals()
  uint32_t depth = 0; // the bracket depth of its `(`
};

enum class NamespaceUse { pending, reads, stores };

// Takes the next token `t` (whose text is `text`) after a `globals(`: `pending` while the use is not
// known yet; once it is, the call's stage is back at 0.
NamespaceUse namespace_step(NamespaceCall& c, const Token& t, std::string_view text);

} // namespace impact::python
