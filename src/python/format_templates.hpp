#pragma once
// `"{0.name}".format(user)` reads `user.name`: the replacement fields of a literal template given to
// str.format or format_map read attributes of the arguments (docs/selection.md `dynamic-access`).
#include "python/lexer.hpp"
#include "python/literals.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact::python {

// What `x.format(...)` formats: a literal template's source text, or the name it is held in.
struct FormatTemplate {
  std::string_view text; // the template's string tokens, when written there
  std::string_view held; // else the name or attribute holding it (`TEMPLATE.format(user)`, `self.template.format(user)`)
  bool empty() const { return text.empty() && held.empty(); }
};

// Follows the token stream for a template: a run of string tokens (in parentheses or not) or a plain
// name, a dot, then `format` or `format_map`.
class FormatTemplates {
public:
  // Token `t` of source `src`: the template when `t` is the method's name after one, else empty.
  FormatTemplate next(const Token& t, std::string_view src) {
    FormatTemplate out;
    std::string_view word = t.kind == Tok::name ? src.substr(t.begin, t.end - t.begin) : std::string_view();
    bool method = word == "format" || word == "format_map";
    if (m_dot && method) out.text = src.substr(m_begin, m_end - m_begin);
    if (method) out.held = m_name.dot;
    // A name (a plain one, or an attribute: `self.template`), then a dot.
    HeldName name;
    name.last = t.kind == Tok::name ? word : std::string_view();
    name.dot = t.kind == Tok::dot ? m_name.last : std::string_view();
    literal(t);
    m_name = name;
    return out;
  }

private:
  struct HeldName {
    std::string_view last; // the token just read is this name
    std::string_view dot;  // the tokens just read are this name and a dot
  };

  void literal(const Token& t) {
    bool strings = m_end != 0 && !m_dot && !m_closed;
    bool after_lparen = m_lparen;
    if (t.kind == Tok::string && (strings || m_end == 0 || m_dot)) {
      if (!strings) {
        *this = FormatTemplates{};
        m_begin = t.begin;
        m_parenthesized = after_lparen;
      }
      m_end = t.end;
    } else if (t.kind == Tok::rparen && strings && m_parenthesized) {
      m_closed = true; // ("a" "b").format(...)
    } else if (t.kind == Tok::dot && m_end != 0 && !m_dot && (m_parenthesized ? m_closed : strings)) {
      m_dot = true;
    } else {
      *this = FormatTemplates{};
    }
    m_lparen = t.kind == Tok::lparen;
  }

  uint32_t m_begin = 0, m_end = 0; // the run of string tokens just read (end 0: none)
  bool m_parenthesized = false;    // the run follows `(`
  bool m_dot = false;              // ... and the dot after it was read
  bool m_closed = false;           // ... its `)` was read
  bool m_lparen = false;           // the last token was `(`
  HeldName m_name;
};

