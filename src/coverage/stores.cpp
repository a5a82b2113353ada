// What a caller's lines may keep across calls: stores.hpp.
#include "coverage/stores.hpp"

#include "impact/python/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

namespace impact {

namespace {

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

// The statement after the colon of a one-line clause (`if k not in _C: _C[k] = compute(k)`), as a line
// indented one step more; "" for any other line. Only a colon outside brackets and strings counts (not
// a dict's, a slice's or a lambda's).
std::string inline_body(std::string_view line) {
  size_t code = line.find_first_not_of(" \t");
  if (code == std::string_view::npos) return {};
  std::string_view text = line.substr(code);
  size_t word = 0;
  while (word < text.size() && name_char(text[word])) ++word;
  std::string_view keyword = text.substr(0, word);
  bool clause = false;
  for (std::string_view k : {"if", "elif", "else", "for", "while", "with", "try", "except", "finally"}) clause = clause || keyword == k;
  if (!clause) return {};
  int depth = 0;
  char quote = 0;
  for (size_t i = word; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '#') return {};
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ':' && depth == 0 && !(i + 1 < text.size() && text[i + 1] == '=')) {
      if (keyword == "lambda") return {};
      std::string_view rest = text.substr(i + 1);
      rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t")));
      if (rest.empty() || rest.front() == '#') return {};
      return std::string(line.substr(0, code)) + "    " + std::string(rest);
    }
  }
  return {};
}

} // namespace

bool name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

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
  std::set<std::string, std::less<>> derived;
  auto from_change = [&](std::string_view text) {
    int depth = 0;
    for (char c : text) depth += (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
    if (depth > 0 || text.ends_with("\\")) return true;
    return std::any_of(leading.begin(), leading.end(), [&](std::string_view n) { return has_word(text, n, true); }) ||
           std::any_of(derived.begin(), derived.end(), [&](const std::string& n) { return has_word(text, n, false); });
  };
  // A leading function named as a value too (`defaultdict(compute)`, `partial(compute, 3)`).
  auto names_change = [&](std::string_view text) {
    return from_change(text) || std::any_of(leading.begin(), leading.end(), [&](std::string_view n) { return has_word(text, n, false); });
  };
  // The plain names bound from the change: by `=` (each target of a tuple or chain too), `:=`, and a
  // `for` or `with ... as` target over a value from the change.
  auto derive = [&](std::string_view line) {
    if (auto assigned = simple_assignment(line); assigned && from_change(assigned->second)) derived.emplace(assigned->first);
    for (const auto& single : single_targets(line)) {
      if (auto assigned = simple_assignment(single); assigned && from_change(assigned->second)) derived.emplace(assigned->first);
    }
    for (size_t at = line.find(":="); at != std::string_view::npos; at = line.find(":=", at + 2)) {
      size_t end = at;
      while (end > 0 && line[end - 1] == ' ') --end;
      size_t begin = end;
      while (begin > 0 && name_char(line[begin - 1])) --begin;
      if (begin < end && from_change(line.substr(at + 2))) derived.emplace(line.substr(begin, end - begin));
    }
    std::string_view code = line.substr(std::min(line.size(), line.find_first_not_of(" \t")));
    std::string_view targets, value;
    if (code.starts_with("for ") || code.starts_with("async for ")) {
      size_t in = code.find(" in ");
      if (in != std::string_view::npos) targets = code.substr(code.find("for ") + 4, in - code.find("for ") - 4), value = code.substr(in + 4);
    } else if ((code.starts_with("with ") || code.starts_with("async with ")) && code.find(" as ") != std::string_view::npos) {
      value = code.substr(0, code.rfind(" as "));
      targets = code.substr(code.rfind(" as ") + 4);
    }
    if (targets.empty() || !from_change(value)) return;
    for (size_t i = 0; i < targets.size();) {
      while (i < targets.size() && !name_char(targets[i])) ++i;
      size_t start = i;
      while (i < targets.size() && name_char(targets[i])) ++i;
      if (i > start) derived.emplace(targets.substr(start, i - start));
    }
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t l = first; l <= last && l < lines.size(); ++l) derive(lines[l]);
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
    // `if k not in _C: _C[k] = compute(k)`: the statement after a clause's colon is a line of its own.
    std::string body = inline_body(lines[l]);
    for (std::string_view line : {lines[l], std::string_view(body)}) {
      if (line.empty()) continue;
      if (auto how = judge(line, l)) return how;
      // `v = self[key] = compute(key)`, `self.n, self.v = 1, compute(3)`: each target on its own.
      for (const auto& single : single_targets(line)) {
        if (auto how = judge(single, l)) return how;
      }
    }
  }
  return std::nullopt;
}

bool only_wraps(const FactsView& view, const std::vector<std::string_view>& lines, std::string_view decorator) {
  std::string_view root = decorator.substr(0, decorator.find_first_of(".( "));
  auto def = std::find_if(view.symbols.begin(), view.symbols.end(), [&](const SymbolView& s) {
    return s.parent < 0 && s.kind != SymbolKind::class_ && s.qualname == root;
  });
  if (def == view.symbols.end() || !def->wraps_only) return false;
  for (uint32_t l = def->def_line; l <= def->last_line && l < lines.size(); ++l) {
    std::string_view line = lines[l];
    for (std::string_view sign : {"nonlocal ", "global ", "setattr(", ".setdefault(", ".update(", "__dict__", "cache", "Cache",
                                  "memo", "]=", ".append(", ".add(", ".extend(", ".insert(", ".appendleft(", ".put(",
                                  ".set(", "__setitem__", "|="}) {
      if (line.find(sign) != std::string_view::npos) return false;
    }
    // `seen[args]  = ...`, `seen[k] += ...`: an item stored, however spaced.
    for (size_t at = line.find(']'); at != std::string_view::npos; at = line.find(']', at + 1)) {
      size_t next = line.find_first_not_of(" \t", at + 1);
      if (next != std::string_view::npos && (line[next] == '=' || (next + 1 < line.size() && line[next + 1] == '=' &&
                                                                     std::string_view("+-*/|&%^@").find(line[next]) != std::string_view::npos)) &&
          !(next + 1 < line.size() && line[next] == '=' && line[next + 1] == '=')) {
        return false;
      }
    }
    if (attribute_assignment(line)) return false;
  }
  // And no function inside it stores what the wrapped function returns (the text rules of keeps_items).
  std::string_view wrapped = def->params.empty() ? std::string_view() : *view.begin(def->params);
  auto index = static_cast<int32_t>(def - view.symbols.begin());
  for (const auto& inner : view.symbols) {
    if (inner.parent != index || wrapped.empty()) continue;
    bool bypassed = false;
    if (keeps_items(lines, inner.def_line + 1, inner.last_line, {wrapped}, false, {}, false, false, bypassed)) return false;
  }
  return true;
}

} // namespace impact
