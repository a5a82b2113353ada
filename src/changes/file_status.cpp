// FileStatus in words: the one spelling, in text and JSON (docs/json.md).
#include "impact/changes.hpp"

namespace impact {

std::string_view to_string(FileStatus status) {
  switch (status) {
  case FileStatus::added: return "added";
  case FileStatus::modified: return "modified";
  case FileStatus::deleted: return "deleted";
  case FileStatus::renamed: return "renamed";
  case FileStatus::type_changed: return "type_changed";
  }
  return "modified";
}

} // namespace impact
