#include "python/literals.hpp"

#include "impact/python/facts.hpp"
#include "python/lexer.hpp"

#include <algorithm>
#include <cctype>

namespace impact::python {

namespace {

// The content of one `string` node when it has no interpolation; `prefix_only` stops at the first one.
std::optional<std::string> string_parts(TSNode node, std::string_view source, const Grammar& g, bool prefix_only) {
  std::string out;
  uint32_t count = ts_node_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_child(node, i);
    TSSymbol s = ts_node_symbol(child);
    if (s == g.string_start) {
      std::string_view start = node_text(child, source);
      for (char c : start) {
        if (c == 'b' || c == 'B') return std::nullopt; // bytes are never module names
      }
    } else if (s == g.string_content) {
      out.append(node_text(child, source));
    } else if (s == g.interpolation) {
      if (prefix_only) return out;
      return std::nullopt;
    }
  }
  return out;
}

} // namespace

std::optional<std::string> module_string(std::string_view source, std::string_view name) {
  std::optional<std::string> out;
  int bindings = 0;
  for (size_t at = source.find(name); at != std::string_view::npos; at = source.find(name, at + 1)) {
    if (at > 0 && source[at - 1] != '\n') continue;
    size_t i = at + name.size();
    while (i < source.size() && source[i] == ' ') ++i;
    if (i >= source.size() || source[i] != '=' || (i + 1 < source.size() && source[i + 1] == '=')) continue;
    ++bindings;
    ++i;
    while (i < source.size() && source[i] == ' ') ++i;
    if (i >= source.size() || (source[i] != '"' && source[i] != '\'')) {
      out.reset();
      continue;
    }
    char quote = source[i];
    size_t end = source.find_first_of(std::string{quote, '\\', '\n'}, i + 1);
    if (end == std::string_view::npos || source[end] != quote) {
      out.reset();
      continue;
    }
    size_t rest = end + 1;
    while (rest < source.size() && source[rest] == ' ') ++rest;
    if (rest < source.size() && source[rest] != '\n' && source[rest] != '#') {
      out.reset();
      continue;
    }
    out = std::string(source.substr(i + 1, end - i - 1));
  }
  if (bindings != 1) return std::nullopt;
  return out;
}

std::optional<std::string> string_value(TSNode node, std::string_view source, const Grammar& g) {
  TSSymbol s = ts_node_symbol(node);
  if (s == g.string) return string_parts(node, source, g, false);
  if (s == g.concatenated_string) {
    std::string out;
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      auto part = string_value(ts_node_named_child(node, i), source, g);
      if (!part) return std::nullopt;
      out += *part;
    }
    return out;
  }
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1) {
    return string_value(ts_node_named_child(node, 0), source, g);
  }
  return std::nullopt;
}

std::string string_prefix(TSNode node, std::string_view source, const Grammar& g) {
  TSSymbol s = ts_node_symbol(node);
  if (s == g.string) return string_parts(node, source, g, true).value_or("");
  if (s == g.concatenated_string) {
    std::string out;
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode part = ts_node_named_child(node, i);
      if (auto whole = string_value(part, source, g)) {
        out += *whole;
        continue;
      }
      return out + string_prefix(part, source, g);
    }
    return out;
  }
  if (s == g.binary_operator) {
    TSNode op = ts_node_child_by_field_id(node, g.f_operator);
    if (!ts_node_is_null(op) && node_text(op, source) == "+") {
      TSNode left = ts_node_child_by_field_id(node, g.f_left);
      if (auto whole = string_value(left, source, g)) {
        TSNode right = ts_node_child_by_field_id(node, g.f_right);
        return *whole + string_prefix(right, source, g);
      }
      return string_prefix(left, source, g);
    }
    return {};
  }
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1) {
    return string_prefix(ts_node_named_child(node, 0), source, g);
  }
  return {};
}

std::optional<std::vector<std::string>> string_list(TSNode node, std::string_view source, const Grammar& g) {
  TSSymbol s = ts_node_symbol(node);
  if (auto single = string_value(node, source, g)) return std::vector<std::string>{*single};
  if (s != g.list && s != g.tuple && s != g.parenthesized_expression && s != g.expression_list) return std::nullopt;
  std::vector<std::string> out;
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (ts_node_symbol(child) == g.comment) continue;
    auto value = string_value(child, source, g);
    if (!value) return std::nullopt;
    out.push_back(std::move(*value));
  }
  return out;
}

