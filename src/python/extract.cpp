// FactsExtractor: one walk over a module's statements (never into expressions) collects imports,
// symbols and the module-level assignments pytest reads; cheap byte scans find the rarer things
// (dynamic imports, dotted string references, doctests) before any deeper walk is paid for.
#include "impact/python/compile_check.hpp"
#include "impact/python/facts.hpp"
#include "python/class_annotations.hpp"
#include "python/constant_names.hpp"
#include "python/handed_values.hpp"
#include "python/compile_check.hpp"
#include "python/decorator_shape.hpp"
#include "python/property_accessors.hpp"
#include "python/fixture_marks.hpp"
#include "python/grammar.hpp"
#include "python/lazy_modules.hpp"
#include "python/literals.hpp"
#include "python/namespace_stores.hpp"
#include "python/code_strings.hpp"
#include "python/path_literals.hpp"
#include "python/main_guard.hpp"
#include "python/references.hpp"
#include "python/scan.hpp"
#include "python/stored_values.hpp"
#include "impact/python/source_view.hpp"
#include "impact/python/text_reads.hpp"

#include <algorithm>
#include <memory>

namespace impact {

struct FactsExtractor::Impl {
  python::Parser parser;
  python::ReferenceScratch references; // the reference pass's scratch, reused from file to file
  std::string source;                  // the file as CPython reads it, when that differs from its bytes
};

FactsExtractor::FactsExtractor() : m_impl(std::make_unique<Impl>()) {}
FactsExtractor::~FactsExtractor() = default; // Impl is complete here

namespace {

using python::Grammar;
using python::node_text;

// Where the walk is: the enclosing symbol and the import flags in force.
struct Scope {
  int32_t symbol = -1;
  uint8_t flags = 0;
  bool module_level = true;
  bool class_body = false;
};

class StatementWalker {
public:
  StatementWalker(std::string_view source, FileFacts& facts) : m_g(Grammar::get()), m_src(source), m_facts(facts) {}

  void block(TSNode node, Scope scope) {
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (ts_node_is_named(child)) statement(child, scope);
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
  }

private:
  void statement(TSNode n, Scope scope) {
    TSSymbol s = ts_node_symbol(n);
    if (s == m_g.import_statement) return import_statement(n, scope);
    if (s == m_g.import_from_statement) return import_from(n, scope);
    if (s == m_g.function_definition || s == m_g.class_definition) return define(n, scope, n);
    if (s == m_g.decorated_definition) {
      TSNode def = ts_node_child_by_field_id(n, m_g.f_definition);
      if (!ts_node_is_null(def)) define(def, scope, n);
      return;
    }
    if (s == m_g.expression_statement) return expression_statement(n, scope);
    if (s == m_g.if_statement) return if_statement(n, scope);
    if (s == m_g.try_statement || s == m_g.with_statement || s == m_g.for_statement || s == m_g.while_statement ||
        s == m_g.match_statement) {
      Scope inner = scope;
      inner.flags |= s == m_g.try_statement ? k_import_guarded : k_import_conditional;
      return compound(n, inner);
    }
    if (s == m_g.case_clause) {
      Scope inner = scope;
      inner.flags |= k_import_conditional;
      return compound(n, inner);
    }
    if (python::is_error(n) || s == m_g.block) {
      if (python::is_error(n)) m_facts.parse_error = true;
      block(n, scope);
    }
  }

  // Descends into every block of a compound statement and its clauses.
  void compound(TSNode n, Scope scope) {
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        TSSymbol s = ts_node_symbol(child);
        if (s == m_g.block) {
          block(child, scope);
        } else if (s == m_g.except_clause || s == m_g.except_group_clause || s == m_g.finally_clause ||
                   s == m_g.else_clause || s == m_g.elif_clause || s == m_g.case_clause) {
          compound(child, scope);
        } else if (python::is_error(child)) {
          m_facts.parse_error = true;
          block(child, scope);
        }
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
  }

