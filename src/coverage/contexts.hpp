#pragma once
// How coverage.py's data names what ran: numbits (line sets) and contexts (who ran them). Private to
// src/coverage; split out of ingest.cpp so that the unit tests reach them.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace impact::coverage {

// coverage.py's numbits: bit i of byte j set means line j * 8 + i ran. Appends the lines, ascending.
void decode_numbits(std::string_view bits, std::vector<uint32_t>& out);

// What one context is, once mapped.
enum class ContextKind {
  test,    // the call of one test: its code is that test's
  fixture, // a test's setup or teardown phase: fixtures may be shared (session, module, class scope)
           // and then run for the first test only, so their lines cannot be vouched for per test
  outside, // no test at all: the empty context (import, collection, fixtures under test_function)
  unknown, // a label that names no test impact can find: its lines cannot be attributed either
};

struct MappedContext {
  ContextKind kind = ContextKind::unknown;
  std::string node_id;    // for `test`, and for `fixture` (the test whose phase it was)
  bool decorated = false; // a static context label or an xdist worker suffix was stripped
  bool child = false;     // "path::test|child": a process the test's call started (impact index labels them)
};

// Maps contexts to pytest node ids: pytest-cov's "path::test|run" (phases setup, run, teardown; node
// ids relative to pytest's rootdir; "child", impact index's label for a process the call started),
// coverage's dynamic_context = test_function ("package.module.Class.test"), either behind a static
// context label ("label|..."), and with an xdist worker suffix (" [gw3]", "@gw3") when a setup
// appends one.
class ContextMapper {
public:
  // `rootdir`: pytest's rootdir, repository-relative ("" for the root).
  explicit ContextMapper(std::string rootdir) : m_rootdir(std::move(rootdir)) {}

  // A repository file coverage measured: test_function contexts name its module by a dotted name.
  void add_module_file(const std::string& path);
  MappedContext map(std::string context) const;

private:
  std::string test_function_id(const std::string& dotted) const;

  std::string m_rootdir;
  // Dotted name -> repository path; "" when the name fits several files (it then names no test).
  std::unordered_map<std::string, std::string> m_modules;
};

} // namespace impact::coverage
