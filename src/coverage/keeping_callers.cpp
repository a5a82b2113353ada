// Callers that may keep a changed function's result (keeping_callers.hpp).
#include "coverage/keeping_callers.hpp"

#include "coverage/memoized.hpp"
#include "coverage/stores.hpp"
#include "impact/coverage.hpp"
#include "impact/python/function_blocks.hpp"
#include "impact/python/names.hpp"
#include "impact/python/text_reads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace impact {

namespace {

bool calls(std::string_view ref, std::string_view name) {
  if (ref == name) return true;
  if (ref.starts_with(name) && ref.size() > name.size() && (ref[name.size()] == '.' || ref[name.size()] == '(')) return true;
  return ref.size() > name.size() && ref.ends_with(name) && ref[ref.size() - name.size() - 1] == '.';
}

// The names a call of `callee` (a function of the file) is written with in `caller`: its last name; for
// a class's `__init__`, `__new__` or `__post_init__`, the class's name and its subclasses' in the file
// (`Conf()`), and `cls` within their methods (`cls._instance = cls()`). Empty when `caller` is the
// `__call__` of a metaclass of that class, which runs it for `Config()` (a singleton's metaclass).
std::vector<std::string_view> call_names(const FactsView& view, std::string_view callee, std::string_view caller) {
  std::string_view name = python::last_part(callee);
  if ((name != "__init__" && name != "__new__" && name != "__post_init__") || callee.size() == name.size()) return {name};
  std::string_view owner = callee.substr(0, callee.size() - name.size() - 1);
  std::vector<std::string_view> classes{owner};
  for (size_t k = 0; k < classes.size() && k < 16; ++k) { // subclasses in the file, a few levels down
    for (const auto& s : view.symbols) {
      if (s.kind != SymbolKind::class_ || std::find(classes.begin(), classes.end(), s.qualname) != classes.end()) continue;
      if (std::any_of(view.begin(s.bases), view.end(s.bases), [&](std::string_view b) { return python::last_part(b) == python::last_part(classes[k]); })) {
        classes.push_back(s.qualname);
      }
    }
  }
  std::vector<std::string_view> out{name};
  bool metaclass = false;
  for (std::string_view c : classes) {
    out.push_back(python::last_part(c));
    if (caller.starts_with(c) && caller.size() > c.size() && caller[c.size()] == '.') out.push_back("cls");
    for (const auto& s : view.symbols) metaclass = metaclass || (s.qualname == c && s.has_metaclass);
  }
  // `Singleton.__call__` (a class of the file whose base is `type`), for a class made with a metaclass.
  if (metaclass && python::last_part(caller) == "__call__") {
    std::string_view meta = caller.substr(0, caller.size() - 9);
    for (const auto& s : view.symbols) {
      if (s.qualname == meta && s.kind == SymbolKind::class_ &&
          std::any_of(view.begin(s.bases), view.end(s.bases), [](std::string_view b) { return b == "type"; })) {
        return {};
      }
    }
  }
  return out;
}

// Whether `method`'s instance may be one that several tests share: its class is made by module-level
// code of the file (`REG = Registry()`) or of another file that names it (`app = App()` in app.py for
// a class of framework.py), whose instance every importer gets, by a fixture, a class body or a class
// or module set-up of any file, or is an enum.
bool shared_instance(const ProjectFacts& facts, size_t at, const FactsView& view, const SymbolView& method) {
  if (method.parent < 0) return false;
  const SymbolView& owner = view.symbols[static_cast<size_t>(method.parent)];
  if (owner.kind != SymbolKind::class_) return false;
  std::string_view name = python::last_part(owner.qualname);
  // An enum's members are made once, when the class is: every test gets the same `Color.RED`.
  bool enumeration = std::any_of(view.begin(owner.bases), view.end(owner.bases), [](std::string_view b) {
    std::string_view base = python::last_part(b);
    return base.ends_with("Enum") || base.ends_with("Flag");
  });
  // Made once for several tests: by module-level code, a class body (a test class's attribute), a
  // fixture (a module-, class- or session-scoped one shares it; the scope is not read, so any counts),
  // or unittest's and pytest's class and module set-up.
  auto made = [&](const FactsView& v) {
    auto calls_it = [&](std::string_view r) { return calls(r, name); };
    if (std::any_of(v.begin(v.module_refs), v.end(v.module_refs), calls_it)) return true;
    for (const auto& s : v.symbols) {
      std::string_view last = python::last_part(s.qualname);
      bool shares = s.kind == SymbolKind::class_ || !s.fixture.empty() || last == "setUpClass" || last == "setup_class" ||
                    last == "setUpModule" || last == "setup_module" || last == "setUpTestData";
      if (shares && std::any_of(v.begin(s.refs), v.end(s.refs), calls_it)) return true;
    }
    return false;
  };
  if (enumeration || made(view)) return true;
  FactsView other;
  for (uint32_t f : facts.files_mentioning(name)) {
    if (f == at) continue;
    facts.view(f, other);
    if (made(other)) return true;
  }
  return false;
}

// Whether module-level code of the file calls `function` (`IDS = _gen()`).
bool called_at_module_level(const FactsView& view, const SymbolView& function) {
  if (function.parent >= 0) return false;
  std::string_view name = function.qualname;
  return std::any_of(view.begin(view.module_refs), view.end(view.module_refs), [&](std::string_view r) { return calls(r, name); });
}

// Line `line` of the current file at the base: shifted by the hunks before it; inside a hunk, the
// hunk's first base line (`end`: its last), so that a span only widens.
uint32_t to_base(uint32_t line, const std::vector<Hunk>& hunks, bool end) {
  int64_t shift = 0;
  for (const Hunk& h : hunks) {
    bool before = h.new_count == 0 ? line <= h.new_start : line < h.new_start;
    if (before) break;
    if (h.new_count > 0 && line < h.new_start + h.new_count) return end ? h.old_start + h.old_count : std::max<uint32_t>(1, h.old_start);
    shift += static_cast<int64_t>(h.new_count) - static_cast<int64_t>(h.old_count);
  }
  return static_cast<uint32_t>(std::max<int64_t>(1, static_cast<int64_t>(line) - shift));
}

// Which of the module-level names the callers read may hold a result: those the file may change
// (not in FileFacts::constant_names), and the constant ones another file may change; each other
// file that names one of them is read once.
std::set<std::string_view> may_hold_results(const ProjectFacts& facts, size_t at, const FactsView& view,
                                            const std::vector<std::vector<std::string_view>>& reads, const ReadText& read_current) {
  std::set<std::string_view> kept;
  std::map<uint32_t, std::vector<std::string_view>> mentioning;
  for (const auto& read : reads) {
    for (std::string_view data : read) {
      if (std::find(view.constant_names.begin(), view.constant_names.end(), data) == view.constant_names.end()) {
        kept.insert(data);
        continue;
      }
      for (uint32_t f : facts.files_mentioning(data)) {
        auto& of = mentioning[f];
        if (f != at && std::find(of.begin(), of.end(), data) == of.end()) of.push_back(data);
      }
    }
  }
  for (const auto& [f, of] : mentioning) {
    if (of.empty()) continue;
    auto source = read_current(f);
    if (!source) {
      kept.insert(of.begin(), of.end());
      continue;
    }
    for (std::string_view data : python::names_it_may_change(*source, of)) kept.insert(data);
  }
  return kept;
}

} // namespace