  void if_statement(TSNode n, Scope scope) {
    Scope inner = scope;
    inner.flags |= k_import_conditional;
    TSNode condition = ts_node_child_by_field_id(n, m_g.f_condition);
    std::string_view cond = ts_node_is_null(condition) ? std::string_view() : node_text(condition, m_src);
    bool type_checking = cond == "TYPE_CHECKING" || cond.ends_with(".TYPE_CHECKING");
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        TSSymbol s = ts_node_symbol(child);
        if (s == m_g.block) {
          Scope body = inner;
          if (type_checking) body.flags |= k_import_type_checking;
          block(child, body);
        } else if (s == m_g.elif_clause || s == m_g.else_clause) {
          compound(child, inner);
        }
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
  }

  void import_statement(TSNode n, Scope scope) {
    uint32_t line = python::line_of(ts_node_start_point(n));
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode child = ts_node_named_child(n, i);
      TSSymbol s = ts_node_symbol(child);
      ImportFact fact;
      fact.kind = ImportKind::plain;
      fact.line = line;
      fact.flags = scope.flags;
      if (s == m_g.dotted_name) {
        fact.module = python::dotted_text(child, m_src);
        fact.aliases.emplace_back();
      } else if (s == m_g.aliased_import) {
        TSNode name = ts_node_child_by_field_id(child, m_g.f_name);
        TSNode alias = ts_node_child_by_field_id(child, m_g.f_alias);
        if (ts_node_is_null(name)) continue;
        fact.module = python::dotted_text(name, m_src);
        fact.aliases.emplace_back(ts_node_is_null(alias) ? std::string() : std::string(node_text(alias, m_src)));
      } else {
        continue;
      }
      m_facts.imports.push_back(std::move(fact));
    }
  }

  void import_from(TSNode n, Scope scope) {
    ImportFact fact;
    fact.kind = ImportKind::from;
    fact.line = python::line_of(ts_node_start_point(n));
    fact.flags = scope.flags;
    TSNode module = ts_node_child_by_field_id(n, m_g.f_module_name);
    if (ts_node_is_null(module)) return;
    if (ts_node_symbol(module) == m_g.relative_import) {
      uint32_t count = ts_node_named_child_count(module);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode part = ts_node_named_child(module, i);
        if (ts_node_symbol(part) == m_g.import_prefix) {
          fact.level = static_cast<uint8_t>(node_text(part, m_src).size());
        } else if (ts_node_symbol(part) == m_g.dotted_name) {
          fact.module = python::dotted_text(part, m_src);
        }
      }
    } else {
      fact.module = python::dotted_text(module, m_src);
    }
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        TSSymbol s = ts_node_symbol(child);
        if (s == m_g.wildcard_import) {
          fact.kind = ImportKind::star;
        } else if (ts_tree_cursor_current_field_id(&cursor) == m_g.f_name) {
          if (s == m_g.dotted_name) {
            std::string name = python::dotted_text(child, m_src);
            fact.aliases.push_back(name);
            fact.names.push_back(std::move(name));
          } else if (s == m_g.aliased_import) {
            TSNode name = ts_node_child_by_field_id(child, m_g.f_name);
            TSNode alias = ts_node_child_by_field_id(child, m_g.f_alias);
            if (ts_node_is_null(name)) continue;
            fact.names.push_back(python::dotted_text(name, m_src));
            fact.aliases.push_back(ts_node_is_null(alias) ? fact.names.back() : std::string(node_text(alias, m_src)));
          }
        }
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    m_facts.imports.push_back(std::move(fact));
  }

