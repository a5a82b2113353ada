// Callers that may keep a changed function's result (keeping_callers.hpp).
#include "coverage/keeping_callers.hpp"

#include "coverage/memoized.hpp"
#include "impact/coverage.hpp"
#include "impact/python/function_blocks.hpp"
#include "impact/python/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace impact {

namespace {

bool calls(std::string_view ref, std::string_view name) {
  if (ref == name) return true;
  if (ref.starts_with(name) && ref.size() > name.size() && (ref[name.size()] == '.' || ref[name.size()] == '(')) return true;
  return ref.size() > name.size() && ref.ends_with(name) && ref[ref.size() - name.size() - 1] == '.';
}

bool name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// `name = value` or `name: annotation = value` (one plain name, not `==`): the name and the value's text.
std::optional<std::pair<std::string_view, std::string_view>> simple_assignment(std::string_view line) {
  size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) return std::nullopt;
  size_t end = start;
  while (end < line.size() && name_char(line[end])) ++end;
  if (end == start) return std::nullopt;
  size_t eq = line.find_first_not_of(" \t", end);
  if (eq != std::string_view::npos && line[eq] == ':') {
    std::string_view name = line.substr(start, end - start);
    if (name == "else" || name == "try" || name == "finally" || name == "lambda") return std::nullopt;
    size_t assign = line.find('=', eq);
    while (assign != std::string_view::npos && assign + 1 < line.size() && line[assign + 1] == '=') assign = line.find('=', assign + 2);
    if (assign == std::string_view::npos) return std::nullopt;
    eq = assign;
  }
  if (eq == std::string_view::npos || line[eq] != '=' || (eq + 1 < line.size() && line[eq + 1] == '=')) return std::nullopt;
  return std::pair{line.substr(start, end - start), line.substr(eq + 1)};
}

// `a.b.c = value` (a dotted target, not `==`): the target and the value's text.
std::optional<std::pair<std::string_view, std::string_view>> attribute_assignment(std::string_view line) {
  size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) return std::nullopt;
  size_t end = start + (line.substr(start).starts_with("type(self).") ? 11 : 0); // the class's attribute
  while (end < line.size() && (name_char(line[end]) || line[end] == '.')) ++end;
  std::string_view target = line.substr(start, end - start);
  if (target.find('.') == std::string_view::npos || target.ends_with(".")) return std::nullopt;
  size_t eq = line.find_first_not_of(" \t", end);
  // An augmented assignment (`self.items += [...]`) keeps as a plain one does.
  if (eq != std::string_view::npos && eq + 1 < line.size() && std::string_view("+-*/|&%^@").find(line[eq]) != std::string_view::npos &&
      line[eq + 1] == '=') {
    ++eq;
  }
  if (eq == std::string_view::npos || line[eq] != '=' || (eq + 1 < line.size() && line[eq + 1] == '=')) return std::nullopt;
  return std::pair{target, line.substr(eq + 1)};
}

