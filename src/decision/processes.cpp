// Test files that may start a process (processes.hpp).
#include "decision/processes.hpp"

#include "impact/node_id.hpp"
#include "impact/python/names.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace impact::decision {

namespace {

// Modules whose import starts or drives processes.
constexpr std::array<std::string_view, 12> k_modules = {
    "subprocess", "multiprocessing", "pexpect", "pty", "ptyprocess", "execnet",
    "sh",         "plumbum",         "sarge",   "delegator", "invoke", "xprocess"};

// Names that start a process wherever they come from (a module's function, a fixture's method:
// `pytester.runpytest_subprocess`, `os.execv`, `asyncio.create_subprocess_exec`, `os.popen`).
constexpr std::array<std::string_view, 37> k_names = {
    "Popen", "popen", "create_subprocess_exec", "create_subprocess_shell", "ProcessPoolExecutor",
    "posix_spawn", "posix_spawnp", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve",
    "spawnvp", "spawnvpe", "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp",
    "execvpe", "fork", "forkpty", "startfile", "runpytest_subprocess", "spawn_pytest", "spawn",
    "runpython", "runpython_c", // pytester's: a Python script in a child process
    "check_output", "check_call", "getoutput", "getstatusoutput",
    // Not a process, but as unseen: code run while coverage.py's trace function is replaced.
    "settrace", "set_trace"};

bool names_a_starter(const ProjectFacts& facts, size_t i, ImportScratch& scratch) {
  facts.imports(i, scratch);
  for (const auto& imp : scratch.imports) {
    std::string_view top = imp.module.substr(0, imp.module.find('.'));
    for (auto m : k_modules) {
      if (imp.level == 0 && top == m) return true;
    }
    // `from os import system`, `from asyncio import create_subprocess_exec`, a starter module
    // imported from a package are names too.
    for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
      std::string_view name = scratch.names[k];
      if (name == "system" && (top == "os" || top == "posix")) return true;
      for (auto m : k_modules) {
        if (name == m) return true;
      }
      for (auto n : k_names) {
        if (name == n) return true;
      }
    }
  }
  for (auto name : k_names) {
    if (facts.mentions(i, name)) return true;
  }
  // os.system (and `from os import system`); pytester's and testdir's run(), which runs a command.
  if (facts.mentions(i, "system") && (facts.mentions(i, "os") || facts.mentions(i, "posix"))) return true;
  return facts.mentions(i, "run") && (facts.mentions(i, "pytester") || facts.mentions(i, "testdir"));
}

// Modules and names of the project's own code that run code in processes coverage.py does not record:
// a forked child (multiprocessing's start method on Linux before Python 3.14, os.fork) inherits the
// tracer but ends with os._exit, so its data is never saved, and a pool's workers are terminated
// before they could save theirs. So is code that replaces coverage.py's trace function (sys.settrace,
// threading.settrace, a debugger's set_trace): what runs until it is put back is not recorded. (A
// subprocess that inherits the environment runs pytest-cov's hook and is recorded: project code that
// runs one is not counted.)
constexpr std::array<std::string_view, 6> k_forking_modules = {"multiprocessing", "multiprocess", "joblib",
                                                               "loky",            "billiard",     "pathos"};
constexpr std::array<std::string_view, 5> k_forking_names = {"ProcessPoolExecutor", "fork", "forkpty", "settrace",
                                                             "set_trace"};

bool names_a_fork(const ProjectFacts& facts, size_t i, ImportScratch& scratch) {
  facts.imports(i, scratch);
  for (const auto& imp : scratch.imports) {
    std::string_view top = imp.module.substr(0, imp.module.find('.'));
    for (auto m : k_forking_modules) {
      if (imp.level == 0 && top == m) return true;
    }
    for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
      for (auto m : k_forking_modules) {
        if (scratch.names[k] == m) return true;
      }
    }
  }
  for (auto name : k_forking_names) {
    if (facts.mentions(i, name)) return true;
  }
  return false;
}

} // namespace