  void define(TSNode def, Scope scope, TSNode outer) {
    bool is_class = ts_node_symbol(def) == m_g.class_definition;
    TSNode name_node = ts_node_child_by_field_id(def, m_g.f_name);
    if (ts_node_is_null(name_node)) return;
    Symbol sym;
    std::string_view name = node_text(name_node, m_src);
    sym.qualname = scope.symbol >= 0 ? m_facts.symbols[static_cast<size_t>(scope.symbol)].qualname + "." + std::string(name)
                                     : std::string(name);
    sym.kind = is_class ? SymbolKind::class_ : (scope.class_body ? SymbolKind::method : SymbolKind::function);
    sym.first_line = python::line_of(ts_node_start_point(outer));
    sym.def_line = python::line_of(ts_node_start_point(def));
    sym.last_line = python::line_of(ts_node_end_point(def));
    sym.parent = scope.symbol;
    TSNode body = ts_node_child_by_field_id(def, m_g.f_body);
    sym.body_line = ts_node_is_null(body) ? sym.def_line : python::line_of(ts_node_start_point(body));
    sym.body_begin = ts_node_is_null(body) ? ts_node_end_byte(def) : ts_node_start_byte(body);
    sym.header_begin = ts_node_start_byte(def);
    sym.body_end = ts_node_end_byte(def);
    if (!ts_node_eq(def, outer)) decorators(outer, sym);
    if (is_class) {
      bases(def, sym);
    } else {
      params(def, sym);
      sym.is_async = ts_node_child_count(def) > 0 && node_text(ts_node_child(def, 0), m_src) == "async";
      if (scope.class_body && name == "__init__") m_facts.symbols[static_cast<size_t>(scope.symbol)].has_init = true;
      if (scope.module_level && name == "__getattr__") m_facts.defines_module_getattr = true;
    }
    auto index = static_cast<int32_t>(m_facts.symbols.size());
    std::string_view body_text = m_src.substr(sym.body_begin, sym.body_end - sym.body_begin);
    m_facts.symbols.push_back(std::move(sym));
    if (ts_node_is_null(body)) return;
    if (!is_class && !may_define_or_import(body_text)) return;
    Scope inner;
    inner.symbol = index;
    inner.flags = scope.flags | (is_class ? 0 : k_import_in_function);
    inner.module_level = false;
    inner.class_body = is_class;
    block(body, inner);
  }

  // Inside a function body this walk records only imports and nested definitions. Most bodies hold
  // neither, and three byte searches cost far less than visiting every statement of the body.
  static bool may_define_or_import(std::string_view body) {
    return body.find("import") != std::string_view::npos || body.find("def") != std::string_view::npos ||
           body.find("class") != std::string_view::npos;
  }

