// handed_names(): one pass over the tokens with a stack of open brackets, reading each argument of a
// call and each element of a display as it closes.
#include "python/handed_values.hpp"

#include "impact/python/names.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace impact::python {
namespace {

// Callees that only look at a value: handing them a class runs none of its named methods.
bool only_inspects(std::string_view callee) {
  if (callee.empty()) return false; // a computed callee may be anything
  // Builtins that call special and protocol methods only (rules of their own), the methods and
  // types by which a list, deque or namespace keeps a value, logging's calls (which format it),
  // pytest's markers and assertions that keep or compare a value.
  static constexpr std::array<std::string_view, 72> k_callees = {
      "debug",      "info",       "warning",    "error",  "exception", "critical",    "log",       "append",
      "extend",     "insert",     "appendleft", "remove", "deque",     "partial",     "ChainMap",  "SimpleNamespace",
      "OrderedDict", "defaultdict", "MappingProxyType",
      "isinstance", "issubclass", "type",      "id",     "super",     "hasattr",     "getattr",   "setattr",
      "delattr",    "callable",   "print",     "repr",   "str",       "len",         "bool",      "hash",
      "cast",       "dir",        "vars",      "iter",   "next",      "format",      "dict",      "list",
      "tuple",      "set",        "frozenset", "sorted", "reversed",  "min",         "max",       "sum",
      "any",        "all",        "enumerate", "zip",    "map",       "filter",      "int",       "float",
      "abs",        "round",      "bytes",     "raises", "warns",     "parametrize", "param",     "approx",
      "assertIsInstance", "assertRaises", "assertEqual", "assertIs", "assertIn"};
  return std::find(k_callees.begin(), k_callees.end(), callee) != k_callees.end();
}

// Callees whose positional arguments are only serialized or copied, through special methods (rules
// of their own): `pickle.dumps(obj)`, `copy.deepcopy(obj)`. A keyword argument still counts
// (`json.dumps(obj, cls=Encoder)` calls the encoder's `default`).
bool copies_positionals(std::string_view callee) {
  return callee == "dumps" || callee == "dump" || callee == "deepcopy" || callee == "copy";
}

class Reader {
public:
  Reader(std::string_view src, const std::vector<Token>& tokens) : m_src(src), m_t(tokens) {}

  std::string_view text(size_t i) const { return m_src.substr(m_t[i].begin, m_t[i].end - m_t[i].begin); }
  bool is(size_t i, Tok kind) const { return i < m_t.size() && m_t[i].kind == kind; }
  bool plain_name(size_t i) const { return is(i, Tok::name) && !is_keyword(text(i)); }

  // The dotted chain starting at `i` (name (. name)*): its end, and the chain with the dots.
  size_t chain(size_t i, std::string& out) const {
    out.clear();
    if (!plain_name(i)) return i;
    out.append(text(i));
    size_t j = i + 1;
    while (is(j, Tok::dot) && is(j + 1, Tok::name)) {
      out.push_back('.');
      out.append(text(j + 1));
      j += 2;
    }
    return j;
  }

  // The end of the bracket group opened at `i` (one past its closing token), or npos.
  size_t group_end(size_t i) const {
    uint32_t depth = m_t[i].depth;
    for (size_t j = i + 1; j < m_t.size(); ++j) {
      Tok k = m_t[j].kind;
      if ((k == Tok::rparen || k == Tok::rbracket || k == Tok::rbrace) && m_t[j].depth <= depth) return j + 1;
      if (k == Tok::newline) return std::string_view::npos;
    }
    return std::string_view::npos;
  }

  // The chain that tokens [b, e) are, as a value or called once: `Longest`, `logs.ListHandler(level)`.
  // Empty when they are anything else.
  std::string value(size_t b, size_t e) const {
    std::string out;
    size_t c = chain(b, out);
    if (out.empty() || c == e) return out;
    if (is(c, Tok::lparen) && group_end(c) == e) return out;
    return {};
  }

  size_t size() const { return m_t.size(); }
  const Token& at(size_t i) const { return m_t[i]; }

private:
  std::string_view m_src;
  const std::vector<Token>& m_t;
};

enum class Frame : uint8_t { call, display, skip };
struct Open {
  Frame kind;
  bool inert;       // inside a call that only inspects its arguments
  size_t argument;  // first token of the current argument or element
  std::string_view callee; // a call's: the last name before its parenthesis ("" when computed)
  bool in_call = false;     // a call, or a display inside one's arguments (whose callee it keeps)
  bool lambda = false;      // in the parameters of a lambda: its commas split no argument
};

// The innermost function or method whose body holds a byte: the symbol whose body starts last before
// it, then up its parents (bodies nest, so every body holding the byte is one of those).
class FunctionAt {
public:
  explicit FunctionAt(const FileFacts& facts) : m_facts(facts) {
    m_by_begin.reserve(facts.symbols.size());
    for (size_t k = 0; k < facts.symbols.size(); ++k) m_by_begin.push_back(static_cast<int32_t>(k));
    std::sort(m_by_begin.begin(), m_by_begin.end(), [&](int32_t a, int32_t b) {
      return body(a).body_begin != body(b).body_begin ? body(a).body_begin < body(b).body_begin : a < b;
    });
  }