ProcessStarters::ProcessStarters(const ImportGraph& graph, const ProjectFacts* facts)
    : m_graph(&graph), m_tests(graph), m_starter(graph.nodes.size(), false), m_facts(facts) {
  if (facts == nullptr) {
    m_any = m_unknown = true;
    return;
  }
  ImportScratch scratch;
  std::vector<uint32_t> forking; // project code (not test code) that forks
  for (uint32_t n = 0; n < graph.nodes.size() && n < facts->size(); ++n) {
    const GraphNode& node = graph.nodes[n];
    if (node.ghost) continue;
    if (node.test || node.conftest || m_tests.holds(n)) {
      if (names_a_starter(*facts, n, scratch)) m_starter[n] = m_any = true;
    } else if (names_a_fork(*facts, n, scratch)) {
      forking.push_back(n);
    }
  }
  // Every file that loads project code that forks, directly or through other files.
  if (forking.empty()) return;
  m_any = true;
  m_loads_fork.assign(graph.nodes.size(), false);
  for (uint32_t n : forking) m_loads_fork[n] = true;
  while (!forking.empty()) {
    uint32_t n = forking.back();
    forking.pop_back();
    for (const auto& [from, edge] : graph.in[n]) {
      if (m_loads_fork[from]) continue;
      m_loads_fork[from] = true;
      forking.push_back(from);
    }
  }
}

bool ProcessStarters::starts(uint32_t node) {
  if (!m_any) return false;
  if (node < m_loads_fork.size() && m_loads_fork[node]) return true;
  if (auto it = m_starts.find(node); it != m_starts.end()) return it->second;
  // Its own code and the test code it loads: the graph links a test module to the nearest conftest.py
  // above it (and each conftest.py to the next), so one walk through test code covers both.
  bool found = false;
  std::vector<uint32_t> stack{node};
  m_seen.assign(m_graph->nodes.size(), false);
  m_seen[node] = true;
  while (!found && !stack.empty()) {
    uint32_t n = stack.back();
    stack.pop_back();
    found = starter(n);
    for (const auto& e : m_graph->out[n]) {
      if (m_seen[e.target]) continue;
      m_seen[e.target] = true;
      if (m_tests.holds(e.target) || m_graph->nodes[e.target].conftest) stack.push_back(e.target);
    }
  }
  m_starts.emplace(node, found);
  return found;
}

Selection ProcessStarters::keep(Selection static_answer) {
  Selection out;
  if (!m_any) return out;
  for (auto& [node, chain] : static_answer.whole) {
    if (starts(node) && test_starts(node, {})) out.whole.emplace(node, std::move(chain));
  }
  for (auto& [id, chain] : static_answer.tests) {
    NodeId parts = NodeId::of(id);
    auto node = m_graph->find(parts.file);
    if (node && starts(*node) && test_starts(*node, parts.test)) out.tests.emplace(id, std::move(chain));
  }
  return out;
}

bool ProcessStarters::starting_names(uint32_t node, util::StringSet& names) {
  if (m_unknown || m_facts == nullptr || node >= m_facts->size() || (node < m_loads_fork.size() && m_loads_fork[node])) return false;
  // The test file and the helper modules it imports (test code, not a conftest.py): a conftest.py in
  // scope, or module-level code that names a way to start a process, keeps the file whole.
  std::vector<uint32_t> files{node};
  for (const auto& e : m_graph->out[node]) {
    if (e.target >= m_facts->size() || m_graph->nodes[e.target].conftest) continue;
    if (m_tests.holds(e.target) && std::find(files.begin(), files.end(), e.target) == files.end()) files.push_back(e.target);
  }
  for (const auto& e : m_graph->out[node]) {
    if (m_graph->nodes[e.target].conftest && starter(e.target)) return false;
  }
  FactsView view;
  for (uint32_t f : files) {
    if (!starter(f)) continue;
    // A helper module's own imports of test code are not followed: keep the file whole.
    for (const auto& e : m_graph->out[f]) {
      if (f != node && e.target < m_graph->nodes.size() && m_tests.holds(e.target) && starter(e.target) &&
          std::find(files.begin(), files.end(), e.target) == files.end()) {
        return false;
      }
    }
  }
  auto names_starter = [&](std::string_view ref) {
    std::string_view root = ref.substr(0, ref.find('.'));
    std::string_view last = python::last_part(ref);
    auto in = [](auto& list, std::string_view n) { return std::find(list.begin(), list.end(), n) != list.end(); };
    return in(k_modules, root) || in(k_names, last) || (last == "system" && (root == "os" || root == "posix")) ||
           (last == "run" && (root == "pytester" || root == "testdir")) || names.contains(last);
  };
  for (int round = 0; round < 8; ++round) {
    size_t before = names.size();
    for (uint32_t f : files) {
      m_facts->view(f, view);
      if (std::any_of(view.begin(view.module_refs), view.end(view.module_refs), names_starter)) return false;
      for (const auto& sym : view.symbols) {
        // It names one, requests a fixture that does, or asks for fixtures by a computed name.
        bool leads = std::any_of(view.begin(sym.refs), view.end(sym.refs), [&](std::string_view r) {
          return names_starter(r) || r.ends_with("getfixturevalue");
        }) || std::any_of(view.begin(sym.params), view.end(sym.params), [&](std::string_view p) { return names.contains(p); });
        if (!leads) continue;
        names.emplace(python::last_part(sym.qualname));
        if (!sym.fixture.empty()) names.emplace(sym.fixture);
      }
    }
    if (names.size() == before) break;
  }
  return true;
}

