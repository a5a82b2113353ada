// Imports written inside strings of code: what a subprocess or exec of the string would import.
#include "python/code_strings.hpp"
#include "python/lexer.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace impact;
using namespace impact::python;

namespace {

using Modules = std::vector<std::string>;

Modules code_refs(std::string_view source) {
  std::vector<Token> tokens;
  lex(source, tokens);
  FileFacts facts;
  scan_code_strings(source, tokens, facts);
  Modules out;
  for (const auto& imp : facts.imports) {
    CHECK(imp.kind == ImportKind::string_ref);
    CHECK((imp.flags & k_import_code) != 0);
    out.push_back(imp.module);
  }
  return out;
}

} // namespace

TEST_CASE("code strings: the modules their import statements name") {
  CHECK(imported_in_code("import sys, pkg; print('decimal' in sys.modules)") == Modules{"sys", "pkg"});
  CHECK(imported_in_code("from pkg import core; print(core.add(1, 2))") == Modules{"pkg.core"});
  CHECK(imported_in_code("\n    from pkg import api as a, tools\n    print(a.version())\n") == Modules{"pkg.api", "pkg.tools"});
  CHECK(imported_in_code("from pkg.sub import (one,\n two)") == Modules{"pkg.sub.one"}); // the second line is a statement of its own
  CHECK(imported_in_code("import pkg.cli as cli\ncli.main()") == Modules{"pkg.cli"});
  CHECK(imported_in_code("from pkg import *") == Modules{"pkg"});
  // Prose, relative imports and names that are no statement's start give nothing.
  CHECK(imported_in_code("cannot import name 'x' from 'pkg'").empty());
  CHECK(imported_in_code("please import pkg first").empty());
  CHECK(imported_in_code("from . import sibling").empty());
}

TEST_CASE("code strings: strings of a file, not its docstrings") {
  CHECK(code_refs("def test_proc():\n    code = \"import sys, pkg; print(1)\"\n") == Modules{"sys", "pkg"});
  CHECK(code_refs("def test_proc():\n    run(\"from pkg import core\\ncore.main()\")\n") == Modules{"pkg.core"});
  CHECK(code_refs("def test_f(p):\n    p.write_text('''\n        from pkg import api\n    ''')\n") == Modules{"pkg.api"});
  CHECK(code_refs("def f():\n    \"\"\"Use it so:\n\n    import pkg\n    \"\"\"\n").empty()); // a docstring
  CHECK(code_refs("x = b\"import pkg\"\n").empty()); // bytes
  CHECK(code_refs("x = f\"import {name}\"\n").empty()); // computed
}
