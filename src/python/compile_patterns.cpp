// The compile check's rules for match statements' patterns: what tree-sitter's grammar accepts and
// CPython's compiler refuses. A name bound twice in one pattern, alternatives binding different names,
// an irrefutable alternative or case before others, two starred names in a sequence, `**rest` not
// last, a repeated or misplaced keyword in a class pattern, a complex literal that is not real + imaginary,
// a mapping key that is no literal or attribute lookup, a literal key given twice.
#include "python/compile_tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

namespace impact::python {

namespace {

bool imaginary(std::string_view number) { return !number.empty() && (number.back() == 'j' || number.back() == 'J'); }

// A number literal's value as text that equal numbers share (1, 1.0, 0x1 and True all give "1");
// nullopt when impact cannot tell (an integer past 64 bits).
std::optional<std::string> number_key(std::string_view spelled, bool negative) {
  std::string digits;
  for (char c : spelled) {
    if (c != '_') digits.push_back(c);
  }
  if (imaginary(digits)) digits.pop_back();
  bool is_float = digits.find_first_of(".eE") != std::string::npos &&
                  !(digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'));
  if (!is_float) {
    int base = 10;
    size_t from = 0;
    if (digits.size() > 1 && digits[0] == '0' && std::strchr("xXoObB", digits[1]) != nullptr) {
      base = digits[1] == 'x' || digits[1] == 'X' ? 16 : digits[1] == 'o' || digits[1] == 'O' ? 8 : 2;
      from = 2;
    }
    unsigned long long value = 0;
    for (size_t i = from; i < digits.size(); ++i) {
      char c = digits[i];
      unsigned d = c >= '0' && c <= '9' ? static_cast<unsigned>(c - '0') : static_cast<unsigned>((c | 0x20) - 'a' + 10);
      if (value > (~0ULL - d) / static_cast<unsigned>(base)) return std::nullopt;
      value = value * static_cast<unsigned>(base) + d;
    }
    std::string key = negative && value != 0 ? "-" : "";
    key.append(std::to_string(value));
    return key;
  }
  double value = std::strtod(digits.c_str(), nullptr);
  if (negative) value = -value;
  if (value == 0) return std::string("0");
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15) {
    return std::to_string(static_cast<long long>(value));
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", value);
  return std::string(buffer);
}

// Numbers compare across int, float and complex: 1 == 1.0 == 1+0j.
std::string complex_key(const std::string& real, const std::string& imag) {
  std::string key = "n";
  key.append(real);
  if (imag != "0") key.append("+").append(imag).append("j");
  return key;
}

} // namespace

void TreeChecker::case_clause(TSNode n) {
  std::vector<TSNode> elements;
  bool comma = false;
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (ts_node_symbol(c) == m_k.case_pattern) elements.push_back(c);
    else if (!ts_node_is_named(c) && std::string_view(ts_node_type(c)) == ",") comma = true;
    else if (!ts_node_is_named(c) && std::string_view(ts_node_type(c)) == ":") break;
  }
  std::vector<std::string_view> names;
  if (elements.size() == 1 && !comma) {
    pattern(elements[0], names, false);
    return;
  }
  sequence(elements, names, n);
}

bool TreeChecker::irrefutable_case(TSNode clause) {
  std::vector<TSNode> elements;
  uint32_t count = ts_node_child_count(clause);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(clause, i);
    if (!ts_node_is_named(c) && std::string_view(ts_node_type(c)) == ",") return false; // an open sequence
    if (!ts_node_is_named(c) && std::string_view(ts_node_type(c)) == ":") break;
    if (ts_node_symbol(c) == m_k.case_pattern) elements.push_back(c);
  }
  if (elements.size() != 1) return false;
  // The walk reports the pattern's own problems; this one only asks whether it matches anything.
  CompileCheck scratch;
  std::vector<std::string_view> names;
  TreeChecker quiet(m_src, m_starts, scratch);
  return quiet.pattern(elements[0], names, false);
}

void TreeChecker::bind(TSNode at, std::string_view name, std::vector<std::string_view>& names) {
  if (name == "__debug__") problem(SyntaxIssue::reserved_name, at);
  // "multiple assignments to name 'x' in pattern"
  if (std::find(names.begin(), names.end(), name) != names.end()) problem(SyntaxIssue::invalid_pattern, at);
  names.push_back(name);
}

