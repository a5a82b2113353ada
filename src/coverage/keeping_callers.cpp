// Callers that may keep a changed function's result (keeping_callers.hpp).
#include "coverage/keeping_callers.hpp"

#include "coverage/memoized.hpp"
#include "impact/coverage.hpp"
#include "impact/python/function_blocks.hpp"
#include "impact/python/names.hpp"
#include "impact/python/text_reads.hpp"

#include <fmt/format.h>

#include <algorithm>
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

// The targets of an assignment with more than one (`v = self[key] = compute(key)`, `self.n, self.v =
// 1, compute(3)`) or an annotated one (`self.v: int = compute(3)`), each as a line of its own with the
// whole value (`self[key] = compute(key)`, `self.v = 1, compute(3)`); nothing for any other line. Only
// the `=` outside brackets and strings count, not `==`, `<=`, `>=`, `!=` or an augmented one.
std::vector<std::string> single_targets(std::string_view line) {
  std::vector<size_t> at;
  std::vector<size_t> commas, colons; // top-level, before the first `=`
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote != 0) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '#') break;
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0 && at.empty()) commas.push_back(i);
    else if (c == ':' && depth == 0 && at.empty() && !(i + 1 < line.size() && line[i + 1] == '=')) colons.push_back(i);
    else if (c == '=' && depth == 0) {
      bool paired = (i + 1 < line.size() && line[i + 1] == '=') || (i > 0 && std::string_view("=<>!:+-*/|&%^@").find(line[i - 1]) != std::string_view::npos);
      if (paired) {
        if (i + 1 < line.size() && line[i + 1] == '=') ++i;
        continue;
      }
      at.push_back(i);
    }
  }
  std::vector<std::string> out;
  bool bracketed = !at.empty() && std::string_view("([").find(line[std::min(line.size() - 1, line.find_first_not_of(" \t"))]) != std::string_view::npos;
  if (at.empty() || (at.size() < 2 && commas.empty() && colons.empty() && !bracketed)) return out;
  size_t code = line.find_first_not_of(" \t");
  std::string_view value = line.substr(at.back() + 1);
  auto add = [&](std::string_view target) {
    target.remove_prefix(std::min(target.size(), target.find_first_not_of(" \t(")));
    while (!target.empty() && (target.back() == ' ' || target.back() == '\t' || target.back() == ')')) target.remove_suffix(1);
    if (!target.empty()) out.push_back(std::string(line.substr(0, code)) + std::string(target) + " =" + std::string(value));
  };
  // A bracketed target list (`(self.v, self.n) = ...`, `[self.v] = ...`): its items.
  std::string_view first = line.substr(code, at[0] - code);
  while (!first.empty() && (first.back() == ' ' || first.back() == '\t')) first.remove_suffix(1);
  if (commas.empty() && first.size() >= 2 && ((first.front() == '(' && first.back() == ')') || (first.front() == '[' && first.back() == ']'))) {
    int inner = 0;
    size_t from = 1;
    for (size_t i = 1; i + 1 < first.size(); ++i) {
      char c = first[i];
      if (c == '(' || c == '[' || c == '{') ++inner;
      else if (c == ')' || c == ']' || c == '}') --inner;
      else if (c == ',' && inner == 0) {
        add(first.substr(from, i - from));
        from = i + 1;
      }
    }
    add(first.substr(from, first.size() - 1 - from));
  }
  for (size_t k = 0; k < at.size(); ++k) {
    size_t begin = k == 0 ? code : at[k - 1] + 1;
    std::string_view target = line.substr(begin, at[k] - begin);
    if (k == 0 && !colons.empty() && colons.front() < at[0]) target = line.substr(begin, colons.front() - begin); // `x: T = v`
    if (k == 0 && !commas.empty()) {
      size_t from = begin;
      for (size_t comma : commas) {
        add(line.substr(from, comma - from));
        from = comma + 1;
      }
      target = line.substr(from, at[0] - from);
    }
    add(target);
  }
  return out;
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
  // One statement's line (or one target of a chained assignment, written as its own line).
  auto judge = [&](std::string_view line, uint32_t l) -> std::optional<std::string> {
    size_t code = line.find_first_not_of(" \t");
    if (code == std::string_view::npos || line[code] == '#') return std::nullopt;
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
    for (std::string_view method : {".update(", ".setdefault(", ".__setitem__(", ".append(", ".add(", ".extend(", ".insert(",
                                    ".appendleft(", ".set(", ".put(", ".push("}) {
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
    if (open == std::string_view::npos) return std::nullopt;
    std::string_view target = line.substr(code, open - code);
    if (target.empty() || target.find_first_of(" =,") != std::string_view::npos || local(target)) return std::nullopt;
    int depth = 0;
    size_t close = std::string_view::npos;
    for (size_t i = open; i < line.size(); ++i) {
      if (line[i] == '[') ++depth;
      if (line[i] == ']' && --depth == 0) {
        close = i;
        break;
      }
    }
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view rest = line.substr(close + 1);
    size_t op = rest.find_first_not_of(" \t");
    if (op == std::string_view::npos) return std::nullopt;
    bool assigns = rest[op] == '=' && !(op + 1 < rest.size() && rest[op + 1] == '=');
    bool augmented = op + 1 < rest.size() && rest[op + 1] == '=' && std::string_view("+-*/|&%^").find(rest[op]) != std::string_view::npos;
    if (!assigns && !augmented) return std::nullopt;
    if (!from_change(rest.substr(op + (assigns ? 1 : 2)))) return std::nullopt;
    return fmt::format("line {} stores an item of {}", l, target);
  };
  for (uint32_t l = first; l <= last && l < lines.size(); ++l) {
    if (auto how = judge(lines[l], l)) return how;
    // `v = self[key] = compute(key)`, `self.n, self.v = 1, compute(3)`: each target on its own.
    for (const auto& single : single_targets(lines[l])) {
      if (auto how = judge(single, l)) return how;
    }
  }
  return std::nullopt;
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

// Whether decorator `decorator` (its text) is a function of this file whose code keeps nothing: no
// store into an item or an attribute, no `global`/`nonlocal`, `setattr`, `setdefault`, `update`, no
// cache-like name (pyflakes' `in_annotation` only enters a context around the call). A project's
// decorator is otherwise taken to cache (memoized.hpp).
bool only_wraps(const FactsView& view, const std::vector<std::string_view>& lines, std::string_view decorator) {
  std::string_view root = decorator.substr(0, decorator.find_first_of(".( "));
  auto def = std::find_if(view.symbols.begin(), view.symbols.end(), [&](const SymbolView& s) {
    return s.parent < 0 && s.kind != SymbolKind::class_ && s.qualname == root;
  });
  if (def == view.symbols.end() || !def->wraps_only) return false;
  for (uint32_t l = def->def_line; l <= def->last_line && l < lines.size(); ++l) {
    std::string_view line = lines[l];
    for (std::string_view sign : {"nonlocal ", "global ", "setattr(", ".setdefault(", ".update(", "__dict__", "cache", "Cache",
                                  "memo", "] =", "]=", "] +=", ".append(", ".add("}) {
      if (line.find(sign) != std::string_view::npos) return false;
    }
    if (attribute_assignment(line)) return false;
  }
  return true;
}

// Whether `method`'s instance may be one that several tests share: its class is made by module-level
// code of the file (`REG = Registry()`) or of another file that names it (`app = App()` in app.py for
// a class of framework.py), whose instance every importer gets, or is an enum.
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
  auto made = [&](const FactsView& v) {
    return std::any_of(v.begin(v.module_refs), v.end(v.module_refs), [&](std::string_view r) { return calls(r, name); });
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
  for (const auto& change : sem.symbols) {
    // Callers found so far, with the names they are called by; each round goes one call further up.
    std::set<std::string_view> seen{change.qualname};
    std::vector<std::string_view> frontier{change.qualname};
    // The names of the changed function and of the callers found so far: calls that lead to the change.
    std::set<std::string_view> leading{python::last_part(change.qualname)};
    std::vector<std::string_view> keepers; // the callers found to keep a result
    for (int depth = 0; depth < k_keeping_depth && !frontier.empty(); ++depth) {
      std::vector<std::string_view> next;
      for (const auto& caller : view.symbols) {
        if (caller.kind == SymbolKind::class_ || seen.contains(caller.qualname)) continue;
        bool reached = std::any_of(frontier.begin(), frontier.end(), [&](std::string_view callee) {
          auto names = call_names(view, callee, caller.qualname);
          if (names.empty()) return true; // a metaclass's __call__ runs the class's __init__
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
    for (uint32_t f : facts.files_mentioning(python::last_part(change.qualname))) {
      if (f != at && f < near.size() && near[f]) out.push_back(f);
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
