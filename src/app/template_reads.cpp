#include "app/template_reads.hpp"
#include "util/ascii.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>

namespace impact::app {

namespace {

constexpr size_t k_max_file_bytes = size_t{256} << 10; // larger files are data, not templates
constexpr size_t k_max_total_bytes = size_t{16} << 20; // read on every run with a changed method: kept small

bool template_like(const RepoPath& path) {
  static constexpr std::array<std::string_view, 16> k_exts = {
      ".html", ".htm", ".txt", ".j2", ".jinja", ".jinja2", ".tmpl", ".tpl", ".template", ".mustache",
      ".hbs", ".handlebars", ".eml", ".xml", ".svg", ".mako"};
  std::string name = ascii_lower(path.filename());
  if (std::any_of(k_exts.begin(), k_exts.end(), [&](std::string_view e) { return name.ends_with(e); })) return true;
  std::string_view p = path.view();
  return p.starts_with("templates/") || p.find("/templates/") != std::string_view::npos;
}

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The line of the first `.name` in `text` that ends an attribute chain inside a field: an unclosed `{`
// before it on its line; 0 when there is none.
uint32_t field_line(std::string_view text, std::string_view name) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    if (at < 2 || text[at - 1] != '.' || !ident(text[at - 2])) continue;
    if (at + name.size() < text.size() && ident(text[at + name.size()])) continue;
    size_t line_start = text.rfind('\n', at);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::string_view before = text.substr(line_start, at - line_start);
    auto open = before.rfind('{');
    if (open == std::string_view::npos || before.find('}', open) != std::string_view::npos) continue;
    return static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1);
  }
  return 0;
}

} // namespace

std::vector<TemplateRead> template_reads(Repository& repo, const std::vector<SourceFile>& inventory,
                                         const std::vector<FileSemantics>& semantics) {
  std::vector<TemplateRead> out;
  // (name, changed file): the last component of every changed method, property or nested function.
  std::vector<std::pair<std::string, const RepoPath*>> names;
  for (const auto& file : semantics) {
    for (const auto& s : file.symbols) {
      if (s.change == ChangeKind::comment_only || s.change == ChangeKind::formatting_only ||
          s.change == ChangeKind::docstring_only) {
        continue;
      }
      auto dot = s.qualname.rfind('.');
      if (dot == std::string::npos || dot + 1 >= s.qualname.size()) continue; // module-level: not an attribute
      names.emplace_back(s.qualname.substr(dot + 1), &file.path);
    }
  }
  if (names.empty()) return out;
  size_t read_bytes = 0;
  for (const auto& f : inventory) {
    if (f.not_checked_out || f.path.ends_with(".py") || !template_like(f.path)) continue;
    if (read_bytes > k_max_total_bytes) break;
    FileRead text = repo.read_current(f);
    if (!text.has_content() || text.text.size() > k_max_file_bytes) continue;
    read_bytes += text.text.size();
    if (text.text.find('{') == std::string::npos) continue;
    // One entry per (template, changed file), naming the first field found: the readers it seeds are
    // the same whichever name matched.
    size_t first = out.size();
    for (const auto& [name, changed] : names) {
      const RepoPath* file = changed; // (clang 14: a lambda cannot capture a structured binding)
      bool known = std::any_of(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                               [&](const TemplateRead& t) { return t.changed == *file; });
      if (known) continue;
      if (uint32_t line = field_line(text.text, name)) out.push_back(TemplateRead{f.path, line, *changed, name});
    }
  }
  return out;
}

} // namespace impact::app
