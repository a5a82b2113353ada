// collect_references(): one pass over the tokens, attributing each to the innermost symbol whose body
// holds it, building dotted-name chains and noting which names a function binds locally. The reading
// errs on the side of more names: a name it cannot prove local is kept, because a missed reference
// could hide a test, while an extra one only selects more.
#include "python/references.hpp"

#include "python/format_templates.hpp"
#include "python/match_patterns.hpp"
#include "python/named_calls.hpp"
#include "python/namespace_calls.hpp"
#include "python/reference_state.hpp"
#include "python/symbol_spans.hpp"

#include "python/lexer.hpp"
#include "python/literals.hpp"
#include "python/main_guard.hpp"
#include "python/module_lookup.hpp"
#include "impact/python/names.hpp"

#include <algorithm>
#include <array>

namespace impact::python {

namespace {

using namespace reference_pass;

// The owner a main guard's body goes by in ReferenceScratch's sets (-1 is the module, 0.. symbols).
constexpr int32_t k_program_owner = -2;

std::string_view root_of(std::string_view chain) { return chain.substr(0, chain.find('.')); }

class Collector {
public:
  Collector(std::string_view source, FileFacts& facts, ReferenceScratch& scratch,
            const StoredRanges& stored, const std::vector<AnnotationChain>& annotations,
            const std::vector<NameChoices>& choices, const Ranges& program)
      : m_src(source), m_facts(facts), m_owners(facts.symbols.size() + 1), m_spans(facts.symbols), m_scratch(scratch),
        m_stored(stored), m_annotations(annotations), m_named(source, facts, scratch, choices),
        m_program(program) {
    for (size_t i = 0; i < m_owners.size(); ++i) m_owners[i].id = static_cast<int32_t>(i) - 1;
  }

  void run(std::vector<Token>& tokens) {
    module_bindings(); // a builtin name the module rebinds is known before the first call reads it
    // Symbols are in pre-order, so their body ranges open in order and nest.
    lex(m_src, tokens);
    m_template_fields.start(tokens, m_src, [&](std::string_view attr) { read_field(state(-1), attr); });
    m_patterns.start(tokens, m_src);
    for (const Token& t : tokens) token(t);
    if (m_namespace.stage != 0) state(m_namespace.owner).dynamic = true;
    if (m_lookup.active()) {
      if (auto held = m_lookup.next(Tok::newline, {})) read(state(m_lookup.owner()), *held, false);
    }
    finish_chain();
    publish();
  }

private:
  Owner& state(int32_t owner) { return m_owners[static_cast<size_t>(owner + 1)]; }

  // Whether a plain name target of `o`'s statements only binds: module-level code and class bodies.
  bool binds_plainly(const Owner& o) const {
    return o.id == -1 || m_facts.symbols[static_cast<size_t>(o.id)].kind == SymbolKind::class_;
  }

  // Adds `chain` to what `o` reads, once. `stable` says that the view outlives the collector's
  // work (a slice of the source, a constant); anything else is copied into the arena first.
  void read(Owner& o, std::string_view chain, bool stable) {
    if (stable) {
      if (m_scratch.seen.insert(OwnedName{o.id, chain}).second) o.chains.push_back(chain);
      return;
    }
    if (m_scratch.seen.contains(OwnedName{o.id, chain})) return;
    chain = m_scratch.arena.emplace_back(chain);
    m_scratch.seen.insert(OwnedName{o.id, chain});
    o.chains.push_back(chain);
  }

  // The open chain: a slice of the source while its tokens abut (`a.b.c`), else a copy.
  std::string_view chain() const {
    return m_chain.copied ? std::string_view(m_chain.copy) : m_src.substr(m_chain.begin, m_chain.end - m_chain.begin);
  }
  bool chain_dotted() const { return chain().find('.') != std::string_view::npos; }
  void clear_chain() {
    m_chain.begin = m_chain.end = 0;
    m_chain.copied = false;
    m_chain.open = false;
  }
  void start_chain(uint32_t begin, uint32_t end) {
    m_chain.begin = begin;
    m_chain.end = end;
    m_chain.copied = false;
  }
  // Appends `.name` (the token `t`, after a dot).
  void extend_chain(const Token& t) {
    if (!m_chain.copied && m_chain.end + 1 == t.begin && m_src[m_chain.end] == '.') {
      m_chain.end = t.end;
      return;
    }
    if (!m_chain.copied) {
      m_chain.copy.assign(chain());
      m_chain.copied = true;
    }
    m_chain.copy.push_back('.');
    m_chain.copy.append(text(t));
  }

