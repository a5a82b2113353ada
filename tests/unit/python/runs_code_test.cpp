#include "impact/python/text_reads.hpp"

#include <catch2/catch.hpp>

using namespace impact;

TEST_CASE("runs_code_at_import: a module without a statement that records a line", "[coverage]") {
  CHECK_FALSE(runs_code_at_import(""));
  CHECK_FALSE(runs_code_at_import("# only a comment\n\n"));
  CHECK_FALSE(runs_code_at_import("\"\"\"A docstring.\"\"\"\n"));
  CHECK_FALSE(runs_code_at_import("\"\"\"A docstring.\"\"\"\n\nfrom __future__ import annotations\n"));
  CHECK_FALSE(runs_code_at_import("pass\n...\n"));
}

TEST_CASE("runs_code_at_import: any other top-level statement runs", "[coverage]") {
  CHECK(runs_code_at_import("import os\n"));
  CHECK(runs_code_at_import("\"\"\"Doc.\"\"\"\nLIMIT = 3\n"));
  CHECK(runs_code_at_import("def f():\n    pass\n"));
  CHECK(runs_code_at_import("@decorate\nclass C:\n    pass\n"));
  CHECK(runs_code_at_import("if True:\n    pass\n"));
  CHECK(runs_code_at_import("print('x')\n"));
}

TEST_CASE("runs_code_at_import: a base that does not parse cannot be vouched for", "[coverage]") {
  CHECK_FALSE(runs_code_at_import("def f(:\n    return 1\nLIMIT = 3\n"));
}