  void decorators(TSNode outer, Symbol& sym) {
    uint32_t count = ts_node_named_child_count(outer);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode d = ts_node_named_child(outer, i);
      if (ts_node_symbol(d) != m_g.decorator || ts_node_named_child_count(d) == 0) continue;
      TSNode expr = ts_node_named_child(d, 0);
      TSNode call{};
      if (ts_node_symbol(expr) == m_g.call) {
        call = expr;
        TSNode fn = ts_node_child_by_field_id(expr, m_g.f_function);
        if (!ts_node_is_null(fn)) expr = fn;
      }
      std::string callee = python::dotted_text(expr, m_src);
      if (python::is_fixture_decorator(callee)) python::read_fixture(sym, call, m_src, m_g);
      if (callee.ends_with("usefixtures")) {
        if (ts_node_is_null(call)) sym.usefixtures_dynamic = true;
        else python::read_usefixtures(call, m_src, m_g, sym.usefixtures, sym.usefixtures_dynamic);
      }
      sym.decorators.push_back(std::move(callee));
    }
  }

  void bases(TSNode def, Symbol& sym) {
    TSNode supers = ts_node_child_by_field_id(def, m_g.f_superclasses);
    if (ts_node_is_null(supers)) return;
    uint32_t count = ts_node_named_child_count(supers);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode base = ts_node_named_child(supers, i);
      TSSymbol s = ts_node_symbol(base);
      if (s == m_g.keyword_argument) {
        // metaclass=Registry: a metaclass may record every class made with it (ABCMeta only checks).
        TSNode key = ts_node_child_by_field_id(base, m_g.f_name);
        TSNode value = ts_node_child_by_field_id(base, m_g.f_value);
        if (!ts_node_is_null(key) && node_text(key, m_src) == "metaclass" && !ts_node_is_null(value)) {
          std::string meta = python::dotted_text(value, m_src);
          sym.has_metaclass = meta != "ABCMeta" && meta != "abc.ABCMeta";
        }
        continue;
      }
      if (s == m_g.comment) continue;
      sym.bases.push_back(python::dotted_text(base, m_src));
    }
  }

  void params(TSNode def, Symbol& sym) {
    TSNode list = ts_node_child_by_field_id(def, m_g.f_parameters);
    if (ts_node_is_null(list)) return;
    uint32_t count = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode p = ts_node_named_child(list, i);
      TSSymbol s = ts_node_symbol(p);
      TSNode name = p;
      if (s == m_g.default_parameter || s == m_g.typed_default_parameter) {
        name = ts_node_child_by_field_id(p, m_g.f_name);
      } else if (s == m_g.typed_parameter) {
        name = ts_node_named_child_count(p) > 0 ? ts_node_named_child(p, 0) : TSNode{};
      }
      if (!ts_node_is_null(name) && (ts_node_symbol(name) == m_g.list_splat_pattern ||
                                     ts_node_symbol(name) == m_g.dictionary_splat_pattern)) {
        name = ts_node_named_child_count(name) > 0 ? ts_node_named_child(name, 0) : TSNode{};
      }
      if (ts_node_is_null(name) || ts_node_symbol(name) != m_g.identifier) continue;
      sym.params.emplace_back(node_text(name, m_src));
    }
  }

  void expression_statement(TSNode n, Scope scope) {
    if (ts_node_named_child_count(n) == 0) return;
    if (scope.class_body && scope.symbol >= 0) return class_statement(ts_node_named_child(n, 0), scope);
    if (!scope.module_level) return;
    TSNode expr = ts_node_named_child(n, 0);
    TSSymbol s = ts_node_symbol(expr);
    if (s == m_g.assignment) return assignment(expr, scope, false);
    if (s == m_g.augmented_assignment) return assignment(expr, scope, true);
    if (s == m_g.call) return module_call(expr);
  }

  void assignment(TSNode n, Scope scope, bool augmented) {
    TSNode left = ts_node_child_by_field_id(n, m_g.f_left);
    TSNode right = ts_node_child_by_field_id(n, m_g.f_right);
    if (ts_node_is_null(left)) return;
    TSSymbol ls = ts_node_symbol(left);
    if (ls == m_g.pattern_list || ls == m_g.tuple) {
      uint32_t count = ts_node_named_child_count(left);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode target = ts_node_named_child(left, i);
        if (ts_node_symbol(target) == m_g.identifier) m_facts.module_names.emplace_back(node_text(target, m_src));
      }
      return;
    }
    if (ls != m_g.identifier) return;
    std::string_view name = node_text(left, m_src);
    if (!augmented) m_facts.module_names.emplace_back(name);
    if (ts_node_is_null(right)) return;
    if (name == "pytestmark" && !augmented) {
      python::read_pytestmark(right, m_src, m_g, m_facts.module_usefixtures, m_facts.module_usefixtures_dynamic);
      return;
    }
    if (name == "__all__") {
      auto values = string_list_of(right);
      if (!values) {
        m_facts.all_dynamic = true;
      } else {
        if (!m_facts.all_names || !augmented) m_facts.all_names.emplace();
        m_facts.all_names->insert(m_facts.all_names->end(), values->begin(), values->end());
      }
    } else if (name == "pytest_plugins") {
      auto values = string_list_of(right);
      if (!values) computed_plugins(right, python::line_of(ts_node_start_point(n)));
      else add_plugins(*values, python::line_of(ts_node_start_point(n)));
    } else if ((name == "collect_ignore" || name == "collect_ignore_glob") && !augmented && scope.flags == 0) {
      if (auto values = string_list_of(right)) {
        auto& target = name == "collect_ignore" ? m_facts.collect_ignore : m_facts.collect_ignore_glob;
        target = std::move(*values);
      }
    }
  }

  // A class body's `pytestmark = ...` applies to every test method of the class.
  void class_statement(TSNode expr, Scope scope) {
    if (ts_node_symbol(expr) != m_g.assignment) return;
    TSNode left = ts_node_child_by_field_id(expr, m_g.f_left);
    TSNode right = ts_node_child_by_field_id(expr, m_g.f_right);
    if (ts_node_is_null(left) || ts_node_is_null(right) || node_text(left, m_src) != "pytestmark") return;
    Symbol& cls = m_facts.symbols[static_cast<size_t>(scope.symbol)];
    python::read_pytestmark(right, m_src, m_g, cls.usefixtures, cls.usefixtures_dynamic);
  }

  // __all__.extend([...]) / __all__.append("x") / pytest_plugins.append(...)
  void module_call(TSNode call) {
    TSNode fn = ts_node_child_by_field_id(call, m_g.f_function);
    if (ts_node_is_null(fn) || ts_node_symbol(fn) != m_g.attribute) return;
    TSNode object = ts_node_child_by_field_id(fn, m_g.f_object);
    TSNode attr = ts_node_child_by_field_id(fn, m_g.f_attribute);
    if (ts_node_is_null(object) || ts_node_is_null(attr)) return;
    std::string_view target = node_text(object, m_src);
    if (target != "__all__" && target != "pytest_plugins") return;
    std::string_view method = node_text(attr, m_src);
    TSNode args = ts_node_child_by_field_id(call, m_g.f_arguments);
    std::optional<std::vector<std::string>> values;
    if (!ts_node_is_null(args) && ts_node_named_child_count(args) == 1 && (method == "extend" || method == "append")) {
      values = string_list_of(ts_node_named_child(args, 0));
    }
    if (target == "__all__") {
      if (!values) {
        m_facts.all_dynamic = true;
        return;
      }
      if (!m_facts.all_names) m_facts.all_names.emplace();
      m_facts.all_names->insert(m_facts.all_names->end(), values->begin(), values->end());
    } else if (!values) {
      if (!ts_node_is_null(args) && ts_node_named_child_count(args) == 1) {
        computed_plugins(ts_node_named_child(args, 0), python::line_of(ts_node_start_point(call)));
      } else {
        computed_plugins(call, python::line_of(ts_node_start_point(call)));
      }
    } else {
      add_plugins(*values, python::line_of(ts_node_start_point(call)));
    }
  }

  std::optional<std::vector<std::string>> string_list_of(TSNode node) {
    return python::string_list(node, m_src, m_g);
  }

  // pytest_plugins built at run time (["app.fixtures." + n for n in NAMES], a glob over files): its
  // literal elements are plugins; each computed one may load any module under its literal start, or
  // any module at all, which is an uncertainty like a computed import.
  void computed_plugins(TSNode value, uint32_t line) {
    m_facts.pytest_plugins_dynamic = true;
    auto uncertain = [&](TSNode element) {
      TSSymbol s = ts_node_symbol(element);
      if (s == m_g.list_comprehension || s == m_g.generator_expression || s == m_g.set_comprehension) {
        TSNode body = ts_node_child_by_field_id(element, m_g.f_body);
        element = ts_node_is_null(body) ? TSNode{} : body;
      }
      UncertainImport u;
      u.line = line;
      u.call = "pytest_plugins";
      if (!ts_node_is_null(element)) u.prefix = python::string_prefix(element, m_src, m_g);
      m_facts.uncertain_imports.push_back(std::move(u));
    };
    TSSymbol s = ts_node_symbol(value);
    if (s != m_g.list && s != m_g.tuple) return uncertain(value);
    uint32_t count = ts_node_named_child_count(value);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode element = ts_node_named_child(value, i);
      if (ts_node_symbol(element) == m_g.comment) continue;
      if (auto literal = python::string_value(element, m_src, m_g)) add_plugins({*literal}, line);
      else uncertain(element);
    }
  }

  // pytest splits a plugin string at commas: pytest_plugins = "a.b, c".
  void add_plugins(const std::vector<std::string>& values, uint32_t line) {
    for (const auto& value : values) {
      std::string_view rest = value;
      while (!rest.empty()) {
        auto comma = rest.find(',');
        std::string_view part = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        if (part.empty()) continue;
        ImportFact fact;
        fact.kind = ImportKind::plugin;
        fact.line = line;
        fact.module = std::string(part);
        m_facts.imports.push_back(std::move(fact));
      }
    }
  }

  const Grammar& m_g;
  std::string_view m_src;
  FileFacts& m_facts;
};

