#include "impact/semantic.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::modified;

namespace {

FileSemantics diff(std::string_view before, std::string_view after) {
  return diff_semantics(modified("m.py"), std::string(before), std::string(after));
}

// The one changed symbol of `s` (a copy: `s` is often a temporary).
SymbolChange only_symbol(const FileSemantics& s) {
  REQUIRE(s.symbols.size() == 1);
  return s.symbols.front();
}

constexpr std::string_view k_module = "import os\n"
                                      "\n"
                                      "LIMIT = 3\n"
                                      "\n"
                                      "def f(a, b=1):\n"
                                      "    \"\"\"Adds.\"\"\"\n"
                                      "    return a + b  # sum\n"
                                      "\n"
                                      "class C:\n"
                                      "    size = 2\n"
                                      "\n"
                                      "    def m(self):\n"
                                      "        return self.size\n";

std::string edited(std::string_view from, std::string_view to) {
  std::string s(k_module);
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  s.replace(at, from.size(), to);
  return s;
}

} // namespace

TEST_CASE("diff_semantics tells comments and layout from code", "[semantic]") {
  SECTION("a changed comment") {
    auto s = diff(k_module, edited("# sum", "# the sum"));
    CHECK(s.kind == ChangeKind::comment_only);
    CHECK(s.symbols.empty());
    CHECK(s.comment_changed == std::vector<std::string>{"f"});
  }
  SECTION("changed spaces and line breaks") {
    auto s = diff(k_module, edited("return a + b", "return a  +  \\\n        b"));
    CHECK(s.kind == ChangeKind::formatting_only);
    CHECK_FALSE(s.runs_at_import);
  }
  SECTION("a changed encoding declaration is a change of the whole module, not a comment") {
    std::string before = "# -*- coding: utf-8 -*-\n" + std::string(k_module);
    std::string after = "# -*- coding: latin-1 -*-\n" + std::string(k_module);
    auto s = diff(before, after);
    CHECK(s.kind == ChangeKind::module_code);
    CHECK(s.runs_at_import);
    SECTION("on the second line too, after a shebang") {
      auto t = diff("#!/usr/bin/env python\n# vim: set fileencoding=utf-8 :\nX = 1\n",
                    "#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nX = 1\n");
      CHECK(t.kind == ChangeKind::module_code);
    }
    SECTION("but not on the third line, where Python does not read it") {
      auto t = diff("X = 1\nY = 2\n# coding: utf-8\n", "X = 1\nY = 2\n# coding: latin-1\n");
      CHECK(t.kind == ChangeKind::comment_only);
    }
    SECTION("nor on the second line after a line of code (CPython stops looking there)") {
      auto t = diff("X = 1\n# coding: utf-8\n", "X = 1\n# coding: latin-1\n");
      CHECK(t.kind == ChangeKind::comment_only);
    }
    SECTION("on the second line after a blank first line") {
      CHECK(diff("\n# coding: utf-8\nX = 1\n", "\n# coding: latin-1\nX = 1\n").kind == ChangeKind::module_code);
    }
  }
}

TEST_CASE("diff_semantics classifies what changed in a symbol", "[semantic]") {
  SECTION("a body") {
    auto c = only_symbol(diff(k_module, edited("return a + b", "return a - b")));
    CHECK(c.qualname == "f");
    CHECK(c.change == ChangeKind::implementation);
    CHECK_FALSE(c.runs_at_import);
  }
  SECTION("a parameter name") {
    CHECK(only_symbol(diff(k_module, edited("def f(a, b=1)", "def f(x, b=1)"))).change == ChangeKind::signature);
  }
  SECTION("a default value runs when the def runs") {
    auto c = only_symbol(diff(k_module, edited("b=1", "b=2")));
    CHECK(c.change == ChangeKind::definition);
    CHECK(c.runs_at_import);
  }
  SECTION("a docstring") {
    CHECK(only_symbol(diff(k_module, edited("Adds.", "Adds two."))).change == ChangeKind::docstring_only);
  }
  SECTION("a class attribute") {
    auto c = only_symbol(diff(k_module, edited("size = 2", "size = 3")));
    CHECK(c.qualname == "C");
    CHECK(c.change == ChangeKind::class_body);
    CHECK(c.runs_at_import);
  }
  SECTION("a method") {
    CHECK(only_symbol(diff(k_module, edited("return self.size", "return self.size + 1"))).qualname == "C.m");
  }
}

