#include "impact/config.hpp"
#include "impact/python/compile_check.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace impact;

namespace {

SyntaxIssue issue_of(std::string_view source) { return compile_check_of(source).issue; }

} // namespace

TEST_CASE("compile check: valid Python 3 compiles", "[compile]") {
  CHECK(issue_of("") == SyntaxIssue::none);
  CHECK(issue_of("import os\n\ndef f(a, b=1, *args, c, d=2, **kw):\n    return a\n") == SyntaxIssue::none);
  CHECK(issue_of("class C:\n    def m(self):\n        for x in y:\n            if x:\n                break\n        else:\n"
                 "            pass\n") == SyntaxIssue::none);
  CHECK(issue_of("async def f():\n    await g()\n    async for x in y:\n        pass\n    async with a as b:\n"
                 "        pass\n    return [await z async for z in w]\n") == SyntaxIssue::none);
  CHECK(issue_of("x = 0\ny = 00\nz = 0o777 + 0x_ff + 1_000 + 1.5e-3j + 0.\n") == SyntaxIssue::none);
  CHECK(issue_of("s = rb'\\x' + b'\\xff'\nt = '\\u00e9\\x41'\nu = f'{x!r:>{w}} {{}}'\n") == SyntaxIssue::none);
  CHECK(issue_of("'''doc'''\nfrom __future__ import annotations\nimport os\n") == SyntaxIssue::none);
  CHECK(issue_of("def f():\n    x = 1\n    def g():\n        nonlocal x\n        x = 2\n") == SyntaxIssue::none);
  CHECK(issue_of("print('hi')\nexec('x = 1')\nprint = 3\n") == SyntaxIssue::none);
  CHECK(issue_of("a, *b = c\n[x, *y] = z\ndel a, b[0], c.d\nf(*a, k=1, *b, **c)\n") == SyntaxIssue::none);
  CHECK(issue_of("if x:\n\tpass\n") == SyntaxIssue::none);
  CHECK(issue_of("# -*- coding: latin-1 -*-\nx = '\xe9'\n") == SyntaxIssue::none);
}

