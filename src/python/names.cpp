#include "impact/python/names.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>

namespace impact::python {

// Python's keywords, by length: a name token is tested against the few of its own length.
bool is_keyword(std::string_view s) {
  auto any = [s](std::initializer_list<std::string_view> words) {
    for (auto w : words) {
      if (s == w) return true;
    }
    return false;
  };
  switch (s.size()) {
  case 2: return any({"as", "if", "in", "is", "or"});
  case 3: return any({"and", "def", "del", "for", "not", "try"});
  case 4: return any({"None", "True", "elif", "else", "from", "pass", "with"});
  case 5: return any({"False", "async", "await", "break", "class", "raise", "while", "yield"});
  case 6: return any({"assert", "except", "global", "import", "lambda", "return"});
  case 7: return s == "finally";
  case 8: return s == "continue" || s == "nonlocal";
  default: return false;
  }
}

// Sorted, for a binary search.
constexpr std::array<std::string_view, 72> k_builtins = {
    "Exception", "KeyError", "TypeError", "ValueError", "abs", "all", "any", "ascii", "bin", "bool", "breakpoint",
    "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod",
    "enumerate", "eval", "exec", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash",
    "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max",
    "memoryview", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property", "range", "repr",
    "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type",
    "vars", "zip"};
static_assert(std::is_sorted(k_builtins.begin(), k_builtins.end()));

bool is_builtin(std::string_view s) { return std::binary_search(k_builtins.begin(), k_builtins.end(), s); }

} // namespace impact::python
