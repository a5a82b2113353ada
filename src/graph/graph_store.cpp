// The stored graph: the import graph of the last run, kept in the cache folder so that a warm run links
// only the files whose content changed instead of every file (docs/cache.md, "The stored graph").
//
// Layout: magic, the key (what the graph was built over), node, file and given ghost counts, the nodes
// (path, flags, module names, and for a file its blob id), each node's edges out, the unbounded imports, the importers
// of open submodules, then an 8-byte checksum of everything before it. The tables and the reverse edges
// are not stored: they are built from the nodes as a full build builds them.
#include "graph/linker.hpp"
#include "impact/error.hpp"
#include "impact/python/facts_exchange.hpp"
#include "util/binary.hpp"
#include "util/checksum.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

#include <cstring>
#include <fmt/format.h>

namespace impact {

namespace {

constexpr std::string_view k_magic = "impact-graph\n";
constexpr uint64_t k_format_version = 2; // 2: the count of ghosts given

constexpr uint64_t k_ghost = 1, k_test = 2, k_test_pattern = 4, k_conftest = 8, k_doctest_collected = 16; // node flags

// What the graph is a function of, besides each file's facts: the format, the layout, every file's path
// and link target, and the ghosts (as given: a ghost that is also a file is given but not added).
std::string key_of(const ProjectLayout& layout, const ProjectFacts& facts, const std::vector<RepoPath>& ghosts) {
  util::Writer key;
  key.u64(k_format_version);
  key.str(facts_exchange_format());
  key.str(layout.fingerprint());
  key.u64(facts.size());
  for (const auto& f : facts.files) {
    key.str(f.path.str);
    key.str(f.link_target.str);
  }
  key.u64(ghosts.size());
  for (const auto& g : ghosts) key.str(g.str);
  return util::sha256_hex(key.buffer());
}

std::string encode(const ImportGraph& graph, const ProjectFacts& facts, size_t ghosts, const std::string& key) {
  util::Writer out;
  out.buffer().reserve(256 * graph.nodes.size()); // about 180 bytes a node on the benchmark: one allocation
  out.raw(k_magic);
  out.str(key);
  out.u64(graph.nodes.size());
  out.u64(facts.size());
  out.u64(ghosts);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const GraphNode& n = graph.nodes[i];
    out.str(n.path.str);
    out.u64((n.ghost ? k_ghost : 0U) | (n.test ? k_test : 0U) | (n.test_pattern ? k_test_pattern : 0U) |
            (n.conftest ? k_conftest : 0U) | (n.doctest_collected ? k_doctest_collected : 0U));
    out.strings(n.module_names);
    if (i < facts.size()) out.str(facts.files[i].oid);
  }
  for (const auto& edges : graph.out) {
    out.u64(edges.size());
    for (const auto& e : edges) {
      out.u64(e.target);
      out.u64(static_cast<uint64_t>(e.kind));
      out.u64(e.line);
    }
  }
  out.u64(graph.unbounded.size());
  for (const auto& u : graph.unbounded) {
    out.u64(u.node);
    out.u64(u.line);
    out.str(u.call);
    out.str(u.literal);
  }
  out.u64(graph.open_submodule_importers.size());
  for (uint32_t n : graph.open_submodule_importers) out.u64(n);
  uint64_t sum = util::checksum64(out.buffer());
  out.raw(std::string_view(reinterpret_cast<const char*>(&sum), sizeof sum));
  return std::move(out.buffer());
}

// The stored nodes, edges out and unbounded imports, each file's blob id, and the tables. Every index
// is checked: a corrupt file leaves `damaged` set and no graph.
void decode(std::string_view bytes, StoredGraph& out) {
  out.damaged = true;
  if (bytes.size() < k_magic.size() + sizeof(uint64_t) || !bytes.starts_with(k_magic)) return;
  std::string_view body = bytes.substr(0, bytes.size() - sizeof(uint64_t));
  uint64_t sum = 0;
  std::memcpy(&sum, bytes.data() + body.size(), sizeof sum);
  if (sum != util::checksum64(body)) return;
  util::Reader in(body.substr(k_magic.size()));
  out.key = in.str();
  size_t n = in.count();
  size_t files = in.count();
  out.ghosts = static_cast<size_t>(in.u64());
  if (!in.ok() || n < files) return;
  ImportGraph& graph = out.graph;
  graph.nodes.resize(n);
  out.oids.resize(files);
  for (size_t i = 0; i < n && in.ok(); ++i) {
    GraphNode& node = graph.nodes[i];
    node.path = RepoPath(in.str());
    uint64_t bits = in.u64();
    node.ghost = (bits & k_ghost) != 0;
    node.test = (bits & k_test) != 0;
    node.test_pattern = (bits & k_test_pattern) != 0;
    node.conftest = (bits & k_conftest) != 0;
    node.doctest_collected = (bits & k_doctest_collected) != 0;
    node.module_names = in.strings();
    if (i < files) out.oids[i] = in.str();
  }
  graph.out.resize(n);
  for (size_t i = 0; i < n && in.ok(); ++i) {
    size_t count = in.count();
    graph.out[i].reserve(count);
    for (size_t k = 0; k < count && in.ok(); ++k) {
      Edge e;
      uint64_t target = in.u64(), kind = in.u64();
      e.line = in.u32();
      if (target >= n || kind > static_cast<uint64_t>(EdgeKind::name_match)) return;
      e.target = static_cast<uint32_t>(target);
      e.kind = static_cast<EdgeKind>(kind);
      graph.out[i].push_back(e);
    }
  }
  size_t unbounded = in.count();
  for (size_t k = 0; k < unbounded && in.ok(); ++k) {
    UnboundedImport u;
    uint64_t node = in.u64();
    u.line = in.u32();
    u.call = in.str();
    u.literal = in.str();
    if (node >= files) return;
    u.node = static_cast<uint32_t>(node);
    graph.unbounded.push_back(std::move(u));
  }
  size_t open = in.count();
  for (size_t k = 0; k < open && in.ok(); ++k) {
    uint64_t node = in.u64();
    if (node >= files) return;
    graph.open_submodule_importers.push_back(static_cast<uint32_t>(node));
  }
  if (!in.ok() || !in.done()) return;
  graph::index_nodes(graph, files, out.ghosts);
  out.damaged = false;
}

// Where two graphs differ, in a few words; "" when they are the same graph.
std::string difference(const ImportGraph& a, const ImportGraph& b) {
  if (a.nodes.size() != b.nodes.size()) return "the node count";
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const GraphNode &x = a.nodes[i], &y = b.nodes[i];
    if (x.path.str != y.path.str || x.ghost != y.ghost || x.test != y.test || x.test_pattern != y.test_pattern ||
        x.conftest != y.conftest || x.doctest_collected != y.doctest_collected || x.module_names != y.module_names) {
      return fmt::format("node {}", x.path.str);
    }
    auto same_edge = [](const Edge& e, const Edge& f) { return e.target == f.target && e.kind == f.kind && e.line == f.line; };
    if (!std::equal(a.out[i].begin(), a.out[i].end(), b.out[i].begin(), b.out[i].end(), same_edge)) {
      return fmt::format("the imports of {}", x.path.str);
    }
    if (!std::equal(a.in[i].begin(), a.in[i].end(), b.in[i].begin(), b.in[i].end(),
                    [&](const auto& e, const auto& f) { return e.first == f.first && same_edge(e.second, f.second); })) {
      return fmt::format("the importers of {}", x.path.str);
    }
  }
  auto same_unbounded = [](const UnboundedImport& u, const UnboundedImport& v) {
    return u.node == v.node && u.line == v.line && u.call == v.call && u.literal == v.literal;
  };
  if (!std::equal(a.unbounded.begin(), a.unbounded.end(), b.unbounded.begin(), b.unbounded.end(), same_unbounded)) {
    return "the unbounded imports";
  }
  if (a.open_submodule_importers != b.open_submodule_importers) return "the importers of open submodules";
  if (a.by_path.size() != b.by_path.size() || a.modules.size() != b.modules.size()) return "the tables";
  for (const auto& [name, nodes] : a.modules) {
    if (b.modules_named(name) != nodes) return fmt::format("the module table at {}", name);
  }
  for (const auto& [path, node] : a.by_path) {
    if (b.find(path) != node) return fmt::format("the path table at {}", path);
  }
  return {};
}

} // namespace