std::vector<KeepingCaller> keeping_callers(const ProjectFacts& facts, const ImportGraph& graph, size_t at,
                                           std::string_view file, const FileSemantics& sem, std::string_view content) {
  FactsView view;
  facts.view(at, view);
  std::vector<std::string_view> lines = numbered_lines(content);
  std::vector<KeepingCaller> out;
  bool shares_instances = std::any_of(lines.begin(), lines.end(), [](std::string_view l) { return l.find("__new__") != std::string_view::npos; });
  // What module-level code binds: names by assignment, classes and functions.
  std::set<std::string_view> module_level(view.module_names.begin(), view.module_names.end());
  for (const auto& s : view.symbols) {
    if (s.parent < 0) module_level.insert(s.qualname);
  }
  // And modules it imports (`state.value = compute()` keeps it in another module).
  ImportScratch imports;
  facts.imports(at, imports);
  for (const auto& imp : imports.imports) {
    if (imp.kind == ImportKind::plain) {
      std::string_view alias = imp.aliases_begin < imp.aliases_end ? imports.aliases[imp.aliases_begin] : std::string_view();
      module_level.insert(alias.empty() ? imp.module.substr(0, imp.module.find('.')) : alias);
    } else if (imp.kind == ImportKind::from) {
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
        size_t a = imp.aliases_begin + (k - imp.names_begin);
        module_level.insert(a < imp.aliases_end && !imports.aliases[a].empty() ? imports.aliases[a] : imports.names[k]);
      }
    }
  }
  // Whether a project module the file imports defines a metaclass (a class whose base is `type`) with
  // a `__call__` (asked once, on need).
  std::optional<bool> foreign_call;
  auto foreign_metaclass_call = [&] {
    if (foreign_call) return *foreign_call;
    foreign_call = false;
    if (at >= graph.out.size()) return false;
    FactsView other;
    for (const Edge& e : graph.out[at]) {
      if (e.target >= facts.size() || e.target == at) continue;
      facts.view(e.target, other);
      for (const auto& s : other.symbols) {
        if (s.parent < 0 || python::last_part(s.qualname) != "__call__") continue;
        const SymbolView& meta = other.symbols[static_cast<size_t>(s.parent)];
        if (std::any_of(other.begin(meta.bases), other.end(meta.bases), [](std::string_view b) { return b == "type"; })) {
          foreign_call = true;
          return true;
        }
      }
    }
    return false;
  };
  for (const auto& change : sem.symbols) {
    // Callers found so far, with the names they are called by; each round goes one call further up.
    std::set<std::string_view> seen{change.qualname};
    std::vector<std::string_view> frontier{change.qualname};
    // The names of the changed function and of the callers found so far: calls that lead to the change.
    std::set<std::string_view> leading{python::last_part(change.qualname)};
    // The names this file imports the changed function under (`from app.calc import compute as _c`).
    std::vector<std::string_view> aliases;
    for (const auto& imp : imports.imports) {
      if (imp.kind != ImportKind::from) continue;
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
        size_t a = imp.aliases_begin + (k - imp.names_begin);
        if (imports.names[k] == python::last_part(change.qualname) && a < imp.aliases_end && !imports.aliases[a].empty()) {
          aliases.push_back(imports.aliases[a]);
          leading.insert(imports.aliases[a]);
        }
      }
    }
    std::vector<std::string_view> keepers; // the callers found to keep a result
    for (int depth = 0; depth < k_keeping_depth && !frontier.empty(); ++depth) {
      std::vector<std::string_view> next;
      for (const auto& caller : view.symbols) {
        if (caller.kind == SymbolKind::class_ || seen.contains(caller.qualname)) continue;
        bool reached = std::any_of(frontier.begin(), frontier.end(), [&](std::string_view callee) {
          auto names = call_names(view, callee, caller.qualname);
          if (names.empty()) return true; // a metaclass's __call__ runs the class's __init__
          if (callee == change.qualname) names.insert(names.end(), aliases.begin(), aliases.end());
          bool hit = std::any_of(view.begin(caller.refs), view.end(caller.refs), [&](std::string_view r) {
            return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return calls(r, n); });
          });
          if (hit) leading.insert(names.begin(), names.end());
          return hit;
        });
        if (!reached) continue;
        seen.insert(caller.qualname);
        next.push_back(caller.qualname);
        leading.insert(python::last_part(caller.qualname));
        FileSemantics as_changed;
        as_changed.symbols.push_back(SymbolChange{std::string(caller.qualname), caller.kind, ChangeKind::implementation, {}, {}, false, false});
        // A test is called by pytest only: whatever it keeps, no other code reads.
        if (graph.nodes[at].test && python::last_part(caller.qualname).starts_with("test")) continue;
        auto cached = memoized(facts, graph, at, file, as_changed);
        if (cached && caller.decorators.end - caller.decorators.begin == 1 && only_wraps(view, lines, cached->second)) cached.reset();
        if (cached) {
          out.push_back(KeepingCaller{std::string(caller.qualname), caller.def_line, caller.last_line, change.qualname,
                                      fmt::format("it is memoized ({})", cached->second), true});
        } else if (bool bypassed = false;
                   auto how = keeps_items(lines, caller.def_line + 1, caller.last_line, leading, shared_instance(facts, at, view, caller),
                                          module_level, called_at_module_level(view, caller), shares_instances, bypassed)) {
          // A hook whose stored result the interpreter serves later without running it: a dict
          // subclass's `__missing__` (a later `d[key]`), a module's or class's `__getattr__` (the name
          // is found), a descriptor's `__get__` storing into the instance: as a memoized call.
          std::string_view hook = python::last_part(caller.qualname);
          if (hook == "__missing__" || hook == "__getattr__" || hook == "__get__") {
            bypassed = true;
            how->append(fmt::format(" (in {}: later lookups run none of it)", hook));
          }
          out.push_back(KeepingCaller{std::string(caller.qualname), caller.def_line, caller.last_line, change.qualname, *how, bypassed});
          keepers.push_back(caller.qualname);
        }
      }
      frontier = std::move(next);
    }
    // A class made by a metaclass of another file whose `__call__` may keep its instances (a
    // singleton's metaclass in meta.py): a later `Config()` runs none of the class's code.
    for (std::string_view q : seen) {
      std::string_view name = python::last_part(q);
      if ((name != "__init__" && name != "__new__" && name != "__post_init__") || q.size() == name.size()) continue;
      std::string_view owner = q.substr(0, q.size() - name.size() - 1);
      auto cls = std::find_if(view.symbols.begin(), view.symbols.end(), [&](const SymbolView& s) { return s.qualname == owner; });
      if (cls == view.symbols.end() || !cls->has_metaclass || !foreign_metaclass_call()) continue;
      out.push_back(KeepingCaller{std::string(q), cls->def_line, cls->last_line, change.qualname,
                                  fmt::format("{} is made by a metaclass, and a module it imports defines a metaclass's "
                                              "__call__, which may keep the instance", owner),
                                  true});
    }
    // The kept value may be looked up by a caller of the keeper (`get` calling `self.fill(x)` on a
    // miss, then reading `self.rows[x]`): a test that found it kept ran that caller, not the keeper.
    std::set<std::string_view> readers(keepers.begin(), keepers.end());
    for (int depth = 0; depth < k_keeping_depth && !keepers.empty(); ++depth) {
      std::vector<std::string_view> next;
      for (const auto& caller : view.symbols) {
        if (caller.kind == SymbolKind::class_ || readers.contains(caller.qualname)) continue;
        auto keeper = std::find_if(keepers.begin(), keepers.end(), [&](std::string_view k) {
          std::string_view name = python::last_part(k);
          return std::any_of(view.begin(caller.refs), view.end(caller.refs), [&](std::string_view r) { return calls(r, name); });
        });
        if (keeper == keepers.end()) continue;
        readers.insert(caller.qualname);
        next.push_back(caller.qualname);
        out.push_back(KeepingCaller{std::string(caller.qualname), caller.def_line, caller.last_line, change.qualname,
                                    fmt::format("it calls {}, which may keep the result", *keeper), false});
      }
      keepers = std::move(next);
    }
    // Module-level code that makes a defaultdict whose factory leads to the change
    // (`_C = defaultdict(lambda: compute())`): it ran at import, so the index cannot answer.
    for (uint32_t l = 1; l < lines.size(); ++l) {
      std::string_view line = lines[l];
      size_t made = line.find("defaultdict(");
      if (line.empty() || line[0] == ' ' || line[0] == '\t' || made == std::string_view::npos) continue;
      std::string_view args = line.substr(made + 11);
      bool leads = std::any_of(leading.begin(), leading.end(), [&](std::string_view n) {
        for (size_t k = args.find(n); k != std::string_view::npos; k = args.find(n, k + 1)) {
          bool before = k == 0 || !name_char(args[k - 1]), after = k + n.size() >= args.size() || !name_char(args[k + n.size()]);
          if (before && after) return true;
        }
        return false;
      });
      if (leads) {
        out.push_back(KeepingCaller{"<module>", l - 1, l, change.qualname,
                                    fmt::format("line {} makes a defaultdict whose factory leads to the change", l), false});
      }
    }
  }
  return out;
}

