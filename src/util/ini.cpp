#include "util/ini.hpp"

#include <fmt/format.h>

#include <cctype>

namespace impact::util {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_comment(std::string_view line) {
  auto t = trim(line);
  return !t.empty() && (t.front() == '#' || t.front() == ';');
}

} // namespace

const std::map<std::string, std::string>* IniFile::section(std::string_view name) const {
  auto it = sections.find(std::string(name));
  return it == sections.end() ? nullptr : &it->second;
}

std::optional<IniFile> parse_ini(std::string_view text, std::string& error) {
  IniFile ini;
  std::map<std::string, std::string>* current = nullptr;
  std::string* last_value = nullptr;
  int lineno = 0;
  while (!text.empty()) {
    ++lineno;
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_comment(line)) continue;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.front() == '[') {
      std::string_view head = line;
      for (char c : {'#', ';'}) head = head.substr(0, head.find(c));
      head = trim(head);
      if (head.size() < 2 || head.back() != ']') {
        error = fmt::format("line {}: unexpected line: {}", lineno, line);
        return std::nullopt;
      }
      std::string name(head.substr(1, head.size() - 2));
      if (name.empty()) {
        error = fmt::format("line {}: empty section name", lineno);
        return std::nullopt;
      }
      if (ini.sections.contains(name)) {
        error = fmt::format("line {}: duplicate section {}", lineno, name);
        return std::nullopt;
      }
      current = &ini.sections[name];
      last_value = nullptr;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(line.front()))) {
      if (last_value == nullptr) {
        error = fmt::format("line {}: continuation line without a key", lineno);
        return std::nullopt;
      }
      if (!last_value->empty()) last_value->push_back('\n');
      last_value->append(trim(line));
      continue;
    }
    if (current == nullptr) {
      error = fmt::format("line {}: key outside of any [section]", lineno);
      return std::nullopt;
    }
    std::string_view name, value;
    size_t eq = line.find('=');
    if (eq != std::string_view::npos && line.substr(0, eq).find(':') == std::string_view::npos) {
      name = line.substr(0, eq);
      value = line.substr(eq + 1);
    } else if (size_t colon = line.find(':'); colon != std::string_view::npos) {
      name = line.substr(0, colon);
      value = line.substr(colon + 1);
    } else {
      error = fmt::format("line {}: unexpected line: {}", lineno, line);
      return std::nullopt;
    }
    std::string key(trim(name));
    if (current->contains(key)) {
      error = fmt::format("line {}: duplicate name {}", lineno, key);
      return std::nullopt;
    }
    last_value = &((*current)[key] = std::string(trim(value)));
  }
  return ini;
}

std::vector<std::string> shell_split(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
      else word.push_back(c);
      continue;
    }
    if (quote == '"') {
      if (c == '"') quote = 0;
      else if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) word.push_back(text[++i]);
      else word.push_back(c);
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'' || c == '"') quote = c;
    else if (c == '\\' && i + 1 < text.size()) word.push_back(text[++i]);
    else word.push_back(c);
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

} // namespace impact::util
