#pragma once
// The names a function's annotations read (docs/selection.md `annotations`): `def run(ctx: Context) ->
// Result` names Context and Result where the def runs (at import, for a module-level function or a
// method), but calls neither; whatever uses the annotations (typing.get_type_hints, a framework that
// converts arguments) reaches them through the function. So the reference pass counts them as the
// function's own reads, not its module's or its class body's import-time code.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace impact::python {

// One chain of an annotation, by its byte range, and the function (index in FileFacts::symbols) whose
// annotation it is.
struct AnnotationChain {
  uint32_t begin = 0, end = 0;
  int32_t symbol = -1;
  bool operator<(const AnnotationChain& o) const { return begin != o.begin ? begin < o.begin : end < o.end; }
};

// The chains of every function's parameter and return annotations, ascending. An annotation holding a
// call (`Annotated[int, check()]`) is left out whole; so is a subscripted or `|`-combined name
// (`Box[int]`, `A | None`), whose class may run `__class_getitem__` or a metaclass's `__or__` there.
// The same walk gives `quoted`: the dotted names the string annotations spell (`clock: "Clock"`,
// `-> "pkg.Node | None"`), forward references typing.get_type_hints evaluates in the function's module,
// and those of the definitions' marker conditions (find_marker_conditions).
struct QuotedName {
  int32_t symbol = -1; // index in FileFacts::symbols; -1: module-level code
  std::string chain;
};
std::vector<AnnotationChain> find_annotation_chains(TSNode root, std::string_view source, const FileFacts& facts,
                                                    std::vector<QuotedName>& quoted);

// The dotted names the string literals inside `n` spell (keywords and `None` left out): a string
// annotation's forward references (`"pkg.tree.Node | None"`).
void quoted_chains(TSNode n, std::string_view src, std::vector<std::string>& out);

// The dotted names spelled by the string conditions of a function's or class's skipif / xfail
// markers (`@pytest.mark.skipif("not pkg.flags.new_parser()")`), which pytest evaluates in the
// module's namespace when the test runs: reads of the decorated definition, added to `quoted`; in a
// module-level assignment (`pytestmark = pytest.mark.skipif("...")`), module-level reads.
void find_marker_conditions(TSNode root, std::string_view source, const FileFacts& facts, std::vector<QuotedName>& quoted);

// Adds each quoted name to its function's references (module-level ones to FileFacts::module_refs,
// before the stored tail), before the tails Symbol::namespace_values and
// annotation_refs count (after the reference pass, which would have read them as nothing).
void add_quoted_annotations(const std::vector<QuotedName>& quoted, FileFacts& facts);

} // namespace impact::python
