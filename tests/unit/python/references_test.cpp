// The reference pass, through FactsExtractor: which dotted names each symbol's own code reads.
#include "impact/python/facts.hpp"
#include "python/literals.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace impact;
using impact::testing::extract;

namespace {

using Strings = std::vector<std::string>;

const Symbol& symbol(const FileFacts& facts, std::string_view qualname) {
  for (const auto& s : facts.symbols) {
    if (s.qualname == qualname) return s;
  }
  FAIL("no symbol " << qualname);
  return facts.symbols.front();
}

bool reads(const Symbol& s, std::string_view ref) { return std::find(s.refs.begin(), s.refs.end(), ref) != s.refs.end(); }

} // namespace

TEST_CASE("the reference pass reads names, dotted chains and attributes of local values", "[references]") {
  auto facts = extract("import models\n\ndef save(cart, n=LIMIT):\n    total = helper(cart)\n"
                       "    models.Order.create(total=total)\n    return cart.items\n");
  const Symbol& s = symbol(facts, "save");
  CHECK(reads(s, "helper"));
  CHECK(reads(s, "models.Order.create"));
  CHECK(reads(s, ".items"));       // cart is a parameter: only its attribute is kept
  CHECK_FALSE(reads(s, "cart"));
  CHECK_FALSE(reads(s, "total"));  // a local, and a keyword argument's name
  CHECK_FALSE(s.dynamic_access);
}

TEST_CASE("a nested function reads its enclosing functions' locals and parameters, not the module's names", "[references]") {
  auto facts = extract("def label(v):\n    return v\n\n\ndef shout(t):\n    return t\n\n\n"
                       "def tagged(label, *, width):\n    made = 1\n    def deco(func):\n        class Box:\n"
                       "            def show(self):\n                return made, width.bit_length()\n"
                       "        def wrapper(*args):\n            return label + func(*args) + shout(args)\n"
                       "        return wrapper\n    return deco\n\n\n"
                       "def counter():\n    global label\n    def inner():\n        return label\n    return inner\n");
  const Symbol& wrapper = symbol(facts, "tagged.deco.wrapper");
  CHECK_FALSE(reads(wrapper, "label")); // the factory's parameter, not the module's function
  CHECK_FALSE(reads(wrapper, "func"));  // deco's parameter
  CHECK(reads(wrapper, "shout"));       // no function around it binds shout: the module's
  const Symbol& show = symbol(facts, "tagged.deco.Box.show");
  CHECK_FALSE(reads(show, "made"));     // a class body in between is skipped, as Python does
  CHECK(reads(show, ".bit_length"));    // an attribute of a closure value is still read
  CHECK(reads(symbol(facts, "counter.inner"), "label")); // counter declares it global
}

TEST_CASE("getattr over a function's own table of literal names reads those names", "[references]") {
  auto facts = extract("def run(obj, word):\n    table = {\"+\": \"up\", \"-\": 'down'}\n"
                       "    return getattr(obj, table[word])()\n\n\n"
                       "def passed(obj, word, table):\n    return getattr(obj, table[word])()\n\n\n"
                       "def grown(obj, word):\n    table = {\"+\": \"up\"}\n    table[\"*\"] = \"times\"\n"
                       "    return getattr(obj, table[word])()\n\n\n"
                       "def computed(obj, word):\n    table = {\"+\": \"up\" + word}\n"
                       "    return getattr(obj, table[word])()\n");
  const Symbol& run = symbol(facts, "run");
  CHECK(reads(run, ".up"));
  CHECK(reads(run, ".down"));
  CHECK_FALSE(reads(run, std::string(k_any_value_attr)));
  CHECK(reads(symbol(facts, "passed"), std::string(k_any_value_attr)));   // a parameter may hold any names
  CHECK(reads(symbol(facts, "grown"), std::string(k_any_value_attr)));    // the table is written to
  CHECK(reads(symbol(facts, "computed"), std::string(k_any_value_attr))); // a value that is no literal
  auto started = extract("def bump(version, part):\n    return getattr(version, \"bump_\" + part)()\n");
  CHECK(reads(symbol(started, "bump"), std::string(k_any_value_attr) + "bump_")); // only names that start so
  CHECK(any_value_attr_prefix(std::string(k_any_value_attr) + "bump_") == "bump_");
  CHECK(any_value_attr_prefix(k_any_value_attr).empty());
}