bool ProcessStarters::test_starts(uint32_t node, std::string_view test) {
  auto [it, inserted] = m_names.try_emplace(node);
  if (inserted) {
    util::StringSet names;
    if (starting_names(node, names)) {
      it->second.names = std::move(names);
      m_facts->view(node, it->second.view);
    }
  }
  if (!it->second.names) return true;
  const util::StringSet& names = *it->second.names;
  const FactsView& view = it->second.view;
  auto named = [&](std::string_view n) { return names.contains(n); };
  if (test.empty()) {
    // The whole file: whether any of its definitions leads to a way to start a process.
    auto leads = [&](const SymbolView& sym) {
      return sym.dynamic_access || sym.usefixtures_dynamic || named(python::last_part(sym.qualname)) ||
             std::any_of(view.begin(sym.params), view.end(sym.params), named) ||
             std::any_of(view.begin(sym.usefixtures), view.end(sym.usefixtures), named);
    };
    return view.module_usefixtures_dynamic || std::any_of(view.symbols.begin(), view.symbols.end(), leads) ||
           std::any_of(view.begin(view.module_usefixtures), view.end(view.module_usefixtures), named);
  }
  std::string qualname(test.substr(0, test.find('[')));
  for (auto& c : qualname) c = c == ':' ? '.' : c;
  while (qualname.find("..") != std::string::npos) qualname.erase(qualname.find(".."), 1);
  const SymbolView* own = nullptr;
  for (const auto& sym : view.symbols) {
    if (sym.qualname == qualname) own = &sym;
    // An autouse fixture of the file that leads to one runs for every test.
    if (sym.autouse && (named(sym.fixture) || named(python::last_part(sym.qualname)))) return true;
  }
  if (own == nullptr || own->dynamic_access) return true; // not found as written: keep it
  std::string_view last = python::last_part(own->qualname);
  if (named(last)) return true;
  if (std::any_of(view.begin(own->params), view.end(own->params), named) || own->usefixtures_dynamic ||
      std::any_of(view.begin(own->usefixtures), view.end(own->usefixtures), named)) {
    return true;
  }
  // Its classes: a method of any (setup_method, setUp, a fixture, a helper), or a base other than
  // unittest's (its setUp may).
  for (int32_t p = own->parent; p >= 0; p = view.symbols[static_cast<size_t>(p)].parent) {
    const SymbolView& cls = view.symbols[static_cast<size_t>(p)];
    bool project_base = std::any_of(view.begin(cls.bases), view.end(cls.bases), [](std::string_view b) {
      return b != "object" && b != "TestCase" && b != "unittest.TestCase";
    });
    if (project_base || cls.usefixtures_dynamic || std::any_of(view.begin(cls.usefixtures), view.end(cls.usefixtures), named)) return true;
    for (const auto& sym : view.symbols) {
      if (sym.parent == p && named(python::last_part(sym.qualname))) return true;
    }
  }
  return std::any_of(view.begin(view.module_usefixtures), view.end(view.module_usefixtures), named) || view.module_usefixtures_dynamic;
}

} // namespace impact::decision
