#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// The function bodies of a Python source, for the coverage index's block rule (docs/coverage.md,
// "Block level"): a change inside a body is answered by the tests that ran any line of that body.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// One `def` (methods, nested functions and `async def` included; not lambdas, which belong to the body
// they are written in). Lines are 1-based.
struct FunctionBlock {
  uint32_t first_line = 0;  // the first decorator, or the `def` line
  uint32_t header_last = 0; // the line of the header's `:` (a one-line body shares it: it is no body line)
  uint32_t last_line = 0;
  uint32_t body_indent = 0; // the column of the body's first statement
  int32_t parent = -1;      // the innermost enclosing FunctionBlock (through classes), -1 for none
  // Its code may run later than a call that a coverage context records: an `async def`, a generator
  // (`yield`), or a generator expression whose consumer is not known to exhaust it at once, anywhere in
  // the body (nested ones included). A resumed frame can finish without a line event, so coverage.py
  // may record nothing for the test that resumed it.
  bool runs_later = false;
  // Of those, a frame that a test can resume without a line event, even where coverage.py records
  // arcs: it delegates (`yield from`, `await`, `async for`/`with`, an `async def`) or yields twice on
  // one line. Anything else resumed records at least its exit arc (docs/coverage.md, "Arcs").
  bool resumes_silently = false;
  // It holds a nested def, class or lambda (at any depth): code that can outlive the call and run in
  // another test, reading what the body bound (a closure). A change of the body's own lines can then
  // act on a test that ran only the nested code.
  bool has_nested = false;
  // Its own body (not a nested def or lambda) holds a `yield`: calling it makes a generator and runs
  // no line of the body.
  bool generator = false;

  uint32_t body_first() const { return header_last + 1; }
  bool in_body(uint32_t line) const { return line > header_last && line <= last_line; }
};

// Every function of `source`, in source order (an enclosing function before the ones it holds).
// A source tree-sitter cannot parse gives what it could read; callers check compilability elsewhere.
std::vector<FunctionBlock> function_blocks(std::string_view source);

// The functions of `source` whose own body holds a `yield`, each as its names from the outermost
// enclosing def or class (`Reader.rows`, `load.inner`), sorted. Two versions whose lists differ made a
// function a generator or a plain one (or added or removed one).
std::vector<std::string> generator_functions(std::string_view source);

// The lines of `text` split at '\n', 1-based ([0] is empty), as coverage.py and the blocks number them.
std::vector<std::string_view> numbered_lines(std::string_view text);

// The innermost block whose body (not its header) holds `line`, or -1.
int32_t innermost_block(const std::vector<FunctionBlock>& blocks, uint32_t line);

} // namespace impact
