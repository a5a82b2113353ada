#include "decision/file_info.hpp"

#include <algorithm>

namespace impact::decision {

namespace {

constexpr int k_max_depth = 8; // re-export chains longer than this are Unknown

std::string_view parent_of(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

void bind_name(FileInfo& info, const std::string& name, Binding b) {
  auto [it, inserted] = info.names.emplace(name, b);
  if (inserted) return;
  Binding& old = it->second;
  bool same = old.kind == b.kind && old.modules == b.modules && old.name == b.name;
  if (!same) old.kind = Binding::conflict; // bound two ways: cannot tell which one a use means
}

} // namespace

std::vector<std::string_view> split_chain(std::string_view chain) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    size_t dot = chain.find('.', start);
    parts.push_back(chain.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::vector<uint32_t> FileIndex::resolve_module(uint32_t importer, const ImportFact& imp) const {
  if (imp.level == 0) return m_graph.modules_named(imp.module);
  std::string base(parent_of(m_graph.nodes[importer].path.view()));
  for (int up = 1; up < imp.level; ++up) base = std::string(parent_of(base));
  std::string path = base;
  if (!imp.module.empty() && !base.empty()) path.push_back('/');
  for (char c : imp.module) path.push_back(c == '.' ? '/' : c);
  std::vector<uint32_t> out;
  std::string module_file = path;
  module_file.append(".py");
  std::string package_file = path;
  package_file.append(path.empty() ? "__init__.py" : "/__init__.py");
  for (const std::string* candidate : {&module_file, &package_file}) {
    if (auto n = m_graph.find(*candidate)) out.push_back(*n);
  }
  return out;
}

const FileInfo* FileIndex::get(uint32_t node) {
  if (node >= m_facts.size()) return nullptr;
  if (m_files[node]) return m_files[node].get();
  auto info = std::make_unique<FileInfo>();
  info->node = node;
  info->facts = m_facts.full(node);
  FileFacts& f = info->facts;
  info->module_getattr = f.defines_module_getattr;
  for (size_t i = 0; i < f.symbols.size(); ++i) {
    info->by_qualname.emplace(f.symbols[i].qualname, static_cast<int32_t>(i));
    if (f.symbols[i].parent == -1) bind_name(*info, f.symbols[i].qualname, Binding{Binding::definition, {}, f.symbols[i].qualname});
  }
  for (const auto& name : f.module_names) bind_name(*info, name, Binding{Binding::assignment, {}, {}});
  for (const auto& imp : f.imports) {
    switch (imp.kind) {
    case ImportKind::plain: {
      std::string alias = imp.aliases.empty() ? std::string() : imp.aliases.front();
      if (alias.empty()) {
        std::string root = imp.module.substr(0, imp.module.find('.'));
        bind_name(*info, root, Binding{Binding::module, m_graph.modules_named(root), {}});
      } else {
        bind_name(*info, alias, Binding{Binding::module, resolve_module(node, imp), {}});
      }
      break;
    }
    case ImportKind::from: {
      auto modules = resolve_module(node, imp);
      for (size_t k = 0; k < imp.names.size(); ++k) {
        const std::string& alias = k < imp.aliases.size() ? imp.aliases[k] : imp.names[k];
        bind_name(*info, alias, Binding{Binding::from_import, modules, imp.names[k]});
      }
      break;
    }
    case ImportKind::star: info->star_imports = true; break;
    default: break;
    }
  }
  m_files[node] = std::move(info);
  return m_files[node].get();
}

std::vector<uint32_t> FileIndex::submodules(const std::vector<uint32_t>& modules, std::string_view name) const {
  std::vector<uint32_t> out;
  for (uint32_t m : modules) {
    for (const auto& module_name : m_graph.nodes[m].module_names) {
      std::string full = module_name;
      full.append(".").append(name);
      for (uint32_t n : m_graph.modules_named(full)) {
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      }
    }
  }
  return out;
}

Target FileIndex::from_binding(uint32_t h, const Binding& b, std::string_view name, int depth) {
  switch (b.kind) {
  case Binding::definition: return Target{Target::definition, {}, h, b.name};
  case Binding::module:
    if (b.modules.empty()) return Target{Target::nothing, {}, 0, {}}; // third-party
    return Target{Target::module, b.modules, 0, {}};
  case Binding::from_import:
    if (b.modules.empty()) return Target{Target::nothing, {}, 0, {}}; // from a third-party module
    return member(Target{Target::module, b.modules, 0, {}}, b.name, depth + 1);
  case Binding::assignment:
  case Binding::conflict: break;
  }
  (void)name;
  return Target{};
}

Target FileIndex::root(uint32_t h, std::string_view name, int depth) {
  if (name.empty() || name == "self" || name == "cls" || name == "super") return Target{};
  const FileInfo* info = get(h);
  if (info == nullptr) return Target{};
  auto it = info->names.find(std::string(name));
  if (it == info->names.end()) return Target{}; // a builtin, or bound in a way not read: unknown
  return from_binding(h, it->second, name, depth);
}

Target FileIndex::member(const Target& t, std::string_view name, int depth) {
  if (depth > k_max_depth) return Target{};
  switch (t.kind) {
  case Target::unknown:
  case Target::nothing: return t;
  case Target::module: {
    Target result{Target::nothing, {}, 0, {}};
    bool found = false;
    for (uint32_t m : t.modules) {
      const FileInfo* info = get(m);
      if (info == nullptr) return Target{}; // a deleted module: anything
      Target r;
      if (auto it = info->names.find(std::string(name)); it != info->names.end()) {
        r = from_binding(m, it->second, name, depth + 1);
      } else if (auto sub = submodules({m}, name); !sub.empty()) {
        r = Target{Target::module, sub, 0, {}};
      } else if (info->star_imports || info->module_getattr) {
        r = Target{};
      } else {
        r = Target{Target::nothing, {}, 0, {}};
      }
      if (r.kind == Target::unknown) return r;
      if (r.kind == Target::nothing) continue;
      if (found) return Target{}; // several meanings: keep it simple
      result = r;
      found = true;
    }
    return result;
  }
  case Target::definition: {
    const FileInfo* info = get(t.node);
    if (info == nullptr) return Target{};
    std::string qual = t.qualname;
    qual.append(".").append(name);
    if (info->by_qualname.contains(qual)) return Target{Target::definition, {}, t.node, qual};
    return Target{}; // inherited, an instance attribute, set elsewhere: unknown
  }
  }
  return Target{};
}

// The same code under two names: a symbolic link and the file it points to.
bool FileIndex::same_file(uint32_t a, uint32_t b) const {
  if (a == b) return true;
  auto target = [&](uint32_t n) -> std::string_view {
    return n < m_facts.size() ? m_facts.files[n].link_target.view() : std::string_view();
  };
  return target(a) == m_graph.nodes[b].path.view() || target(b) == m_graph.nodes[a].path.view();
}

bool FileIndex::may_refer(uint32_t h, const std::vector<std::string_view>& chain, size_t index, uint32_t g,
                          const std::string& qualname) {
  Target t = root(h, chain[0], 0);
  for (size_t k = 1; k <= index && t.kind != Target::unknown && t.kind != Target::nothing; ++k) {
    t = member(t, chain[k], 0);
  }
  switch (t.kind) {
  case Target::unknown: return true;
  case Target::nothing: return false;
  case Target::module: return false; // the name denotes a module, not the symbol
  case Target::definition:
    // The symbol itself, or one defined inside it (a call to a method through its class).
    return same_file(t.node, g) && (t.qualname == qualname ||
                           (qualname.size() > t.qualname.size() && qualname.starts_with(t.qualname) &&
                            qualname[t.qualname.size()] == '.'));
  }
  return true;
}

} // namespace impact::decision
