#pragma once
#ifdef IMPACT_FORBID_GRAPH // defined for the stages that may not use graph (src/CMakeLists.txt)
#error "this stage may not use graph (docs/architecture.md, allowed edges)"
#endif
// Stage 3, the graph at file level: which Python file can run which other one when it is loaded.
// An edge a -> b says "loading a may load b", with its evidence (what kind of link, on which line).
#include "impact/vocabulary.hpp"
#include "util/string_set.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace impact {

class ProjectFacts;
class ProjectLayout;

enum class EdgeKind : uint8_t {
  import_,        // import a.b
  from_import,    // from a import b
  star_import,    // from a import *
  dynamic_import, // importlib.import_module("a.b")
  dynamic_prefix, // importlib.import_module("a.plugins." + name): every module under the prefix
  pytest_plugin,  // pytest_plugins = [...] or -p / entry point / ini setting naming a module
  string_ref,     // a string literal naming a module ("a.b.c", "a.b:c")
  package_init,   // a module runs its package's __init__.py first
  conftest,       // pytest loads the conftest.py files above a test module
  symlink,        // a symbolic link runs the file it points to
  name_match,     // an import no root resolves, matched by name to a module elsewhere in the repository
};

std::string_view to_string(EdgeKind kind);

struct Edge {
  uint32_t target = 0;
  EdgeKind kind = EdgeKind::import_;
  uint32_t line = 0; // 0 when the edge is implied rather than written
};

// A file of the graph. Ghosts are Python files of the base that no longer exist (deleted or renamed
// away): importers still name them, and they are where a deletion is felt.
struct GraphNode {
  RepoPath path;
  bool ghost = false;
  bool test = false;      // pytest collects tests from it in a full run
  bool test_pattern = false; // it matches python_files under the collection roots
  bool conftest = false;
  bool doctest_collected = false; // --doctest-modules imports it during collection, though it has no examples
  std::vector<std::string> module_names; // every dotted name it can be imported as
};

// The dotted names a relative import (`level` dots, then `module`, which may be empty) means in
// `importer`, one per name the file is imported as: `from . import b` in src/nsp/a.py is `nsp.b`, which
// another import root may hold (a namespace package split over src/ and lib/). None where the dots
// climb above a top-level package.
std::vector<std::string> relative_module_names(const GraphNode& importer, int level, std::string_view module);

// A computed import whose target cannot be bounded: it may load any module of the project.
struct UnboundedImport {
  uint32_t node = 0;
  uint32_t line = 0;
  std::string call;
  std::string literal; // a literal name that resolves to no file (`import_module("pkg.my mod")`), else ""
};

class ImportGraph {
public:
  std::vector<GraphNode> nodes;
  std::vector<std::vector<Edge>> out;                         // out[a]: what loading a can load
  std::vector<std::vector<std::pair<uint32_t, Edge>>> in;     // in[b]: (a, edge a -> b)
  std::vector<UnboundedImport> unbounded;                     // imports that can load anything
  // The files importing a submodule of a project package that no file is (`from pkg._native import
  // speed`, registered in sys.modules at run time): what they bind may be any module's (ascending).
  std::vector<uint32_t> open_submodule_importers;
  util::StringMap<uint32_t> by_path;
  // Every dotted module name -> the nodes it names (several when it resolves under several roots).
  util::StringMap<std::vector<uint32_t>> modules;

  std::optional<uint32_t> find(std::string_view path) const;
  // The nodes module `name` names; empty when it is not a module of the project.
  const std::vector<uint32_t>& modules_named(std::string_view name) const;

  // The conftest.py files pytest loads for a file of folder `dir` (`` for the root): the one in `dir`,
  // then in each folder above it, nearest first; `visit(node)` returns false to stop. The one walk of
  // conftest.py scopes: the graph's conftest edges, text doctests and fixture scopes all use it.
  template <class Visit> void conftests_from(std::string_view dir, Visit&& visit) const {
    std::string probe;
    for (;;) {
      probe.assign(dir);
      if (!dir.empty()) probe.push_back('/');
      probe.append("conftest.py");
      if (auto c = find(probe); c && !visit(*c)) return;
      if (dir.empty()) return;
      auto slash = dir.rfind('/');
      dir = slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
    }
  }
};

// Builds the graph of `facts` (the current Python files) plus `ghosts` (deleted Python paths of the
// base), resolving imports against the layout's import roots. Unresolvable imports are third-party
// and ignored; a name found in several roots links to every match. The files' imports are linked on
// one thread per `files_per_thread` files (below that, one thread is faster than two), at most
// `max_threads` (0: one per core); the graph is the same for any count.
ImportGraph build_import_graph(const ProjectLayout& layout, const ProjectFacts& facts,
                               const std::vector<RepoPath>& ghosts, unsigned max_threads = 0,
                               uint32_t files_per_thread = 2000);

// How a run came by its graph (--timings and docs/cache.md, "The stored graph").
struct GraphOrigin {
  enum class How : uint8_t { built, stored, relinked };
  How how = How::built;
  size_t relinked = 0;   // files linked again (How::relinked)
  std::string problem;   // a stored graph that was damaged, in one line ("" when none)
  std::string key;       // what the graph was built over (store_import_graph stores it under this key)
};

// A graph an earlier run stored, as read, before it is checked against this run's files.
struct StoredGraph {
  ImportGraph graph;             // nodes, edges out, unbounded imports, and the path and module tables
  std::string key;               // what it was built over (GraphOrigin::key)
  std::vector<std::string> oids; // each file's blob id when it was built
  size_t ghosts = 0;             // how many ghosts that build was given
  bool damaged = false;          // the file is there but cannot be read
};

// Reads the graph stored in `file` (an empty StoredGraph when there is none). Needs nothing of this run,
// so it can run while git's status does.
StoredGraph read_stored_graph(const std::filesystem::path& file);

// The graph build_import_graph() makes, taken from `stored` (read from `file`) when it was built over
// the same paths, layout and ghosts: the files whose content changed since (by blob id) are linked
// again, with whatever read their facts while linking. Otherwise the graph is built. A damaged file is
// said in `origin.problem` and only costs the time. With `verify`, the graph is also built in full and
// compared: a difference throws impact::Error (the project's tests run this way, IMPACT_CHECK_GRAPH=1).
ImportGraph stored_import_graph(StoredGraph stored, const std::filesystem::path& file, const ProjectLayout& layout,
                                const ProjectFacts& facts, const std::vector<RepoPath>& ghosts, unsigned max_threads,
                                bool verify, GraphOrigin& origin);

// Stores `graph`, which stored_import_graph() gave with `origin` for `ghosts`, in `file` (a temporary
// file renamed over it), unless it is the stored graph as it was. Throws impact::Error when it cannot
// be written.
void store_import_graph(const std::filesystem::path& file, const ImportGraph& graph, const ProjectFacts& facts,
                        const std::vector<RepoPath>& ghosts, const GraphOrigin& origin);

// The name of the stored graph's file in the cache folder (it carries the format's version).
std::string stored_graph_file_name();

} // namespace impact
