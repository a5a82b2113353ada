// Test files that may run a module as a program (rules/main_guard.hpp).
#include "decision/rules/main_guard.hpp"

#include "decision/processes.hpp"
#include "decision/relation.hpp"
#include "decision/rules/session_hooks.hpp"
#include "decision/test_code.hpp"

#include <optional>
#include <string>
#include <utility>
#include <string_view>

namespace impact::decision::rules {

namespace {

// Project code (not test code) that runs a Python program: it names the interpreter (`sys.executable`)
// and a way to start a process, or runpy's runners (`launcher.run_worker(n)` running
// `[sys.executable, "-m", "pkg.worker", ...]`). Every file that loads it, directly or not, may run one.
std::vector<bool> loads_a_launcher(const ImportGraph& graph, const ProjectFacts& facts, const TestCode& tests) {
  ReverseWalk walk(graph);
  for (uint32_t node = 0; node < graph.nodes.size() && node < facts.size(); ++node) {
    const GraphNode& n = graph.nodes[node];
    if (n.ghost || n.test || n.conftest || tests.holds(node)) continue;
    bool python = facts.mentions(node, "executable") &&
                  (facts.mentions(node, "subprocess") || facts.mentions(node, "Popen") || facts.mentions(node, "check_output") ||
                   facts.mentions(node, "check_call") || facts.mentions(node, "create_subprocess_exec"));
    if (python || facts.mentions(node, "run_module") || facts.mentions(node, "run_path")) walk.seed(node, Relation::runs_program);
  }
  walk.run();
  std::vector<bool> out(graph.nodes.size(), false);
  for (uint32_t node : walk.order()) out[node] = true;
  return out;
}

} // namespace

// The test files that load, directly or not, code that makes objects of classes its data names, and so
// imports their modules by a name no file spells: unpickling (`pickle.load(s)`, `Unpickler`, shelve,
// dill, cloudpickle, joblib), YAML's object tags (`yaml.load`, `unsafe_load`, `full_load`), jsonpickle,
// logging's `fileConfig` (`class=pkg.handlers.ListHandler`) and `dictConfig` (`"()": "pkg.make"`), `pydoc.locate`, and entry points, which
// load the module a distribution's metadata names.
constexpr std::string_view k_openers[] = {"open", "read_bytes", "read_text", "urlopen", "get_data", "files"};

std::vector<uint32_t> data_loaders(const ImportGraph& graph, const ProjectFacts& facts, bool from_files) {
  auto loads = [&](uint32_t n) {
    auto m = [&](std::string_view name) { return facts.mentions(n, name); };
    return (m("pickle") && (m("load") || m("loads") || m("Unpickler"))) || m("shelve") || m("dill") ||
           m("cloudpickle") || (m("joblib") && m("load")) ||
           (m("yaml") && (m("load") || m("unsafe_load") || m("full_load") || m("load_all"))) || m("jsonpickle") ||
           m("fileConfig") || m("dictConfig") || (m("pydoc") && m("locate")) || m("entry_points") || m("iter_entry_points") ||
           m("load_entry_point") || m("EntryPoint") || m("stevedore");
  };
  // Names a path or opens something (`open` itself is a builtin, which the name table leaves out).
  auto files = [&](uint32_t n) {
    return facts.header(n).has_path_strings ||
           std::any_of(std::begin(k_openers), std::end(k_openers), [&](std::string_view o) { return facts.mentions(n, o); });
  };
  // From files: the loading code names a path or opens something (not `pickle.loads(pickle.dumps(x))`),
  // or the test that loads it does, or a conftest.py does, handing the loader a path (`read_shapes(DATA /
  // "shapes.yaml")` in the test, `fileConfig(path)` in a helper).
  bool every = !from_files;
  for (uint32_t n = 0; !every && n < graph.nodes.size() && n < facts.size(); ++n) {
    every = graph.nodes[n].conftest && !graph.nodes[n].ghost && files(n);
  }
  ReverseWalk walk(graph), opened(graph); // from every loader; from the loaders that open something
  for (uint32_t n = 0; n < graph.nodes.size() && n < facts.size(); ++n) {
    if (graph.nodes[n].ghost || !loads(n)) continue;
    walk.seed(n, Relation::dynamic_import_may_load);
    if (!every && files(n)) opened.seed(n, Relation::dynamic_import_may_load);
  }
  walk.run();
  if (!every) opened.run();
  std::vector<uint32_t> out;
  for (uint32_t n : walk.order()) {
    if (graph.nodes[n].test && (every || opened.reached(n) || (n < facts.size() && files(n)))) out.push_back(n);
  }
  return out;
}

// The test files that may run a module as a program: those whose test code may start a process, or
// names runpy, exec or a loader (every test file when a conftest.py or helper does, or without facts),
// or that load project code that runs a Python program.
std::vector<uint32_t> program_runners(const ImportGraph& graph, const ProjectFacts* facts) {
  ProcessStarters starters(graph, facts);
  TestCode tests(graph);
  bool every = facts == nullptr;
  std::vector<bool> names_runner(graph.nodes.size(), false);
  for (uint32_t node = 0; node < graph.nodes.size() && !every; ++node) {
    const GraphNode& n = graph.nodes[node];
    if (n.ghost || !(n.test || n.conftest || tests.holds(node)) || node >= facts->size()) continue;
    // runpy; exec of a file's code in a namespace of its own; a module made from a file under a name
    // of the test's choosing (`spec_from_file_location("__main__", path)`, imp.load_source).
    for (std::string_view name : {"runpy", "run_module", "run_path", "exec", "execfile", "exec_module", "load_source"}) {
      names_runner[node] = names_runner[node] || facts->mentions(node, name);
    }
    // A conftest.py or helper that runs code this way may do it for any test.
    if (names_runner[node] && !n.test) every = true;
  }
  std::vector<bool> launches = every ? std::vector<bool>() : loads_a_launcher(graph, *facts, tests);
  std::vector<uint32_t> out;
  for (uint32_t node = 0; node < graph.nodes.size(); ++node) {
    const GraphNode& n = graph.nodes[node];
    bool launcher = node < launches.size() && launches[node];
    if (n.test && !n.ghost && (every || names_runner[node] || launcher || starters.starts(node))) out.push_back(node);
  }
  return out;
}

void select_program_runners(const DecisionInput& in, const std::vector<const PythonChange*>& changes,
                            const std::vector<FileVerdict>& files, Selection& out, std::vector<Trigger>& triggers) {
  const ImportGraph& graph = in.graph;
  const ProjectFacts* facts = in.facts;
  std::vector<std::pair<std::string, Relation>> programs;
  std::optional<std::vector<uint32_t>> loaders;
  for (const PythonChange* py : changes) {
    if (py->semantics != nullptr && py->semantics->runs_as_program) {
      bool typing_only = py->semantics->kind == ChangeKind::type_checking;
      programs.emplace_back(files[py->verdict].path.str, typing_only ? Relation::type_checking : Relation::main_block);
    } else if (py->unloaded && facts != nullptr) { // `python -m pkg` (pkg/__main__.py), `python scripts/tool.py`
      programs.emplace_back(files[py->verdict].path.str, relation_of(py->status));
      if (auto t = collect_hook_over(graph, *facts, in.layout, files[py->verdict].path)) triggers.push_back(std::move(*t));
      // A file no import leads to may still be imported by name from data: a pickle's class.
      if (!loaders) loaders = data_loaders(graph, *facts);
      const std::string& path = files[py->verdict].path.str;
      for (uint32_t node : *loaders) {
        out.whole.emplace(node, std::vector<Hop>{Hop{graph.nodes[node].path.str, Relation::dynamic_import_may_load, 0, {}},
                                                 Hop{path, relation_of(py->status), 0, {}}});
      }
    }
  }
  if (programs.empty()) return;
  std::vector<uint32_t> runners = program_runners(graph, facts);
  for (const auto& [path, why] : programs) {
    for (uint32_t node : runners) {
      out.whole.emplace(node, std::vector<Hop>{Hop{graph.nodes[node].path.str, Relation::runs_program, 0, {}}, Hop{path, why, 0, {}}});
    }
  }
}

bool tests_set_type_checking(const ImportGraph& graph, const ProjectFacts* facts) {
  if (facts == nullptr) return true;
  for (uint32_t n = 0; n < graph.nodes.size() && n < facts->size(); ++n) {
    const GraphNode& node = graph.nodes[n];
    if (node.ghost || !facts->mentions(n, "TYPE_CHECKING")) continue;
    // Test code, and any helper it may call (a tests/ helper, `pkg/testing.py`, a plugin module): a
    // module that names TYPE_CHECKING with a way to set it and run a module again. A module's own
    // lazy loading (`import_module`, `exec`) beside a plain `if TYPE_CHECKING:` is no such way.
    bool tests = node.test || node.conftest;
    for (std::string_view how : {"reload", "setattr", "patch", "run_path", "run_module", "exec_module"}) {
      if (facts->mentions(n, how)) return true;
    }
    if (tests && (facts->mentions(n, "exec") || facts->mentions(n, "import_module"))) return true;
  }
  return false;
}

void select_reached_programs(const DecisionInput& in, const std::map<uint32_t, std::vector<Hop>>& reached,
                             const ReverseWalk& files, Selection& out, std::vector<Trigger>& triggers, bool loaded) {
  const ImportGraph& graph = in.graph;
  const ProjectFacts* facts = in.facts;
  if (reached.empty()) return;
  std::vector<bool> reaches_tests = files.seeds_reaching_tests();
  std::vector<uint32_t> runners;
  bool asked = false;
  for (const auto& [program, chain] : reached) {
    if (!loaded && (reaches_tests[program] || graph.nodes[program].test)) continue;
    if (facts != nullptr) { // a pytest_collect_file that may collect the program runs it as it chooses
      if (auto t = collect_hook_over(graph, *facts, in.layout, graph.nodes[program].path)) triggers.push_back(std::move(*t));
    }
    if (!asked) runners = program_runners(graph, facts);
    asked = true;
    for (uint32_t node : runners) {
      std::vector<Hop> hops{Hop{graph.nodes[node].path.str, Relation::runs_program, 0, {}}};
      hops.insert(hops.end(), chain.begin(), chain.end());
      out.whole.emplace(node, std::move(hops));
    }
  }
}

} // namespace impact::decision::rules