  void finish_chain() {
    std::string_view c = chain();
    auto at = std::make_pair(m_chain.begin, m_chain.end);
    if (!c.empty() && !m_chain.copied && !m_annotations.empty()) {
      auto it = std::lower_bound(m_annotations.begin(), m_annotations.end(), AnnotationChain{at.first, at.second, -1});
      if (it != m_annotations.end() && it->begin == at.first && it->end == at.second) {
        Owner& o = state(it->symbol); // the function's own read, kept whatever its parameters are named
        if (std::find(o.annotations.begin(), o.annotations.end(), c) == o.annotations.end()) o.annotations.emplace_back(c.data(), c.size());
        clear_chain();
        return;
      }
    }
    bool module = !c.empty() && m_chain.owner == -1 && !m_chain.copied;
    if (module && std::binary_search(m_stored.chains.begin(), m_stored.chains.end(), at)) {
      if (std::find(m_stored_chains.begin(), m_stored_chains.end(), c) == m_stored_chains.end()) {
        m_stored_chains.emplace_back(c.data(), c.size()); // (a copy of the view: GCC 12 -O3 warns on push_back(c))
      }
    } else if (!c.empty() && m_chain.owner == -1 && in_main_guard(m_program, m_chain.first)) {
      if (!m_scratch.seen.contains(OwnedName{k_program_owner, c})) {
        std::string_view kept = m_chain.copied ? std::string_view(m_scratch.arena.emplace_back(c)) : c; // the copy is reused
        m_scratch.seen.insert(OwnedName{k_program_owner, kept});
        m_program_chains.push_back(kept);
      }
    } else if (!c.empty() && (m_chain.copied || !std::binary_search(m_stored.bound.begin(), m_stored.bound.end(), at))) {
      // (a stored value's own name is bound, not read; a class body's alias of a method is Symbol::aliases)
      read(state(m_chain.owner), c, !m_chain.copied);
    }
    clear_chain();
  }

  std::string_view text(const Token& t) const { return m_src.substr(t.begin, t.end - t.begin); }

