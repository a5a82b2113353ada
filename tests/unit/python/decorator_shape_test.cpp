// Which functions are decorators that only wrap what they are given (Symbol::wraps_only).
#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace impact;
using impact::testing::extract;

namespace {

// Whether the symbol `qualname` of `source` is marked as a wrapping decorator.
bool wraps(const std::string& source, std::string_view qualname = "deco") {
  auto facts = extract(source);
  for (const auto& s : facts.symbols) {
    if (s.qualname == qualname) return s.wraps_only;
  }
  FAIL("no symbol " << qualname);
  return false;
}

} // namespace

TEST_CASE("a decorator that returns a wrapper calling the function only wraps", "[extract][decorators]") {
  CHECK(wraps("import functools\n"
              "def deco(fn):\n"
              "    @functools.wraps(fn)\n"
              "    def inner(*args, **kwargs):\n"
              "        print(fn.__name__)\n"
              "        return fn(*args, **kwargs)\n"
              "    return inner\n"));
  // Written out by hand: update_wrapper, __wrapped__, attributes set on the wrapper.
  CHECK(wraps("from functools import update_wrapper\n"
              "def deco(fn):\n"
              "    def inner(*a):\n"
              "        return fn(*a)\n"
              "    update_wrapper(inner, fn)\n"
              "    inner.__wrapped__ = fn\n"
              "    inner.calls = 0\n"
              "    return inner\n"));
  // async wrappers await the call.
  CHECK(wraps("def deco(fn):\n"
              "    async def inner(*a):\n"
              "        return await fn(*a)\n"
              "    return inner\n"));
}

TEST_CASE("an identity decorator that only sets attributes wraps", "[extract][decorators]") {
  CHECK(wraps("def deco(fn):\n    fn.tag = fn.__name__\n    return fn\n"));
  CHECK_FALSE(wraps("def deco(fn):\n    if not callable(fn):\n        raise TypeError(fn)\n    return fn\n"));
  CHECK(wraps("def deco(fn):\n    if not callable(fn):\n        raise TypeError('no')\n    return fn\n"));
}

TEST_CASE("optional-argument decorators and factories", "[extract][decorators]") {
  // semver's `deprecated`: func=None returns partial(itself, ...); typing.cast of the function.
  CHECK(wraps("from functools import partial, wraps\nfrom typing import cast\n"
              "def deco(func=None, *, since=None):\n"
              "    if func is None:\n"
              "        return partial(deco, since=since)\n"
              "    @wraps(func)\n"
              "    def wrapper(*args, **kwargs):\n"
              "        name = cast(F, func).__qualname__\n"
              "        return func(*args, **kwargs)\n"
              "    return wrapper\n"));
  std::string factory = "def deco(times):\n"
                        "    def decorator(fn):\n"
                        "        def attempt(*a):\n"
                        "            return fn(*a)\n"
                        "        return attempt\n"
                        "    print(times)\n"
                        "    return decorator\n";
  CHECK(wraps(factory));
  CHECK(wraps(factory, "deco.decorator"));
  // A factory whose parameters are not one plain name (jmespath's `signature(*arguments)`), or none.
  std::string starred = "def signature(*arguments):\n"
                        "    def _record_signature(func):\n"
                        "        func.signature = arguments\n"
                        "        return func\n"
                        "    return _record_signature\n";
  CHECK(wraps(starred, "signature"));
  CHECK(wraps("def deco():\n    def decorator(fn):\n        return fn\n    return decorator\n"));
  // No parameter to wrap: a function that returns a function of its own is no decorator.
  CHECK_FALSE(wraps("def make(*args):\n    def inner():\n        return args\n    return inner\n", "make"));
  // A factory whose decorator registers is no wrapping decorator.
  CHECK_FALSE(wraps("REG = {}\n"
                    "def deco(name):\n"
                    "    def decorator(fn):\n"
                    "        REG[name] = fn\n"
                    "        return fn\n"
                    "    return decorator\n"));
}

TEST_CASE("a decorator that hands the function or its wrapper to anything else registers", "[extract][decorators]") {
  // Stored in a table, at decoration or when called.
  CHECK_FALSE(wraps("HANDLERS = {}\ndef deco(fn):\n    HANDLERS[fn.__name__] = fn\n    return fn\n"));
  CHECK_FALSE(wraps("CALLS = []\n"
                    "def deco(fn):\n"
                    "    def inner(*a):\n"
                    "        return fn(*a)\n"
                    "    CALLS.append(inner)\n"
                    "    return inner\n"));
  CHECK_FALSE(wraps("LATER = []\n"
                    "def deco(fn):\n"
                    "    def inner(*a):\n"
                    "        LATER.append(fn)\n"
                    "        return fn(*a)\n"
                    "    return inner\n"));
  // Called while decorating: its body runs at import.
  CHECK_FALSE(wraps("def deco(fn):\n    fn()\n    return fn\n"));
  // Bound to another name, wrapped in a lambda, or kept by a nested class.
  CHECK_FALSE(wraps("def deco(fn):\n    g = fn\n    return g\n"));
  CHECK_FALSE(wraps("def deco(fn):\n    return lambda *a: fn(*a)\n"));
  CHECK_FALSE(wraps("def deco(fn):\n"
                    "    def inner(*a):\n"
                    "        def deeper():\n"
                    "            return fn(*a)\n"
                    "        return deeper()\n"
                    "    return inner\n"));
  // Anything else returned, or nothing.
  CHECK_FALSE(wraps("def deco(fn):\n    return registry.add(fn)\n"));
  CHECK_FALSE(wraps("def deco(fn):\n    print(1)\n    return\n"));
  // A generator, a coroutine, or a decorated decorator.
  CHECK_FALSE(wraps("def deco(fn):\n    yield fn\n    return fn\n"));
  CHECK_FALSE(wraps("async def deco(fn):\n    return fn\n"));
  CHECK_FALSE(wraps("@register\ndef deco(fn):\n    return fn\n"));
  // A method: its first parameter is the instance.
  CHECK_FALSE(wraps("class T:\n    def deco(self, fn):\n        return fn\n", "T.deco"));
}