TEST_CASE("compile check: what tree-sitter accepts and CPython refuses", "[compile]") {
  SECTION("Python 2") {
    CHECK(issue_of("def f():\n    print \"hi\"\n") == SyntaxIssue::print_statement);
    CHECK(issue_of("exec \"x = 1\"\n") == SyntaxIssue::exec_statement);
    CHECK(issue_of("x = 0777\n") == SyntaxIssue::invalid_number);
    CHECK(issue_of("x = 10L\n") != SyntaxIssue::none);
    CHECK(issue_of("x = 1__0\n") != SyntaxIssue::none);
    CHECK(issue_of("x = 1 <> 2\n") != SyntaxIssue::none);
    CHECK(issue_of("x = `y`\n") != SyntaxIssue::none);
    CHECK(issue_of("x = ur'a'\n") != SyntaxIssue::none);
  }
  SECTION("misplaced statements") {
    CHECK(issue_of("def f():\n    break\n") == SyntaxIssue::outside_loop);
    CHECK(issue_of("for x in y:\n    pass\nelse:\n    continue\n") == SyntaxIssue::outside_loop);
    CHECK(issue_of("for x in y:\n    def g():\n        break\n") == SyntaxIssue::outside_loop);
    CHECK(issue_of("return 1\n") == SyntaxIssue::outside_function);
    CHECK(issue_of("class C:\n    yield 1\n") == SyntaxIssue::outside_function);
    CHECK(issue_of("def f():\n    return [(yield x) for x in y]\n") == SyntaxIssue::outside_function);
    CHECK(issue_of("def f():\n    await g()\n") == SyntaxIssue::outside_async);
    CHECK(issue_of("def f():\n    async with a:\n        pass\n") == SyntaxIssue::outside_async);
    CHECK(issue_of("async def f():\n    yield 1\n    return 2\n") == SyntaxIssue::outside_function);
    CHECK(issue_of("async def f():\n    yield from g()\n") == SyntaxIssue::outside_function); // found by review
    CHECK(issue_of("async def f():\n    yield g()\n") == SyntaxIssue::none);
    CHECK(issue_of("def f():\n    yield from g()\n") == SyntaxIssue::none);
    CHECK(issue_of("import os\nfrom __future__ import annotations\n") == SyntaxIssue::misplaced_future);
    CHECK(issue_of("from __future__ import braces\n") == SyntaxIssue::misplaced_future);
    CHECK(issue_of("nonlocal x\n") == SyntaxIssue::invalid_scope);
    CHECK(issue_of("def f():\n    nonlocal x\n") == SyntaxIssue::invalid_scope);
    CHECK(issue_of("def f(a):\n    global a\n") == SyntaxIssue::invalid_scope);
  CHECK(issue_of("def f():\n    def g():\n        nonlocal x\n") == SyntaxIssue::unsure_construct);
  CHECK(issue_of("def f(x):\n    def g():\n        nonlocal x\n") == SyntaxIssue::none);
  CHECK(issue_of("def f():\n    x = 1\n    global x\n") == SyntaxIssue::unsure_construct);
  CHECK(issue_of("def f():\n    global x\n    x = 1\n    y.x = 2\n") == SyntaxIssue::none);
    CHECK(issue_of("def f():\n    from os import *\n") == SyntaxIssue::invalid_scope);
  }
  SECTION("targets, parameters and arguments") {
    CHECK(issue_of("def f(a, a):\n    pass\n") == SyntaxIssue::invalid_parameters);
    CHECK(issue_of("def f(a=1, b):\n    pass\n") == SyntaxIssue::invalid_parameters);
    CHECK(issue_of("def f(*, **kw):\n    pass\n") == SyntaxIssue::invalid_parameters);
    CHECK(issue_of("f = lambda a, a: 0\n") == SyntaxIssue::invalid_parameters);
    CHECK(issue_of("f(a=1, 2)\n") == SyntaxIssue::invalid_arguments);
    CHECK(issue_of("f(**a, *b)\n") == SyntaxIssue::invalid_arguments);
    CHECK(issue_of("f(a=1, a=2)\n") == SyntaxIssue::invalid_arguments);
    CHECK(issue_of("del f()\n") == SyntaxIssue::invalid_target);
    CHECK(issue_of("a, b += 1\n") == SyntaxIssue::invalid_target);
    CHECK(issue_of("a, b: int = 1, 2\n") != SyntaxIssue::none);
    CHECK(issue_of("*a = b\n") == SyntaxIssue::invalid_starred);
    CHECK(issue_of("x = *a\n") == SyntaxIssue::invalid_starred);
    CHECK(issue_of("async = 1\n") != SyntaxIssue::none);
    CHECK(issue_of("__debug__ = 1\n") != SyntaxIssue::none);
    CHECK(issue_of("def f(async):\n    pass\n") == SyntaxIssue::reserved_name);
    CHECK(issue_of("x := 1\n") != SyntaxIssue::none);
  }
  SECTION("clauses and literals") {
    CHECK(issue_of("try:\n    pass\nexcept:\n    pass\nexcept E:\n    pass\n") == SyntaxIssue::invalid_clause);
    CHECK(issue_of("match x:\n    case y:\n        pass\n    case 1:\n        pass\n") == SyntaxIssue::invalid_clause);
    CHECK(issue_of("x = b'\xc3\xa9'\n") == SyntaxIssue::invalid_string);
    CHECK(issue_of("x = '\\x1'\n") == SyntaxIssue::invalid_string);
    CHECK(issue_of("x = 'a' b'b'\n") == SyntaxIssue::invalid_string);
    CHECK(issue_of("x = f'}'\n") != SyntaxIssue::none);
    CHECK(issue_of("x = '\\N{BULLET}'\n") == SyntaxIssue::unsure_name_escape);
  }
}