  void token(const Token& t) {
    template_token(t);
    // A base class in a class header (`class Sub(Base):`, `Generic[T]`) names the class, it calls
    // nothing: Symbol::bases has it. A call there (`class X(make_base()):`) and a keyword's value
    // (`metaclass=M`) run at import and stay reads.
    if (m_chain.is_base && t.kind != Tok::name && t.kind != Tok::dot) {
      if (t.kind == Tok::comma || t.kind == Tok::rparen || t.kind == Tok::lbracket) clear_chain();
      m_chain.is_base = false;
    }
    if (t.kind == Tok::lparen && m_headers.class_depth == 0 && m_spans.in_class_header(t.begin)) m_headers.class_depth = t.depth + 1;
    // globals() (locals() at module level) reads any name of the module, unless what follows only
    // stores into it: `globals().update(...)`, `globals()[key] = value`.
    if (m_namespace.stage != 0) namespace_call(t);
    if (m_pending_dynamic) {
      if (t.kind == Tok::lparen) {
        if (m_namespace.stage != 0) state(m_namespace.owner).dynamic = true; // one inside another's key
        m_namespace = NamespaceCall{1, m_owner, t.depth};
      }
      m_pending_dynamic = false;
    }
    if (m_eval_undo) {
      // `dict(eval=[...])`: a keyword argument's name, not the builtin, which called_as() took it for.
      if (t.kind == Tok::assign && t.depth > 0) state(m_eval_undo->first).dynamic = m_eval_undo->second;
      m_eval_undo.reset();
    }
    if (t.kind != Tok::lparen && m_pending_call != Call::none) {
      // getattr without a call is a value, handed to code that calls it with names it computes
      // (`functools.reduce(getattr, path.split("."), obj)`, `map(getattr, objs, names)`). Not a name
      // being bound or a keyword argument's (`getattr=...`), nor `vars`, which is as often a variable.
      if (t.kind != Tok::assign && m_pending_call != Call::vars) {
        NamedCalls::unread_call(m_pending_call, state(m_owner), [&](std::string_view c, bool stable) { read(state(m_owner), c, stable); });
      }
      m_pending_call = Call::none;
    }
    if (m_lookup.active()) {
      if (auto held = m_lookup.next(t.kind, text(t))) read(state(m_lookup.owner()), *held, false);
    }
    int32_t owner = m_spans.owner_of(t.begin);
    if (owner != m_owner) {
      finish_chain();
      m_owner = owner;
      m_prev = Tok::newline;
    }
    Owner& o = state(owner);
    m_patterns.at(t.begin, [&](std::string_view chain) { read(o, chain, false); });
    switch (t.kind) {
    case Tok::name: name(t, o); break;
    case Tok::dot:
      if (t.depth == 0 && !chain().empty() && !chain_dotted()) o.statement.candidate = {};
      break;
    case Tok::assign:
    case Tok::augassign:
      // `f(name=value)`: a keyword argument's name is no reference.
      if (t.kind == Tok::assign && t.depth > 0 && m_prev == Tok::name && m_chain.after_separator && !chain_dotted()) {
        clear_chain();
      }
      // `size = 4` in a class body or at module level binds the name and reads nothing (`size += 1`
      // reads it; `obj.size = 4` runs a property's setter: both stay reads). A function's targets
      // are its locals, dropped when published, or globals it declares, kept as they were.
      if (t.kind == Tok::assign && t.depth == 0 && m_prev == Tok::name && m_chain.open && !m_chain.copied &&
          !chain_dotted() && chain() == o.statement.candidate && binds_plainly(o)) {
        clear_chain();
      }
      finish_chain();
      if (t.depth == 0) {
        if (!o.statement.candidate.empty()) o.statement.targets.push_back(o.statement.candidate);
        for (auto target : o.statement.targets) m_scratch.locals.insert(OwnedName{o.id, target});
        o.statement.targets.clear();
        o.statement.candidate = {};
        o.statement.annotation = false;
      }
      break;
    case Tok::comma:
      unbound_by_del(o, t);
      finish_chain();
      if (t.depth == 0 && !o.statement.annotation) {
        if (!o.statement.candidate.empty()) o.statement.targets.push_back(o.statement.candidate);
        o.statement.candidate = {};
      }
      break;
    case Tok::colon:
      finish_chain();
      if (m_headers.lambda_params && t.depth == m_headers.lambda_depth) m_headers.lambda_params = false;
      if (t.depth == 0) {
        // `name: annotation = value` keeps `name`; any other colon ends a statement header.
        if (o.statement.start_colon_ok && !o.statement.candidate.empty() && o.statement.targets.empty()) {
          o.statement.annotation = true;
        } else {
          o.statement.targets.clear();
          o.statement.candidate = {};
          o.statement.start = true;
          o.statement.in_for = false;
        }
      }
      break;
    case Tok::newline:
      unbound_by_del(o, t);
      finish_chain();
      o.statement.in_import = false;
      o.statement.targets.clear();
      o.statement.candidate = {};
      o.statement.start = true;
      o.statement.annotation = false;
      o.statement.in_for = false;
      o.statement.in_global = false;
      o.statement.in_del = false;
      break;
    case Tok::lparen:
      if (m_headers.expect_params) {
        m_headers.param_depth = t.depth + 1;
        m_headers.expect_params = false;
      }
      if (m_call.depth == 0 && m_pending_call != Call::none) {
        m_call = CallState{m_pending_call, t.depth + 1, 0, 0, {}, m_owner, {}, {}, 0, 0, false, false};
      } else if (m_pending_call != Call::none) {
        // One inside another's arguments (`setattr(x, "f", getattr(mod, name))`): its own arguments
        // are not read, so it may look up any name.
        NamedCalls::unread_call(m_pending_call, o, [&](std::string_view c, bool stable) { read(o, c, stable); });
      }
      m_pending_call = Call::none;
      [[fallthrough]];
    case Tok::lbracket:
      if (t.depth == 0 && m_prev == Tok::name) o.statement.candidate = {};
      if (m_chain.open && m_lookup.opens(chain(), t.kind, m_chain.owner)) clear_chain(); // sys.modules[...]
      finish_chain();
      break;
    case Tok::rparen:
      if (m_call.depth != 0 && t.depth + 1 == m_call.depth) {
        end_argument(o);
        m_call.depth = 0;
      }
      if (m_headers.param_depth != 0 && t.depth + 1 == m_headers.param_depth) m_headers.param_depth = 0;
      finish_chain();
      break;
    default: finish_chain(); break;
    }
    if (m_call.depth != 0 && t.depth == m_call.depth && m_call.owner == m_owner) {
      if (t.kind == Tok::comma) {
        end_argument(o);
        if (m_call.argument == 0) m_call.first_literal = m_call.tokens == 1 && !m_call.literal.empty();
        ++m_call.argument;
        m_call.tokens = 0;
        m_call.literal = {};
      } else {
        ++m_call.tokens;
        if (m_call.tokens == 1 && t.kind == Tok::string) m_call.literal = text(t);
        // An f-string's replacement fields come before the string's own token: the argument begins
        // at the earliest token.
        if (m_call.tokens == 1 || t.begin < m_call.begin) m_call.begin = t.begin;
        m_call.dotted = (m_call.tokens == 1 || m_call.dotted) && (t.kind == Tok::name || t.kind == Tok::dot);
        m_call.end = t.end;
        if (m_call.argument == 0) {
          bool self = m_call.tokens == 1 && t.kind == Tok::name && (text(t) == "self" || text(t) == "cls");
          m_call.on_self = self ? text(t) : std::string_view();
          m_call.on_builtin_type = m_call.tokens == 1 && t.kind == Tok::name && is_builtin_type(text(t)) ? text(t) : std::string_view();
        }
      }
    }
    if (t.kind != Tok::newline && t.kind != Tok::colon) o.statement.start = false;
    o.statement.start_colon_ok = t.kind == Tok::name && o.statement.start_name && t.depth == 0;
    if (t.kind != Tok::name) o.statement.start_name = false;
    m_prev = t.kind;
    m_prev_text_star = t.kind == Tok::other && (text(t) == "*" || text(t) == "**");
    // `super().m`: the tokens `super`, `(`, `)`, `.` in a row (stage 4 before the member's name).
    bool next = (t.kind == Tok::lparen && m_super_stage == 1) || (t.kind == Tok::rparen && m_super_stage == 2) ||
                (t.kind == Tok::dot && m_super_stage == 3);
    m_super_stage = t.kind == Tok::name ? (text(t) == "super" && m_prev_before != Tok::dot ? 1 : 0) : next ? m_super_stage + 1 : 0;
    m_prev_before = t.kind;
  }