TEST_CASE("a dotted chain reads the same whether or not its tokens abut", "[references]") {
  // A chain written in one piece is a slice of the source; one broken by spaces, a line continuation
  // or brackets is assembled from its parts, and must read the same names.
  auto facts = extract("def f():\n    models . Order.create()\n    models.Order \\\n        .save()\n"
                       "    (models\n     .Order.delete)()\n    make().helper\n    make() .other\n    models.Order.create()\n");
  const Symbol& s = symbol(facts, "f");
  CHECK(reads(s, "models.Order.create"));
  CHECK(reads(s, "models.Order.save"));
  CHECK(reads(s, "models.Order.delete"));
  CHECK(reads(s, ".helper")); // an attribute of a call's result
  CHECK(reads(s, ".other"));
  CHECK(reads(s, "make"));
  CHECK(std::count(s.refs.begin(), s.refs.end(), "models.Order.create") == 1); // read twice, kept once
}

TEST_CASE("super().m reads m as super.m; another call's result stays .m", "[references]") {
  // docs/selection.md `self-calls`: super() runs a member of the class's MRO, as self.m does.
  auto facts = extract("class B(A):\n    def f(self):\n        return super().convert(1) + super(B, self).other() + make().third\n");
  const Symbol& s = symbol(facts, "B.f");
  CHECK(reads(s, "super.convert"));
  CHECK(reads(s, ".other")); // super(B, self): left as any call's result
  CHECK(reads(s, ".third"));
  CHECK_FALSE(reads(s, ".convert"));
}

