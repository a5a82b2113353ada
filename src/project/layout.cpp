// ProjectLayout: pytest's collection rules and the import roots, applied to the file inventory.
#include "impact/project.hpp"
#include "impact/python/project_facts.hpp"
#include "util/glob.hpp"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace impact {

namespace {

std::string parent_dir(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::string join(const std::string& dir, std::string_view rel) {
  if (dir.empty()) return std::string(rel);
  if (rel.empty()) return dir;
  return dir + "/" + std::string(rel);
}

bool within(std::string_view path, std::string_view dir) { return RepoPath(std::string(path)).is_within(dir); }

bool has_glob_chars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

// pytest's _matches_prefix_or_glob_option.
bool matches_prefix_or_glob(const std::vector<std::string>& options, std::string_view name) {
  for (const auto& option : options) {
    if (name.starts_with(option)) return true;
    if (has_glob_chars(option) && util::fnmatch(option, name)) return true;
  }
  return false;
}

} // namespace

bool is_conftest(const RepoPath& path) { return path.filename() == "conftest.py"; }

ProjectLayout::ProjectLayout(PytestConfig config, const std::vector<SourceFile>& inventory, const ProjectFacts& facts)
    : m_config(std::move(config)) {
  std::set<std::string> dirs;
  std::unordered_set<std::string> packages;
  std::set<std::string> roots{"", m_config.rootdir};
  for (const auto& file : inventory) {
    std::string dir = parent_dir(file.path.str);
    for (std::string d = dir; !d.empty(); d = parent_dir(d)) {
      if (!dirs.insert(d).second) break;
    }
    std::string_view name = file.path.filename();
    if (name == "__init__.py") packages.insert(dir);
    if (name == "pyvenv.cfg" || file.path.str.ends_with("bin/activate")) {
      m_venv_dirs.push_back(name == "pyvenv.cfg" ? dir : parent_dir(dir));
    }
    if (name == "setup.py" || name == "pyproject.toml" || name == "setup.cfg") roots.insert(dir);
    if (file.not_checked_out) m_not_checked_out.push_back(file.path.str);
  }
  std::sort(m_not_checked_out.begin(), m_not_checked_out.end());
  m_package_dirs.assign(packages.begin(), packages.end());
  std::sort(m_package_dirs.begin(), m_package_dirs.end());

  collection_roots(dirs, inventory);

  // conftest.py collect_ignore lists.
  for (size_t i = 0; i < facts.size(); ++i) {
    if (!is_conftest(facts.files[i].path) || !facts.header(i).has_collect_ignore) continue;
    FileFacts f = facts.full(i);
    Ignore ignore{std::string(facts.files[i].path.parent()), {}, {}};
    for (const auto& p : f.collect_ignore) ignore.paths.push_back(join(ignore.dir, p));
    for (const auto& g : f.collect_ignore_glob) ignore.globs.push_back(join(ignore.dir, g));
    m_conftest_ignores.push_back(std::move(ignore));
  }

  // Import roots: the root, the rootdir, pythonpath, src/ folders, the folder above every top-level
  // package, folders of project files, and the folders pytest's prepend mode puts first on sys.path for
  // test modules and conftest.py files outside packages.
  for (const auto& p : m_config.pythonpath) roots.insert(p);
  for (const auto& d : dirs) {
    RepoPath dir_path(d);
    std::string_view base = dir_path.filename();
    if (base == "src" && std::count(d.begin(), d.end(), '/') < 3) roots.insert(d);
  }
  for (const auto& pkg : m_package_dirs) {
    std::string parent = parent_dir(pkg);
    if (!is_package_dir(parent) || pkg.empty()) roots.insert(pkg.empty() ? std::string() : parent);
  }
  for (const auto& file : facts.files) {
    std::string dir = std::string(file.path.parent());
    if ((is_conftest(file.path) || matches_test_pattern(file.path)) && !is_package_dir(dir)) roots.insert(dir);
  }
  m_roots.assign(roots.begin(), roots.end());
}

void ProjectLayout::collection_roots(const std::set<std::string>& dirs, const std::vector<SourceFile>& inventory) {
  auto add_matches = [&](const std::string& pattern) {
    for (const auto& d : dirs) {
      if (util::glob_match(pattern, d)) m_collection_roots.push_back(d);
    }
    for (const auto& f : inventory) {
      if (util::glob_match(pattern, f.path.str) && f.path.str.ends_with(".py")) m_collection_roots.push_back(f.path.str);
    }
  };
  // testpaths count only when pytest runs in its rootdir (Config.parse); their globs are expanded
  // against the inventory's folders. With --pyargs they may be module names too.
  if (m_config.rootdir.empty()) {
    for (const auto& entry : m_config.testpaths) {
      std::string path = entry;
      while (path.ends_with('/')) path.pop_back();
      if (has_glob_chars(path)) add_matches(path);
      else m_collection_roots.push_back(path);
      if (m_config.pyargs) add_module_roots(entry, dirs, inventory);
    }
  }
  // pytest keeps only testpaths that exist, and falls back to where it runs when none does.
  auto missing = [&](const std::string& root) {
    if (root.empty() || dirs.contains(root)) return false;
    return std::none_of(inventory.begin(), inventory.end(), [&](const SourceFile& f) { return f.path.str == root; });
  };
  std::erase_if(m_collection_roots, missing);
  if (m_collection_roots.empty()) m_collection_roots.push_back(std::string());
  // Positional arguments replace testpaths in pytest; impact adds them instead (a value of a plugin's
  // option may have been read as one, so they only ever widen). A file named is collected whatever
  // its name; with --pyargs a name that is not a path is a module name.
  for (const auto& arg : m_config.arg_paths) {
    if (m_config.pyargs) add_module_roots(arg, dirs, inventory);
    if (!m_config.pyargs || !missing(arg)) m_collection_roots.push_back(arg);
  }
  std::erase_if(m_collection_roots, missing);
}

void ProjectLayout::add_module_roots(std::string_view name, const std::set<std::string>& dirs,
                                     const std::vector<SourceFile>& inventory) {
  // `a.b.c` is a/b/c.py or the package a/b/c under any import root: every match, which can only widen.
  std::string path(name);
  std::replace(path.begin(), path.end(), '.', '/');
  auto ends_as = [&](std::string_view candidate, std::string_view tail) {
    return candidate == tail || (candidate.ends_with(tail) && candidate[candidate.size() - tail.size() - 1] == '/');
  };
  for (const auto& d : dirs) {
    if (ends_as(d, path)) m_collection_roots.push_back(d);
  }
  std::string file = path + ".py";
  for (const auto& f : inventory) {
    if (ends_as(f.path.str, file)) m_collection_roots.push_back(f.path.str);
  }
}

bool ProjectLayout::is_package_dir(std::string_view dir) const {
  if (dir.empty()) return std::binary_search(m_package_dirs.begin(), m_package_dirs.end(), std::string());
  return std::binary_search(m_package_dirs.begin(), m_package_dirs.end(), dir,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

bool ProjectLayout::in_collection_root(std::string_view path) const {
  return std::any_of(m_collection_roots.begin(), m_collection_roots.end(),
                     [&](const std::string& root) { return within(path, root); });
}

std::string_view ProjectLayout::root_of(std::string_view path) const {
  std::string_view root;
  for (const auto& r : m_collection_roots) {
    if (within(path, r) && r.size() >= root.size()) root = r;
  }
  return root;
}

bool ProjectLayout::excluded_by_norecurse(std::string_view path) const {
  // The folders between the collection root and the file are matched by name against norecursedirs.
  std::string_view root = root_of(path);
  std::string dir = parent_dir(path);
  while (dir.size() > root.size()) {
    // fnmatch_ex: a pattern without '/' matches the folder's name, one with '/' the end of its path.
    for (const auto& pattern : m_config.norecursedirs) {
      if (util::pytest_path_match(pattern, dir)) return true;
    }
    for (const auto& venv : m_venv_dirs) {
      if (dir == venv) return true;
    }
    dir = parent_dir(dir);
  }
  return false;
}

bool ProjectLayout::excluded_by_ignores(std::string_view path) const {
  // pytest asks about the folders below the argument it collects, never the argument itself: an
  // --ignore of the collection root or of a folder above it excludes nothing.
  std::string_view root = root_of(path);
  for (const auto& p : m_config.ignore_paths) {
    if (within(path, p) && p.size() > root.size()) return true;
  }
  for (const auto& g : m_config.ignore_globs) {
    if (util::fnmatch(g, path)) return true;
  }
  for (const auto& ignore : m_conftest_ignores) {
    if (!within(path, ignore.dir)) continue;
    for (const auto& p : ignore.paths) {
      if (within(path, p)) return true;
    }
    for (const auto& g : ignore.globs) {
      if (util::fnmatch(g, path)) return true;
    }
  }
  return false;
}

bool ProjectLayout::is_collected_path(const RepoPath& path) const {
  if (is_not_checked_out(path.str)) return false;
  // A file named as an argument or in testpaths is collected whatever --ignore says (pytest's initpaths).
  if (std::find(m_collection_roots.begin(), m_collection_roots.end(), path.str) != m_collection_roots.end()) return true;
  return in_collection_root(path.str) && !excluded_by_norecurse(path.str) && !excluded_by_ignores(path.str);
}

bool ProjectLayout::is_not_checked_out(std::string_view path) const {
  return std::binary_search(m_not_checked_out.begin(), m_not_checked_out.end(), path);
}

std::vector<std::string> ProjectLayout::tests_not_checked_out() const {
  std::vector<std::string> out;
  for (const auto& path : m_not_checked_out) {
    if (in_collection_root(path) && !excluded_by_norecurse(path) && !excluded_by_ignores(path) &&
        matches_name(RepoPath(path))) {
      out.push_back(path);
    }
  }
  return out;
}

bool ProjectLayout::matches_test_pattern(const RepoPath& path) const {
  return is_collected_path(path) && matches_name(path);
}

bool ProjectLayout::matches_name(const RepoPath& path) const {
  if (!path.ends_with(".py") || is_conftest(path)) return false;
  // A file named directly in testpaths is collected whatever its name.
  for (const auto& root : m_collection_roots) {
    if (root == path.str) return true;
  }
  for (const auto& pattern : m_config.python_files) {
    if (util::pytest_path_match(pattern, path.str)) return true;
  }
  return false;
}

bool ProjectLayout::is_test_name(std::string_view name) const {
  return matches_prefix_or_glob(m_config.python_functions, name);
}

bool ProjectLayout::is_test_class_name(std::string_view name) const {
  return matches_prefix_or_glob(m_config.python_classes, name);
}

bool ProjectLayout::is_test_item(const std::vector<SymbolView>& symbols, int32_t index) const {
  const SymbolView& s = symbols[static_cast<size_t>(index)];
  if (s.kind == SymbolKind::class_) return false;
  if (s.kind == SymbolKind::function) return s.parent == -1 && is_test_name(s.name());
  bool may_be_unittest = false;
  for (int32_t p = s.parent; p != -1; p = symbols[static_cast<size_t>(p)].parent) {
    const SymbolView& c = symbols[static_cast<size_t>(p)];
    if (c.kind != SymbolKind::class_) return false;
    bool collectible = (is_test_class_name(c.name()) && !c.has_init) || !c.bases.empty();
    if (!collectible) return false;
    may_be_unittest |= !c.bases.empty();
  }
  return is_test_name(s.name()) || (may_be_unittest && s.name().starts_with("test"));
}

bool ProjectLayout::may_collect_class(const std::vector<SymbolView>& symbols, int32_t index) const {
  const SymbolView& c = symbols[static_cast<size_t>(index)];
  return c.kind == SymbolKind::class_ && (is_test_class_name(c.name()) || !c.bases.empty());
}

namespace {

// Whether `refs` read `name` itself or an attribute of it (`name.x`).
bool reads(const std::vector<std::string>& refs, std::string_view name) {
  return std::any_of(refs.begin(), refs.end(), [&](const std::string& r) {
    return r.starts_with(name) && (r.size() == name.size() || r[name.size()] == '.');
  });
}

// A class pytest collects by name with no test method written in it, which the module may give tests
// as it is imported (docs/selection.md `collection`): a metaclass, a decorator other than a dataclass
// maker or a pytest marker, a class body that stores through `locals()` or `vars()`, module-level
// code that names the class (`fill(TestCalc)`, a helper's loop of setattr), or a `setattr` call in the
// module (`setattr(TestCases, "test_" + name, method)` in a loop).
bool may_be_given_tests(const FileFacts& facts, const Symbol& cls) {
  if (cls.has_metaclass) return true;
  if (reads(cls.refs, "locals") || reads(cls.refs, "vars") || reads(facts.module_refs, cls.qualname)) return true;
  for (const auto& d : cls.decorators) {
    std::string_view last = std::string_view(d).substr(d.rfind('.') == std::string::npos ? 0 : d.rfind('.') + 1);
    bool marker = d.starts_with("pytest.mark.") || d.starts_with("mark.");
    if (!marker && last != "dataclass" && last != "s" && last != "attrs" && last != "define" && last != "frozen" && last != "mutable") {
      return true;
    }
  }
  if (reads(facts.module_refs, "setattr")) return true;
  return std::any_of(facts.symbols.begin(), facts.symbols.end(), [&](const Symbol& s) { return reads(s.refs, "setattr"); });
}

// A module that names its own module object at module level (`setattr(sys.modules[__name__], ...)`,
// `fill(sys.modules[__name__])`) or hands its name or namespace to a helper (`inject(__name__)`,
// `fill_named(__name__, "TestCalc")`, `fill(globals())`): the helper may bind tests in it.
bool hands_itself_over(const FileFacts& facts) {
  const auto& refs = facts.module_refs;
  if (std::any_of(refs.begin(), refs.end(), [](const std::string& r) { return r.starts_with("sys.modules") || r.starts_with("*modules"); })) {
    return true;
  }
  return std::any_of(facts.handed.begin(), facts.handed.end(), [](const std::string& h) {
    std::string_view value = std::string_view(h).substr(0, h.find('\t'));
    return value == "__name__" || value == "globals" || value == "vars" || value == "locals";
  });
}

} // namespace

bool ProjectLayout::has_collectible_items(const FileFacts& facts) const {
  // A module that stores into globals() by a computed key may bind test functions no statement spells;
  // so may one that hands itself over to a helper.
  if (facts.parse_error || facts.stores_globals || hands_itself_over(facts)) return true;
  // Methods anywhere below class `c` (nested Test classes included) named like tests.
  // Test methods of `c`, or of classes nested in it that pytest collects too (name and no __init__,
  // or a base they may inherit tests from).
  auto has_test_methods = [&](const Symbol& c) {
    return std::any_of(facts.symbols.begin(), facts.symbols.end(), [&](const Symbol& m) {
      if (m.kind != SymbolKind::method || !is_test_name(m.name())) return false;
      for (int32_t p = m.parent; p != -1; p = facts.symbols[static_cast<size_t>(p)].parent) {
        const Symbol& owner = facts.symbols[static_cast<size_t>(p)];
        if (owner.kind != SymbolKind::class_) return false;
        if (owner.qualname == c.qualname) return true;
        bool collected = (is_test_class_name(owner.name()) && !owner.has_init) || !owner.bases.empty();
        if (!collected) return false;
      }
      return false;
    });
  };
  for (const auto& sym : facts.symbols) {
    if (sym.parent != -1) continue;
    if (sym.kind == SymbolKind::function && is_test_name(sym.name())) return true;
    if (sym.kind != SymbolKind::class_) continue;
    bool has_bases = std::any_of(sym.bases.begin(), sym.bases.end(), [](const std::string& b) { return b != "object"; });
    // unittest.TestCase subclasses are collected whatever their name; one may derive from it through a
    // project base class, so any derived class with test methods counts.
    if (std::any_of(sym.bases.begin(), sym.bases.end(), [](const std::string& b) { return b.find("TestCase") != std::string::npos; })) {
      return true;
    }
    if (has_bases && has_test_methods(sym)) return true;
    if (!is_test_class_name(sym.name()) || sym.has_init) continue;
    if (has_bases || has_test_methods(sym)) return true; // may inherit its tests
    if (may_be_given_tests(facts, sym)) return true;
  }
  for (const auto& imp : facts.imports) {
    if (imp.kind == ImportKind::star) return true;
    if (imp.kind != ImportKind::from || (imp.flags & k_import_in_function) != 0) continue;
    for (const auto& alias : imp.aliases) {
      if (is_test_name(alias) || is_test_class_name(alias)) return true;
    }
  }
  for (const auto& name : facts.module_names) {
    if (is_test_name(name) || is_test_class_name(name)) return true;
  }
  return false;
}

} // namespace impact