void TreeChecker::sequence(const std::vector<TSNode>& elements, std::vector<std::string_view>& names, TSNode at) {
  int stars = 0;
  for (TSNode e : elements) {
    TSNode inner = ts_node_symbol(e) == m_k.case_pattern && ts_node_named_child_count(e) == 1 ? ts_node_named_child(e, 0) : e;
    if (ts_node_symbol(inner) == m_k.splat_pattern) ++stars;
    pattern(e, names, true);
  }
  if (stars > 1) problem(SyntaxIssue::invalid_pattern, at); // "multiple starred names in sequence pattern"
}

// Checks one pattern, records the names it binds into `names`, and answers whether it is irrefutable
// (matches any subject: a capture, `_`, a group or `as` around one, an or-pattern ending in one).
bool TreeChecker::pattern(TSNode n, std::vector<std::string_view>& names, bool star_allowed) {
  TSSymbol s = ts_node_symbol(n);
  if (s == m_k.case_pattern) {
    uint32_t named = ts_node_named_child_count(n);
    if (named == 0) return text(n) == "_";
    TSNode inner = ts_node_named_child(n, 0);
    if (ts_node_symbol(inner) == m_k.keyword_pattern) {
      problem(SyntaxIssue::invalid_pattern, n); // a keyword pattern outside a class pattern
      return false;
    }
    return pattern(inner, names, star_allowed);
  }
  if (s == m_k.dotted_name) {
    if (ts_node_named_child_count(n) != 1) return false; // a value pattern: pkg.CONSTANT
    std::string_view name = text(n);
    if (name == "_") return true;
    bind(n, name, names);
    return true;
  }
  if (s == m_k.splat_pattern) {
    if (!star_allowed || text(n).starts_with("**")) problem(SyntaxIssue::invalid_pattern, n);
    TSNode name = ts_node_named_child_count(n) > 0 ? ts_node_named_child(n, 0) : TSNode{};
    if (!ts_node_is_null(name) && text(name) != "_") bind(name, text(name), names);
    return false;
  }
  if (s == m_k.string || s == m_k.concatenated_string) {
    literal_string(n);
    return false;
  }
  if (s == m_k.complex_pattern) {
    complex(n);
    return false;
  }
  if (s == m_k.list_pattern || s == m_k.tuple_pattern) {
    std::vector<TSNode> elements;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (!skipped(c)) elements.push_back(c);
    }
    // (p) is a group, not a tuple: it is whatever p is.
    if (s == m_k.tuple_pattern && elements.size() == 1 && !has_token(n, ",")) return pattern(elements[0], names, false);
    sequence(elements, names, n);
    return false;
  }
  if (s == m_k.union_pattern) return alternatives(n, names);
  if (s == m_k.as_pattern) {
    bool whole = false;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (i == 0) {
        // `p as a as b` needs parentheses: (p as a) as b
        if (ts_node_named_child_count(c) == 1 && ts_node_symbol(ts_node_named_child(c, 0)) == m_k.as_pattern) {
          problem(SyntaxIssue::invalid_pattern, c);
        }
        whole = pattern(c, names, false);
        continue;
      }
      std::string_view alias = text(c);
      if (alias == "_") problem(SyntaxIssue::invalid_pattern, c); // "cannot use '_' as a target"
      else bind(c, alias, names);
    }
    return whole;
  }
  if (s == m_k.class_pattern) {
    class_arguments(n, names);
    return false;
  }
  if (s == m_k.dict_pattern) {
    mapping(n, names);
    return false;
  }
  if (s == m_k.keyword_pattern) problem(SyntaxIssue::invalid_pattern, n);
  return false; // a number, True, False, None, or what the grammar's recovery made
}

// a | b | c: every alternative binds the same names; only the last may match anything.
bool TreeChecker::alternatives(TSNode n, std::vector<std::string_view>& names) {
  std::vector<TSNode> options;
  std::vector<TSNode> pending{n};
  // `_` is an anonymous token in an or-pattern; nested or-patterns are flattened, in order.
  auto flatten = [&](auto&& self, TSNode u) -> void {
    uint32_t count = ts_node_child_count(u);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_child(u, i);
      if (ts_node_symbol(c) == m_k.union_pattern) self(self, c);
      else if (ts_node_is_named(c) ? !skipped(c) : text(c) == "_") options.push_back(c);
    }
  };
  flatten(flatten, n);
  std::vector<std::string_view> first;
  bool last_irrefutable = false;
  for (size_t i = 0; i < options.size(); ++i) {
    std::vector<std::string_view> bound;
    bool any = !ts_node_is_named(options[i]) || pattern(options[i], bound, false);
    // "name capture 'x' makes remaining patterns unreachable", "wildcard makes ..."
    if (any && i + 1 < options.size()) problem(SyntaxIssue::invalid_pattern, options[i]);
    std::sort(bound.begin(), bound.end());
    if (i == 0) first = bound;
    else if (bound != first) problem(SyntaxIssue::invalid_pattern, options[i]); // "alternative patterns bind different names"
    last_irrefutable = any;
  }
  for (std::string_view name : first) bind(n, name, names);
  return last_irrefutable;
}