TEST_CASE("diff_semantics: what a function defines runs when the function runs, not at import", "[semantic]") {
  const std::string local = "def test_x():\n    class Local:\n        size = 2\n\n    @wrap(3)\n    def inner(a=1):\n        return a\n\n    return Local, inner\n";
  auto nested = [&](const char* from, const char* to) {
    std::string after = local;
    after.replace(after.find(from), std::string_view(from).size(), to);
    return diff(local, after);
  };
  SECTION("a local class's body") {
    auto s = nested("size = 2", "size = 3");
    CHECK_FALSE(s.runs_at_import);
    for (const auto& c : s.symbols) CHECK_FALSE(c.runs_at_import);
  }
  SECTION("a local function's decorator and default") {
    CHECK_FALSE(nested("@wrap(3)", "@wrap(4)").runs_at_import);
    CHECK_FALSE(nested("a=1", "a=2").runs_at_import);
  }
  SECTION("a local class added or deleted") {
    CHECK_FALSE(nested("    return Local, inner\n", "    class Extra:\n        pass\n\n    return Local, inner\n").runs_at_import);
    CHECK(diff(local + "\n\nclass Kept:\n    pass\n", local).runs_at_import); // a module-level one does
  }
  SECTION("a class whose name a function shares may be the one around it") {
    const std::string both = "def Box():\n    return 1\n\n\nclass Box:\n    class Inner:\n        size = 2\n";
    std::string after = both;
    after.replace(after.find("size = 2"), 8, "size = 3");
    CHECK(diff(both, after).runs_at_import);
  }
}

TEST_CASE("diff_semantics classifies module-level changes and symbols that come and go", "[semantic]") {
  SECTION("an import") {
    auto s = diff(k_module, edited("import os", "import sys"));
    CHECK(s.kind == ChangeKind::import_);
    CHECK(s.runs_at_import);
  }
  SECTION("a module-level constant") {
    auto s = diff(k_module, edited("LIMIT = 3", "LIMIT = 4"));
    CHECK(s.kind == ChangeKind::module_code);
    CHECK(s.runs_at_import);
  }
  SECTION("an added function runs nothing at import; an added class does") {
    auto fn = diff(k_module, std::string(k_module) + "\ndef g():\n    pass\n");
    CHECK(only_symbol(fn).change == ChangeKind::added_symbol);
    CHECK_FALSE(fn.runs_at_import);
    auto cls = diff(k_module, std::string(k_module) + "\nclass D:\n    pass\n");
    CHECK(only_symbol(cls).runs_at_import);
  }
  SECTION("a deleted method") {
    std::string after(k_module);
    after.erase(after.find("\n    def m(self)"));
    after += "\n";
    auto c = only_symbol(diff(k_module, after));
    CHECK(c.qualname == "C.m");
    CHECK(c.change == ChangeKind::deleted_symbol);
    CHECK(c.new_lines.first == 0);
  }
  SECTION("a side that does not parse is never a no-op: it does not compile") {
    auto s = diff(k_module, edited("return a + b", "return a +"));
    CHECK(s.kind == ChangeKind::syntax_error);
    CHECK(s.syntax.starts_with("new side does not compile, line "));
    CHECK(s.runs_at_import);
    CHECK(s.confidence == impact::Confidence::low);
  }
}

