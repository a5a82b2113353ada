#include "python/namespace_calls.hpp"

namespace impact::python {

NamespaceUse namespace_step(NamespaceCall& c, const Token& t, std::string_view text) {
  auto done = [&](NamespaceUse use) {
    c.stage = 0;
    return use;
  };
  switch (c.stage) {
  case 1: // `globals(`: no argument
    if (t.kind == Tok::rparen && t.depth == c.depth) c.stage = 2;
    else return done(NamespaceUse::reads);
    return NamespaceUse::pending;
  case 2: // `globals()`
    if (t.kind == Tok::dot) c.stage = 3;
    else if (t.kind == Tok::lbracket) c.stage = 4;
    else return done(NamespaceUse::reads);
    return NamespaceUse::pending;
  case 3: // `globals().`: update() stores what it is given; get, pop, setdefault, items read
    return done(t.kind == Tok::name && text == "update" ? NamespaceUse::stores : NamespaceUse::reads);
  case 4: // `globals()[`: the key is code like any other, up to its `]`
    if (t.kind == Tok::rbracket && t.depth == c.depth) c.stage = 5;
    return NamespaceUse::pending;
  case 5: // `globals()[key]`: a store when `=` follows (`+=` reads first)
    return done(t.kind == Tok::assign && t.depth == c.depth ? NamespaceUse::stores : NamespaceUse::reads);
  default: return done(NamespaceUse::pending);
  }
}

} // namespace impact::python