TEST_CASE("the reference pass reads names that builtins take as strings", "[references]") {
  SECTION("getattr with a literal reads that attribute") {
    CHECK(reads(symbol(extract("def f(o):\n    return getattr(o, 'size')\n"), "f"), ".size"));
  }
  SECTION("a test double put in place by object and name reads that attribute") {
    auto facts = extract("def a(monkeypatch):\n    monkeypatch.setattr(mail, 'send', None)\n"
                         "def b(mp):\n    mp.delattr(mail, 'send')\n"
                         "def c():\n    with mock.patch.object(mail, 'send', autospec=True):\n        pass\n"
                         "def d(mocker):\n    mocker.spy(mail, 'send')\n"
                         "def e():\n    with patch.multiple(mail, send=DEFAULT, other = 1):\n        pass\n"
                         "def f(monkeypatch):\n    monkeypatch.setattr('pkg.mail.fmt', lambda m: m)\n"
                         "def g(monkeypatch, name):\n    monkeypatch.setattr(mail, name, None)\n"
                         "def h(x):\n    return getattr('abc', x)\n");
    for (const char* name : {"a", "b", "c", "d", "e"}) CHECK(reads(symbol(facts, name), ".send"));
    CHECK(reads(symbol(facts, "e"), ".other"));
    CHECK_FALSE(reads(symbol(facts, "f"), std::string(k_any_value_attr))); // the string form names the target
    CHECK_FALSE(reads(symbol(facts, "f"), ".pkg.mail.fmt"));
    CHECK(reads(symbol(facts, "g"), std::string(k_any_value_attr)));      // a computed name: any attribute
    CHECK_FALSE(reads(symbol(facts, "h"), ".abc"));                      // the first argument's literal is no name
  }
  SECTION("getattr(self, computed) reads any member, and no module-level name") {
    auto facts = extract("class V:\n    def visit(self, kind):\n        return getattr(self, kind)()\n");
    const Symbol& s = symbol(facts, "V.visit");
    CHECK(reads(s, std::string(k_any_member)));
    CHECK_FALSE(s.dynamic_access);
  }
  SECTION("getattr(self, computed) with a literal start reads the members whose names start so") {
    auto facts = extract("class V:\n"
                         "    def a(self, kind):\n        return getattr(self, 'v_' + kind)()\n"
                         "    def b(self, node):\n        return getattr(self, f\"visit_{type(node).__name__}\", None)\n"
                         "    def c(self, kind):\n        return getattr(self, \"do_%s\" % kind)\n"
                         "    def d(self, kind):\n        return getattr(self, 'on_{}'.format(kind))\n"
                         "    def e(self, kind):\n        return getattr(self, 'x_' + kind if kind else 'other')\n"
                         "    def f(self, kind):\n        return getattr(self, '_'.join([kind, 'x']))\n"
                         "    def g(self, kind):\n        return getattr(self, 'p.' + kind)\n");
    std::string any(k_any_member);
    CHECK(reads(symbol(facts, "V.a"), any + "v_"));
    CHECK_FALSE(reads(symbol(facts, "V.a"), any));
    CHECK(reads(symbol(facts, "V.b"), any + "visit_"));
    CHECK(reads(symbol(facts, "V.c"), any + "do_"));
    CHECK(reads(symbol(facts, "V.d"), any + "on_"));
    CHECK(reads(symbol(facts, "V.e"), any)); // a conditional may give another name
    CHECK(reads(symbol(facts, "V.f"), any)); // a method of the literal: it is no start
    CHECK(reads(symbol(facts, "V.g"), any + "p"));
  }
  SECTION("getattr(obj, computed) reads a member of any object or a name of a module object") {
    auto facts = extract("def f(o, n):\n    return getattr(o, n)\n");
    const Symbol& s = symbol(facts, "f");
    CHECK(reads(s, std::string(k_any_value_attr)));
    CHECK_FALSE(s.dynamic_access); // not every name: the decision follows where `o` comes from
  }
  SECTION("sys.modules looked up by a literal key names one module; by any other key, any module") {
    auto facts = extract("import sys\n\ndef f():\n    return sys.modules.get(\"multiprocessing\")\n\n"
                         "def g():\n    return sys.modules[__name__]\n\n"
                         "def h():\n    return sys.modules['a.b'], sys.modules.get('c', None)\n\n"
                         "def k(name):\n    return sys.modules[name]\n\n"
                         "def m(name):\n    return sys.modules.get(f\"x{name}\")\n\n"
                         "def n():\n    return 'a' in sys.modules\n\n"
                         "class C:\n    def p(self):\n        return self.modules['a']\n");
    std::string lookup(k_module_lookup);
    CHECK(reads(symbol(facts, "f"), lookup + ".multiprocessing"));
    CHECK_FALSE(reads(symbol(facts, "f"), "sys.modules.get"));
    CHECK(reads(symbol(facts, "g"), lookup + ".__name__"));
    CHECK_FALSE(reads(symbol(facts, "g"), "sys.modules"));
    CHECK(reads(symbol(facts, "h"), lookup + ".a.b"));
    CHECK(reads(symbol(facts, "h"), lookup + ".c"));
    CHECK(reads(symbol(facts, "k"), "sys.modules"));           // a computed key: any module
    CHECK(reads(symbol(facts, "m"), "sys.modules.get"));       // an f-string is computed
    CHECK_FALSE(reads(symbol(facts, "m"), lookup + ".x{name}"));
    CHECK(reads(symbol(facts, "n"), "sys.modules"));           // not a lookup: kept as it was
    CHECK(reads(symbol(facts, "C.p"), "self.modules"));        // an attribute of another object: kept
    CHECK_FALSE(reads(symbol(facts, "C.p"), lookup + ".a"));
  }
  SECTION("setattr and delattr with a computed name store: only a setter or deleter may run") {
    for (const char* code : {"def f(o, n, v):\n    setattr(o, n, v)\n", "def f(o, n):\n    delattr(o, n)\n"}) {
      auto facts = extract(code);
      const Symbol& s = symbol(facts, "f");
      CHECK(reads(s, std::string(k_any_setter)));
      CHECK_FALSE(reads(s, std::string(k_self_setter)));
      CHECK_FALSE(reads(s, std::string(k_any_member)));
      CHECK_FALSE(s.dynamic_access);
    }
    // On self: a setter of self's class's MRO only.
    for (const char* code : {"def f(self, n, v):\n    setattr(self, n, v)\n", "def f(cls, n):\n    delattr(cls, n)\n"}) {
      auto facts = extract(code);
      const Symbol& s = symbol(facts, "f");
      CHECK(reads(s, std::string(k_self_setter)));
      CHECK_FALSE(reads(s, std::string(k_any_setter)));
      CHECK_FALSE(reads(s, std::string(k_any_member)));
    }
  }
  SECTION("a computed lookup on a `self` that is no method's instance is one on any value") {
    auto facts = extract("class Meta(type):\n    def __call__(cls, *args, **kw):\n        self = super().__call__(*args)\n"
                         "        for k, v in kw.items():\n            setattr(self, k, v)\n        return self\n\n"
                         "    def has(cls, name):\n        return hasattr(cls, name)\n");
    CHECK(reads(symbol(facts, "Meta.__call__"), std::string(k_any_setter)));
    CHECK_FALSE(reads(symbol(facts, "Meta.__call__"), std::string(k_self_setter)));
    CHECK(reads(symbol(facts, "Meta.has"), std::string(k_self_getter))); // its own first parameter
  }
  SECTION("object.__setattr__ and object.__delattr__ are setattr and delattr") {
    auto facts = extract("class C:\n    def __init__(self, v):\n        object.__setattr__(self, 'owner', v)\n\n"
                         "    def drop(self, name):\n        object.__delattr__(self, name)\n\n"
                         "    def put(self, name, v):\n        type.__setattr__(self, name, v)\n");
    CHECK(reads(symbol(facts, "C.__init__"), ".owner"));
    CHECK(reads(symbol(facts, "C.drop"), std::string(k_self_setter)));
    CHECK(reads(symbol(facts, "C.put"), std::string(k_self_setter)));
    CHECK_FALSE(reads(symbol(facts, "C.drop"), std::string(k_any_value_attr)));
  }
  SECTION("hasattr with a computed name calls only a property's getter") {
    auto facts = extract("def f(o, n):\n    return hasattr(o, n)\n\n\ndef g(self, n):\n    return hasattr(self, n)\n");
    CHECK(reads(symbol(facts, "f"), std::string(k_any_getter)));
    CHECK_FALSE(reads(symbol(facts, "f"), std::string(k_self_getter)));
    CHECK(reads(symbol(facts, "g"), std::string(k_self_getter)));
    CHECK_FALSE(reads(symbol(facts, "g"), std::string(k_any_getter)));
    for (const char* name : {"f", "g"}) {
      CHECK_FALSE(reads(symbol(facts, name), std::string(k_any_member)));
      CHECK_FALSE(symbol(facts, name).dynamic_access);
    }
  }
  SECTION("inspect.getmembers(module) reads the module's namespace") {
    auto facts = extract("import inspect\nfrom app import ops\n\ndef table():\n"
                         "    return dict(inspect.getmembers(ops, inspect.isfunction))\n");
    CHECK(reads(symbol(facts, "table"), "ops.__dict__"));
  }
  SECTION("getmembers of a computed value may read anything") {
    CHECK(symbol(extract("import inspect\n\ndef f(make):\n    return inspect.getmembers(make())\n"), "f").dynamic_access);
  }
  SECTION("globals(), eval() and exec() may read anything; so do locals() and vars() at module level") {
    CHECK(symbol(extract("def f(src):\n    return eval(src)\n"), "f").dynamic_access);
    CHECK(extract("NAMES = dict(globals())\n").module_dynamic_access);
    CHECK(extract("NAMES = dict(vars())\n").module_dynamic_access);
    CHECK(extract("NAMES = dict(locals())\n").module_dynamic_access);
  }
  SECTION("in a function, locals() and vars() are its own local values") {
    CHECK_FALSE(symbol(extract("def f(a):\n    return dict(locals())\n"), "f").dynamic_access);
    CHECK_FALSE(symbol(extract("def f(a):\n    return vars()\n"), "f").dynamic_access);
  }
  SECTION("vars(module) reads the module's namespace") {
    CHECK(reads(symbol(extract("from app import ops\n\ndef f():\n    return vars(ops)\n"), "f"), "ops.__dict__"));
  }
  SECTION("eval and exec may read anything even when passed on, and through builtins") {
    CHECK(symbol(extract("def f(xs):\n    return list(map(eval, xs))\n"), "f").dynamic_access);
    CHECK(symbol(extract("import builtins\n\ndef f(x):\n    return builtins.eval(x)\n"), "f").dynamic_access);
    CHECK_FALSE(symbol(extract("def f(model):\n    return model.eval()\n"), "f").dynamic_access);
  }
  SECTION("locals() of a function that imports holds the imported code") {
    CHECK(symbol(extract("def f(name):\n    from app.ops import double\n    return locals()[name](1)\n"), "f").dynamic_access);
  }
  SECTION("getmembers() of a value the function was given is a computed getattr on it; vars() of it is its __dict__") {
    auto given = symbol(extract("def table(mod):\n    return dict(vars(mod))\n"), "table");
    CHECK_FALSE(given.dynamic_access);
    CHECK(reads(given, ".__dict__")); // an attribute of a value the function was given
    CHECK(symbol(extract("def table(mod):\n    return dict(vars(mod.sub))\n"), "table").dynamic_access == false);
    CHECK(symbol(extract("def table(make):\n    return vars(make())\n"), "table").dynamic_access);
    auto members = symbol(extract("import inspect\n\ndef table(mod):\n    return inspect.getmembers(mod)\n"), "table");
    CHECK_FALSE(members.dynamic_access);
    CHECK(reads(members, std::string(k_any_value_attr)));
    // `cls` of a plain function is a value it was given (jmespath's get_methods(cls)); of a method, its class.
    auto plain = symbol(extract("import inspect\n\ndef get_methods(cls):\n    return inspect.getmembers(cls)\n"), "get_methods");
    CHECK(reads(plain, std::string(k_any_value_attr)));
    CHECK_FALSE(reads(plain, std::string(k_any_member)));
    auto method = extract("import inspect\n\nclass V:\n    @classmethod\n    def all(cls):\n        return inspect.getmembers(cls)\n");
    CHECK(reads(symbol(method, "V.all"), std::string(k_any_member)));
    CHECK(symbol(extract("import inspect\n\ndef table(make):\n    return inspect.getmembers(make())\n"), "table").dynamic_access);
    // vars(cls) of a class decorator's class: every member of whatever class it is given.
    auto decorator = symbol(extract("def with_defaults(cls):\n    cls.D = {k: v for k, v in vars(cls).items()}\n    return cls\n"),
                            "with_defaults");
    CHECK(reads(decorator, std::string(k_any_value_attr)));
  }
  SECTION("getattr of a builtin type by a computed name reads no project code, unless the name is rebound") {
    CHECK_FALSE(reads(symbol(extract("def conv(case):\n    return getattr(str, case)\n"), "conv"), std::string(k_any_value_attr)));
    CHECK(reads(symbol(extract("from app import Text as str\n\ndef conv(case):\n    return getattr(str, case)\n"), "conv"),
                std::string(k_any_value_attr)));
    CHECK(reads(symbol(extract("def conv(str, case):\n    return getattr(str, case)\n"), "conv"), std::string(k_any_value_attr)));
    CHECK(reads(symbol(extract("def conv(case):\n    return getattr(str.x, case)\n"), "conv"), std::string(k_any_value_attr)));
  }
  SECTION("globals() only stored into (update, a subscript assigned) reads no name; read otherwise, any") {
    CHECK_FALSE(extract("import operator\nlocals().update({n: f for n, f in vars(operator).items()})\n").module_dynamic_access);
    CHECK_FALSE(extract("def f(): pass\n\nfor name in ('a', 'b'):\n    globals()['do_' + name] = f\n").module_dynamic_access);
    CHECK(extract("x = globals()['do_' + 'a']\n").module_dynamic_access);
    CHECK(extract("globals()['n'] += 1\n").module_dynamic_access);
    CHECK(extract("f = globals().get('name')\n").module_dynamic_access);
    CHECK(extract("g = globals()\n").module_dynamic_access);
    CHECK(extract("globals()[globals()['k']] = 1\n").module_dynamic_access);
    CHECK(symbol(extract("def f(name):\n    return globals()[name]\n"), "f").dynamic_access);
    CHECK_FALSE(symbol(extract("def f(name, v):\n    globals()[name] = v\n"), "f").dynamic_access);
  }
  SECTION("del unbinds a plain name and reads none; del of an attribute or an item reads its object") {
    auto facts = extract("import toolz\nfrom app import ops, table\n\ndel toolz, ops\n\ndef f(d):\n    del d[1], table.x\n");
    CHECK_FALSE(std::find(facts.module_refs.begin(), facts.module_refs.end(), "toolz") != facts.module_refs.end());
    CHECK_FALSE(std::find(facts.module_refs.begin(), facts.module_refs.end(), "ops") != facts.module_refs.end());
    CHECK(reads(symbol(facts, "f"), "table.x"));
    auto spaced = extract("import toolz\n\nx = [toolz]\ndel x\n");
    CHECK(std::find(spaced.module_refs.begin(), spaced.module_refs.end(), "toolz") != spaced.module_refs.end());
  }
  SECTION("getmembers(self) lists the class's methods, vars(self) only the instance's attributes") {
    auto facts = extract("import inspect\n\nclass V:\n    def all(self):\n        return inspect.getmembers(self)\n\n"
                         "    def data(self):\n        return vars(self)\n");
    CHECK(reads(symbol(facts, "V.all"), std::string(k_any_member)));
    CHECK_FALSE(reads(symbol(facts, "V.data"), std::string(k_any_member)));
  }
  SECTION("a parameter named like a builtin is a value, not a call") {
    CHECK_FALSE(symbol(extract("def f(self, globals):\n    return self.make(globals)\n"), "f").dynamic_access);
  }
  SECTION("a __getattr__ that forwards the name it was asked for reads what its caller names") {
    auto facts = extract("class Proxy:\n    def __getattr__(self, name):\n        return getattr(self._wrapped, name)\n\n"
                         "    def __getattribute__(self, item):\n        return getattr(self._wrapped, 'x_' + item)\n");
    CHECK_FALSE(symbol(facts, "Proxy.__getattr__").dynamic_access);
    CHECK_FALSE(reads(symbol(facts, "Proxy.__getattr__"), std::string(k_any_value_attr)));
    // A name of its own making, which starts with "x_" whatever `item` is.
    CHECK(reads(symbol(facts, "Proxy.__getattribute__"), std::string(k_any_value_attr) + "x_"));
    auto rebound = extract("class Proxy:\n    def __getattr__(self, name):\n        name = ALIASES.get(name, name)\n"
                           "        return getattr(self._wrapped, name)\n");
    CHECK(reads(symbol(rebound, "Proxy.__getattr__"), std::string(k_any_value_attr))); // it forwards another name
  }
}