TEST_CASE("diff_semantics decides on the tokens CPython reads, not on the bytes", "[semantic]") {
  SECTION("a lone carriage return ends a comment: the code after it is code") {
    auto s = diff(k_module, std::string(k_module) + "# note\rBROKEN = 1 / 0\n");
    CHECK(s.kind == ChangeKind::module_code);
    CHECK(s.runs_at_import);
  }
  SECTION("inside a function, it changes the function") {
    auto c = only_symbol(diff(k_module, edited("# sum\n", "# sum\r    raise ValueError\n")));
    CHECK(c.qualname == "f");
    CHECK(c.change == ChangeKind::implementation);
  }
  SECTION("a backslash followed by a lone carriage return continues the line") {
    auto s = diff(k_module, edited("return a + b", "return a + \\\r        b"));
    CHECK(s.kind == ChangeKind::formatting_only);
  }
  SECTION("CRLF or CR line endings throughout are layout") {
    std::string crlf, cr;
    for (char ch : k_module) {
      crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
      cr += ch == '\n' ? '\r' : ch;
    }
    CHECK(diff(k_module, crlf).kind == ChangeKind::formatting_only);
    CHECK(diff(k_module, cr).kind == ChangeKind::formatting_only);
  }
  SECTION("a string's CRLF is LF to CPython: the same value") {
    CHECK(diff("S = '''a\nb'''\n", "S = '''a\r\nb'''\n").kind == ChangeKind::formatting_only);
  }
  SECTION("a coding declaration on a line that a lone CR starts is read") {
    CHECK(diff("#!/usr/bin/env python\r# coding: utf-8\rX = 1\r", "#!/usr/bin/env python\r# coding: latin-1\rX = 1\r").kind ==
          ChangeKind::module_code);
  }
  SECTION("a fullwidth name is its NFKC name: renaming mul to ｍｕｌ changes nothing") {
    CHECK(diff("def mul(a):\n    return a\n", "def ｍｕｌ(a):\n    return a\n").kind == ChangeKind::formatting_only);
  }
  SECTION("but a string's fullwidth text is its value") {
    CHECK(diff("S = 'mul'\n", "S = 'ｍｕｌ'\n").kind == ChangeKind::module_code);
  }
}

TEST_CASE("diff_semantics calls layout only what CPython takes as layout", "[semantic]") {
  // Either answer changes the whole file: the compile check names it a syntax error (every importer,
  // run_all under a conftest); the layout check alone would call it unclassifiable.
  auto unclassifiable = [](const FileSemantics& s) {
    return s.kind == ChangeKind::syntax_error || s.kind == ChangeKind::unclassifiable;
  };
  SECTION("spaces, tabs, form feeds and continuations are layout") {
    CHECK(diff(k_module, edited("return a + b", "return a +\tb")).kind == ChangeKind::formatting_only);
    CHECK(diff(k_module, edited("LIMIT = 3", "LIMIT =\f3")).kind == ChangeKind::formatting_only);
    CHECK(diff(k_module, "\xEF\xBB\xBF" + std::string(k_module)).kind == ChangeKind::formatting_only);
  }
  SECTION("characters tree-sitter skips and CPython rejects change the whole file") {
    CHECK(unclassifiable(diff(k_module, edited("return a + b", "return a +\u00a0b"))));  // no-break space
    CHECK(unclassifiable(diff(k_module, edited("return a + b", "return a\u200b + b")))); // zero-width space
    CHECK(unclassifiable(diff(k_module, edited("return a + b", "return a +\vb"))));      // vertical tab
    CHECK(unclassifiable(diff(k_module, edited("LIMIT = 3", "LIMIT = 3 \\ "))));         // a stray backslash
    CHECK(unclassifiable(diff(k_module, std::string(k_module) + "\u2060")));             // word joiner at the end
  }
}