namespace {

// The leading identifier characters of a string literal's body: a replacement field (`{`), a
// conversion (`%`) and a backslash (an escape may spell any character) all end it.
std::string leading_identifier(std::string_view body) {
  std::string out;
  for (char c : body) {
    if (!is_ascii_identifier_char(c)) break;
    out.push_back(c);
  }
  return out;
}

} // namespace

std::string identifier_prefix(std::string_view expression) {
  std::vector<Token> tokens;
  lex(expression, tokens);
  // The literal that starts the expression: for an f-string its fields' tokens come first.
  const Token* literal = nullptr;
  for (const Token& t : tokens) {
    if (literal == nullptr || t.begin < literal->begin) literal = &t;
  }
  if (literal == nullptr || literal->kind != Tok::string) return {};
  std::string_view text = expression.substr(literal->begin, literal->end - literal->begin);
  size_t quote = text.find_first_of("\"'");
  if (quote == std::string_view::npos) return {};
  bool f_string = false;
  for (char c : text.substr(0, quote)) {
    if (c == 'b' || c == 'B') return {}; // bytes: getattr takes no bytes
    if (c == 'f' || c == 'F') f_string = true;
  }
  size_t quotes = text.substr(quote).starts_with("\"\"\"") || text.substr(quote).starts_with("'''") ? 3 : 1;
  if (text.size() < quote + 2 * quotes) return {}; // unterminated
  std::string_view body = text.substr(quote + quotes, text.size() - quote - 2 * quotes);
  // What follows the literal decides what the value starts with.
  std::vector<const Token*> rest;
  for (const Token& t : tokens) {
    if (t.begin >= literal->end) rest.push_back(&t);
  }
  if (rest.empty()) return f_string ? leading_identifier(body) : std::string();
  // A conditional or a boolean operator may give another value altogether.
  for (const Token* t : rest) {
    if (t->depth != 0 || t->kind != Tok::name) continue;
    std::string_view word = expression.substr(t->begin, t->end - t->begin);
    if (word == "if" || word == "else" || word == "or" || word == "and" || word == "lambda" || word == "for") return {};
  }
  std::string_view op = expression.substr(rest[0]->begin, rest[0]->end - rest[0]->begin);
  if (rest[0]->kind == Tok::other && op == "+") return leading_identifier(body);
  if (rest[0]->kind == Tok::other && op == "%" && !f_string) return leading_identifier(body);
  // "visit_{}".format(x), and nothing after the call.
  bool format = rest.size() >= 4 && rest[0]->kind == Tok::dot && rest[1]->kind == Tok::name &&
                expression.substr(rest[1]->begin, rest[1]->end - rest[1]->begin) == "format" &&
                rest[2]->kind == Tok::lparen && rest.back()->kind == Tok::rparen && rest.back()->depth == 0;
  for (size_t i = 3; format && i + 1 < rest.size(); ++i) format = rest[i]->depth > 0;
  if (format && !f_string) return leading_identifier(body);
  return {};
}

std::vector<std::string_view> format_attributes(std::string_view tokens) {
  std::vector<std::string_view> out;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] != '{') continue;
    if (i + 1 < tokens.size() && tokens[i + 1] == '{') {
      ++i; // `{{`: a brace, no field
      continue;
    }
    // The field's name: an argument, then `.attr` and `[key]` parts, up to `}`, `!` or `:`.
    size_t j = i + 1;
    while (j < tokens.size() && ident(tokens[j])) ++j;
    while (j < tokens.size()) {
      if (tokens[j] == '.') {
        size_t start = ++j;
        while (j < tokens.size() && ident(tokens[j])) ++j;
        if (j > start) out.push_back(tokens.substr(start, j - start));
      } else if (tokens[j] == '[') {
        while (j < tokens.size() && tokens[j] != ']' && tokens[j] != '}') ++j;
        if (j < tokens.size() && tokens[j] == ']') ++j;
      } else {
        break;
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace impact::python