TEST_CASE("getattr named as a value, or called inside another named call, looks up any name", "[references]") {
  auto facts = extract("import functools\nimport operator\n\n"
                       "def by_reduce(path, root):\n    return functools.reduce(getattr, path.split('.'), root)\n\n"
                       "def by_map(objs, names):\n    return list(map(getattr, objs, names))\n\n"
                       "def by_attrgetter(paths, root):\n    return [g(root) for g in map(operator.attrgetter, paths)]\n\n"
                       "def by_setattr(x, mod, name):\n    setattr(x, 'f', getattr(mod, name))\n\n"
                       "def by_default(x, mod, name):\n    return getattr(x, 'missing', getattr(mod, name))\n\n"
                       "def checks(x, names):\n    return list(map(hasattr, [x] * len(names), names))\n\n"
                       "def literal(x):\n    return getattr(x, 'name')\n");
  for (const char* name : {"by_reduce", "by_map", "by_attrgetter", "by_setattr", "by_default"}) {
    INFO(name);
    CHECK(reads(symbol(facts, name), std::string(k_any_value_attr)));
  }
  CHECK(reads(symbol(facts, "by_setattr"), ".f")); // the outer call's literal name is still read
  auto spelled = extract("import builtins\n\n"
                         "def by_builtins(obj, name):\n    return builtins.getattr(obj, name)\n\n"
                         "def by_star(pair):\n    return getattr(*pair)\n\n"
                         "def by_has(pair):\n    return hasattr(*pair)\n\n"
                         "def literal(obj):\n    return builtins.getattr(obj, 'size')\n");
  CHECK(reads(symbol(spelled, "by_builtins"), std::string(k_any_value_attr)));
  CHECK(reads(symbol(spelled, "by_star"), std::string(k_any_value_attr)));
  CHECK(reads(symbol(spelled, "by_has"), std::string(k_any_getter)));
  CHECK(reads(symbol(spelled, "literal"), ".size"));
  // A variable named `vars`, and names bound or given as keywords, are no lookups.
  auto named = extract("def render(template, vars):\n    return template.format(**vars)\n\n"
                       "def table():\n    return dict(getattr=1, vars=2)\n");
  CHECK_FALSE(symbol(named, "render").dynamic_access);
  CHECK_FALSE(reads(symbol(named, "table"), std::string(k_any_value_attr)));
  CHECK_FALSE(symbol(named, "table").dynamic_access);
  // So are eval and exec given as keywords (toolz's `dict(eval=[...])` at module level); passed on as
  // a value or called, they stay readers of every name.
  auto keywords = extract("SIGS = dict(eval=[1], exec=[2])\n\n"
                          "def table():\n    return dict(eval=1)\n\n"
                          "def handed(items):\n    return map(eval, items)\n\n"
                          "def both(src):\n    return dict(eval=1), exec(src)\n");
  CHECK_FALSE(keywords.module_dynamic_access);
  CHECK_FALSE(symbol(keywords, "table").dynamic_access);
  CHECK(symbol(keywords, "handed").dynamic_access);
  CHECK(symbol(keywords, "both").dynamic_access);
  CHECK(extract("run = exec\n").module_dynamic_access);
  CHECK_FALSE(reads(symbol(spelled, "literal"), std::string(k_any_value_attr)));
  CHECK(reads(symbol(facts, "checks"), std::string(k_any_getter)));
  CHECK_FALSE(reads(symbol(facts, "literal"), std::string(k_any_value_attr)));
  CHECK(reads(symbol(facts, "literal"), ".name"));
}

