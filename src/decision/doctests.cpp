#include "decision/doctests.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/resolve/file_index.hpp"

#include <algorithm>
#include <optional>

namespace impact::decision {

namespace {

// `doctest_namespace` is one dict for the whole session: a fixture that fills it (anywhere, not only
// in a conftest.py above the doctest) hands its names to every doctest that runs after it. semver's
// tests/conftest.py fills it with `semver` and `Version`, which docs/usage/*.rst read unimported.
// The first such file the walk reached, if any.
std::optional<uint32_t> reached_filler(const DecisionInput& in, const ReverseWalk& walk) {
  // --file-level runs have no symbol facts (in.facts), but the facts are read all the same.
  const ProjectFacts* facts = facts_read(in);
  if (facts == nullptr) {
    // Unknown which file fills it: any reached file may.
    if (walk.order().empty()) return std::nullopt;
    return walk.order().front();
  }
  for (uint32_t h : facts->files_mentioning("doctest_namespace")) {
    if (h < in.graph.nodes.size() && walk.reached(h)) return h;
  }
  return std::nullopt;
}

std::vector<Hop> chain_to(const ReverseWalk& walk, Hop first, uint32_t node) {
  std::vector<Hop> chain{std::move(first)};
  auto rest = walk.chain(node);
  chain.insert(chain.end(), rest.begin(), rest.end());
  return chain;
}

// The file-level answer for text doctest `doc`: the chain by which `walk` reaches it (through what it
// imports, a conftest.py above it, or the file that fills doctest_namespace), if it does.
std::optional<std::vector<Hop>> file_level_reach(const DecisionInput& in, const ReverseWalk& walk, const TextDoctest& doc,
                                                 std::optional<uint32_t> filler) {
  for (const auto& [module, line] : doc.modules) {
    const auto& nodes = in.graph.modules_named(module);
    auto hit = std::find_if(nodes.begin(), nodes.end(), [&](uint32_t n) { return walk.reached(n); });
    if (hit != nodes.end()) return chain_to(walk, Hop{doc.path.str, Relation::doctest_imports, line, {}}, *hit);
  }
  std::optional<std::vector<Hop>> out;
  in.graph.conftests_from(doc.path.parent(), [&](uint32_t c) {
    if (!walk.reached(c)) return true;
    out = chain_to(walk, Hop{doc.path.str, Relation::conftest, 0, {}}, c);
    return false;
  });
  if (!out && filler) out = chain_to(walk, Hop{doc.path.str, Relation::doctest_namespace, 0, {}}, *filler);
  return out;
}

// Whether the change reaches the import-time code of anything text doctest `doc` loads: a module its
// examples import, a conftest.py above it, a file that fills doctest_namespace.
bool import_time_reach(const DecisionInput& in, const PageFilter& pages, const TextDoctest& doc) {
  for (const auto& [module, line] : doc.modules) {
    for (uint32_t n : in.graph.modules_named(module)) {
      if (pages.at_import(n)) return true;
    }
  }
  bool conftest = false;
  in.graph.conftests_from(doc.path.parent(), [&](uint32_t c) {
    conftest = pages.at_import(c);
    return !conftest;
  });
  return conftest || std::any_of(pages.fillers.begin(), pages.fillers.end(), [&](uint32_t h) { return pages.at_import(h); });
}

// The names of what the functions given doctest_namespace read (the chains they store, and anything
// else they read), in the files that mention it.
std::vector<std::string> namespace_names(const ProjectFacts& facts) {
  std::vector<std::string> out;
  FactsView view;
  for (uint32_t h : facts.files_mentioning("doctest_namespace")) {
    facts.view(h, view);
    for (const auto& s : view.symbols) {
      if (std::find(view.begin(s.params), view.end(s.params), "doctest_namespace") == view.end(s.params)) continue;
      for (auto ref = view.begin(s.refs); ref != view.end(s.refs); ++ref) {
        for (std::string_view part : resolve::split_chain(*ref)) out.emplace_back(part);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Every renamed import of the project, alias -> imported names (aliases are in no name table).
util::StringMap<std::vector<std::string>> renamed_imports(const ProjectFacts& facts) {
  util::StringMap<std::vector<std::string>> out;
  ImportScratch scratch;
  for (size_t h = 0; h < facts.size(); ++h) {
    facts.imports(h, scratch);
    for (const ImportView& imp : scratch.imports) {
      if (imp.kind != ImportKind::from) continue;
      for (size_t k = imp.names_begin, a = imp.aliases_begin; k < imp.names_end && a < imp.aliases_end; ++k, ++a) {
        if (scratch.aliases[a] == scratch.names[k]) continue;
        auto& names = out[std::string(scratch.aliases[a])];
        if (std::find(names.begin(), names.end(), scratch.names[k]) == names.end()) names.emplace_back(scratch.names[k]);
      }
    }
  }
  return out;
}

// A module collected for its doctests (--doctest-modules) runs its examples, which may import what
// the module itself does not (`>>> from pkg.b import f`): selected whole when the change reaches one.
// A test module too: the examples of its docstrings and `__test__` are tests beside its functions.
void module_doctest_imports(const DecisionInput& in, const ReverseWalk& walk, Selection& out,
                            const std::function<void(Selection&, uint32_t, std::vector<Hop>)>& select_file) {
  const ProjectFacts* facts = facts_read(in);
  if (facts == nullptr || walk.order().empty()) return;
  FactsView view;
  for (uint32_t node = 0; node < in.graph.nodes.size() && node < facts->size(); ++node) {
    const GraphNode& n = in.graph.nodes[node];
    if (!n.test || n.ghost || (walk.reached(node) && !n.test_pattern)) continue;
    facts->view(node, view);
    for (std::string_view module : view.doctest_modules) {
      const auto& nodes = in.graph.modules_named(module);
      auto hit = std::find_if(nodes.begin(), nodes.end(), [&](uint32_t m) { return walk.reached(m); });
      if (hit == nodes.end()) continue;
      select_file(out, node, chain_to(walk, Hop{n.path.str, Relation::doctest_imports, 0, {}}, *hit));
      break;
    }
  }
}

} // namespace

std::optional<NameWatch> doctest_watch(const DecisionInput& in) {
  if (in.text_doctests.empty() || in.mode == Mode::safe || in.facts == nullptr) return std::nullopt;
  NameWatch watch;
  watch.shared = namespace_names(*in.facts);
  for (const auto& doc : in.text_doctests) watch.wanted.insert(doc.names.begin(), doc.names.end());
  watch.wanted.insert(watch.shared.begin(), watch.shared.end());
  // Each spelled name that is an alias: every name it stands for, through chains (and cycles) of renames.
  util::StringMap<std::vector<std::string>> renamed = renamed_imports(*in.facts);
  std::vector<std::string> spelled(watch.wanted.begin(), watch.wanted.end());
  for (const std::string& word : spelled) {
    if (!renamed.contains(word)) continue;
    util::StringSet seen{word};
    std::vector<std::string> queue{word}, out;
    for (size_t next = 0; next < queue.size(); ++next) {
      auto it = renamed.find(queue[next]);
      if (it == renamed.end()) continue;
      for (const std::string& original : it->second) {
        if (!seen.insert(original).second) continue;
        queue.push_back(original);
        out.push_back(original);
        watch.wanted.insert(original);
      }
    }
    watch.originals.emplace(word, std::move(out));
  }
  return watch;
}

std::optional<PageFilter> doctest_filter(const DecisionInput& in, const NameWatch& watch, const SymbolResult& result,
                                         const ReverseWalk& import_time) {
  if (watch.unnamed || result.budget_exceeded) return std::nullopt;
  PageFilter out;
  out.import_time.assign(import_time.order().begin(), import_time.order().end());
  std::sort(out.import_time.begin(), out.import_time.end());
  for (uint32_t h : in.facts->files_mentioning("doctest_namespace")) {
    if (h < in.graph.nodes.size()) out.fillers.push_back(h);
  }
  for (const auto& doc : in.text_doctests) {
    auto found = [&](std::string_view name) {
      auto it = watch.found.find(name);
      if (it == watch.found.end()) return false;
      std::vector<Hop> chain{Hop{doc.path.str, Relation::doctest_reads, 0, std::string(name)}};
      chain.insert(chain.end(), it->second.begin(), it->second.end());
      out.named.emplace(doc.path.str, std::move(chain));
      return true;
    };
    auto named = [&](const std::string& name) {
      if (found(name)) return true;
      auto it = watch.originals.find(name);
      return it != watch.originals.end() && std::any_of(it->second.begin(), it->second.end(), found);
    };
    if (!std::any_of(doc.names.begin(), doc.names.end(), named)) std::any_of(watch.shared.begin(), watch.shared.end(), named);
  }
  return out;
}

void select_doctests(const DecisionInput& in, const ReverseWalk& walk, Selection& out,
                     const std::function<void(Selection&, uint32_t, std::vector<Hop>)>& select_file,
                     const PageFilter* pages) {
  std::optional<uint32_t> filler = reached_filler(in, walk);
  for (const auto& doc : in.text_doctests) {
    auto reach = file_level_reach(in, walk, doc, filler);
    if (!reach) continue;
    std::vector<Hop>& chain = *reach;
    // At symbol level: the import-time code of what it loads, or a symbol it names. A doctest that
    // may name code it does not spell, and a reach through a computed import, keep the file level.
    bool computed = std::any_of(chain.begin(), chain.end(), [](const Hop& h) { return h.relation == Relation::dynamic_import_may_load; });
    if (pages != nullptr && !doc.dynamic && !computed && !import_time_reach(in, *pages, doc)) {
      auto it = pages->named.find(doc.path.str);
      if (it != pages->named.end()) out.tests.emplace(doc.path.str, it->second);
      continue;
    }
    out.tests.emplace(doc.path.str, std::move(chain));
  }
  module_doctest_imports(in, walk, out, select_file);
  if (!filler) return;
  // A module collected for its doctests (--doctest-modules) reads the namespace too.
  for (uint32_t node = 0; node < in.graph.nodes.size(); ++node) {
    const GraphNode& n = in.graph.nodes[node];
    if (n.test && !n.test_pattern && !n.ghost && !walk.reached(node)) {
      select_file(out, node, chain_to(walk, Hop{n.path.str, Relation::doctest_namespace, 0, {}}, *filler));
    }
  }
}

void test_module_examples(const DecisionInput& in, const ReverseWalk& walk,
                          std::unordered_map<uint32_t, std::vector<Hop>>& whole) {
  const ProjectFacts* facts = facts_read(in);
  if (facts == nullptr || in.layout == nullptr || !in.layout->config().doctest_modules) return;
  for (uint32_t node : walk.order()) {
    if (node < facts->size() && in.graph.nodes[node].test_pattern && facts->header(node).has_doctest) {
      whole.emplace(node, walk.chain(node));
    }
  }
}

} // namespace impact::decision