// Cls(p, q, attr=r): positional patterns first; no attribute twice; no starred pattern.
void TreeChecker::class_arguments(TSNode n, std::vector<std::string_view>& names) {
  bool keyword_seen = false;
  std::vector<std::string_view> attributes;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_symbol(c) != m_k.case_pattern) continue;
    TSNode inner = ts_node_named_child_count(c) > 0 ? ts_node_named_child(c, 0) : TSNode{};
    // `k=p as a` reads as (k=p) as a to tree-sitter.
    TSNode alias{};
    if (!ts_node_is_null(inner) && ts_node_symbol(inner) == m_k.as_pattern && ts_node_named_child_count(inner) == 2) {
      TSNode first = ts_node_named_child(inner, 0);
      if (ts_node_named_child_count(first) == 1 && ts_node_symbol(ts_node_named_child(first, 0)) == m_k.keyword_pattern) {
        alias = ts_node_named_child(inner, 1);
        inner = ts_node_named_child(first, 0);
      }
    }
    if (!ts_node_is_null(inner) && ts_node_symbol(inner) == m_k.keyword_pattern) {
      keyword_seen = true;
      uint32_t parts = ts_node_named_child_count(inner);
      if (parts == 0) continue;
      std::string_view attribute = text(ts_node_named_child(inner, 0));
      if (std::find(attributes.begin(), attributes.end(), attribute) != attributes.end()) problem(SyntaxIssue::invalid_pattern, inner);
      attributes.push_back(attribute);
      if (parts > 1) pattern(ts_node_named_child(inner, 1), names, false); // else attr=_
      if (!ts_node_is_null(alias)) {
        if (text(alias) == "_") problem(SyntaxIssue::invalid_pattern, alias);
        else bind(alias, text(alias), names);
      }
      continue;
    }
    if (keyword_seen) problem(SyntaxIssue::invalid_pattern, c); // "positional patterns follow keyword patterns"
    pattern(c, names, false);
  }
}

// {key: p, **rest}: keys are literals or attribute lookups, no literal twice; `**rest` last, once, named.
void TreeChecker::mapping(TSNode n, std::vector<std::string_view>& names) {
  std::vector<std::string> keys;
  bool rest_seen = false;
  uint32_t count = ts_node_child_count(n);
  uint32_t key_from = 0;
  bool in_key = true;
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    std::string_view type = ts_node_type(c);
    bool named = ts_node_is_named(c);
    if (named && skipped(c)) continue;
    if (!named && (type == "{" || type == ",")) {
      key_from = i + 1;
      in_key = true;
      continue;
    }
    if (!named && type == "}") break;
    if (ts_node_symbol(c) == m_k.splat_pattern) {
      if (rest_seen || ts_node_named_child_count(c) == 0 || !text(c).starts_with("**")) problem(SyntaxIssue::invalid_pattern, c);
      rest_seen = true;
      if (ts_node_named_child_count(c) > 0) bind(c, text(ts_node_named_child(c, 0)), names);
      in_key = false;
      continue;
    }
    if (rest_seen) problem(SyntaxIssue::invalid_pattern, c); // a key after **rest
    if (in_key && !named && type == ":") {
      auto key = mapping_key(n, key_from, i);
      if (key && !key->empty()) {
        if (key->front() != '?' && std::find(keys.begin(), keys.end(), *key) != keys.end()) problem(SyntaxIssue::invalid_pattern, c);
        keys.push_back(*key);
      }
      in_key = false;
      continue;
    }
    if (!in_key && named) pattern(c, names, false);
  }
  // A key impact cannot evaluate ("?" and its kind) may equal another literal key of its kind: CPython
  // would refuse the pattern.
  auto kind = [](const std::string& key) { return key.front() == '?' ? key[1] : key.front(); };
  for (const std::string& key : keys) {
    if (key.front() != '?') continue;
    auto same = std::count_if(keys.begin(), keys.end(), [&](const std::string& k) { return kind(k) == kind(key); });
    if (same > 1) problem(SyntaxIssue::unsure_construct, n);
  }
}

