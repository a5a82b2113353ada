// pytest's node ids of the tests a module defines, and back: "path::Class::test" <-> "Class.test".
#include "impact/project.hpp"

namespace impact {

std::string test_node_id(std::string_view path, std::string_view qualname) {
  std::string id(path);
  id.reserve(path.size() + qualname.size() + 4);
  for (size_t start = 0;;) {
    size_t dot = qualname.find('.', start);
    id.append("::").append(qualname.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return id;
}

std::string dotted_qualname(std::string_view test_part) {
  std::string out;
  out.reserve(test_part.size());
  for (size_t i = 0; i < test_part.size(); ++i) {
    if (test_part.compare(i, 2, "::") == 0) {
      out.push_back('.');
      ++i;
    } else {
      out.push_back(test_part[i]);
    }
  }
  return out;
}

} // namespace impact
