#pragma once
// NodeId: a pytest node id ("tests/test_a.py::TestX::test_y[1]") read as its parts. pytest splits it
// at the first "::": before is the file it collects, after is the test inside it (none for a file).
#include <string>
#include <string_view>

namespace impact {

struct NodeId {
  std::string_view file; // the path part
  std::string_view test; // what follows the first "::"
  bool whole_file = true; // no "::": the id names a file

  static NodeId of(std::string_view id) {
    auto split = id.find("::");
    if (split == std::string_view::npos) return NodeId{id, {}, true};
    return NodeId{id.substr(0, split), id.substr(split + 2), false};
  }
};

} // namespace impact