TEST_CASE("getattr_static and __getattribute__ called by hand look names up as getattr does", "[references]") {
  auto facts = extract("import inspect\nfrom pkg import impl\n\n"
                       "def by_dunder(name):\n    return impl.__getattribute__(name)\n\n"
                       "def by_object(obj, name):\n    return object.__getattribute__(obj, name)\n\n"
                       "def by_static(name):\n    return inspect.getattr_static(impl, name)\n\n"
                       "def literal(obj):\n    return object.__getattribute__(obj, 'size')\n\n"
                       "class Proxy:\n    def __getattribute__(self, name):\n        return object.__getattribute__(self, name)\n\n"
                       "    def __getattr__(self, name):\n        return super().__getattribute__(name)\n");
  for (const char* name : {"by_dunder", "by_object", "by_static"}) {
    INFO(name);
    CHECK(reads(symbol(facts, name), std::string(k_any_value_attr)));
  }
  CHECK(reads(symbol(facts, "by_dunder"), "impl")); // the module looked into is held as a value
  CHECK_FALSE(reads(symbol(facts, "literal"), std::string(k_any_value_attr)));
  CHECK(reads(symbol(facts, "literal"), ".size"));
  // Forwarding the name it was asked for: what the caller's code names.
  CHECK_FALSE(reads(symbol(facts, "Proxy.__getattribute__"), std::string(k_any_value_attr)));
  CHECK_FALSE(reads(symbol(facts, "Proxy.__getattr__"), std::string(k_any_value_attr)));
}

