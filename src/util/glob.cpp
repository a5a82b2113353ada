#include "util/glob.hpp"

#include <string>

namespace impact::util {

namespace {

// Matches a '[...]' class at pattern[pi] against ch. Returns the index after the class, or npos when
// the class is unterminated (then '[' is an ordinary character, as in Python).
size_t match_class(std::string_view pattern, size_t pi, char ch, bool& matched) {
  size_t i = pi + 1;
  bool negate = false;
  if (i < pattern.size() && pattern[i] == '!') {
    negate = true;
    ++i;
  }
  size_t start = i;
  bool found = false;
  while (i < pattern.size() && (pattern[i] != ']' || i == start)) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= ch && ch <= pattern[i + 2]) found = true;
      i += 3;
    } else {
      if (pattern[i] == ch) found = true;
      ++i;
    }
  }
  if (i >= pattern.size()) return std::string_view::npos;
  matched = found != negate;
  return i + 1;
}

// Iterative wildcard matcher with one level of backtracking per '*', the classic linear-ish scheme.
// With `slash_stops`, '*' and '?' never match '/'.
bool wildcard(std::string_view pattern, std::string_view text, bool slash_stops) {
  size_t pi = 0, ti = 0;
  size_t star_pi = std::string_view::npos, star_ti = 0;
  while (ti < text.size()) {
    if (pi < pattern.size()) {
      char p = pattern[pi];
      if (p == '*') {
        star_pi = pi++;
        star_ti = ti;
        continue;
      }
      if (p == '?' && !(slash_stops && text[ti] == '/')) {
        ++pi;
        ++ti;
        continue;
      }
      if (p == '[') {
        bool matched = false;
        size_t next = match_class(pattern, pi, text[ti], matched);
        if (next == std::string_view::npos) {
          if (text[ti] == '[') {
            ++pi;
            ++ti;
            continue;
          }
        } else if (matched && !(slash_stops && text[ti] == '/')) {
          pi = next;
          ++ti;
          continue;
        }
      } else if (p != '?' && p == text[ti]) {
        ++pi;
        ++ti;
        continue;
      }
    }
    if (star_pi != std::string_view::npos && !(slash_stops && text[star_ti] == '/')) {
      pi = star_pi + 1;
      ti = ++star_ti;
      continue;
    }
    return false;
  }
  while (pi < pattern.size() && pattern[pi] == '*') ++pi;
  return pi == pattern.size();
}

// Matches path components against pattern components, where a "**" component matches zero or more.
bool match_components(std::string_view pattern, std::string_view path) {
  if (pattern.empty()) return path.empty();
  size_t pslash = pattern.find('/');
  std::string_view phead = pattern.substr(0, pslash);
  std::string_view prest = pslash == std::string_view::npos ? std::string_view() : pattern.substr(pslash + 1);
  bool plast = pslash == std::string_view::npos;
  if (phead == "**") {
    if (plast) return true;
    if (match_components(prest, path)) return true;
    size_t slash = path.find('/');
    if (slash == std::string_view::npos) return false;
    return match_components(pattern, path.substr(slash + 1));
  }
  size_t slash = path.find('/');
  std::string_view head = path.substr(0, slash);
  if (!wildcard(phead, head, true)) return false;
  if (plast) return slash == std::string_view::npos;
  if (slash == std::string_view::npos) return prest == "**";
  return match_components(prest, path.substr(slash + 1));
}

} // namespace

bool fnmatch(std::string_view pattern, std::string_view text) { return wildcard(pattern, text, false); }

bool pytest_path_match(std::string_view pattern, std::string_view repo_path) {
  if (pattern.find('/') == std::string_view::npos) {
    auto slash = repo_path.rfind('/');
    return fnmatch(pattern, slash == std::string_view::npos ? repo_path : repo_path.substr(slash + 1));
  }
  // pytest prefixes a relative pattern with "*/" and matches the absolute path: a suffix match.
  // (built with append: GCC 12 warns falsely about "literal" + std::string)
  std::string anchored("*/");
  anchored.append(pattern);
  std::string absolute("/");
  absolute.append(repo_path);
  return fnmatch(anchored, absolute);
}

bool glob_match(std::string_view pattern, std::string_view repo_path) {
  while (pattern.starts_with('/')) pattern.remove_prefix(1);
  return match_components(pattern, repo_path);
}

bool path_glob_match(std::string_view pattern, std::string_view repo_path) {
  if (pattern.empty()) return false;
  bool directory = pattern.ends_with('/');
  if (directory) pattern.remove_suffix(1);
  bool anchored = pattern.starts_with('/');
  if (anchored) pattern.remove_prefix(1);
  if (!anchored && pattern.find('/') == std::string_view::npos) {
    // A bare name matches any component at any depth (and, for a directory pattern, what lies below).
    std::string any("**/");
    any.append(pattern);
    if (directory) any += "/**";
    return match_components(any, repo_path) || (!directory && match_components(any + "/**", repo_path));
  }
  std::string full(pattern);
  if (directory) return match_components(full + "/**", repo_path);
  return match_components(full, repo_path) || match_components(full + "/**", repo_path);
}

} // namespace impact::util
