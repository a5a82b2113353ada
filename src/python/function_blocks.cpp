// function_blocks(): where each function body lies, for the coverage index's block rule.
#include "impact/python/function_blocks.hpp"

#include "python/grammar.hpp"

#include <algorithm>
#include <memory>
#include <string>

namespace impact {

namespace {

bool has_token(TSNode node, std::string_view token) {
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode c = ts_node_child(node, i);
    if (!ts_node_is_named(c) && std::string_view(ts_node_type(c)) == token) return true;
  }
  return false;
}

// Builtins that exhaust an iterable argument before they return: a generator expression passed to
// one runs within the call that created it.
bool consumes_at_once(std::string_view callee) {
  for (std::string_view name : {"any", "all", "sum", "min", "max", "sorted", "list", "tuple", "set", "frozenset",
                                "dict", "len"}) {
    if (callee == name) return true;
  }
  return callee.ends_with(".join");
}

// A generator expression whose frame another test may resume: anything but the argument of a call
// that consumes it at once.
bool lazy_generator(TSNode genexp, std::string_view source) {
  TSNode parent = ts_node_parent(genexp);
  if (ts_node_is_null(parent) || std::string_view(ts_node_type(parent)) != "call") return true;
  TSNode callee = ts_node_child_by_field_name(parent, "function", 8);
  return ts_node_is_null(callee) || !consumes_at_once(python::node_text(callee, source));
}

class Collector {
public:
  explicit Collector(std::string_view source) : m_source(source) {}

  std::vector<FunctionBlock> run(TSNode root) {
    visit(root, -1, -1, "");
    return std::move(m_blocks);
  }

  // The name of each block (its enclosing defs' and classes' names, dotted), after run().
  const std::vector<std::string>& names() const { return m_names; }

private:
  // `own`: the block whose own scope holds the node (-1 inside a lambda or a class body); `scope`: the
  // dotted names of the defs and classes around it.
  void visit(TSNode node, int32_t enclosing, int32_t own, const std::string& scope) {
    std::string_view type = ts_node_type(node);
    if (enclosing >= 0 && (type == "function_definition" || type == "lambda" || type == "class_definition")) {
      for (int32_t b = enclosing; b >= 0; b = m_blocks[static_cast<size_t>(b)].parent) {
        m_blocks[static_cast<size_t>(b)].has_nested = true;
      }
    }
    std::string inner_scope;
    const std::string* inner = &scope;
    if (type == "function_definition" || type == "class_definition") {
      TSNode name = ts_node_child_by_field_name(node, "name", 4);
      inner_scope = scope.empty() ? std::string() : scope + ".";
      if (!ts_node_is_null(name)) inner_scope += node_text(name);
      inner = &inner_scope;
    }
    if (type == "lambda" || type == "class_definition") own = -1;
    if (own >= 0 && type == "yield") m_blocks[static_cast<size_t>(own)].generator = true;
    if (type == "function_definition") {
      enclosing = open(node, enclosing);
      own = enclosing;
      m_names.push_back(*inner);
    } else if (enclosing >= 0 && (type == "yield" || type == "await" ||
                                  (type == "generator_expression" && lazy_generator(node, m_source)))) {
      // Everything around it runs later too: the enclosing functions' bodies hold these lines.
      bool silent = type == "await" || (type == "yield" && (has_token(node, "from") || second_yield(node, enclosing)));
      mark(enclosing, silent);
    } else if (enclosing >= 0 && (type == "for_statement" || type == "with_statement") && has_token(node, "async")) {
      m_blocks[static_cast<size_t>(enclosing)].runs_later = true;
      m_blocks[static_cast<size_t>(enclosing)].resumes_silently = true;
    }
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) visit(ts_node_named_child(node, i), enclosing, own, *inner);
  }