std::string stored_graph_file_name() { return fmt::format("graph-v{}.bin", k_format_version); }

StoredGraph read_stored_graph(const std::filesystem::path& file) {
  StoredGraph out;
  auto mapped = util::MappedFile::open(file);
  if (!mapped) return out;
  decode(mapped->view(), out);
  if (out.damaged) {
    out = StoredGraph();
    out.damaged = true;
  }
  return out;
}

ImportGraph stored_import_graph(StoredGraph stored, const std::filesystem::path& file, const ProjectLayout& layout,
                                const ProjectFacts& facts, const std::vector<RepoPath>& ghosts, unsigned max_threads,
                                bool verify, GraphOrigin& origin) {
  origin.key = key_of(layout, facts, ghosts);
  ImportGraph graph;
  // The same key: the same paths, ghosts, layout and facts format, so the same nodes in the same order.
  if (!stored.damaged && stored.key == origin.key && stored.oids.size() == facts.size()) {
    std::vector<uint32_t> changed;
    for (size_t i = 0; i < facts.size(); ++i) {
      if (stored.oids[i].empty() || stored.oids[i] != facts.files[i].oid) changed.push_back(static_cast<uint32_t>(i));
    }
    origin.how = changed.empty() ? GraphOrigin::How::stored : GraphOrigin::How::relinked;
    graph = std::move(stored.graph);
    origin.relinked = graph::GraphBuilder(layout, facts, graph).restore(ghosts, std::move(changed));
  } else {
    if (stored.damaged) {
      origin.problem = fmt::format("{} is damaged; the import graph was built anew and stored again", file.string());
    }
    graph = build_import_graph(layout, facts, ghosts, max_threads);
  }
  if (verify) {
    ImportGraph fresh = build_import_graph(layout, facts, ghosts, max_threads);
    if (std::string where = difference(graph, fresh); !where.empty()) {
      throw Error("internal error: the stored import graph {} differs from a full build in {}; remove {} and report this",
                  file.string(), where, file.string());
    }
  }
  return graph;
}

void store_import_graph(const std::filesystem::path& file, const ImportGraph& graph, const ProjectFacts& facts,
                        const std::vector<RepoPath>& ghosts, const GraphOrigin& origin) {
  if (origin.how == GraphOrigin::How::stored || origin.key.empty()) return;
  util::write_file_atomic(file, encode(graph, facts, ghosts.size(), origin.key));
}

} // namespace impact