TEST_CASE("a literal str.format template's replacement fields read attributes", "[references]") {
  using python::format_attributes;
  CHECK(format_attributes("\"<{0.name}>\"") == std::vector<std::string_view>{"name"});
  CHECK(format_attributes("'{user.name!r:>10} {x[0].y} {a.b.c}'") == std::vector<std::string_view>{"b", "c", "name", "y"});
  CHECK(format_attributes("'{{x.y}} {0:{w.width}}'") == std::vector<std::string_view>{"width"});
  CHECK(format_attributes("'{}' '{0}' '{name}'").empty());
  auto facts = extract("def show(user):\n    return '<{0.name}>'.format(user)\n\n"
                       "def show_kw(user):\n    return ('<{u.name}' '{u.title}>').format_map({'u': user})\n\n"
                       "def plain(user):\n    return '<{0.name}>' + str(user)\n");
  CHECK(reads(symbol(facts, "show"), ".name"));
  CHECK(reads(symbol(facts, "show_kw"), ".name"));
  CHECK(reads(symbol(facts, "show_kw"), ".title"));
  // A template literal in a function is read wherever it goes (a Formatter, a function that formats it):
  // one that is never formatted reads its fields too, an over-selection by name.
  CHECK(reads(symbol(facts, "plain"), ".name"));
  // A template held in a name, at module level or in the function.
  auto held = extract("TEMPLATE = '<{0.name}>'\n\n"
                      "def show(user):\n    return TEMPLATE.format(user)\n\n"
                      "def local(user):\n    fmt = ('{u.title}'\n           ' {u.age}')\n    return fmt.format_map({'u': user})\n\n"
                      "def other(user):\n    return user.TEMPLATE.format(user)\n\n"
                      "def unknown(user, fmt):\n    return fmt.format(user)\n");
  CHECK(reads(symbol(held, "show"), ".name"));
  CHECK(reads(symbol(held, "local"), ".title"));
  CHECK(reads(symbol(held, "local"), ".age"));
  // An attribute of that last name may hold it (a class attribute, `self.template = ...`): read.
  CHECK(reads(symbol(held, "other"), ".name"));
  CHECK_FALSE(reads(symbol(held, "unknown"), ".name"));
  auto attribute = extract("class Card:\n    template = '({0.name})'\n\n"
                           "    def __init__(self):\n        self.footer = '{0.email}'\n\n"
                           "    def render(self, user):\n        return self.template.format(user) + self.footer.format(user)\n");
  CHECK(reads(symbol(attribute, "Card.render"), ".name"));
  CHECK(reads(symbol(attribute, "Card.render"), ".email"));
  // A module-level template its own file never formats is there for an importer: the module level
  // reads its fields (`held` formats TEMPLATE itself: its module level reads nothing).
  auto exported = extract("TAG = '#{0.name}'\nPLAIN = '{0}'\n\ndef f():\n    INNER = '{0.size}'\n    return INNER\n");
  CHECK(std::find(exported.module_refs.begin(), exported.module_refs.end(), ".name") != exported.module_refs.end());
  CHECK(std::find(exported.module_refs.begin(), exported.module_refs.end(), ".size") == exported.module_refs.end());
  CHECK(std::find(held.module_refs.begin(), held.module_refs.end(), ".name") == held.module_refs.end());
}