// The names a statement binds to a string literal, anywhere in the file: `NAME = "<{0.name}>"` (or
// implicitly concatenated strings; a class attribute, or `self.template = "..."`, by its last
// name), as (name, the literal's source text). Where a held template is
// formatted, each literal the name was given is read (a name given a template in one scope and used
// in another reads more fields, never fewer).
// With `module_names`, only the templates module-level code binds to a plain name (`BADGE = "[{0.name}]"`),
// in any file: another module may import the name and format it.
inline std::vector<std::pair<std::string_view, std::string_view>> held_templates(const std::vector<Token>& tokens,
                                                                                  std::string_view src,
                                                                                  bool module_names = false) {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  if (!module_names && src.find("format") == std::string_view::npos) return out; // most files: nothing is formatted
  if (module_names && src.find('{') == std::string_view::npos) return out;
  for (size_t i = 0; i + 3 < tokens.size(); ++i) {
    bool starts = i == 0 || tokens[i - 1].kind == Tok::newline || (!module_names && tokens[i - 1].kind == Tok::colon);
    if (!starts || tokens[i].kind != Tok::name) continue;
    if (module_names && (tokens[i].depth != 0 || (i > 0 && src[tokens[i].begin - 1] != '\n'))) continue; // indented: in a block
    size_t target = i; // the last name of the target chain
    while (!module_names && target + 2 < tokens.size() && tokens[target + 1].kind == Tok::dot && tokens[target + 2].kind == Tok::name) target += 2;
    size_t eq = target + 1; // an annotated target (`FMT: str = "..."`, a dataclass field) skips its annotation
    if (eq < tokens.size() && tokens[eq].kind == Tok::colon) {
      while (eq < tokens.size() && tokens[eq].kind != Tok::assign && tokens[eq].kind != Tok::newline) ++eq;
    }
    if (eq + 2 >= tokens.size() || tokens[eq].kind != Tok::assign) continue;
    bool paren = tokens[eq + 1].kind == Tok::lparen;
    size_t first = eq + 1 + (paren ? 1 : 0), j = first;
    while (j < tokens.size() && tokens[j].kind == Tok::string) ++j;
    if (j == first) continue;
    if (paren && (j == tokens.size() || tokens[j++].kind != Tok::rparen)) continue;
    if (j < tokens.size() && tokens[j].kind != Tok::newline) continue;
    std::string_view text = src.substr(tokens[first].begin, tokens[j - 1 - (paren ? 1 : 0)].end - tokens[first].begin);
    if (text.find('{') == std::string_view::npos) continue;
    out.emplace_back(src.substr(tokens[target].begin, tokens[target].end - tokens[target].begin), text);
  }
  return out;
}

// The attributes the templates of one file read, token by token (python/references.cpp): a template
// formatted where written or held (`"{0.name}".format(user)`, `TEMPLATE.format(user)`), and a
// template literal inside a function wherever it goes (`string.Formatter().format("Hi {u.name}", ...)`,
// `logging.Formatter("{req.route}", style="{")`, a template handed to a function that formats it), and
// one given as a default or keyword value anywhere.
class TemplateFields {
public:
  // Before the first token. A template a module binds to a name and does not format itself
  // (`BADGE = "[{0.display_name}]"`) is there for another module to import and format: `module_read`
  // gets its fields' attributes, which the module level reads as its importers do.
  template <class Read>
  void start(const std::vector<Token>& tokens, std::string_view src, Read&& module_read) {
    m_src = src;
    m_held = held_templates(tokens, src);
    for (const auto& [name, text] : held_templates(tokens, src, true)) {
      std::string formatted(name);
      formatted.append(".format");
      if (src.find(formatted) != std::string_view::npos) continue;
      for (std::string_view attr : format_attributes(text)) module_read(attr);
    }
  }

  // Token `t`: `read` gets each attribute its template reads. `in_function()` tells whether the token
  // is in a function's code (asked only of a string that may be a template).
  template <class InFunction, class Read>
  void token(const Token& t, InFunction&& in_function, Read&& read) {
    if (t.kind == Tok::string && m_prev != Tok::newline) { // not a statement of its own (a docstring)
      std::string_view literal = m_src.substr(t.begin, t.end - t.begin);
      // In a function's code, or a default or keyword value (`def render(b, fmt="{0.author}")`).
      bool given = m_prev == Tok::assign && t.depth > 0;
      if (literal.find('{') != std::string_view::npos && (given || in_function())) {
        for (std::string_view attr : format_attributes(literal)) read(attr);
      }
    }
    m_prev = t.kind;
    FormatTemplate tpl = m_templates.next(t, m_src);
    if (tpl.empty()) return;
    for (std::string_view attr : format_attributes(tpl.text)) read(attr);
    for (const auto& [name, text] : m_held) {
      if (name != tpl.held) continue;
      for (std::string_view attr : format_attributes(text)) read(attr);
    }
  }

private:
  std::string_view m_src;
  std::vector<std::pair<std::string_view, std::string_view>> m_held; // NAME = "{0.x}" (held_templates)
  FormatTemplates m_templates;
  Tok m_prev = Tok::newline;
};

} // namespace impact::python
