#include "impact/resolve/file_index.hpp"

#include "impact/python/names.hpp"

#include <algorithm>
#include <cstdint>

namespace impact::resolve {

namespace {

constexpr int k_max_depth = 8; // re-export chains longer than this are Unknown

std::string_view parent_of(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

template <typename V>
const V* find_sorted(const std::vector<std::pair<std::string_view, V>>& v, std::string_view key) {
  auto it = std::lower_bound(v.begin(), v.end(), key, [](const auto& e, std::string_view k) { return e.first < k; });
  return it != v.end() && it->first == key ? &it->second : nullptr;
}

} // namespace

const Binding* FileInfo::binding(std::string_view name) const { return find_sorted(names, name); }

int32_t FileInfo::symbol(std::string_view qualname) const {
  const int32_t* found = find_sorted(by_qualname, qualname);
  return found != nullptr ? *found : -1;
}

int32_t FileInfo::symbol_at(uint32_t line) const {
  int32_t out = -1;
  // In source order an enclosing symbol comes before the ones it holds: the last match is innermost.
  for (size_t i = 0; i < facts.symbols.size(); ++i) {
    if (facts.symbols[i].first_line <= line && line <= facts.symbols[i].last_line) out = static_cast<int32_t>(i);
  }
  return out;
}

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

FileIndex::FileIndex(const ImportGraph& graph, const ProjectFacts& facts)
    : m_graph(graph), m_facts(facts), m_files(graph.nodes.size()) {
  m_links = std::any_of(facts.files.begin(), facts.files.end(), [](const auto& f) { return !f.link_target.empty(); });
}

bool FileIndex::type_checking_may_run() {
  if (!m_type_checking_may_run) m_type_checking_may_run = !m_type_checking_ask || m_type_checking_ask();
  return *m_type_checking_may_run;
}

// The process exits right after the decision: freeing every decoded file one by one would cost more
// than building them, so the index is left for the operating system to reclaim (like compilers do).
// Under AddressSanitizer they are freed, so that its leak check keeps its meaning.
FileIndex::~FileIndex() {
#if !defined(__SANITIZE_ADDRESS__)
  for (auto& f : m_files) (void)f.release();
#endif
}

void FileIndex::name_matched(uint32_t importer, const ImportView& imp, std::vector<uint32_t>& out) const {
  // The modules the graph matched by name for the import (a folder a conftest.py puts on sys.path,
  // ahead of an import root's module of that name or where no root has one; a folder a package adds to
  // its __path__), as the file level links them.
  for (const Edge& e : m_graph.out[importer]) {
    if (e.kind == EdgeKind::name_match && e.line == imp.line && std::find(out.begin(), out.end(), e.target) == out.end()) {
      out.push_back(e.target);
    }
  }
}

bool FileIndex::in_project_package(const ImportView& imp) const {
  if (imp.level > 0) return true; // a relative import: the importer's own package
  std::string_view module = imp.module;
  for (size_t dot = module.rfind('.'); dot != std::string_view::npos; dot = module.rfind('.', dot - 1)) {
    if (!m_graph.modules_named(module.substr(0, dot)).empty()) return true;
    if (dot == 0) break;
  }
  return false;
}

void FileIndex::resolve_module(uint32_t importer, const ImportView& imp, std::vector<uint32_t>& out) const {
  if (imp.level == 0) {
    const auto& nodes = m_graph.modules_named(imp.module);
    out.insert(out.end(), nodes.begin(), nodes.end());
    name_matched(importer, imp, out);
    return;
  }
  std::string base(parent_of(m_graph.nodes[importer].path.view()));
  for (int up = 1; up < imp.level; ++up) base = std::string(parent_of(base));
  std::string path = base;
  if (!imp.module.empty() && !base.empty()) path.push_back('/');
  for (char c : imp.module) path.push_back(c == '.' ? '/' : c);
  std::string module_file = path;
  module_file.append(".py");
  std::string package_file = path;
  package_file.append(path.empty() ? "__init__.py" : "/__init__.py");
  for (const std::string* candidate : {&module_file, &package_file}) {
    if (auto n = m_graph.find(*candidate)) out.push_back(*n);
  }
  // The same module in the other roots (a namespace package's portions lie in several folders).
  for (const std::string& name : relative_module_names(m_graph.nodes[importer], imp.level, imp.module)) {
    for (uint32_t n : m_graph.modules_named(name)) {
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
  }
}

std::vector<uint32_t> FileIndex::namespace_submodule(uint32_t importer, const ImportView& imp, std::string_view name) const {
  std::vector<uint32_t> out;
  if (imp.level == 0) {
    std::string full(imp.module);
    full.append(".").append(name);
    const auto& nodes = m_graph.modules_named(full);
    out.assign(nodes.begin(), nodes.end());
    return out;
  }
  std::string path(parent_of(m_graph.nodes[importer].path.view()));
  for (int up = 1; up < imp.level; ++up) path = std::string(parent_of(path));
  for (std::string_view part : {imp.module, name}) {
    if (part.empty()) continue;
    if (!path.empty()) path.push_back('/');
    for (char c : part) path.push_back(c == '.' ? '/' : c);
  }
  for (std::string candidate : {path + ".py", path + "/__init__.py"}) {
    if (auto n = m_graph.find(candidate)) out.push_back(*n);
  }
  for (std::string full : relative_module_names(m_graph.nodes[importer], imp.level, imp.module)) {
    full.append(".").append(name);
    for (uint32_t n : m_graph.modules_named(full)) {
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
  }
  return out;
}

FileInfo* FileIndex::mutable_get(uint32_t node) {
  if (node >= m_facts.size()) return nullptr;
  if (m_files[node]) return m_files[node].get();
  auto info = std::make_unique<FileInfo>();
  info->node = node;
  m_facts.view(node, info->facts);
  m_facts.imports(node, info->imports);
  const FactsView& f = info->facts;
  std::vector<std::pair<std::string_view, Binding>> runtime;
  runtime.reserve(f.symbols.size() + f.module_names.size() + info->imports.imports.size() * 2);
  info->by_qualname.reserve(f.symbols.size());
  for (size_t i = 0; i < f.symbols.size(); ++i) {
    info->by_qualname.emplace_back(f.symbols[i].qualname, static_cast<int32_t>(i));
    if (f.symbols[i].dynamic_access) info->dynamic_symbols.push_back(static_cast<int32_t>(i));
    if (f.symbols[i].parent == -1) runtime.push_back({f.symbols[i].qualname, Binding{Binding::definition, -1, f.symbols[i].qualname}});
  }
  for (auto name : f.module_names) runtime.push_back({name, Binding{Binding::assignment, -1, {}}});
  std::vector<std::pair<std::string_view, Binding>> typing_only; // bound by an `if TYPE_CHECKING:` import
  for (size_t k = 0; k < info->imports.imports.size(); ++k) {
    const ImportView& imp = info->imports.imports[k];
    auto index = static_cast<int32_t>(k);
    auto& into = (imp.flags & k_import_type_checking) != 0 ? typing_only : runtime;
    switch (imp.kind) {
    case ImportKind::plain: {
      std::string_view alias = imp.aliases_begin < imp.aliases_end ? info->imports.aliases[imp.aliases_begin] : std::string_view();
      if (alias.empty()) {
        std::string_view root = imp.module.substr(0, imp.module.find('.'));
        into.push_back({root, Binding{Binding::module, index, root}});
      } else {
        into.push_back({alias, Binding{Binding::module, index, imp.module}});
      }
      break;
    }
    case ImportKind::from:
      for (size_t n = imp.names_begin; n < imp.names_end; ++n) {
        size_t a = imp.aliases_begin + (n - imp.names_begin);
        std::string_view alias = a < imp.aliases_end ? info->imports.aliases[a] : info->imports.names[n];
        into.push_back({alias, Binding{Binding::from_import, index, info->imports.names[n]}});
      }
      break;
    case ImportKind::star: info->star_imports = true; break;
    default: break;
    }
  }
  // A name an `if TYPE_CHECKING:` import binds, which the module also binds at run time (`from builtins
  // import list as _List` there, `class _List(list)` in the else branch): only the run-time binding is
  // there when code runs, unless a test may set TYPE_CHECKING (type_checking_may_run()).
  for (auto& entry : typing_only) {
    bool also_runtime = std::any_of(runtime.begin(), runtime.end(), [&](const auto& r) { return r.first == entry.first; });
    if (!also_runtime || type_checking_may_run()) runtime.push_back(entry);
  }
  // Sorted, with a name bound two different ways marked as a conflict. `import pkg` and `import
  // pkg.sub.ops` bind the same package object (the second also sets its `sub` attribute), not two.
  auto same_import = [&](int32_t a, int32_t b) {
    if (a == b) return true;
    if (a < 0 || b < 0) return false;
    const ImportView& x = info->imports.imports[static_cast<size_t>(a)];
    const ImportView& y = info->imports.imports[static_cast<size_t>(b)];
    auto unaliased = [&](const ImportView& i) {
      return i.kind == ImportKind::plain && i.level == 0 && (i.aliases_begin >= i.aliases_end || info->imports.aliases[i.aliases_begin].empty());
    };
    if (unaliased(x) && unaliased(y)) return x.module.substr(0, x.module.find('.')) == y.module.substr(0, y.module.find('.'));
    return x.module == y.module && x.level == y.level;
  };
  std::stable_sort(runtime.begin(), runtime.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& entry : runtime) {
    if (!info->names.empty() && info->names.back().first == entry.first) {
      Binding& old = info->names.back().second;
      const Binding& b = entry.second;
      if (old.kind != b.kind || old.name != b.name || !same_import(old.import, b.import)) {
        old.kind = Binding::conflict;
      } else if (old.import >= 0 && b.import >= 0 &&
                 info->imports.imports[static_cast<size_t>(b.import)].module.size() >
                     info->imports.imports[static_cast<size_t>(old.import)].module.size()) {
        old.import = b.import; // `import nsp.sub.mod` over `import nsp`: the longest says most (a namespace package)
      }
      continue;
    }
    info->names.push_back(entry);
  }
  std::sort(info->by_qualname.begin(), info->by_qualname.end(), [](const auto& a, const auto& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  });
  info->by_qualname.erase(std::unique(info->by_qualname.begin(), info->by_qualname.end(),
                                      [](const auto& a, const auto& b) { return a.first == b.first; }),
                          info->by_qualname.end());
  m_files[node] = std::move(info);
  return m_files[node].get();
}

std::vector<uint32_t> FileIndex::submodules(const std::vector<uint32_t>& modules, std::string_view name) const {
  std::vector<uint32_t> out;
  std::string full;
  for (uint32_t m : modules) {
    for (const auto& module_name : m_graph.nodes[m].module_names) {
      full.assign(module_name).append(".").append(name);
      for (uint32_t n : m_graph.modules_named(full)) {
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      }
    }
  }
  return out;
}

Target FileIndex::from_binding(uint32_t h, const FileInfo& info, const Binding& b, int depth) {
  std::vector<uint32_t> modules;
  if (b.import >= 0) {
    const ImportView& imp = info.imports.imports[static_cast<size_t>(b.import)];
    if (b.kind == Binding::module && imp.level == 0) {
      const auto& nodes = m_graph.modules_named(b.name); // `import a.b` binds a; `import a.b as c` binds a.b
      modules.assign(nodes.begin(), nodes.end());
      name_matched(h, imp, modules);
    } else {
      resolve_module(h, imp, modules);
      // `from nsp import mod` where nsp is a namespace package (a folder without __init__.py): no file
      // is nsp, and the name can only be its submodule.
      if (modules.empty() && b.kind == Binding::from_import) {
        std::vector<uint32_t> sub = namespace_submodule(h, imp, b.name);
        if (!sub.empty()) return Target{Target::module, std::move(sub), 0, {}};
      }
    }
  }
  // `import nsp.sub.mod` binds nsp, a namespace package no file is, through which `nsp.sub.mod.f` reads
  // a project module: anything (namespace parts have no target of their own).
  if (b.import >= 0 && modules.empty() && b.kind == Binding::module) {
    const ImportView& imp = info.imports.imports[static_cast<size_t>(b.import)];
    if (imp.level == 0 && imp.module != b.name && !m_graph.modules_named(imp.module).empty()) return Target{};
  }
  // A module of a project package that no file is (`pkg.impl` registered in sys.modules by pkg's
  // __init__.py, a module of a folder added to the package's __path__): anything.
  if (b.import >= 0 && modules.empty() && (b.kind == Binding::module || b.kind == Binding::from_import) &&
      in_project_package(info.imports.imports[static_cast<size_t>(b.import)])) {
    return Target{Target::unknown, {}, 0, {}};
  }
  switch (b.kind) {
  case Binding::definition: return Target{Target::definition, {}, h, std::string(b.name)};
  case Binding::module:
    if (modules.empty()) return Target{Target::nothing, {}, 0, {}}; // third-party
    return Target{Target::module, std::move(modules), 0, {}};
  case Binding::from_import:
    if (modules.empty()) return Target{Target::nothing, {}, 0, {}}; // from a third-party module
    // A package's __init__.py importing its own submodule (`from pkg import sub`, `from . import
    // sub`) binds the submodule: looked up as a member of the package, the name would lead back here.
    if (std::find(modules.begin(), modules.end(), h) != modules.end()) {
      if (auto sub = submodules({h}, b.name); !sub.empty()) return Target{Target::module, std::move(sub), 0, {}};
    }
    return member(Target{Target::module, std::move(modules), 0, {}}, b.name, depth + 1);
  case Binding::assignment:
  case Binding::conflict: break;
  }
  return Target{};
}

// `def run(): ...` then `from ._speedups import *`: the star import may rebind the name (the
// accelerated version wins), so the definition is not proof of what the name denotes. So does one
// after an import of the name (`from .a import helper` then `from .b import *`).
bool FileIndex::star_may_rebind(const FileInfo& info, const Binding& b, std::string_view name) {
  if (!info.star_imports || b.kind == Binding::conflict) return false;
  uint32_t defined_at = 0; // 0: not known (an assignment), so any star import may come after it
  if (b.kind == Binding::definition) {
    int32_t index = info.symbol(b.name);
    if (index >= 0) defined_at = info.at(index).def_line;
  } else if ((b.kind == Binding::module || b.kind == Binding::from_import) && b.import >= 0 &&
             static_cast<size_t>(b.import) < info.imports.imports.size()) {
    defined_at = info.imports.imports[static_cast<size_t>(b.import)].line;
  }
  return star_may_bind(info, name, defined_at);
}

// Whether a star import of the file at or after line `after` (0: any) may bind `name`.
bool FileIndex::star_may_bind(const FileInfo& info, std::string_view name, uint32_t after) {
  for (const ImportView& imp : info.imports.imports) {
    if (imp.kind != ImportKind::star || (after != 0 && imp.line < after)) continue;
    std::vector<uint32_t> modules;
    resolve_module(info.node, imp, modules);
    if (modules.empty()) return true; // from outside the repository: any name
    for (uint32_t m : modules) {
      const FileInfo* other = get(m);
      if (other == nullptr || other->star_imports || other->facts.defines_module_getattr ||
          other->binding(name) != nullptr) {
        return true;
      }
    }
  }
  return false;
}

Target FileIndex::root(uint32_t h, std::string_view name, int depth) {
  if (name.empty() || name == "self" || name == "cls" || name == "super") return Target{};
  const FileInfo* info = get(h);
  if (info == nullptr) return Target{};
  const Binding* b = info->binding(name);
  if (b == nullptr) {
    // A builtin's name read in a module with a star import (kept for the star: `star-import`): the
    // builtin, unless the star's module may bind the name (a `def sorted` added there).
    if (info->star_imports && python::is_builtin(name) && !star_may_bind(*info, name, 0)) return Target{Target::nothing, {}, 0, {}};
    return Target{}; // bound in a way not read: unknown
  }
  if (star_may_rebind(*info, *b, name)) return Target{};
  return from_binding(h, *info, *b, depth);
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
      if (const Binding* b = info->binding(name)) {
        r = star_may_rebind(*info, *b, name) ? Target{} : from_binding(m, *info, *b, depth + 1);
      } else if (auto sub = submodules({m}, name); !sub.empty()) {
        r = Target{Target::module, sub, 0, {}};
      } else if (info->star_imports || info->facts.defines_module_getattr) {
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
    if (info->symbol(qual) >= 0) return Target{Target::definition, {}, t.node, qual};
    return Target{}; // inherited, an instance attribute, set elsewhere: unknown
  }
  }
  return Target{};
}

// The same code under two names: a symbolic link and the file it points to. Most repositories have
// no linked Python file: then only the numbers are compared (may_denote() asks this for every read
// of the name it follows; looking at both files' records cost two cache misses each time).
bool FileIndex::same_file(uint32_t a, uint32_t b) const {
  if (a == b) return true;
  if (!m_links) return false;
  auto target = [&](uint32_t n) -> std::string_view {
    return n < m_facts.size() ? m_facts.files[n].link_target.view() : std::string_view();
  };
  return target(a) == m_graph.nodes[b].path.view() || target(b) == m_graph.nodes[a].path.view();
}

Target FileIndex::resolve(uint32_t h, std::string_view chain) {
  auto parts = split_chain(chain);
  if (parts.empty()) return Target{};
  Target t = root(h, parts[0], 0);
  for (size_t k = 1; k < parts.size() && t.kind != Target::unknown && t.kind != Target::nothing; ++k) {
    t = member(t, parts[k], 0);
  }
  return t;
}

std::vector<uint32_t> FileIndex::imported_submodules(uint32_t h, const Binding& b) {
  const FileInfo* info = get(h);
  if (info == nullptr || b.kind != Binding::from_import || b.import < 0) return {};
  std::vector<uint32_t> modules;
  resolve_module(h, info->imports.imports[static_cast<size_t>(b.import)], modules);
  return submodules(modules, b.name);
}

const Target& FileIndex::prefix_target(FileInfo& info, const std::vector<std::string_view>& chain, size_t index) {
  m_key.clear();
  for (size_t k = 0; k <= index; ++k) m_key.append(k == 0 ? "" : ".").append(chain[k]);
  if (auto it = info.prefixes.find(std::string_view(m_key)); it != info.prefixes.end()) return it->second;
  Target t = root(info.node, chain[0], 0);
  for (size_t k = 1; k <= index && t.kind != Target::unknown && t.kind != Target::nothing; ++k) {
    t = member(t, chain[k], 0);
  }
  return info.prefixes.emplace(m_key, std::move(t)).first->second;
}

bool FileIndex::may_refer(uint32_t h, const std::vector<std::string_view>& chain, size_t index, uint32_t g,
                          std::string_view qualname) {
  FileInfo* info = mutable_get(h);
  if (info == nullptr) return true; // a ghost: nothing rules it out
  return may_denote(prefix_target(*info, chain, index), g, qualname);
}

bool FileIndex::may_denote(const Target& t, uint32_t g, std::string_view qualname) const {
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

uint32_t FileIndex::intern(std::string_view name) {
  if (auto it = m_names.find(name); it != m_names.end()) return it->second;
  auto id = static_cast<uint32_t>(m_names.size());
  m_names.emplace(std::string(name), id);
  return id;
}

const std::vector<Read>& FileIndex::reads(uint32_t h, uint32_t id, std::string_view name) {
  static const std::vector<Read> k_none;
  FileInfo* info = mutable_get(h);
  if (info == nullptr) return k_none;
  return info->read_lists[read_list(info, id, name)];
}

size_t FileIndex::read_list(FileInfo* info, uint32_t id, std::string_view name) {
  static const Target k_any; // unknown: may denote anything
  for (size_t k = 0; k < info->read_names.size(); ++k) {
    if (info->read_names[k] == id) return k;
  }
  std::vector<Read> out;
  const FactsView& facts = info->facts;
  // A computed-name reader is asked for by its name table component, and recorded as its reference.
  std::string_view marker = name == k_any_member_name   ? k_any_member
                            : name == k_any_setter_name ? k_any_setter
                            : name == k_any_getter_name ? k_any_getter
                            : name == k_self_setter_name ? k_self_setter
                            : name == k_self_getter_name ? k_self_getter
                            : name == k_any_value_attr_name ? k_any_value_attr
                                                            : std::string_view();
  // The name a method's instance goes by: its first parameter (`self`, or `__self` as click spells it).
  auto instance_name = [&](int32_t symbol) -> std::string_view {
    if (symbol < 0) return "self";
    const SymbolView& s = facts.symbols[static_cast<size_t>(symbol)];
    if (s.parent < 0 || facts.symbols[static_cast<size_t>(s.parent)].kind != SymbolKind::class_) return "self";
    return facts.begin(s.params) != facts.end(s.params) ? *facts.begin(s.params) : std::string_view("self");
  };
  // `stored_from`: the refs from there on are read only in stored positions (module level), and from
  // `program_from` to there only in a main guard's body.
  auto scan = [&](ViewRange refs, int32_t symbol, uint32_t stored_from, uint32_t annotated_from, uint32_t program_from = UINT32_MAX) {
    std::string_view instance = instance_name(symbol);
    for (auto ref = facts.begin(refs); ref != facts.end(refs); ++ref) {
      bool stored = static_cast<uint32_t>(ref - facts.begin(refs)) >= stored_from;
      bool program = !stored && static_cast<uint32_t>(ref - facts.begin(refs)) >= program_from;
      bool annotated = static_cast<uint32_t>(ref - facts.begin(refs)) >= annotated_from;
      if (!marker.empty()) {
        if (*ref == marker) {
          out.push_back(Read{symbol, &k_any, false, false, {}});
        } else if (std::string_view prefix = any_member_prefix(*ref); marker == k_any_member && !prefix.empty()) {
          out.push_back(Read{symbol, &k_any, false, false, prefix});
        } else if (std::string_view start = any_value_attr_prefix(*ref); marker == k_any_value_attr && !start.empty()) {
          out.push_back(Read{symbol, &k_any, false, false, start});
        }
        continue;
      }
      if (ref->find(name) == std::string_view::npos) continue;
      auto parts = split_chain(*ref);
      for (size_t i = 0; i < parts.size(); ++i) {
        bool on_self = i == 1 && (parts[0] == "self" || parts[0] == "super" || parts[0] == instance);
        if (parts[i] == name) {
          out.push_back(Read{symbol, &prefix_target(*info, parts, i), false, on_self, {}, stored, i > 0 && parts[0].empty(), annotated, program});
        }
      }
    }
  };
  uint32_t stored_from = (facts.module_refs.end - facts.module_refs.begin) - facts.module_stored;
  scan(facts.module_refs, -1, stored_from, UINT32_MAX, stored_from - facts.module_program);
  for (size_t i = 0; i < facts.symbols.size(); ++i) {
    // References only stored into doctest_namespace (the last namespace_values) are the doctests'.
    ViewRange refs = facts.symbols[i].refs;
    if (!m_namespace_stores) refs.end -= std::min(refs.end - refs.begin, facts.symbols[i].namespace_values);
    scan(refs, static_cast<int32_t>(i), UINT32_MAX, (refs.end - refs.begin) - facts.symbols[i].annotation_refs);
  }
  info->read_names.push_back(id);
  info->read_lists.push_back(std::move(out));
  info->denoting.emplace_back();
  return info->read_lists.size() - 1;
}

const std::vector<Read>& FileIndex::namespace_reads(uint32_t h) {
  static const std::vector<Read> k_none;
  FileInfo* info = mutable_get(h);
  if (info == nullptr) return k_none;
  if (info->namespace_reads) return *info->namespace_reads;
  std::vector<Read> out;
  const FactsView& facts = info->facts;
  auto scan = [&](ViewRange refs, int32_t symbol) {
    for (auto ref = facts.begin(refs); ref != facts.end(refs); ++ref) {
      if (ref->find("__dict__") == std::string_view::npos) continue;
      auto parts = split_chain(*ref);
      for (size_t i = 1; i < parts.size(); ++i) {
        if (parts[i] != "__dict__") continue;
        // The namespace of a class: `cls.__dict__`, `self.__class__.__dict__`. Of `self` (or any other
        // instance), its own attributes: data, not code.
        std::string_view of = parts[i - 1];
        bool class_like = of == "cls" || of == "mcs" || of == "klass" || of == "__class__";
        if (parts[0] == "self" && !class_like) continue;
        out.push_back(Read{symbol, &prefix_target(*info, parts, i - 1), class_like, false, {}});
      }
    }
  };
  scan(facts.module_refs, -1);
  for (size_t i = 0; i < facts.symbols.size(); ++i) scan(facts.symbols[i].refs, static_cast<int32_t>(i));
  info->namespace_reads = std::move(out);
  return *info->namespace_reads;
}

} // namespace impact::resolve