// The key spelled by children [from, to) of a mapping pattern: a text that equal literal keys share
// (its first letter the kind: n number, s str, b bytes, N None), "" for an attribute lookup (never
// compared), "?" and the kind for a literal impact cannot evaluate. Refuses
// what CPython refuses as a key (a capture name, `_`, an f-string).
std::optional<std::string> TreeChecker::mapping_key(TSNode n, uint32_t from, uint32_t to) {
  bool negative = false;
  for (uint32_t i = from; i < to; ++i) {
    TSNode c = ts_node_child(n, i);
    if (ts_node_is_named(c) && skipped(c)) continue;
    TSSymbol s = ts_node_symbol(c);
    std::string_view t = text(c);
    if (!ts_node_is_named(c)) {
      if (t == "-") {
        negative = true;
        continue;
      }
      problem(SyntaxIssue::invalid_pattern, c); // `_` and anything else unnamed
      return std::string();
    }
    if (s == m_k.dotted_name) {
      if (ts_node_named_child_count(c) < 2) problem(SyntaxIssue::invalid_pattern, c);
      return std::string();
    }
    if (s == m_k.integer || s == m_k.float_) {
      auto value = number_key(t, negative);
      if (!value) return std::string("?n");
      return imaginary(t) ? complex_key("0", *value) : complex_key(*value, "0");
    }
    if (s == m_k.complex_pattern) return complex(c).value_or("?n");
    if (s == m_k.true_) return std::string("n1");
    if (s == m_k.false_) return std::string("n0");
    if (s == m_k.none) return std::string("N");
    if (s == m_k.string || s == m_k.concatenated_string) return literal_string(c);
    std::vector<std::string_view> ignored;
    pattern(c, ignored, false);
    problem(SyntaxIssue::invalid_pattern, c); // a capture, a class or sequence pattern as a key
    return std::string();
  }
  return std::string();
}

// A string pattern: no f-string; its value (with "s" or "b" before it for str and bytes) when every part
// is free of escapes or raw, "?s" or "?b" otherwise.
std::optional<std::string> TreeChecker::literal_string(TSNode n) {
  std::vector<TSNode> parts;
  if (ts_node_symbol(n) == m_k.string) parts.push_back(n);
  else {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (ts_node_symbol(c) == m_k.string) parts.push_back(c);
    }
  }
  std::string value;
  char kind = 0;
  bool known = true;
  for (TSNode part : parts) {
    bool raw = false;
    uint32_t count = ts_node_child_count(part);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_child(part, i);
      TSSymbol s = ts_node_symbol(c);
      std::string_view t = text(c);
      if (s == m_k.string_start) {
        std::string_view prefix = t.substr(0, t.find_first_of("'\""));
        if (prefix.find_first_of("fFtT") != std::string_view::npos) problem(SyntaxIssue::invalid_pattern, part);
        raw = prefix.find_first_of("rR") != std::string_view::npos;
        kind = prefix.find_first_of("bB") != std::string_view::npos ? 'b' : 's';
      } else if (s == m_k.string_content) {
        if (!raw && t.find('\\') != std::string_view::npos) known = false;
        value.append(t);
      } else if (s == m_k.interpolation) {
        problem(SyntaxIssue::invalid_pattern, part);
        known = false;
      }
    }
  }
  if (kind == 0) return std::nullopt;
  if (!known) return std::string{'?', kind};
  return std::string(1, kind) + value;
}

// -1 + 2j: a real number, then + or -, then an imaginary one. Returns the value as a mapping key.
std::optional<std::string> TreeChecker::complex(TSNode n) {
  std::vector<std::string_view> numbers;
  bool negative[2] = {false, false};
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (ts_node_is_named(c)) numbers.push_back(text(c));
    else if (text(c) == "-" && numbers.size() < 2) negative[numbers.size()] = true;
  }
  if (numbers.size() != 2) return std::nullopt;
  // "real number required in complex literal", "imaginary number required in complex literal"
  if (imaginary(numbers[0]) || !imaginary(numbers[1])) {
    problem(SyntaxIssue::invalid_pattern, n);
    return std::nullopt;
  }
  auto real = number_key(numbers[0], negative[0]);
  auto imag = number_key(numbers[1], negative[1]);
  if (!real || !imag) return std::nullopt;
  return complex_key(*real, *imag);
}

} // namespace impact::python