// A file too large to parse is not walked for dynamic imports: any call that may import by name is
// taken as one that could load any module.
void unbounded_dynamic_imports(std::string_view source, FileFacts& facts) {
  for (std::string_view call : {"import_module", "__import__", "run_module", "run_path", "resolve_name",
                                "spec_from_file_location"}) {
    size_t at = source.find(call);
    if (at == std::string_view::npos) continue;
    auto line = static_cast<uint32_t>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1);
    facts.uncertain_imports.push_back(UncertainImport{line, std::string(call), {}, 0});
  }
}

} // namespace

FileFacts FactsExtractor::extract(std::string_view raw) {
  FileFacts facts;
  if (raw.size() > k_max_parsed_bytes) {
    facts.oversized = true;
    facts.parse_error = true;
    // Not parsed, so not checked: it may not compile (docs/selection.md, syntax-error).
    facts.compile.issue = SyntaxIssue::unsure_construct;
    facts.compile.line = 1;
    python::scan_import_lines(raw, facts);
    python::scan_string_references(raw, facts);
    unbounded_dynamic_imports(raw, facts);
    facts.paths.reads_anything = true; // its strings were not read
    return facts;
  }
  // Every reader below sees CPython's tokens: its line ends and its normalised identifiers.
  std::string_view source = python::cpython_source(raw, m_impl->source);
  std::unique_ptr<TSTree, python::TreeDeleter> tree(m_impl->parser.parse(source));
  if (!tree) {
    facts.parse_error = true;
    facts.compile = python::check_compiles(source, TSNode{});
    python::scan_import_lines(source, facts);
    facts.paths.reads_anything = true; // its strings were not read
    return facts;
  }
  TSNode root = ts_tree_root_node(tree.get());
  facts.compile = python::check_compiles(source, root);
  StatementWalker walker(source, facts);
  walker.block(root, Scope{});
  if (ts_node_has_error(root)) {
    facts.parse_error = true;
    python::scan_import_lines(source, facts);
  }
  // The reference pass reads the imports' bindings, which the scans below never add to; its tokens
  // tell whether the dynamic-import walk can find anything.
  python::StoredRanges stored = python::find_stored_values(root, source, facts);
  std::vector<python::QuotedName> quoted;
  python::collect_references(source, facts, m_impl->references, stored,
                             python::find_annotation_chains(root, source, facts, quoted),
                             python::find_name_choices(root, source), python::main_guard_bodies(root, source));
  python::mark_namespace_values(root, source, facts);
  python::add_quoted_annotations(quoted, facts);
  python::mark_class_annotations(root, source, facts);
  python::drop_property_accessor_reads(facts);
  if (python::names_dynamic_import(source, m_impl->references.tokens)) python::scan_dynamic_imports(root, source, facts);
  python::scan_string_references(source, facts);
  python::mark_held_strings(stored.string_lines, facts);
  python::drop_lazy_module_names(root, source, facts);
  python::find_constant_names(root, source, m_impl->references.tokens, facts);
  python::mark_wrapping_decorators(root, source, facts);
  python::read_paths(source, m_impl->references.tokens, facts.paths);
  python::scan_code_strings(source, m_impl->references.tokens, facts);
  facts.has_doctest = source.find(">>> ") != std::string_view::npos;
  if (facts.has_doctest) facts.doctest_modules = python::example_imports(source);
  facts.handed = python::handed_names(source, m_impl->references.tokens, facts);
  return facts;
}

} // namespace impact