TEST_CASE("diff_semantics tells the body of a module-level main guard from code that runs on import", "[semantic]") {
  std::string before = "import sys\n\ndef f():\n    return 1\n\nif __name__ == \"__main__\":\n    import json\n"
                       "    print(f())\nelse:\n    LOADED = True\n";
  auto replaced = [&](std::string_view from, std::string_view to) {
    std::string s = before;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  SECTION("a statement, an import or a definition under the guard runs only as a program") {
    for (auto [from, to] : {std::pair{"print(f())", "print(f() + 1)"}, std::pair{"import json", "import csv"},
                            std::pair{"    print(f())\n", "    print(f())\n    def g():\n        return 2\n"}}) {
      INFO(to);
      FileSemantics s = diff(before, replaced(from, to));
      CHECK(s.kind == ChangeKind::main_block);
      CHECK(s.runs_as_program);
      CHECK_FALSE(s.runs_at_import);
      CHECK(s.symbols.empty());
    }
  }
  SECTION("the guard's test and its else branch run on import") {
    FileSemantics s = diff(before, replaced("LOADED = True", "LOADED = False"));
    CHECK(s.kind == ChangeKind::module_code);
    CHECK(s.runs_at_import);
    CHECK_FALSE(s.runs_as_program);
    CHECK(diff(before, replaced("if __name__ == \"__main__\":", "if __name__ != \"__main__\":")).runs_at_import);
    CHECK(diff(before, replaced("if __name__ == \"__main__\":", "if __name__ == \"__main__\" or X:")).runs_at_import);
  }
  SECTION("a change under the guard beside one at module level is both") {
    FileSemantics s = diff(before, replaced("print(f())\nelse:\n    LOADED = True", "print(f() + 1)\nelse:\n    LOADED = 2"));
    CHECK(s.runs_at_import);
    CHECK(s.runs_as_program);
  }
  SECTION("a guard inside a function or another block is no main guard") {
    std::string nested = "def run():\n    if __name__ == \"__main__\":\n        return 1\n    return 0\n";
    std::string changed = nested;
    changed.replace(changed.find("return 1"), 8, "return 2");
    FileSemantics s = diff(nested, changed);
    CHECK(s.kind == ChangeKind::implementation);
    CHECK_FALSE(s.runs_as_program);
    std::string in_try = "try:\n    if __name__ == \"__main__\":\n        X = 1\nexcept ImportError:\n    pass\n";
    std::string in_try_changed = in_try;
    in_try_changed.replace(in_try_changed.find("X = 1"), 5, "X = 2");
    CHECK(diff(in_try, in_try_changed).runs_at_import);
  }
}

TEST_CASE("diff_semantics takes definitions that only moved as module code", "[semantic]") {
  SECTION("two functions swapped") {
    auto s = diff("def a():\n    return 1\n\n\ndef b():\n    return 2\n", "def b():\n    return 2\n\n\ndef a():\n    return 1\n");
    CHECK(s.kind == ChangeKind::module_code);
    CHECK(s.runs_at_import);
    CHECK(s.symbols.empty());
  }
  SECTION("methods reordered in a class") {
    auto s = diff("class C:\n    def a(self):\n        pass\n\n    def b(self):\n        pass\n",
                  "class C:\n    def b(self):\n        pass\n\n    def a(self):\n        pass\n");
    CHECK(s.runs_at_import);
  }
  SECTION("a function moved above the statement that calls it") {
    auto s = diff("def build():\n    return 1\n\n\nX = build()\n", "X = build()\n\n\ndef build():\n    return 1\n");
    CHECK(s.kind == ChangeKind::module_code);
    CHECK(s.runs_at_import);
  }
  SECTION("a swap beside an edit of a body still counts") {
    auto s = diff("def a():\n    return 1\n\n\ndef b():\n    return 2\n", "def b():\n    return 3\n\n\ndef a():\n    return 1\n");
    CHECK(s.runs_at_import);
    CHECK(only_symbol(s).qualname == "b");
  }
  SECTION("an added function keeps the others' order: no import-time change") {
    auto s = diff("def a():\n    return 1\n", "def a():\n    return 1\n\n\ndef b():\n    return 2\n");
    CHECK_FALSE(s.runs_at_import);
  }
}

TEST_CASE("diff_semantics tells the body of a module-level if TYPE_CHECKING from code that runs", "[semantic]") {
  std::string before = "import typing\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.a import A\n"
                       "if typing.TYPE_CHECKING:\n    from pkg.b import B\nelse:\n    B = None\n\ndef f(x: 'A') -> 'B':\n    return x\n";
  auto replaced = [&](std::string_view from, std::string_view to) {
    std::string s = before;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  SECTION("an import or a definition under either spelling runs nowhere") {
    for (auto [from, to] : {std::pair{"from pkg.a import A", "from pkg.a import A, C"},
                            std::pair{"from pkg.b import B\n", "from pkg.b import B\n    class P:\n        x: int\n"}}) {
      INFO(to);
      FileSemantics s = diff(before, replaced(from, to));
      CHECK(s.kind == ChangeKind::type_checking);
      CHECK(s.runs_as_program);
      CHECK_FALSE(s.runs_at_import);
      CHECK(s.symbols.empty());
    }
  }
  SECTION("the condition and the else branch run on import") {
    CHECK(diff(before, replaced("B = None", "B = 0")).runs_at_import);
    CHECK(diff(before, replaced("if TYPE_CHECKING:", "if TYPE_CHECKING or X:")).runs_at_import);
    CHECK(diff(before, replaced("if TYPE_CHECKING:", "if not TYPE_CHECKING:")).runs_at_import);
  }
}