  std::string_view node_text(TSNode node) const {
    uint32_t begin = ts_node_start_byte(node), end = ts_node_end_byte(node);
    return end <= m_source.size() && begin <= end ? m_source.substr(begin, end - begin) : std::string_view();
  }

  int32_t open(TSNode def, int32_t enclosing) {
    FunctionBlock block;
    TSNode outer = def;
    TSNode parent = ts_node_parent(def);
    if (!ts_node_is_null(parent) && std::string_view(ts_node_type(parent)) == "decorated_definition") outer = parent;
    block.first_line = python::line_of(ts_node_start_point(outer));
    block.last_line = python::line_of(ts_node_end_point(def));
    TSNode body = ts_node_child_by_field_name(def, "body", 4);
    // The header ends at the `:` before the body: the last token that is not the body.
    block.header_last = block.last_line;
    uint32_t n = ts_node_child_count(def);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_child(def, i);
      if (!ts_node_is_null(body) && ts_node_eq(c, body)) break;
      if (std::string_view(ts_node_type(c)) == "comment") continue; // a comment before the body is no header
      block.header_last = python::line_of(ts_node_end_point(c));
    }
    if (!ts_node_is_null(body) && ts_node_named_child_count(body) > 0) {
      block.body_indent = ts_node_start_point(ts_node_named_child(body, 0)).column;
    }
    block.parent = enclosing;
    block.runs_later = block.resumes_silently = has_token(def, "async");
    if (block.runs_later) mark(enclosing, true);
    m_blocks.push_back(block);
    m_yield_lines.push_back(0);
    return static_cast<int32_t>(m_blocks.size() - 1);
  }

  // Block `from` and the ones around it run later; `silent`: a resumed frame may record no line.
  void mark(int32_t from, bool silent) {
    for (int32_t b = from; b >= 0; b = m_blocks[static_cast<size_t>(b)].parent) {
      m_blocks[static_cast<size_t>(b)].runs_later = true;
      if (silent) m_blocks[static_cast<size_t>(b)].resumes_silently = true;
    }
  }

  // Whether `yield` is the second of its block on one line (resumed after the first, the frame reaches
  // the next without a line event).
  bool second_yield(TSNode yield, int32_t block) {
    uint32_t line = python::line_of(ts_node_start_point(yield));
    uint32_t& last = m_yield_lines[static_cast<size_t>(block)];
    bool second = last == line;
    last = line;
    return second;
  }

  std::string_view m_source;
  std::vector<FunctionBlock> m_blocks;
  std::vector<std::string> m_names;
  std::vector<uint32_t> m_yield_lines; // per block, the line of its last `yield` seen
};

} // namespace

std::vector<FunctionBlock> function_blocks(std::string_view source) {
  python::Parser parser;
  std::unique_ptr<TSTree, python::TreeDeleter> tree(parser.parse(source));
  if (!tree) return {};
  return Collector(source).run(ts_tree_root_node(tree.get()));
}

std::vector<std::string> generator_functions(std::string_view source) {
  python::Parser parser;
  std::unique_ptr<TSTree, python::TreeDeleter> tree(parser.parse(source));
  if (!tree) return {};
  Collector collector(source);
  std::vector<FunctionBlock> blocks = collector.run(ts_tree_root_node(tree.get()));
  std::vector<std::string> out;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (blocks[b].generator) out.push_back(collector.names()[b]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string_view> numbered_lines(std::string_view text) {
  std::vector<std::string_view> out{std::string_view()};
  while (!text.empty()) {
    size_t end = text.find('\n');
    out.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

int32_t innermost_block(const std::vector<FunctionBlock>& blocks, uint32_t line) {
  int32_t found = -1;
  // Blocks nest and come in source order: the last one whose body holds the line is the innermost.
  for (size_t i = 0; i < blocks.size() && blocks[i].first_line <= line; ++i) {
    if (blocks[i].in_body(line)) found = static_cast<int32_t>(i);
  }
  return found;
}

} // namespace impact