  // The end of one argument of a call that names attributes with strings (python/named_calls.hpp).
  void end_argument(Owner& o) {
    m_named.end_argument(m_call, o, [&](std::string_view chain, bool stable) { read(o, chain, stable); });
  }

  // `"{0.name}".format(user)` (or format_map) reads `user.name` (python/format_templates.hpp).
  void template_token(const Token& t) {
    auto in_function = [&] {
      int32_t owner = m_spans.owner_of(t.begin);
      return owner != -1 && m_facts.symbols[static_cast<size_t>(owner)].kind != SymbolKind::class_;
    };
    m_template_fields.token(t, in_function, [&](std::string_view attr) { read_field(state(m_spans.owner_of(t.begin)), attr); });
  }

  void read_field(Owner& o, std::string_view attr) { read(o, std::string(".").append(attr), false); }

  // The tokens after `globals(` (python/namespace_calls.hpp).
  void namespace_call(const Token& t) {
    int32_t owner = m_namespace.owner;
    NamespaceUse use = namespace_step(m_namespace, t, text(t));
    if (use == NamespaceUse::reads) state(owner).dynamic = true;
    if (use == NamespaceUse::stores) m_facts.stores_globals = true;
  }

  // `del name, other`: the statement unbinds plain names and reads none of them (`del obj.attr` and
  // `del table[key]` read `obj` and `table`, and stay reads).
  void unbound_by_del(const Owner& o, const Token& t) {
    if (o.statement.in_del && t.depth == 0 && m_chain.open && !m_chain.copied && !chain_dotted()) clear_chain();
  }

