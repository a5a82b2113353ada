// Reads only in a main guard's body (FileFacts::module_program, docs/selection.md `main-guard`).
#include "impact/python/facts.hpp"
#include "python/facts_codec.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace impact;
using impact::testing::extract;
using impact::python::decode_full;
using impact::python::encode;

namespace {

struct Parts {
  std::vector<std::string> code, program, stored; // module_refs, in the order they are kept
};

Parts parts(const FileFacts& facts) {
  const auto& refs = facts.module_refs;
  REQUIRE(size_t{facts.module_program} + facts.module_stored <= refs.size());
  auto stored = refs.end() - facts.module_stored;
  auto program = stored - facts.module_program;
  return Parts{{refs.begin(), program}, {program, stored}, {stored, refs.end()}};
}

} // namespace

TEST_CASE("a main guard's body reads apart from module code", "[extract][main_guard]") {
  auto facts = extract("from pkg import cli\nimport sys\n\n"
                       "def main():\n    return cli.run()\n\n"
                       "if __name__ == \"__main__\":\n    sys.exit(main())\n    cli.report.show()\n");
  Parts p = parts(facts);
  CHECK(p.program == std::vector<std::string>{"sys.exit", "main", "cli.report.show"});
  CHECK(p.code == std::vector<std::string>{"__name__"});
}

TEST_CASE("a chain read by module code too stays module code's", "[extract][main_guard]") {
  auto facts = extract("from pkg import cli\nVERSION = cli.version()\n"
                       "if '__main__' == __name__:\n    cli.version()\n    cli.main()\n");
  Parts p = parts(facts);
  CHECK(p.program == std::vector<std::string>{"cli.main"});
  CHECK(std::find(p.code.begin(), p.code.end(), "cli.version") != p.code.end());
}

TEST_CASE("only the guard's body, directly at module level, is apart", "[extract][main_guard]") {
  SECTION("the else branch runs on import") {
    auto facts = extract("import app\nif __name__ == '__main__':\n    app.main()\nelse:\n    app.setup()\n");
    Parts p = parts(facts);
    CHECK(p.program == std::vector<std::string>{"app.main"});
    CHECK(p.code == std::vector<std::string>{"__name__", "app.setup"});
  }
  SECTION("a guard inside another statement is module code") {
    auto facts = extract("import app\ntry:\n    if __name__ == '__main__':\n        app.main()\nexcept ImportError:\n    pass\n");
    CHECK(facts.module_program == 0);
  }
  SECTION("other tests of __name__ are module code") {
    auto facts = extract("import app\nif __name__ != '__main__':\n    app.main()\nif __name__ == 'x' or True:\n    app.run()\n");
    CHECK(facts.module_program == 0);
  }
  SECTION("a function defined in the guard keeps its own reads") {
    auto facts = extract("import app\nif __name__ == '__main__':\n    def go():\n        app.main()\n    go()\n");
    Parts p = parts(facts);
    CHECK(p.program == std::vector<std::string>{"go"});
    REQUIRE(facts.symbols.size() == 1);
    CHECK(facts.symbols[0].refs == std::vector<std::string>{"app.main"});
  }
}

TEST_CASE("the guard's reads sit between module code and stored values, and survive the codec", "[extract][main_guard]") {
  auto facts = extract("from pkg import f, g\nALIAS = f\nif __name__ == '__main__':\n    g()\n");
  Parts p = parts(facts);
  CHECK(p.program == std::vector<std::string>{"g"});
  CHECK(p.stored == std::vector<std::string>{"f"});
  FileFacts decoded;
  REQUIRE(decode_full(encode(facts), decoded));
  CHECK(decoded.module_refs == facts.module_refs);
  CHECK(decoded.module_program == facts.module_program);
  CHECK(decoded.module_stored == facts.module_stored);
}

TEST_CASE("chains copied out of the source are kept once each", "[extract][main_guard]") {
  // `.run` and `.y.z` are no slice of the source (their tokens do not abut what they follow).
  auto facts = extract("import app\nif __name__ == \"__main__\":\n    app.make(1).run()\n    app.make(2).run()\n    (app.x).y.z\n");
  Parts p = parts(facts);
  CHECK(p.program == std::vector<std::string>{"app.make", ".run", "app.x", ".y.z"});
}