TEST_CASE("lookup functions imported under another name are read as themselves", "[references]") {
  auto facts = extract("import builtins as b\nfrom builtins import getattr as ga, hasattr\n"
                       "from operator import attrgetter as ag\nfrom inspect import getmembers as members\n\n"
                       "def by_alias(obj, name):\n    return ga(obj, name)\n\n"
                       "def by_module(obj, name):\n    return b.getattr(obj, name)\n\n"
                       "def by_getter(obj, path):\n    return ag(path)(obj)\n\n"
                       "def literal(obj):\n    return ga(obj, 'size')\n\n"
                       "def evaluates(text):\n    return b.eval(text)\n\n"
                       "def unrelated(obj, name):\n    return members_of(obj, name)\n");
  for (const char* name : {"by_alias", "by_module", "by_getter"}) {
    INFO(name);
    CHECK(reads(symbol(facts, name), std::string(k_any_value_attr)));
  }
  CHECK(reads(symbol(facts, "literal"), ".size"));
  CHECK_FALSE(reads(symbol(facts, "literal"), std::string(k_any_value_attr)));
  CHECK(symbol(facts, "evaluates").dynamic_access);
  CHECK_FALSE(reads(symbol(facts, "unrelated"), std::string(k_any_value_attr)));
}

TEST_CASE("identifier_prefix reads what a computed string starts with", "[references]") {
  using python::identifier_prefix;
  CHECK(identifier_prefix("'visit_' + kind") == "visit_");
  CHECK(identifier_prefix("f\"visit_{kind}\"") == "visit_");
  CHECK(identifier_prefix("F'visit_{kind}_x'") == "visit_");
  CHECK(identifier_prefix("rf'a_{k}'") == "a_");
  CHECK(identifier_prefix("\"parse_%s\" % (kind,)") == "parse_");
  CHECK(identifier_prefix("'on_{}_x'.format(kind)") == "on_");
  CHECK(identifier_prefix("f'{kind}_visit'").empty());
  CHECK(identifier_prefix("kind + '_visit'").empty());
  CHECK(identifier_prefix("'a' + k or 'b'").empty());
  CHECK(identifier_prefix("'a' + k if k else 'b'").empty());
  CHECK(identifier_prefix("'A'.lower() + k").empty());
  CHECK(identifier_prefix("'a_{}'.format(k) + 'x'").empty());
  CHECK(identifier_prefix("b'a' + k").empty());
  CHECK(identifier_prefix("'a\\x5f' + k") == "a");   // an escape may spell anything: cut before it
  CHECK(identifier_prefix("'a' 'b' + k").empty());     // implicit concatenation: left wide
  CHECK(identifier_prefix("'ünï' + k").empty());       // ASCII only
  CHECK(identifier_prefix("'name'").empty());          // a plain literal is no computed name
}