  void name(const Token& t, Owner& o) {
    std::string_view n = text(t);
    // An import statement binds names (the imports facts hold them); it reads nothing.
    if (o.statement.in_import) {
      finish_chain();
      return;
    }
    if ((n == "import" || n == "from") && o.statement.start && t.depth == 0) {
      finish_chain();
      o.statement.in_import = true;
      o.imports = true;
      o.statement.candidate = {};
      return;
    }
    bool first_of_statement = o.statement.start;
    o.statement.start_name = first_of_statement;
    // Parameter names in a def header or a lambda are bindings, not reads (their defaults and
    // annotations are reads).
    bool declares = m_prev == Tok::lparen || m_prev == Tok::comma || (m_prev == Tok::other && m_prev_text_star);
    if ((m_headers.param_depth != 0 && t.depth == m_headers.param_depth && declares) ||
        (m_headers.lambda_params && t.depth == m_headers.lambda_depth && (declares || m_prev == Tok::name))) {
      finish_chain();
      return;
    }
    if (m_prev == Tok::dot) {
      if (Call c = method_lookup(n, m_chain.open ? chain() : std::string_view()); c != Call::none) m_pending_call = c;
      // `object.__getattribute__(obj, name)` is getattr (`object.__setattr__(obj, name, v)` setattr);
      // `x.__getattribute__(name)` takes the name first.
      bool unbound = m_chain.open && (chain() == "object" || chain() == "type");
      bool stores = unbound && (n == "__setattr__" || n == "__delattr__");
      if (n == "__getattribute__" || n == "__getattr__" || stores) {
        m_pending_call = !unbound ? Call::bound_lookup : stores ? Call::setattr : Call::getattr;
        // The object looked into is held as a value, as getattr's first argument is (`mod.__getattribute__`).
        if (!unbound && m_chain.open) read(o, chain(), !m_chain.copied);
      }
      // builtins.eval(...) and its siblings are the builtins themselves.
      if (m_chain.open && m_lookup_aliases.is_builtins(chain())) {
        if (n == "eval" || n == "exec") o.dynamic = true;
        if (n == "getattr") m_pending_call = Call::getattr;
        if (n == "hasattr") m_pending_call = Call::hasattr;
        if (n == "setattr" || n == "delattr") m_pending_call = Call::setattr;
        if (n == "globals" || n == "vars" || n == "locals") m_pending_dynamic = true;
      }
      if (m_chain.open) {
        extend_chain(t);
      } else {
        finish_chain();
        if (m_super_stage == 4) { // `super().m`, a member of the class's MRO (selection.md `self-calls`)
          m_chain.copy.assign("super.").append(n);
          m_chain.copied = true;
        } else if (t.begin > 0 && m_src[t.begin - 1] == '.') {
          start_chain(t.begin - 1, t.end);
        } else {
          m_chain.copy.assign(1, '.');
          m_chain.copy.append(n);
          m_chain.copied = true;
        }
        m_chain.owner = m_owner;
        m_chain.first = t.begin;
        m_chain.open = true;
      }
      return;
    }
    finish_chain();
    if (is_keyword(n)) {
      if (n == "lambda") {
        m_headers.lambda_params = true;
        m_headers.lambda_depth = t.depth;
      }
      if (t.depth == 0) {
        if (n == "for") o.statement.in_for = true;
        else if (n == "in") o.statement.in_for = false;
        else if (n == "global" || n == "nonlocal") o.statement.in_global = true;
        else if (n == "del" && first_of_statement) o.statement.in_del = true;
        else if (n == "def" || n == "class") {
          o.statement.after_def = true;
          m_headers.def_is_function = n == "def";
        }
      }
      o.statement.candidate = {};
      return;
    }
    if (o.statement.after_def) {
      o.statement.after_def = false;
      m_scratch.locals.insert(OwnedName{o.id, n}); // a nested definition binds its name locally
      m_headers.expect_params = m_headers.def_is_function;
      return;
    }
    if (o.statement.in_global) {
      m_scratch.globals.insert(OwnedName{o.id, n});
      return;
    }
    if (t.depth == 0 && o.statement.in_for) m_scratch.locals.insert(OwnedName{o.id, n});
    called_as(n);
    start_chain(t.begin, t.end);
    m_chain.owner = m_owner;
    m_chain.first = t.begin;
    m_chain.open = true;
    m_chain.after_separator = m_prev == Tok::lparen || m_prev == Tok::comma;
    if (m_headers.class_depth != 0 && !m_spans.in_class_header(t.begin)) m_headers.class_depth = 0; // past the header
    m_chain.is_base = m_headers.class_depth != 0 && t.depth == m_headers.class_depth && m_chain.after_separator;
    if (t.depth == 0 && !o.statement.annotation) o.statement.candidate = n;
  }

