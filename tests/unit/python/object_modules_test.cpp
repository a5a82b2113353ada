// import_module(obj.__module__) imports a module that is loaded already (object_modules.hpp).
#include "impact/python/facts.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::extract;

TEST_CASE("an object's own module as the import's argument is no computed import", "[scan]") {
  for (const char* code : {
           "import importlib\n\ndef load(func):\n    return importlib.import_module(func.__module__)\n",
           "from importlib import import_module\n\ndef load(self):\n    return import_module(type(self).__module__)\n",
           "def load(cls):\n    return __import__(cls.__module__)\n",
           "from importlib import import_module\n\ndef reduce(func):\n    modname = getattr(func, '__module__', None)\n"
           "    if modname:\n        obj = import_module(modname)\n        return obj\n",
           "from importlib import import_module\n\ndef reduce(func):\n    modname = func.__module__\n"
           "    print(modname, len(modname))\n    return import_module(modname)\n",
       }) {
    INFO(code);
    auto facts = extract(code);
    CHECK(facts.uncertain_imports.empty());
  }
}

TEST_CASE("a name bound any other way keeps the import computed", "[scan]") {
  for (const char* code : {
           "from importlib import import_module\n\ndef load(modname):\n    return import_module(modname)\n",
           "from importlib import import_module\n\ndef load(func, name):\n    modname = func.__module__\n"
           "    if name:\n        modname = name\n    return import_module(modname)\n",
           "from importlib import import_module\n\ndef load(funcs):\n    modname = funcs[0].__module__\n"
           "    for modname in funcs:\n        pass\n    return import_module(modname)\n",
           "from importlib import import_module\n\ndef load(func):\n    modname = func.__module__\n"
           "    def swap():\n        nonlocal modname\n        modname = 'pkg.other'\n    swap()\n    return import_module(modname)\n",
           "from importlib import import_module\n\ndef load(func):\n    modname = func.__module__\n"
           "    modname += '.plugins'\n    return import_module(modname)\n",
           "from importlib import import_module\n\ndef load(func):\n    return import_module(func.__module__ + '.plugins')\n",
           "from importlib import import_module\n\ndef load(func):\n    return import_module(getattr(func, 'plugin_module'))\n",
           "from importlib import import_module\n\nmodname = 'pkg.x'\n\ndef load():\n    return import_module(modname)\n",
           "import runpy\n\ndef run(func):\n    return runpy.run_module(func.__module__)\n",
       }) {
    INFO(code);
    auto facts = extract(code);
    CHECK(facts.uncertain_imports.size() == 1);
  }
}