TEST_CASE("compile check: the misses the differential check found", "[compile]") {
  CHECK(issue_of("def f():\n    x\n    else\n    y\n") == SyntaxIssue::syntax_error);   // a keyword read as a name
  CHECK(issue_of("x = 1\nelse:\n    y = 2\n") == SyntaxIssue::syntax_error);            // ... as an annotated name
  CHECK(issue_of("if a:\n   x.y:\n        v()\n") == SyntaxIssue::syntax_error);          // x.y: annotating the next line
  CHECK(issue_of("#---\n-----\n# c\nx = 1\n") == SyntaxIssue::syntax_error);          // an expression past a line break
  CHECK(issue_of("x = '' if a else ''ts = 1\n") == SyntaxIssue::syntax_error);          // a MISSING newline
  CHECK(issue_of("raise E, 'm'\n") == SyntaxIssue::syntax_error);
  // Probe round 72: statements tree-sitter takes and CPython refuses.
  CHECK(issue_of("from os.path import join, split,\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("import os, sys,\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("from os.path import (join,\n    split,)\n") == SyntaxIssue::none);
  CHECK(issue_of("raise from e\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("raise ValueError from e\n") == SyntaxIssue::none);
  CHECK(issue_of("print(,)\n") != SyntaxIssue::none);
  CHECK(issue_of("f(a,,b)\n") != SyntaxIssue::none);
  CHECK(issue_of("f(a,  # why\n  b,\n)\n") == SyntaxIssue::none);
  CHECK(issue_of("o.__debug__ = 1\n") != SyntaxIssue::none);
  CHECK(issue_of("for o.__debug__ in x:\n    pass\n") != SyntaxIssue::none);
  CHECK(issue_of("o.__debug__ += 1\ndel o.__debug__\nx = o.__debug__\n") == SyntaxIssue::none);
  // A '#' in a string inside a replacement field is no comment: 3.11 compiles it, so the file needs
  // no newer Python (before, a 3.12 construct added later was not seen as new).
  CHECK(compile_check_of("level = 1\nx = f\"{'#' * level} t\"\n").needs_minor == 0);
  CHECK(compile_check_of("x = f\"{'#' * level} {'\\n'.join(xs)}\"\n").needs_minor == 12);
  CHECK(compile_check_of("x = f\"\"\"{'#' * level} {y # why\n}\"\"\"\n").needs_minor == 12);
  CHECK(issue_of("self.name = nae: ignore\n") == SyntaxIssue::syntax_error);           // an annotation after `=`
  CHECK(issue_of("a = b = c\nd: int = e\n") == SyntaxIssue::none);
  CHECK(issue_of("x = 1\n    y = 2\n") == SyntaxIssue::unexpected_indent);
  CHECK(issue_of("def f(a):\n    global a\n") == SyntaxIssue::invalid_scope);
  CHECK(issue_of("print('==', a, *b.c())\n") == SyntaxIssue::none); // tree-sitter reads (*b.c)()
  CHECK(issue_of("(pars): bool = True\n") == SyntaxIssue::none);
  CHECK(issue_of("def f(a, /, b=1, \\\n      c=2):\n    pass\n") == SyntaxIssue::none);
  CHECK(issue_of("match x:\n    case None:\n        pass\n    case y:\n        pass\n") == SyntaxIssue::none);
  CHECK(issue_of("def f(x: Optional[int]) -> List[str]:\n    type(x).y = 1\n") == SyntaxIssue::none);
  // Two annotations in a row: tree-sitter reads a type parameter's bound (`T: int`).
  CHECK(issue_of("class Region:\n    width:    height: int\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("def f(a: b: int):\n    pass\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("x: *Ts\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("def f[T: int](x: T) -> T:\n    return x\n") == SyntaxIssue::none);
  CHECK(issue_of("type Pair[T: int] = tuple[T, T]\n") == SyntaxIssue::none);
  CHECK(issue_of("def f(*a: *Ts) -> tuple[*Ts]:\n    return a\n") == SyntaxIssue::none);
}

TEST_CASE("compile check: the misses the second probing round found", "[compile]") {
  // 'break', 'continue' and 'return' cannot appear in an except* block (a loop inside it may break).
  CHECK(issue_of("for x in y:\n    try:\n        pass\n    except* E:\n        break\n") == SyntaxIssue::invalid_clause);
  CHECK(issue_of("for x in y:\n    try:\n        pass\n    except* E:\n        if x:\n            continue\n") ==
        SyntaxIssue::invalid_clause);
  CHECK(issue_of("def f():\n    try:\n        pass\n    except* E:\n        return 1\n") == SyntaxIssue::invalid_clause);
  CHECK(issue_of("def f():\n    try:\n        pass\n    except* E:\n        for x in y:\n            break\n") ==
        SyntaxIssue::none);
  CHECK(issue_of("def f():\n    try:\n        pass\n    except* E:\n        def g():\n            return 1\n") ==
        SyntaxIssue::none);
  CHECK(issue_of("def f():\n    try:\n        pass\n    except E:\n        return 1\n") == SyntaxIssue::none);
  // __debug__ cannot be bound by an import either.
  CHECK(issue_of("import os as __debug__\n") == SyntaxIssue::reserved_name);
  CHECK(issue_of("from os import path as __debug__\n") == SyntaxIssue::reserved_name);
  CHECK(issue_of("import os as debug\n") == SyntaxIssue::none);
  // An annotated name cannot be global or nonlocal in a function; at module level it may.
  CHECK(issue_of("def f():\n    global g\n    g: int = 1\n") == SyntaxIssue::invalid_scope);
  CHECK(issue_of("def f():\n    x = 1\n    def g():\n        nonlocal x\n        x: int = 2\n") == SyntaxIssue::invalid_scope);
  CHECK(issue_of("global g\ng: int = 1\n") == SyntaxIssue::none);
  CHECK(issue_of("def f():\n    global g\n    g = 1\n    def h():\n        g: int = 2\n") == SyntaxIssue::none);
  // ... nor in a class body.
  CHECK(issue_of("class A:\n    global x\n    x: int = 1\n") == SyntaxIssue::invalid_scope);
  CHECK(issue_of("class A:\n    global x\n    x = 1\n") == SyntaxIssue::none);
}

namespace {

SyntaxIssue case_of(std::string_view pattern) {
  return issue_of("match x:\n    case " + std::string(pattern) + ":\n        pass\n");
}

} // namespace

TEST_CASE("compile check: assignment expressions in comprehensions", "[compile]") {
  // No rebinding of an iteration variable of any enclosing comprehension (a lambda starts a new scope).
  CHECK(issue_of("[(i := 0) for i in x]\n") == SyntaxIssue::invalid_target);
  CHECK(issue_of("[[(i := 0) for j in y] for i in x]\n") == SyntaxIssue::invalid_target);
  CHECK(issue_of("{(k := 1): v for k, v in z}\n") == SyntaxIssue::invalid_target);
  CHECK(issue_of("[x for x in z if (x := 2)]\n") == SyntaxIssue::invalid_target);
  CHECK(issue_of("[lambda: (i := 1) for i in x]\n") == SyntaxIssue::none);
  CHECK(issue_of("[(y := 1) for x in z if (w := 2)]\n") == SyntaxIssue::none);
  // None in an iterable expression, even inside a lambda or another comprehension there.
  CHECK(issue_of("[x for x in (y := [])]\n") == SyntaxIssue::invalid_target);
  CHECK(issue_of("[x for z in w for x in (y := [])]\n") == SyntaxIssue::invalid_target);
  CHECK(issue_of("[x for x in (lambda: (y := 1))()]\n") == SyntaxIssue::invalid_target);
  // None in a comprehension directly in a class body; a method's is fine.
  CHECK(issue_of("class A:\n    [(y := 1) for x in z]\n") == SyntaxIssue::invalid_target);
  CHECK(issue_of("class A:\n    [lambda: (y := 1) for x in z]\n") == SyntaxIssue::none);
  CHECK(issue_of("class A:\n    def f(self):\n        [(y := 1) for x in z]\n") == SyntaxIssue::none);
  CHECK(issue_of("class A:\n    x = (y := 1)\n") == SyntaxIssue::none);
}

TEST_CASE("compile check: `as` outside with, except and patterns; a star before :=", "[compile]") {
  // Found by the differential check (seed 3): `importue as _unused` and `f(*argsx := 1, **kw)`.
  CHECK(issue_of("a as b\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("x = a as b\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("f(a as b)\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("for x in a as b:\n    pass\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("with ((a as b)):\n    pass\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("with (a as b), c as d:\n    pass\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("try:\n    pass\nexcept (E as e):\n    pass\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("with a as b, c as d:\n    pass\n") == SyntaxIssue::none);
  CHECK(issue_of("with (a as b):\n    pass\n") == SyntaxIssue::none);
  CHECK(issue_of("with (a as b, c as d):\n    pass\n") == SyntaxIssue::none);
  CHECK(issue_of("with (a as b,):\n    pass\n") == SyntaxIssue::none);
  CHECK(issue_of("try:\n    pass\nexcept E as e:\n    pass\n") == SyntaxIssue::none);
  // `as` binds the whole expression, which tree-sitter reads as binding its last operand (tabulate's cli.py).
  CHECK(issue_of("with sys.stdout if out == '-' else open(out) as f:\n    pass\n") == SyntaxIssue::none);
  CHECK(issue_of("with a or b as f, not c as g:\n    pass\n") == SyntaxIssue::none);
  CHECK(issue_of("with a + b as f:\n    pass\n") == SyntaxIssue::none);
  CHECK(issue_of("x = a if c else b as f\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("f(a or b as c)\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("f(*a := 1)\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("f(**a := 1)\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("x = [*a := 1]\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("f(*(a := 1))\n") == SyntaxIssue::none);
}

TEST_CASE("compile check: match patterns CPython's compiler refuses", "[compile]") {
  // Names: bound once per pattern; every alternative binds the same ones; `_` and __debug__ bind none.
  CHECK(case_of("[a, a]") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("C(k=x, j=x)") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("[a, b] as a") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("[_, _]") == SyntaxIssue::none);
  CHECK(case_of("[a] | [b]") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("1 | a") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("(a, b) | (b, a)") == SyntaxIssue::none);
  CHECK(case_of("{'a': x} | {'b': x}") == SyntaxIssue::none);
  CHECK(case_of("x as _") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("x as __debug__") == SyntaxIssue::reserved_name);
  CHECK(case_of("1 as b as c") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("(1 as b) as c") == SyntaxIssue::none);
  // Only the last alternative may match anything.
  CHECK(case_of("a | 1") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("_ | 1") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("(a | b)") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("(a as b) | (b as a)") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("1 | 2 | 3") == SyntaxIssue::none);
  // Stars: one per sequence, `*` only in sequences, `**rest` only last in a mapping and named.
  CHECK(case_of("[*a, *b]") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("[*_, *_]") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("*a") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("*a,") == SyntaxIssue::none);
  CHECK(case_of("(*a)") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("(*a,)") == SyntaxIssue::none);
  CHECK(case_of("[**a]") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("C(*a)") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{**rest, 'a': 1}") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{'a': 1, **_}") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{'a': 1, **rest}") == SyntaxIssue::none);
  // Class patterns: positional first, no attribute twice (`k=p as a` included).
  CHECK(case_of("C(k=1, 2)") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("C(k=1, j=2, k=3)") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("C(1, k={} as c)") == SyntaxIssue::none);
  CHECK(case_of("C(k={} as c, k=1)") == SyntaxIssue::invalid_pattern);
  // Literals: a complex number is real + imaginary; no f-string.
  CHECK(case_of("1 + 1") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("1j + 1") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("-1 - 2j") == SyntaxIssue::none);
  CHECK(case_of("f'a'") == SyntaxIssue::invalid_pattern);
  // Mapping keys: literals or attribute lookups, none twice (1 == 1.0 == True == 1+0j; "a" == 'a'; b"a" != "a").
  CHECK(case_of("{a: 1}") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{x.y: 1, x.y: 2}") == SyntaxIssue::none);
  CHECK(case_of("{'a': 1, \"a\": 2}") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{'a' 'b': 1, 'ab': 2}") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{0x1: 1, 1.0: 2}") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{1: 1, True: 2}") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{1: 1, 1 + 0j: 2}") == SyntaxIssue::invalid_pattern);
  CHECK(case_of("{-1: 1, 1: 2}") == SyntaxIssue::none);
  CHECK(case_of("{b'a': 1, 'a': 2}") == SyntaxIssue::none);
  CHECK(case_of("{None: 1, None: 2}") == SyntaxIssue::invalid_pattern);
  // A key impact cannot evaluate beside another key of its kind: it widens.
  CHECK(case_of("{'\\x61': 1, 'a': 2}") == SyntaxIssue::unsure_construct);
  CHECK(case_of("{'\\x61': 1, 2: 2}") == SyntaxIssue::none);
  // A case that matches anything must be the last: a capture, `_`, a group or `as` around one.
  CHECK(issue_of("match x:\n    case (y):\n        pass\n    case 1:\n        pass\n") == SyntaxIssue::invalid_clause);
  CHECK(issue_of("match x:\n    case _ as y:\n        pass\n    case 1:\n        pass\n") == SyntaxIssue::invalid_clause);
  CHECK(issue_of("match x:\n    case 1 | y:\n        pass\n    case 1:\n        pass\n") == SyntaxIssue::invalid_clause);
  CHECK(issue_of("match x:\n    case y if y:\n        pass\n    case 1:\n        pass\n") == SyntaxIssue::none);
}

TEST_CASE("compile check: the bytes CPython's tokenizer refuses", "[compile]") {
  CHECK(issue_of(std::string_view("x = 1\0\n", 7)) == SyntaxIssue::null_byte);
  CHECK(issue_of("x = '\xe9'\n") == SyntaxIssue::invalid_utf8);
  CHECK(issue_of("# coding: ascii\nx = '\xc3\xa9'\n") == SyntaxIssue::invalid_utf8);
  CHECK(issue_of("# coding: klingon\nx = 1\n") == SyntaxIssue::unsure_encoding);
  CHECK(issue_of("if x:\n        a = 1\n\tb = 2\n") == SyntaxIssue::inconsistent_tabs);
  CHECK(issue_of("if x:\n    a = 1\n  b = 2\n") != SyntaxIssue::none);
  CHECK(issue_of("x = 1 $ 2\n") != SyntaxIssue::none);
  CHECK(issue_of("x = 1\xc2\xa0+ 2\n") == SyntaxIssue::invalid_character);
  CHECK(issue_of("x = 1\v\n") == SyntaxIssue::invalid_character);
  // A line continuation with nothing after it: "unexpected EOF while parsing" (the differential
  // check's mutant 83 of fixtures/object_flow); blanks after it, or CRLF read as bytes, compile.
  CHECK(issue_of("x = 1 \\\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("if x:\n    y = 1 \\\n") == SyntaxIssue::syntax_error);
  CHECK(issue_of("x = 1 \\\n\n") == SyntaxIssue::none);
  CHECK(issue_of("x = 1 \\\n   ") == SyntaxIssue::none);
  CHECK(issue_of("x = 1 \\\r\n") == SyntaxIssue::none);
  CHECK(issue_of("# c \\\n") == SyntaxIssue::none);
  std::string deep = "x = " + std::string(201, '(') + "1" + std::string(201, ')') + "\n";
  CHECK(issue_of(deep) == SyntaxIssue::too_many_parentheses);
  std::string ok = "x = " + std::string(199, '(') + "1" + std::string(199, ')') + "\n";
  CHECK(issue_of(ok) != SyntaxIssue::too_many_parentheses);
  std::string blocks;
  for (int i = 0; i < 21; ++i) blocks += std::string(static_cast<size_t>(i) * 4, ' ') + "for x in y:\n";
  blocks += std::string(21 * 4, ' ') + "pass\n";
  CHECK(issue_of(blocks) == SyntaxIssue::too_many_blocks);
}

TEST_CASE("compile check: version-dependent syntax is judged by the project's Python", "[compile]") {
  CompileCheck walrus = compile_check_of("if (n := 1):\n    pass\n");
  CHECK(walrus.issue == SyntaxIssue::none);
  CHECK(walrus.needs_minor == 8);
  CHECK(compile_check_of("match x:\n    case 1:\n        pass\n").needs_minor == 10);
  CHECK(compile_check_of("try:\n    pass\nexcept* E:\n    pass\n").needs_minor == 11);
  CHECK(compile_check_of("type X = int\n").needs_minor == 12);
  CHECK(compile_check_of("def f[T](x: T) -> T:\n    return x\n").needs_minor == 12);
  CHECK(compile_check_of("x = f'{'a' + \"b\"}'\n").needs_minor == 12);
  CHECK(compile_check_of("def f(a, /, b):\n    pass\n").needs_minor == 8);
  CHECK(compile_check_of("with (open(a) as f, open(b) as g):\n    pass\n").needs_minor == 9);
  SECTION("verdicts") {
    CHECK(compile_verdict(walrus, 8).compiles());
    CHECK(compile_verdict(walrus, 7).fails);
    CHECK(compile_verdict(walrus, std::nullopt).unsure);
    CHECK(compile_verdict(compile_check_of("print 'x'\n"), 12).fails);
    CHECK(compile_verdict(compile_check_of("print 'x'\n"), 12).why == "line 1: print statement (Python 2)");
  }
}

TEST_CASE("requires-python gives the lowest Python 3 minor version", "[compile][config]") {
  CHECK(lowest_python_minor(">=3.9") == uint8_t{9});
  CHECK(lowest_python_minor(">=3.8, <4") == uint8_t{8});
  CHECK(lowest_python_minor("~=3.10") == uint8_t{10});
  CHECK(lowest_python_minor("==3.11.*") == uint8_t{11});
  CHECK(lowest_python_minor(">3.7,!=3.8.0") == uint8_t{7});
  CHECK(lowest_python_minor("<3.12") == std::nullopt);
  CHECK(lowest_python_minor(">=2.7") == std::nullopt);
  // Poetry's forms ([tool.poetry.dependencies] python).
  CHECK(lowest_python_minor("^3.9") == uint8_t{9});
  CHECK(lowest_python_minor("~3.10") == uint8_t{10});
  CHECK(lowest_python_minor("^3.10 || ^3.8") == uint8_t{8});
  CHECK(lowest_python_minor("^3.8 || <3.12") == std::nullopt);
  CHECK(lowest_python_minor("^2.7 || ^3.6") == std::nullopt);
}