  // What a plain name does when called: the builtins and library functions that look names up, by
  // their own names or by the names an import gave them (`from builtins import getattr as ga`).
  void called_as(std::string_view written) {
    Owner& o = state(m_owner);
    std::string_view n = m_lookup_aliases.canonical(written);
    if (n == "getattr") m_pending_call = Call::getattr;
    else if (n == "hasattr") m_pending_call = Call::hasattr;
    else if (n == "setattr" || n == "delattr") m_pending_call = Call::setattr;
    else if (n == "attrgetter") m_pending_call = Call::attrgetter;
    else if (n == "methodcaller") m_pending_call = Call::methodcaller;
    else if (n == "getmembers" || n == "testmod" || n == "DocTestSuite") m_pending_call = Call::members;
    else if (n == "vars") m_pending_call = Call::vars;
    else if (n == "getattr_static") m_pending_call = Call::getattr;
    // eval and exec may read any name, called or passed on (`map(eval, ...)`, `run = exec`). globals()
    // and locals() at module level (where it is globals()) too, when called: a parameter named
    // `globals` is a value. In a function, locals() holds its own locals, which its own imports bind.
    if (n == "eval" || n == "exec") {
      m_eval_undo.emplace(m_owner, o.dynamic);
      o.dynamic = true;
    }
    if (n == "globals" || (n == "locals" && m_owner == -1)) m_pending_dynamic = true;
    if (n == "locals" && m_owner != -1) o.reads_locals = true;
  }

  // Module-level bindings: a builtin name the module rebinds is not the builtin. Views into m_facts,
  // which publish() does not reshape.
  void module_bindings() {
    for (const auto& name : m_facts.module_names) m_scratch.bound.insert(name);
    for (const auto& s : m_facts.symbols) {
      if (s.parent == -1) m_scratch.bound.insert(s.name());
    }
    for (const auto& i : m_facts.imports) {
      for (const auto& a : i.aliases) m_scratch.bound.insert(a.empty() ? root_of(i.module) : std::string_view(a));
    }
    m_star_import = std::any_of(m_facts.imports.begin(), m_facts.imports.end(), [](const auto& i) { return i.kind == ImportKind::star; });
    m_lookup_aliases = LookupAliases::of(m_facts);
  }

  // Whether `name`, read in nested function `sym`, is a local or a parameter of a function around it
  // (a closure's free variable: `replace` in a decorator factory's wrapper is the factory's parameter,
  // not the module's `replace`). Class bodies in between are skipped, as Python's scoping does; a name
  // an enclosing function declares global is the module's.
  bool enclosing_local(const Symbol& sym, std::string_view name) const {
    for (int32_t p = sym.parent; p != -1; p = m_facts.symbols[static_cast<size_t>(p)].parent) {
      const Symbol& outer = m_facts.symbols[static_cast<size_t>(p)];
      if (outer.kind == SymbolKind::class_) continue;
      if (m_scratch.globals.contains(OwnedName{p, name})) return false;
      if (m_scratch.locals.contains(OwnedName{p, name}) || is_param(outer, name)) return true;
    }
    return false;
  }

