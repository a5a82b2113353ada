#pragma once
// The graph's builder and its linker, shared by a full build (import_graph.cpp) and by the relinking
// of changed files in a stored graph (relink.cpp). Private to the graph stage. The hot loops reuse
// scratch strings and a per-node stamp array instead of allocating.
#include "graph/module_index.hpp"
#include "impact/graph.hpp"
#include "impact/project.hpp"
#include "impact/python/project_facts.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace impact::graph {


constexpr uint32_t k_none = std::numeric_limits<uint32_t>::max();

inline std::string_view parent_of(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

// out = dir + "/" + rel (or whichever is not empty).
inline void join_into(std::string& out, std::string_view dir, std::string_view rel) {
  out.assign(dir);
  if (!dir.empty() && !rel.empty()) out.push_back('/');
  out.append(rel);
}

inline void append_dotted_as_path(std::string& out, std::string_view dotted) {
  if (!out.empty() && !dotted.empty()) out.push_back('/');
  for (char c : dotted) out.push_back(c == '.' ? '/' : c);
}

inline EdgeKind edge_kind(ImportKind kind) {
  switch (kind) {
  case ImportKind::plain: return EdgeKind::import_;
  case ImportKind::from: return EdgeKind::from_import;
  case ImportKind::star: return EdgeKind::star_import;
  case ImportKind::dynamic: return EdgeKind::dynamic_import;
  case ImportKind::plugin: return EdgeKind::pytest_plugin;
  case ImportKind::string_ref: return EdgeKind::string_ref;
  }
  return EdgeKind::import_;
}

class Linker;

// The path and module tables of a graph whose nodes are those a build over `files` files and `ghosts`
// given ghosts made, filled exactly as that build fills them (relink.cpp).
void index_nodes(ImportGraph& graph, size_t files, size_t ghosts);

class GraphBuilder {
public:
  GraphBuilder(const ProjectLayout& layout, const ProjectFacts& facts, ImportGraph& graph)
      : m_layout(layout), m_facts(facts), m_graph(graph) {}

  void build(const std::vector<RepoPath>& ghosts, unsigned max_threads, uint32_t files_per_thread);
  // Completes a stored graph: its nodes, edges out, unbounded imports and tables (index_nodes) are those
  // of an earlier build over the same paths, layout and `ghosts`, with `changed` files (facts indexes)
  // whose facts differ since. Relinks those files and whatever read their facts while linking, then
  // builds the reverse edges as build() does (relink.cpp). The graph is then the one build() makes.
  // Returns how many files were linked again.
  size_t restore(const std::vector<RepoPath>& ghosts, std::vector<uint32_t> changed);

private:
  void add_nodes(const std::vector<RepoPath>& ghosts) {
    util::StringSet roots(m_layout.import_roots().begin(), m_layout.import_roots().end());
    m_graph.nodes.reserve(m_facts.size() + ghosts.size());
    reserve_tables(ghosts.size());
    auto add = [&](const RepoPath& path, bool ghost) {
      auto index = static_cast<uint32_t>(m_graph.nodes.size());
      GraphNode node;
      node.path = path;
      node.ghost = ghost;
      node.conftest = is_conftest(path);
      node.module_names = graph::module_names_of(path.str, roots);
      for (const auto& name : node.module_names) m_index.add(name, index);
      m_graph.by_path.emplace(path.str, index);
      add_entries(path);
      m_graph.nodes.push_back(std::move(node));
    };
    // Node i < facts.size() is facts.files[i]; ghosts follow.
    for (const auto& file : m_facts.files) add(file.path, false);
    for (const auto& ghost : ghosts) {
      if (!m_graph.by_path.contains(ghost.view())) add(ghost, true);
    }
    index_entries();
    m_graph.out.resize(m_graph.nodes.size());
    m_graph.in.resize(m_graph.nodes.size());
  }

  // The graph's tables are iterated while linking (a computed __all__, a prefix import), so a stored
  // graph must build them as add_nodes() does: the same sizes, then the same insertions in node order.
  void reserve_tables(size_t ghosts) {
    m_graph.by_path.reserve(m_facts.size() + ghosts);
    m_index.names().reserve(2 * (m_facts.size() + ghosts)); // most files have one or two names
    m_entries.reserve(2 * (m_facts.size() + ghosts));
  }

  // What a script-style import can find in a folder: module stems and folder names.
  void add_entries(const RepoPath& path) {
    std::string_view stem = path.view().substr(0, path.str.size() - 3);
    m_entries.emplace(stem);
    for (std::string_view dir = parent_of(stem); !dir.empty(); dir = parent_of(dir)) {
      if (!m_entries.emplace(dir).second) break;
    }
  }

  void index_entries() {
    for (const auto& entry : m_entries) {
      auto slash = entry.rfind('/');
      std::string_view name = slash == std::string::npos ? std::string_view(entry) : std::string_view(entry).substr(slash + 1);
      m_by_name[std::string(name)].push_back(parent_of(entry));
    }
  }

  // What pytest makes of file `i`, from its path and its own facts (a test file decodes them in full),
  // so each linking thread flags the files of its range.
  void flag(uint32_t i) {
    GraphNode& node = m_graph.nodes[i];
    node.test_pattern = m_layout.matches_test_pattern(node.path);
    node.test = node.test_pattern && m_layout.has_collectible_items(m_facts.full(i));
    if (m_layout.config().doctest_modules && !node.conftest && m_layout.is_collected_path(node.path) &&
        node.path.filename() != "setup.py" && node.path.filename() != "__main__.py") {
      // Its doctests are collected; without any, pytest still imports it, so its import errors count.
      if (m_facts.header(i).has_doctest) node.test = true;
      else if (!node.test) node.doctest_collected = true;
    }
  }

  friend class Linker;
  const ProjectLayout& m_layout;
  const ProjectFacts& m_facts;
  ImportGraph& m_graph;
  graph::ModuleIndex m_index;
  util::StringSet m_entries;       // module stems and folders, for script-style imports
  util::StringMap<std::vector<std::string_view>> m_by_name; // last part of an entry -> the folders holding it
};

// Links one range of files: resolves their imports against the shared indexes of the builder (read
// only) and writes only its own files' out-edges and test flags, so that ranges can be linked on
// several threads. Then one more links what Python and pytest imply, and the reverse edges.
class Linker {
public:
  explicit Linker(GraphBuilder& b)
      : m_builder(b), m_layout(b.m_layout), m_facts(b.m_facts), m_graph(b.m_graph), m_index(b.m_index), m_entries(b.m_entries),
        m_by_name(b.m_by_name), m_stamp(b.m_graph.nodes.size(), k_none) {}

  // The imports of files [begin, end), and their test flags (which no import resolution reads).
  void link(uint32_t begin, uint32_t end) {
    ImportScratch scratch;
    for (uint32_t node = begin; node < end; ++node) {
      m_current = node;
      m_builder.flag(node);
      m_facts.imports(node, scratch);
      for (const auto& imp : scratch.imports) resolve(imp, scratch);
      if (m_facts.header(node).has_uncertain_imports) {
        for (const auto& u : m_facts.full(node).uncertain_imports) uncertain(u);
      }
    }
  }

  std::vector<UnboundedImport>& unbounded() { return m_unbounded; }
  std::vector<uint32_t>& open_submodules() { return m_open_submodules; }

  // One edge per (current node, target): the first evidence found is kept.
  void edge(uint32_t to, EdgeKind kind, uint32_t line) {
    if (to == m_current || m_stamp[to] == m_current) return;
    m_stamp[to] = m_current;
    m_graph.out[m_current].push_back(Edge{to, kind, line});
  }

  uint32_t node_at(std::string_view path) const {
    auto it = m_graph.by_path.find(path);
    return it == m_graph.by_path.end() ? k_none : it->second;
  }

  // Links the module file or package at `path` (without ".py"). Returns whether one exists.
  bool link_path(std::string_view path, EdgeKind kind, uint32_t line) {
    bool any = false;
    m_probe.assign(path).append(".py");
    if (uint32_t n = node_at(m_probe); n != k_none) {
      edge(n, kind, line);
      any = true;
    }
    join_into(m_probe, path, "__init__.py");
    if (uint32_t n = node_at(m_probe); n != k_none) {
      edge(n, kind, line);
      any = true;
    }
    return any;
  }

  // Links module `name` and the packages above it (importing a.b.c runs a and a.b first). Returns
  // false when not even the top-level name is a module of the project.
  bool link_absolute(std::string_view name, EdgeKind kind, uint32_t line) {
    bool any = false;
    for (size_t dot = name.find('.');; dot = name.find('.', dot + 1)) {
      for (uint32_t target : m_index.find(name.substr(0, dot))) {
        edge(target, kind, line);
        any = true;
      }
      if (dot == std::string_view::npos) break;
    }
    return any;
  }

  // The same through a folder: a relative import, or a script importing its neighbours. Every
  // package on the way is linked (its __init__.py runs).
  bool link_under(std::string_view dir, std::string_view dotted, EdgeKind kind, uint32_t line) {
    bool any = false;
    std::string path(dir);
    for (size_t start = 0; start <= dotted.size();) {
      size_t dot = dotted.find('.', start);
      std::string_view part = dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
      if (!path.empty()) path.push_back('/');
      path.append(part);
      any |= link_path(path, kind, line);
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    return any;
  }

  void resolve(const ImportView& imp, const ImportScratch& scratch) {
    if (imp.kind == ImportKind::dynamic) unresolved_literal(imp);
    EdgeKind kind = edge_kind(imp.kind);
    if (imp.kind == ImportKind::string_ref) return string_ref(imp, scratch);
    if (imp.level > 0) return resolve_relative(imp, scratch, kind);
    if (link_absolute(imp.module, kind, imp.line)) {
      if (m_index.find(imp.module).empty()) unresolved_submodule(imp, scratch);
      else shadowed_by_name(imp, scratch);
      if (imp.kind == ImportKind::from) {
        for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
          m_name.assign(imp.module).append(".").append(scratch.names[k]);
          for (uint32_t target : m_index.find(m_name)) edge(target, kind, imp.line);
        }
      } else if (imp.kind == ImportKind::star) {
        for (uint32_t target : m_index.find(imp.module)) star_submodules(target, imp.line);
      }
      return;
    }
    // `from nsp import mod` where nsp is a namespace package (a folder without __init__.py under a
    // root): no file is nsp, and each name can only be its submodule.
    if (imp.kind == ImportKind::from && namespace_submodules(imp, scratch, kind)) return;
    // Not importable from any root: a script importing its neighbours (its folder is sys.path[0]).
    std::string_view dir = parent_of(m_graph.nodes[m_current].path.view());
    std::string_view first = imp.module.substr(0, imp.module.find('.'));
    join_into(m_probe, dir, first);
    if (m_entries.contains(m_probe)) {
      if (!link_under(dir, imp.module, kind, imp.line)) return;
      std::string module_dir(dir);
      append_dotted_as_path(module_dir, imp.module);
      follow_names(imp, scratch, module_dir, kind);
      return;
    }
    // Else a module of that name anywhere in the repository (code that extends sys.path at run time);
    // a name found nowhere is third-party.
    link_by_name(imp, scratch, imp.module, 1);
  }

  bool namespace_submodules(const ImportView& imp, const ImportScratch& scratch, EdgeKind kind) {
    bool any = false;
    for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
      m_name.assign(imp.module).append(".").append(scratch.names[k]);
      for (uint32_t target : m_index.find(m_name)) {
        edge(target, kind, imp.line);
        any = true;
      }
    }
    return any;
  }

  // Every module `dotted` names under a folder holding its first part, as `name_match` (and the names a
  // from-import takes from it), when at least `least` folders hold that first part.
  void link_by_name(const ImportView& imp, const ImportScratch& scratch, std::string_view dotted, size_t least) {
    auto found = m_by_name.find(dotted.substr(0, dotted.find('.')));
    if (found == m_by_name.end() || found->second.size() < least) return;
    for (std::string_view parent : found->second) {
      if (!link_under(parent, dotted, EdgeKind::name_match, imp.line)) continue;
      std::string module_dir(parent);
      append_dotted_as_path(module_dir, dotted);
      follow_names(imp, scratch, module_dir, EdgeKind::name_match);
    }
  }

  // `import helpers` that an import root resolves may still load another `helpers` first: a conftest.py
  // that puts tests/support at the front of sys.path. Every module of that name in the repository is
  // linked by name too (the ones under the roots are linked already).
  void shadowed_by_name(const ImportView& imp, const ImportScratch& scratch) { link_by_name(imp, scratch, imp.module, 2); }

  // `import pkg.extras` where pkg is the project's and no file is pkg.extras: the package extends its
  // __path__ (`__path__.append(...)`, pkgutil.extend_path), or code registers the module in
  // sys.modules. A module of that name anywhere in the repository may be the one loaded.
  void unresolved_submodule(const ImportView& imp, const ImportScratch& scratch) {
    std::string_view name = imp.module;
    size_t dot = name.rfind('.');
    while (dot != std::string_view::npos && dot > 0 && m_index.find(name.substr(0, dot)).empty()) dot = name.rfind('.', dot - 1);
    if (dot == std::string_view::npos || dot == 0) return;
    if (m_open_submodules.empty() || m_open_submodules.back() != m_current) m_open_submodules.push_back(m_current);
    link_by_name(imp, scratch, name.substr(dot + 1), 1);
  }

  // A literal dynamic import of a name that no import statement could spell (a dash, a space, a
  // non-ASCII letter: importlib takes any text) loads the file of that name; when there is none it is
  // no third-party module that `pip` could have installed either, so it may load anything.
  void unresolved_literal(const ImportView& imp) {
    if (imp.level == 0 && plain_dotted(imp.module)) return; // third-party when not the repository's
    std::string_view base = parent_of(m_graph.nodes[m_current].path.view());
    for (int up = 1; up < imp.level; ++up) base = parent_of(base);
    if (imp.level > 0 ? names_file_under(base, imp.module) : names_file(imp.module, base)) return;
    m_unbounded.push_back(UnboundedImport{m_current, imp.line, "import_module", std::string(imp.module)});
  }

  static bool plain_dotted(std::string_view name) {
    bool start = true;
    for (char c : name) {
      bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      if (c == '.' && !start) start = true;
      else if (letter || (!start && c >= '0' && c <= '9')) start = false;
      else return false;
    }
    return !start;
  }

  // Whether `name` is a module of the project, a neighbour of the importing file, or a module of that
  // name anywhere in the repository (the three places resolve() looks).
  bool names_file(std::string_view name, std::string_view dir) {
    if (!m_index.find(name).empty() || names_file_under(dir, name)) return true;
    auto found = m_by_name.find(name.substr(0, name.find('.')));
    if (found == m_by_name.end()) return false;
    return std::any_of(found->second.begin(), found->second.end(),
                       [&](std::string_view parent) { return names_file_under(parent, name); });
  }

  bool names_file_under(std::string_view dir, std::string_view dotted) {
    std::string path(dir);
    append_dotted_as_path(path, dotted);
    m_probe.assign(path).append(".py");
    if (node_at(m_probe) != k_none) return true;
    join_into(m_probe, path, "__init__.py");
    return node_at(m_probe) != k_none;
  }

  void resolve_relative(const ImportView& imp, const ImportScratch& scratch, EdgeKind kind) {
    std::string_view base = parent_of(m_graph.nodes[m_current].path.view());
    for (int up = 1; up < imp.level; ++up) base = parent_of(base);
    // `from . import x` runs the package's own __init__.py.
    join_into(m_probe, base, "__init__.py");
    uint32_t package = node_at(m_probe);
    if (package != k_none) edge(package, kind, imp.line);
    bool linked = imp.module.empty() || link_under(base, imp.module, kind, imp.line);
    std::string module_dir(base);
    append_dotted_as_path(module_dir, imp.module);
    follow_names(imp, scratch, module_dir, kind);
    // A module no folder of the package holds: the package may add folders to its `__path__`
    // (`__path__.append(".../plugins")`), so a module of that name anywhere may be the one loaded, as
    // for the absolute form (unresolved_submodule).
    auto elsewhere = relative_module_names(m_graph.nodes[m_current], imp.level, imp.module);
    bool found = std::any_of(elsewhere.begin(), elsewhere.end(), [&](const std::string& n) { return !m_index.find(n).empty(); });
    if (package != k_none && !linked && !found) {
      link_by_name(imp, scratch, imp.module, 1);
    } else if (package != k_none && imp.module.empty() && imp.kind == ImportKind::from) {
      ImportView plain = imp;
      plain.kind = ImportKind::plain;
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
        if (!names_file_under(base, scratch.names[k])) link_by_name(plain, scratch, scratch.names[k], 1);
      }
    }
    // The same names in every root: a namespace package's portions lie in several folders.
    for (const std::string& name : elsewhere) {
      link_absolute(name, kind, imp.line);
      if (imp.kind != ImportKind::from) continue;
      ImportView named = imp;
      named.module = name;
      namespace_submodules(named, scratch, kind);
    }
  }

  // `from <module_dir> import a, b`: a and b may be submodules; `import *` may load __all__'s.
  void follow_names(const ImportView& imp, const ImportScratch& scratch, const std::string& module_dir, EdgeKind kind) {
    if (imp.kind == ImportKind::from) {
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) link_under(module_dir, scratch.names[k], kind, imp.line);
    } else if (imp.kind == ImportKind::star) {
      join_into(m_probe, module_dir, "__init__.py");
      if (uint32_t n = node_at(m_probe); n != k_none) star_submodules(n, imp.line);
    }
  }

  // `from pkg import *` also imports the submodules its __all__ names; a computed __all__
  // (`sorted(p.stem for p in Path(__file__).parent.glob("*.py"))`) may name any of them.
  void star_submodules(uint32_t package, uint32_t line) {
    if (package >= m_facts.size() || m_graph.nodes[package].path.filename() != "__init__.py") return;
    std::string dir(parent_of(m_graph.nodes[package].path.view()));
    if (m_facts.header(package).all_dynamic) {
      std::string prefix = dir.empty() ? std::string() : dir + "/";
      for (const auto& [path, node] : m_graph.by_path) {
        if (!path.starts_with(prefix) || !path.ends_with(".py") || node == package) continue;
        std::string_view rest = std::string_view(path).substr(prefix.size());
        size_t slash = rest.find('/');
        if (slash == std::string_view::npos || rest.substr(slash + 1) == "__init__.py") edge(node, EdgeKind::star_import, line);
      }
    }
    if (!m_facts.header(package).has_all) return;
    FileFacts facts = m_facts.full(package);
    for (const auto& name : facts.all_names.value_or(std::vector<std::string>{})) {
      link_under(dir, name, EdgeKind::star_import, line);
    }
  }

  // "a.b.c" or "a.b:c": the longest prefix that is a module of the project, and its packages.
  void string_ref(const ImportView& imp, const ImportScratch&) {
    std::string_view name = imp.module;
    for (;;) {
      if (!m_index.find(name).empty()) {
        link_absolute(name, EdgeKind::string_ref, imp.line);
        return;
      }
      auto dot = name.rfind('.');
      if (dot == std::string_view::npos) return;
      name = name.substr(0, dot);
    }
  }

  void uncertain(const UncertainImport& u) {
    if (u.prefix.empty() && u.level == 0) {
      m_unbounded.push_back(UnboundedImport{m_current, u.line, u.call, {}});
      return;
    }
    if (u.level > 0) {
      std::string_view base = parent_of(m_graph.nodes[m_current].path.view());
      for (int up = 1; up < u.level; ++up) base = parent_of(base);
      std::string prefix(base);
      append_dotted_as_path(prefix, u.prefix);
      // A prefix ending at a package ("." or nothing after the dots) stays inside that package.
      if (u.prefix.empty() || u.prefix.back() == '.') {
        if (!prefix.empty() && prefix.back() != '/') prefix.push_back('/');
      }
      for (const auto& [path, node] : m_graph.by_path) {
        if (path.starts_with(prefix) && path.ends_with(".py")) edge(node, EdgeKind::dynamic_prefix, u.line);
      }
      return;
    }
    m_index.for_each_with_prefix(u.prefix, [&](const std::string&, const std::vector<uint32_t>& nodes) {
      for (uint32_t node : nodes) edge(node, EdgeKind::dynamic_prefix, u.line);
    });
    auto dot = u.prefix.rfind('.');
    if (dot != std::string::npos) link_absolute(std::string_view(u.prefix).substr(0, dot), EdgeKind::dynamic_prefix, u.line);
  }

  // Modules every test session loads: -p in addopts, pytest11 entry points, module names in settings.
  std::vector<uint32_t> session_modules() const {
    std::vector<uint32_t> session;
    auto add = [&](std::string_view name) {
      for (size_t dot = name.find('.');; dot = name.find('.', dot + 1)) {
        for (uint32_t t : m_index.find(name.substr(0, dot))) session.push_back(t);
        if (dot == std::string_view::npos) break;
      }
    };
    const PytestConfig& config = m_layout.config();
    for (const auto& p : config.plugins) add(p);
    for (const auto& p : config.entry_point_plugins) add(p);
    for (const auto& v : config.values) {
      if (v.find('.') != std::string::npos && !m_index.find(v).empty()) add(v);
    }
    std::sort(session.begin(), session.end());
    session.erase(std::unique(session.begin(), session.end()), session.end());
    return session;
  }

  void implied_edges() {
    std::vector<uint32_t> session = session_modules();
    for (uint32_t node = 0; node < m_graph.nodes.size(); ++node) implied_edges_of(node, session);
  }

  // What Python and pytest imply for `node`, after its imports: its package's __init__.py, the file a
  // symbolic link runs, and for a test module or conftest.py the nearest conftest.py above it and the
  // `session` plugins.
  void implied_edges_of(uint32_t node, const std::vector<uint32_t>& session) {
    m_current = node;
    for (const auto& e : m_graph.out[node]) m_stamp[e.target] = node;
    const GraphNode& n = m_graph.nodes[node];
    // The package's __init__.py runs before any module of the package.
    std::string_view dir = n.path.parent();
    if (n.path.filename() == "__init__.py") dir = parent_of(dir);
    join_into(m_probe, dir, "__init__.py");
    if (uint32_t init = node_at(m_probe); init != k_none) edge(init, EdgeKind::package_init, 0);
    if (node < m_facts.size() && !m_facts.files[node].link_target.empty()) {
      if (uint32_t target = node_at(m_facts.files[node].link_target.view()); target != k_none) {
        edge(target, EdgeKind::symlink, 0);
      }
    }
    if (!(n.test_pattern || n.test || n.conftest)) return;
    // Test modules and conftest.py files see the nearest conftest.py above them (which sees the next).
    if (!(n.conftest && n.path.parent().empty())) {
      m_graph.conftests_from(n.conftest ? parent_of(n.path.parent()) : n.path.parent(), [&](uint32_t c) {
        edge(c, EdgeKind::conftest, 0);
        return false; // the nearest only
      });
    }
    if (!n.conftest) {
      for (uint32_t s : session) edge(s, EdgeKind::pytest_plugin, 0);
    }
  }

  void reverse_edges() {
    std::vector<uint32_t> counts(m_graph.nodes.size(), 0);
    for (const auto& edges : m_graph.out) {
      for (const auto& e : edges) ++counts[e.target];
    }
    for (size_t i = 0; i < counts.size(); ++i) m_graph.in[i].reserve(counts[i]);
    for (uint32_t a = 0; a < m_graph.out.size(); ++a) {
      for (const auto& e : m_graph.out[a]) m_graph.in[e.target].emplace_back(a, e);
    }
  }

private:
  GraphBuilder& m_builder;
  const ProjectLayout& m_layout;
  const ProjectFacts& m_facts;
  ImportGraph& m_graph; // only out[m_current] and nodes[m_current]'s flags are written
  const graph::ModuleIndex& m_index;
  const util::StringSet& m_entries;
  const util::StringMap<std::vector<std::string_view>>& m_by_name;
  std::vector<uint32_t> m_stamp;   // m_stamp[t] == m_current: the current node already links to t
  uint32_t m_current = 0;
  std::string m_name, m_probe;     // scratch
  std::vector<UnboundedImport> m_unbounded;
  std::vector<uint32_t> m_open_submodules; // ImportGraph::open_submodule_importers, in file order
};


} // namespace impact::graph
