#include "impact/vocabulary.hpp"

namespace impact {

std::string_view RepoPath::filename() const {
  auto slash = str.rfind('/');
  return slash == std::string::npos ? std::string_view(str) : std::string_view(str).substr(slash + 1);
}

std::string_view RepoPath::parent() const {
  auto slash = str.rfind('/');
  return slash == std::string::npos ? std::string_view() : std::string_view(str).substr(0, slash);
}

bool RepoPath::is_within(std::string_view dir) const {
  if (dir.empty()) return true;
  if (!str.starts_with(dir)) return false;
  return str.size() == dir.size() || str[dir.size()] == '/';
}

} // namespace impact