  // Its index in FileFacts::symbols, or -1 at module level or in a class body outside any function.
  int32_t operator()(uint32_t at) const {
    auto it = std::upper_bound(m_by_begin.begin(), m_by_begin.end(), at,
                               [&](uint32_t byte, int32_t k) { return byte < body(k).body_begin; });
    if (it == m_by_begin.begin()) return -1;
    for (int32_t k = *std::prev(it), steps = 0; k >= 0 && steps < 256; k = body(k).parent, ++steps) {
      const Symbol& s = body(k);
      if (s.kind != SymbolKind::class_ && at >= s.body_begin && at < s.body_end) return k;
    }
    return -1;
  }

private:
  const Symbol& body(int32_t k) const { return m_facts.symbols[static_cast<size_t>(k)]; }
  const FileFacts& m_facts;
  std::vector<int32_t> m_by_begin;
};

} // namespace

std::vector<std::string> handed_names(std::string_view source, const std::vector<Token>& tokens, const FileFacts& facts) {
  Reader r(source, tokens);
  FunctionAt function_at(facts);
  // Every parameter name of the file: a chain whose root is one is looked up among the enclosing
  // function's parameters.
  std::vector<std::string_view> params;
  for (const auto& sym : facts.symbols) params.insert(params.end(), sym.params.begin(), sym.params.end());
  std::sort(params.begin(), params.end());
  // Entries "value\tcallee" (python/handed_values.hpp).
  std::vector<std::string> entries;
  auto record = [&](std::string_view chain, std::string_view callee, uint32_t at) {
    std::string_view root = chain.substr(0, chain.find('.'));
    std::string value;
    if (root == "self" || root == "cls" || std::binary_search(params.begin(), params.end(), root)) {
      int32_t f = function_at(at);
      const Symbol* fn = f < 0 ? nullptr : &facts.symbols[static_cast<size_t>(f)];
      if (fn != nullptr && chain == root && (root == "self" || root == "cls") && !fn->params.empty() &&
          fn->params.front() == root && fn->parent >= 0 &&
          facts.symbols[static_cast<size_t>(fn->parent)].kind == SymbolKind::class_) {
        value = facts.symbols[static_cast<size_t>(fn->parent)].name(); // the instance, or the class
      } else if (fn != nullptr && chain == root && std::find(fn->params.begin(), fn->params.end(), root) != fn->params.end()) {
        // Whatever its callers give it; a constructor's callers call its class.
        bool constructor = fn->name() == "__init__" && fn->parent >= 0;
        value.assign(1, '=').append(constructor ? facts.symbols[static_cast<size_t>(fn->parent)].name() : fn->name());
      }
    }
    if (value.empty()) value = last_part(chain);
    auto add = [&](std::string v) {
      v.push_back('\t');
      v.append(callee);
      entries.push_back(std::move(v));
    };
    // A name imported under another name is handed by its own name too.
    for (const auto& imp : facts.imports) {
      for (size_t a = 0; a < imp.aliases.size() && a < imp.names.size(); ++a) {
        if (imp.aliases[a] == chain && imp.names[a] != chain) add(std::string(last_part(imp.names[a])));
      }
    }
    add(std::move(value));
  };
  // Statements `target = value`: what a name or attribute was bound to (a call's callee for an
  // instance), and the bare values, which are handed by being stored.
  std::unordered_multimap<std::string, std::string> bound;
  std::string target, value, returned;
  for (size_t i = 0; i < r.size(); ++i) {
    if (i > 0 && !r.is(i - 1, Tok::newline)) continue;
    if (r.is(i, Tok::name) && r.text(i) == "return") {
      // `return Handler()` in function f: "Handler\t^f", handed wherever f's result is.
      size_t end = i + 1;
      while (end < r.size() && !r.is(end, Tok::newline)) ++end;
      value = r.value(i + 1, end);
      int32_t f = value.empty() ? -1 : function_at(r.at(i).begin);
      if (f >= 0) record(value, returned.assign(1, '^').append(facts.symbols[static_cast<size_t>(f)].name()), r.at(i).begin);
      continue;
    }
    size_t c = r.chain(i, target);
    if (target.empty() || !r.is(c, Tok::assign)) continue;
    size_t end = c + 1;
    while (end < r.size() && !r.is(end, Tok::newline)) ++end;
    value = r.value(c + 1, end);
    if (value.empty()) continue;
    // Stored as it is, not called, in a module or class namespace (a function's local is its own).
    if (r.chain(c + 1, value) == end && function_at(r.at(i).begin) < 0) record(value, "", r.at(i).begin);
    bound.emplace(target, value);
  }

  std::vector<Open> stack;
  auto element = [&](size_t b, size_t e, const Open& frame) {
    Frame kind = frame.kind;
    // A display outside any call holds its elements for the code around it; in a module or class
    // namespace (a registry), for anyone.
    if (kind == Frame::display && !frame.in_call && function_at(r.at(b < e ? b : e).begin) >= 0) return;
    if (b < e && r.is(b, Tok::other) && (r.text(b) == "*" || r.text(b) == "**")) ++b;
    if (kind == Frame::call && r.plain_name(b) && r.is(b + 1, Tok::assign)) {
      b += 2; // a keyword argument
    } else if (kind == Frame::call && copies_positionals(frame.callee)) {
      return;
    }
    if (kind == Frame::display) {
      // A dict display's value: what follows the key's colon at the element's own depth.
      for (size_t k = b; k < e; ++k) {
        if (r.is(k, Tok::colon) && r.at(k).depth == r.at(b).depth) b = k + 1;
      }
    }
    // A lambda hands what its body makes: `create_aggregate("longest", 1, lambda: Longest(n))`.
    if (b < e && r.is(b, Tok::name) && r.text(b) == "lambda") {
      size_t k = b + 1;
      while (k < e && !(r.is(k, Tok::colon) && r.at(k).depth == r.at(b).depth)) ++k;
      b = k + 1;
    }
    if (b >= e) return;
    std::string chain = r.value(b, e);
    if (chain.empty()) return;
    // A name bound to a handed value hands it too (a few bindings deep).
    std::vector<std::string> names{chain};
    for (size_t k = 0; k < names.size() && k < 8; ++k) {
      auto [from, to] = bound.equal_range(names[k]);
      for (auto it = from; it != to; ++it) names.push_back(it->second);
    }
    for (const auto& n : names) record(n, frame.callee, r.at(b).begin);
  };

  for (size_t i = 0; i < r.size(); ++i) {
    Tok k = r.at(i).kind;
    if (k == Tok::lparen || k == Tok::lbracket || k == Tok::lbrace) {
      bool parent_inert = !stack.empty() && stack.back().inert;
      Frame kind = Frame::display;
      bool inert = parent_inert;
      bool in_call = !stack.empty() && stack.back().in_call;
      std::string_view callee = in_call ? stack.back().callee : std::string_view();
      bool after_value = i > 0 && (r.plain_name(i - 1) || r.is(i - 1, Tok::rparen) || r.is(i - 1, Tok::rbracket) ||
                                   (k == Tok::lbracket && r.is(i - 1, Tok::string)));
      if (k == Tok::lparen && i > 0 && r.is(i - 1, Tok::name) && r.text(i - 1) == "except") {
        kind = Frame::skip;
      } else if (k == Tok::lparen && after_value) {
        bool definition = i > 1 && r.is(i - 2, Tok::name) && (r.text(i - 2) == "def" || r.text(i - 2) == "class");
        kind = definition ? Frame::skip : Frame::call;
        if (kind == Frame::call) {
          in_call = true;
          callee = r.is(i - 1, Tok::name) ? r.text(i - 1) : std::string_view();
          inert = inert || only_inspects(callee);
        }
      } else if (k == Tok::lbracket && after_value) {
        kind = Frame::skip; // a subscript
      }
      stack.push_back(Open{kind, inert, i + 1, callee, in_call});
    } else if (k == Tok::name && r.text(i) == "lambda" && !stack.empty()) {
      stack.back().lambda = true;
    } else if (k == Tok::colon && !stack.empty()) {
      stack.back().lambda = false;
    } else if (k == Tok::comma || k == Tok::rparen || k == Tok::rbracket || k == Tok::rbrace) {
      if (stack.empty()) continue;
      Open& top = stack.back();
      if (k == Tok::comma && top.lambda) continue;
      if (top.kind != Frame::skip && !top.inert) element(top.argument, i, top);
      top.argument = i + 1;
      if (k != Tok::comma) stack.pop_back();
    } else if (k == Tok::newline) {
      stack.clear(); // unbalanced brackets end with the logical line
    }
  }

  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  return entries;
}

} // namespace impact::python
