#include "coverage/contexts.hpp"
#include "impact/project.hpp"

#include <algorithm>

namespace impact::coverage {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Strips an xdist worker suffix (" [gw3]" or "@gw3"); a parametrize id such as "[gw3]" right after the
// test name is left alone.
bool strip_worker_suffix(std::string& context) {
  if (context.ends_with(']')) {
    auto open = context.rfind(" [gw");
    if (open != std::string::npos && all_digits(std::string_view(context).substr(open + 4, context.size() - open - 5))) {
      context.resize(open);
      return true;
    }
  }
  auto at = context.rfind("@gw");
  if (at != std::string::npos && all_digits(std::string_view(context).substr(at + 3))) {
    context.resize(at);
    return true;
  }
  return false;
}

} // namespace

void decode_numbits(std::string_view bits, std::vector<uint32_t>& out) {
  for (size_t byte = 0; byte < bits.size(); ++byte) {
    auto b = static_cast<unsigned char>(bits[byte]);
    for (unsigned bit = 0; bit < 8; ++bit) {
      if ((b & (1u << bit)) != 0) out.push_back(static_cast<uint32_t>(byte * 8 + bit));
    }
  }
}

void ContextMapper::add_module_file(const std::string& path) {
  if (!path.ends_with(".py")) return;
  std::string dotted = path.substr(0, path.size() - 3);
  if (dotted.ends_with("/__init__")) dotted.resize(dotted.size() - 9);
  std::replace(dotted.begin(), dotted.end(), '/', '.');
  // Every suffix is a name the module may have been imported as (its import root is unknown here).
  for (size_t start = 0;;) {
    auto [it, inserted] = m_modules.emplace(dotted.substr(start), path);
    if (!inserted && it->second != path) it->second.clear(); // two files answer to this name
    size_t dot = dotted.find('.', start);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
}

std::string ContextMapper::test_function_id(const std::string& dotted) const {
  // The longest prefix that names a module; the rest is the class and function path in it.
  std::string path;
  size_t best = 0;
  for (size_t dot = dotted.find('.'); dot != std::string::npos; dot = dotted.find('.', dot + 1)) {
    auto it = m_modules.find(dotted.substr(0, dot));
    if (it != m_modules.end()) {
      best = dot;
      path = it->second;
    }
  }
  if (best == 0 || path.empty()) return {};
  return test_node_id(path, std::string_view(dotted).substr(best + 1));
}

MappedContext ContextMapper::map(std::string context) const {
  MappedContext out;
  if (context.empty()) {
    out.kind = ContextKind::outside;
    return out;
  }
  out.decorated = strip_worker_suffix(context);
  // pytest-cov's phase.
  bool phase = false, fixture = false;
  if (auto bar = context.rfind('|'); bar != std::string::npos) {
    std::string_view word = std::string_view(context).substr(bar + 1);
    if (word == "run" || word == "call" || word == "setup" || word == "teardown" || word == "child") {
      phase = true;
      fixture = word == "setup" || word == "teardown";
      out.child = word == "child";
      context.resize(bar);
      out.decorated = strip_worker_suffix(context) || out.decorated;
    }
  }
  // A static context label ([run] context, coverage run --context) comes first, joined with '|'.
  auto sep = context.find("::");
  auto label = context.rfind('|', sep == std::string::npos ? std::string::npos : sep);
  if (label != std::string::npos && (sep == std::string::npos || label < sep)) {
    context.erase(0, label + 1);
    out.decorated = true;
    sep = context.find("::");
  }
  if (context.empty()) {
    out.kind = ContextKind::outside;
    return out;
  }
  if (sep != std::string::npos) {
    // pytest node ids are relative to pytest's rootdir; impact's are relative to the repository.
    out.node_id = m_rootdir.empty() ? context : m_rootdir + "/" + context;
    out.kind = fixture ? ContextKind::fixture : ContextKind::test;
    return out;
  }
  if (phase) return out; // "something|run" without a node id: not pytest-cov's
  out.node_id = test_function_id(context);
  out.kind = out.node_id.empty() ? ContextKind::unknown : ContextKind::test;
  return out;
}

} // namespace impact::coverage