std::vector<uint32_t> files_that_may_keep(const ProjectFacts& facts, const ImportGraph& graph, size_t at,
                                          const FileSemantics& sem) {
  std::vector<uint32_t> out;
  if (at >= graph.nodes.size()) return out;
  std::vector<bool> near(graph.nodes.size(), false); // imports `at`, or a file that does
  for (const auto& [a, e] : graph.in[at]) {
    near[a] = true;
    for (const auto& [b, e2] : graph.in[a]) near[b] = true;
  }
  for (const auto& change : sem.symbols) {
    std::string_view name = python::last_part(change.qualname);
    std::vector<std::string_view> names{name};
    // A constructor is called by its class's name (`Conf()`).
    if ((name == "__init__" || name == "__new__" || name == "__post_init__") && change.qualname.size() > name.size()) {
      names.push_back(python::last_part(std::string_view(change.qualname).substr(0, change.qualname.size() - name.size() - 1)));
    }
    for (std::string_view n : names) {
      for (uint32_t f : facts.files_mentioning(n)) {
        if (f != at && f < near.size() && near[f]) out.push_back(f);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<std::string> add_caller_tests(uint32_t def_line, uint32_t last_line, const std::vector<Hunk>& hunks,
                                            std::string why, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                                            BlockAnswer& blocks, std::optional<uint32_t> shown) {
  uint32_t first = to_base(def_line, hunks, false), last = to_base(last_line, hunks, true);
  for (auto it = lines.upper_bound(first); it != lines.end() && it->first <= last; ++it) {
    for (uint32_t test : it->second) {
      if (test == k_import_time) return why;
      blocks.tests.emplace(test, shown.value_or(it->first));
    }
  }
  if (!shown) blocks.bodies.push_back(LineSpan{first + 1, last});
  return std::nullopt;
}

std::optional<std::string> add_caching_callers(const ProjectFacts& facts, size_t at, const FileSemantics& sem,
                                               const std::vector<Hunk>& hunks, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                                               BlockAnswer& blocks, const ReadText& read_current) {
  FactsView view;
  facts.view(at, view);
  if (view.module_names.empty()) return std::nullopt;
  auto names = [](std::string_view ref, std::string_view name) {
    return ref == name || (ref.starts_with(name) && (ref[name.size()] == '.' || ref[name.size()] == '['));
  };
  // The callers that name a changed function and read module-level names, with those names.
  std::vector<std::pair<const SymbolView*, std::string_view>> callers;
  std::vector<std::vector<std::string_view>> reads;
  for (const auto& change : sem.symbols) {
    std::string_view changed = change.qualname;
    std::string_view name = python::last_part(changed);
    for (const auto& caller : view.symbols) {
      if (caller.kind == SymbolKind::class_ || caller.qualname == changed) continue;
      bool calls = false;
      std::vector<std::string_view> read;
      for (auto ref = view.begin(caller.refs); ref != view.end(caller.refs); ++ref) {
        std::string_view r = *ref;
        calls = calls || names(r, name) ||
                (r.size() > name.size() && r.ends_with(name) && r[r.size() - name.size() - 1] == '.');
        for (std::string_view data : view.module_names) {
          if (names(r, data) && std::find(read.begin(), read.end(), data) == read.end()) read.push_back(data);
        }
      }
      if (!calls || read.empty()) continue;
      callers.emplace_back(&caller, changed);
      reads.push_back(std::move(read));
    }
  }
  if (callers.empty()) return std::nullopt;
  std::set<std::string_view> kept = may_hold_results(facts, at, view, reads, read_current);
  for (size_t i = 0; i < callers.size(); ++i) {
    const auto& [caller, changed] = callers[i];
    if (std::none_of(reads[i].begin(), reads[i].end(), [&](std::string_view d) { return kept.contains(d); })) continue;
    auto why = fmt::format("{} may keep the result of {} in module-level data, and ran outside a test", caller->qualname, changed);
    if (auto outside = add_caller_tests(caller->def_line, caller->last_line, hunks, std::move(why), lines, blocks)) return outside;
  }
  return std::nullopt;
}

} // namespace impact