  void publish() {
    for (size_t i = 0; i < m_facts.symbols.size(); ++i) {
      Symbol& sym = m_facts.symbols[i];
      Owner& o = m_owners[i + 1];
      bool function = sym.kind != SymbolKind::class_;
      m_scratch.kept.clear();
      for (std::string_view chain : o.chains) {
        std::string_view root = root_of(chain);
        if (!root.empty() && function) {
          bool local = !m_scratch.globals.contains(OwnedName{o.id, root}) &&
                       (m_scratch.locals.contains(OwnedName{o.id, root}) || is_param(sym, root) ||
                        enclosing_local(sym, root));
          bool super_member = root == "super" && root.size() < chain.size(); // `super().m`, kept whole
          if (local || (is_builtin(root) && !m_scratch.bound.contains(root) && !m_star_import && !super_member)) {
            // The root is a local value (or a builtin, unless a star import may bind its name), but its
            // attributes are still read: keep them as attributes of an unknown value (`cart.total()`).
            if (root.size() == chain.size()) continue;
            chain.remove_prefix(root.size());
          }
        }
        if (m_scratch.kept.insert(chain).second) sym.refs.emplace_back(chain);
      }
      for (std::string_view chain : o.annotations) {
        if (m_scratch.kept.insert(chain).second) sym.refs.emplace_back(chain);
      }
      sym.dynamic_access = o.dynamic || (o.reads_locals && o.imports); // locals() holding what it imported
      for (auto& f : o.fixture_requests) sym.usefixtures.push_back(std::move(f));
      sym.usefixtures_dynamic |= o.dynamic_fixtures;
    }
    Owner& module = m_owners[0];
    m_facts.module_refs.assign(module.chains.begin(), module.chains.end());
    // Chains read only in a main guard's body next (`main-guard`): run as a program, not on import.
    m_facts.module_program = 0;
    for (std::string_view chain : m_program_chains) {
      if (m_scratch.seen.contains(OwnedName{-1, chain})) continue;
      m_facts.module_refs.emplace_back(chain);
      ++m_facts.module_program;
    }
    // Chains read only to be stored go last: a chain also read otherwise is module-level code's.
    m_facts.module_stored = 0;
    for (std::string_view chain : m_stored_chains) {
      if (m_scratch.seen.contains(OwnedName{-1, chain})) continue;
      m_facts.module_refs.emplace_back(chain);
      ++m_facts.module_stored;
    }
    m_facts.module_dynamic_access = module.dynamic;
  }

  std::string_view m_src;
  FileFacts& m_facts;
  std::vector<Owner> m_owners; // [0] is the module, [i + 1] symbol i
  SymbolSpans m_spans;
  int32_t m_owner = -1;
  Tok m_prev = Tok::newline;
  ReferenceScratch& m_scratch; // the file-wide sets and the arena
  Call m_pending_call = Call::none;
  CallState m_call;
  OpenChain m_chain;
  Headers m_headers;
  bool m_prev_text_star = false;
  int m_super_stage = 0;           // how much of `super().` was just read (see token())
  Tok m_prev_before = Tok::newline; // the previous token's kind, for token()'s own use
  bool m_pending_dynamic = false; // the last name reads anything if it is called
  // The owner that called_as() made dynamic for naming eval or exec, and its flag before: undone
  // when the next token shows the name was a keyword argument's.
  std::optional<std::pair<int32_t, bool>> m_eval_undo;
  NamespaceCall m_namespace;
  ModuleLookup m_lookup;          // sys.modules["name"]: held until its key is read
  const StoredRanges& m_stored;                  // values that only store (collect_references)
  const std::vector<AnnotationChain>& m_annotations; // functions' annotation chains (collect_references)
  NamedCalls m_named;                                // what the arguments of getattr(...) and its siblings read
  TemplateFields m_template_fields;
  PatternReads m_patterns; // what `case` patterns read (python/match_patterns.hpp)
  LookupAliases m_lookup_aliases;                    // `from builtins import getattr as ga`
  bool m_star_import = false;                        // the module has a `from x import *`
  std::vector<std::string_view> m_stored_chains;              // ... as read there, once each
  const Ranges& m_program;                                    // main guards' bodies (collect_references)
  std::vector<std::string_view> m_program_chains;             // module-level chains read there, once each
};

} // namespace

void collect_references(std::string_view source, FileFacts& facts, ReferenceScratch& scratch,
                        const StoredRanges& stored, const std::vector<AnnotationChain>& annotations,
                        const std::vector<NameChoices>& choices, const Ranges& program) {
  scratch.reset();
  Collector(source, facts, scratch, stored, annotations, choices, program).run(scratch.tokens);
}

} // namespace impact::python