TEST_CASE("a plain name assigned at module level or in a class body is bound, not read", "[references]") {
  auto facts = extract("size = 3\ncount = total = 0\nlimit += 1\nobj.size = 4\n\n"
                       "class S(Base):\n    size = Base.fail\n    __eq__ = __ne__ = Base.fail\n    depth += 1\n    width = size\n\n"
                       "def f():\n    global gauge\n    gauge = 1\n");
  auto module_reads = [&](std::string_view name) {
    return std::find(facts.module_refs.begin(), facts.module_refs.end(), name) != facts.module_refs.end();
  };
  CHECK_FALSE(module_reads("size"));
  CHECK_FALSE(module_reads("count"));
  CHECK_FALSE(module_reads("total"));
  CHECK(module_reads("limit"));    // augmented: read, then bound
  CHECK(module_reads("obj.size")); // an attribute store may run a setter
  const auto& s = symbol(facts, "S");
  CHECK_FALSE(reads(s, "__eq__"));
  CHECK_FALSE(reads(s, "__ne__"));
  CHECK(reads(s, "Base.fail"));
  CHECK(reads(s, "depth"));
  CHECK(reads(s, "size")); // `width = size` reads the class's own size
  CHECK(reads(symbol(facts, "f"), "gauge")); // a declared global in a function, as before
}

// A class body's `@size.setter` reads the property object, not the method (python/property_accessors.hpp).
TEST_CASE("a property's accessor decorators are no reads of its methods by the class body", "[references]") {
  auto facts = extract("class Loop:\n    @property\n    def last(self):\n        return 1\n\n"
                       "    @last.setter\n    def last(self, v):\n        pass\n\n"
                       "    @last.deleter\n    def last(self):\n        pass\n");
  const Symbol& cls = symbol(facts, "Loop");
  CHECK(reads(cls, "property"));
  CHECK_FALSE(reads(cls, "last.setter"));
  CHECK_FALSE(reads(cls, "last.deleter"));
}

TEST_CASE("other reads of a method by the class body stay reads", "[references]") {
  // `first` is a plain method (`first.setter` fails at import, whatever its body); `size` is made by
  // a project's own descriptor, whose setter may run anything; `doc` reads an attribute of the method.
  auto facts = extract("class Box:\n    def first(self):\n        return 1\n\n"
                       "    @first.setter\n    def first(self, v):\n        pass\n\n"
                       "    @lazy\n    def size(self):\n        return 2\n\n"
                       "    @size.setter\n    def size(self, v):\n        pass\n\n"
                       "    doc = first.__doc__\n");
  const Symbol& cls = symbol(facts, "Box");
  CHECK(reads(cls, "first.setter"));
  CHECK(reads(cls, "size.setter"));
  CHECK(reads(cls, "first.__doc__"));
}

TEST_CASE("a property accessor of another class's property stays a read", "[references]") {
  auto facts = extract("class Base:\n    @property\n    def name(self):\n        return 'a'\n\n\n"
                       "class Sub(Base):\n    @Base.name.setter\n    def name(self, v):\n        pass\n");
  CHECK(reads(symbol(facts, "Sub"), "Base.name.setter"));
}