// The names lines `first`..`last` bind to a fresh container (`out = {}`, `seen = set()`, `items = []`)
// or a new instance of a class: what is stored into them is gone when the call returns (unless
// returned, which its caller's own stores show). `shares_instances`: a class of the file may hand out
// one shared instance (`__new__` returning a kept one), so a new instance is not fresh.
std::set<std::string_view> fresh_locals(const std::vector<std::string_view>& lines, uint32_t first, uint32_t last,
                                        bool shares_instances) {
  std::set<std::string_view> out;
  for (uint32_t l = first; l <= last && l < lines.size(); ++l) {
    auto assigned = simple_assignment(lines[l]);
    if (!assigned) continue;
    std::string_view v = assigned->second.substr(std::min(assigned->second.size(), assigned->second.find_first_not_of(" \t")));
    // `decls = (` over several lines, `[first] if first else [make()]` on the next: the first line that
    // is not an opening parenthesis.
    for (uint32_t next = l + 1; (v == "(" || v.empty()) && next <= last && next < lines.size(); ++next) {
      v = lines[next].substr(std::min(lines[next].size(), lines[next].find_first_not_of(" \t")));
    }
    while (v.starts_with("(")) v = v.substr(std::min(v.size(), v.find_first_not_of(" \t", 1)));
    for (std::string_view fresh : {"{", "[", "dict(", "set(", "list(", "OrderedDict(", "collections.OrderedDict(",
                                   "defaultdict(", "collections.defaultdict(", "Counter(", "collections.Counter("}) {
      if (v.starts_with(fresh)) out.insert(assigned->first);
    }
    // A new instance (`params = c_ast.ParamList([first], first.coord)`: a class is named in CamelCase),
    // whose attributes hold what its constructor was given.
    size_t call = v.find('(');
    std::string_view callee = v.substr(0, call == std::string_view::npos ? 0 : call);
    std::string_view cls = python::last_part(callee);
    bool dotted_name = !callee.empty() && std::all_of(callee.begin(), callee.end(), [](char c) { return name_char(c) || c == '.'; });
    if (!shares_instances && dotted_name && !cls.empty() && cls.front() >= 'A' && cls.front() <= 'Z' &&
        std::any_of(cls.begin(), cls.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
      out.insert(assigned->first);
    }
  }
  return out;
}

// What in lines `first`..`last` of `lines` may keep a value across calls: an item stored into a
// container that outlives the call (an attribute's, `self.data[key] = value`, `vars(self)[k] = v`; a
// module-level name's, a parameter's, a closure's, an alias's: anything but a fresh local), a
// mutating call on one (`update`, `setdefault`, `__setitem__`; `append`, `add`, `extend`, `insert`
// too, but not on an attribute of `self`, an instance's own accumulator, `self.errors.append`, unless
// the instance may be shared: `shared_self`), a defaultdict made with a factory that leads to the
// change, or `setattr` (`bypassed`: a later read finds the attribute without running the caller at all, as a
// memoized call does).
std::optional<std::string> keeps_items(const std::vector<std::string_view>& lines, uint32_t first, uint32_t last,
                                       const std::set<std::string_view>& leading, bool shared_self,
                                       const std::set<std::string_view>& module_level, bool module_made,
                                       bool shares_instances, bool& bypassed) {
  bypassed = false;
  std::set<std::string_view> fresh = fresh_locals(lines, first, last, shares_instances);
  // A fresh local, or an attribute of one (`params.params`: what a new instance was given).
  auto local = [&](std::string_view base) {
    std::string_view root = base.substr(0, base.find('.'));
    return root.find_first_of("([") == std::string_view::npos && fresh.contains(root);
  };
  // What is stored must come from the changed code: it calls a function that leads there (`leading`),
  // or names a local assigned from such a call (two passes: `v = f(); w = v + 1`). A statement that
  // goes on past its line is taken to (its value is not read).
  auto has_word = [](std::string_view text, std::string_view word, bool call) {
    for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
      if (at > 0 && name_char(text[at - 1])) continue;
      size_t after = at + word.size();
      if (after < text.size() && name_char(text[after])) continue;
      if (!call) return true;
      size_t open = text.find_first_not_of(" \t", after);
      if (open != std::string_view::npos && text[open] == '(') return true;
    }
    return false;
  };
  std::set<std::string_view> derived;
  auto from_change = [&](std::string_view text) {
    int depth = 0;
    for (char c : text) depth += (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
    if (depth > 0 || text.ends_with("\\")) return true;
    return std::any_of(leading.begin(), leading.end(), [&](std::string_view n) { return has_word(text, n, true); }) ||
           std::any_of(derived.begin(), derived.end(), [&](std::string_view n) { return has_word(text, n, false); });
  };
  // A leading function named as a value too (`defaultdict(compute)`, `partial(compute, 3)`).
  auto names_change = [&](std::string_view text) {
    return from_change(text) || std::any_of(leading.begin(), leading.end(), [&](std::string_view n) { return has_word(text, n, false); });
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t l = first; l <= last && l < lines.size(); ++l) {
      auto assigned = simple_assignment(lines[l]);
      if (assigned && from_change(assigned->second)) derived.insert(assigned->first);
    }
  }
  // Names the caller declares `global` or `nonlocal`: an assignment to one outlives the call.
  std::set<std::string_view> outer;
  bool generator = false;
  for (uint32_t l = first; l <= last && l < lines.size(); ++l) {
    std::string_view line = lines[l].substr(std::min(lines[l].size(), lines[l].find_first_not_of(" \t")));
    generator = generator || has_word(line, "yield", false);
    for (std::string_view keyword : {"global ", "nonlocal "}) {
      if (!line.starts_with(keyword)) continue;
      for (std::string_view rest = line.substr(keyword.size()); !rest.empty();) {
        size_t comma = rest.find(',');
        std::string_view name = rest.substr(0, comma);
        name.remove_prefix(std::min(name.size(), name.find_first_not_of(" \t")));
        while (!name.empty() && !name_char(name.back())) name.remove_suffix(1);
        if (!name.empty()) outer.insert(name);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    }
  }
  // A generator's frame keeps its locals across its yields: a generator object module-level code makes,
  // which several tests resume (`IDS = _gen()`, `cycle(_colors())`), computed them for the first only.
  for (uint32_t l = first; generator && module_made && l <= last && l < lines.size(); ++l) {
    std::string_view line = lines[l];
    if (std::any_of(leading.begin(), leading.end(), [&](std::string_view n) { return has_word(line, n, true); })) {
      return fmt::format("it is a generator, whose frame keeps what line {} computed across its yields", l);
    }
  }
  for (uint32_t l = first; l <= last && l < lines.size(); ++l) {
    std::string_view line = lines[l];
    size_t code = line.find_first_not_of(" \t");
    if (code == std::string_view::npos || line[code] == '#') continue;
    if (auto assigned = simple_assignment(line); assigned && outer.contains(assigned->first) && from_change(assigned->second)) {
      return fmt::format("line {} assigns {}, a global or nonlocal name", l, assigned->first);
    }
    // `cls._inst.val = compute()`, `REGISTRY.default = build()`, `self.value = compute()` on a shared
    // instance: an attribute of something that outlives the call.
    if (auto stored = attribute_assignment(line); stored && from_change(stored->second)) {
      std::string_view target = stored->first;
      std::string_view root = target.substr(0, target.find('.'));
      bool class_level = target.starts_with("self.__class__.") || target.starts_with("type(self).");
      if (root == "cls" || class_level || (root == "self" && shared_self) || module_level.contains(root)) {
        return fmt::format("line {} sets {}", l, target);
      }
    }
    // Names a `global` or `nonlocal` statement declares, bound by a tuple target or a walrus.
    if (size_t eq = line.find('='); !outer.empty() && eq != std::string_view::npos && from_change(line.substr(eq + 1))) {
      std::string_view left = line.substr(code, eq - code);
      bool tuple = left.find(',') != std::string_view::npos &&
                   std::all_of(left.begin(), left.end(), [](char c) { return name_char(c) || c == ',' || c == ' ' || c == '(' || c == ')'; });
      std::string_view augmented = left.substr(0, left.find_last_not_of(" \t+-*/|&%^@") + 1); // `_S += load()`
      for (std::string_view name : outer) {
        if ((tuple && has_word(left, name, false)) || line.find(std::string(name) + " :=") != std::string_view::npos ||
            (augmented.size() < left.size() && augmented == name)) {
          return fmt::format("line {} binds {}, a global or nonlocal name", l, name);
        }
      }
    }
    // The module's namespace itself: `globals()[k] = v`, `globals().update(...)`.
    if (size_t at = line.find("globals()"); at != std::string_view::npos && from_change(line.substr(at))) {
      return fmt::format("line {} stores into globals()", l);
    }
    size_t sets = std::min(line.find("setattr("), line.find("__setattr__("));
    if (sets != std::string_view::npos && from_change(line.substr(sets))) {
      bypassed = true;
      return fmt::format("line {} sets an attribute with setattr", l);
    }
    for (std::string_view method : {".update(", ".setdefault(", ".__setitem__(", ".append(", ".add(", ".extend(", ".insert("}) {
      for (size_t at = line.find(method); at != std::string_view::npos; at = line.find(method, at + 1)) {
        size_t begin = at;
        while (begin > 0 && (name_char(line[begin - 1]) || line[begin - 1] == '.')) --begin;
        std::string_view base = line.substr(begin, at - begin);
        if (base.empty() || local(base)) continue;
        bool accumulates = method == ".append(" || method == ".add(" || method == ".extend(" || method == ".insert(";
        if (accumulates && base.starts_with("self.") && !shared_self) continue;
        if (!from_change(line.substr(at + method.size() - 1))) continue;
        return fmt::format("line {} calls {}{}", l, base, method.substr(0, method.size() - 1));
      }
    }
    // A defaultdict whose factory calls the change: it stores the value at the first read of a key.
    // (Not one bound to a plain local: it is gone when the call returns.)
    if (size_t at = line.find("defaultdict("); at != std::string_view::npos && !simple_assignment(line) && names_change(line.substr(at + 11))) {
      return fmt::format("line {} makes a defaultdict whose factory leads to the change", l);
    }
    // `<target>[...] = ` (or an augmented assignment) where the target is not a fresh local.
    size_t open = line.find('[', code);
    if (open == std::string_view::npos) continue;
    std::string_view target = line.substr(code, open - code);
    if (target.empty() || target.find_first_of(" =,") != std::string_view::npos || local(target)) continue;
    int depth = 0;
    size_t close = std::string_view::npos;
    for (size_t i = open; i < line.size(); ++i) {
      if (line[i] == '[') ++depth;
      if (line[i] == ']' && --depth == 0) {
        close = i;
        break;
      }
    }
    if (close == std::string_view::npos) continue;
    std::string_view rest = line.substr(close + 1);
    size_t op = rest.find_first_not_of(" \t");
    if (op == std::string_view::npos) continue;
    bool assigns = rest[op] == '=' && !(op + 1 < rest.size() && rest[op + 1] == '=');
    bool augmented = op + 1 < rest.size() && rest[op + 1] == '=' && std::string_view("+-*/|&%^").find(rest[op]) != std::string_view::npos;
    if (!assigns && !augmented) continue;
    if (!from_change(rest.substr(op + (assigns ? 1 : 2)))) continue;
    return fmt::format("line {} stores an item of {}", l, target);
  }
  return std::nullopt;
}

// Whether `method`'s instance may be one that several tests share: its class is made by module-level
// code of the file (`REG = Registry()`), whose instance every importer gets.
bool shared_instance(const FactsView& view, const SymbolView& method) {
  if (method.parent < 0) return false;
  const SymbolView& owner = view.symbols[static_cast<size_t>(method.parent)];
  if (owner.kind != SymbolKind::class_) return false;
  std::string_view name = python::last_part(owner.qualname);
  return std::any_of(view.begin(view.module_refs), view.end(view.module_refs), [&](std::string_view r) { return calls(r, name); });
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
  for (const auto& change : sem.symbols) {
    // Callers found so far, with the names they are called by; each round goes one call further up.
    std::set<std::string_view> seen{change.qualname};
    std::vector<std::string_view> frontier{change.qualname};
    // The names of the changed function and of the callers found so far: calls that lead to the change.
    std::set<std::string_view> leading{python::last_part(change.qualname)};
    for (int depth = 0; depth < k_keeping_depth && !frontier.empty(); ++depth) {
      std::vector<std::string_view> next;
      for (const auto& caller : view.symbols) {
        if (caller.kind == SymbolKind::class_ || seen.contains(caller.qualname)) continue;
        bool reached = std::any_of(frontier.begin(), frontier.end(), [&](std::string_view callee) {
          std::string_view name = python::last_part(callee);
          return std::any_of(view.begin(caller.refs), view.end(caller.refs), [&](std::string_view r) { return calls(r, name); });
        });
        if (!reached) continue;
        seen.insert(caller.qualname);
        next.push_back(caller.qualname);
        leading.insert(python::last_part(caller.qualname));
        FileSemantics as_changed;
        as_changed.symbols.push_back(SymbolChange{std::string(caller.qualname), caller.kind, ChangeKind::implementation, {}, {}, false, false});
        if (auto cached = memoized(facts, graph, at, file, as_changed)) {
          out.push_back(KeepingCaller{std::string(caller.qualname), caller.def_line, caller.last_line, change.qualname,
                                      fmt::format("it is memoized ({})", cached->second), true});
        } else if (bool bypassed = false;
                   auto how = keeps_items(lines, caller.def_line + 1, caller.last_line, leading, shared_instance(view, caller),
                                          module_level, called_at_module_level(view, caller), shares_instances, bypassed)) {
          out.push_back(KeepingCaller{std::string(caller.qualname), caller.def_line, caller.last_line, change.qualname, *how, bypassed});
        }
      }
      frontier = std::move(next);
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

std::optional<std::string> add_caller_tests(uint32_t def_line, uint32_t last_line, const std::vector<Hunk>& hunks,
                                            std::string why, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                                            BlockAnswer& blocks) {
  uint32_t first = to_base(def_line, hunks, false), last = to_base(last_line, hunks, true);
  for (auto it = lines.upper_bound(first); it != lines.end() && it->first <= last; ++it) {
    for (uint32_t test : it->second) {
      if (test == k_import_time) return why;
      blocks.tests.emplace(test, it->first);
    }
  }
  blocks.bodies.push_back(LineSpan{first + 1, last});
  return std::nullopt;
}

} // namespace impact
