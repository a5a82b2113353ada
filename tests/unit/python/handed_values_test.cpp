// The classes and callables a file hands to other code as values (FileFacts::handed).
#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace impact;
using impact::testing::extract;
using Entries = std::vector<std::string>;

TEST_CASE("handed: arguments of calls, as values or called once, with the callee's last name", "[handed]") {
  FileFacts facts = extract("import sqlite3\n"
                            "def setup(db, log):\n"
                            "    db.create_aggregate('longest', 1, Longest)\n"
                            "    log.addHandler(handlers.ListHandler(level=1))\n"
                            "    run(key=Keyed, *Starred)\n"
                            "    f()(Computed)\n");
  CHECK(facts.handed == Entries{"Computed\t", "Keyed\trun", "ListHandler\taddHandler", "Longest\tcreate_aggregate",
                                "Starred\trun"});
}

TEST_CASE("handed: a name bound to a value hands what it was bound to, an alias its imported name", "[handed]") {
  FileFacts facts = extract("from shop.tally import Longest as L\n"
                            "def setup(db, log):\n"
                            "    handler = ListHandler()\n"
                            "    log.addHandler(handler)\n"
                            "    db.create_aggregate('x', 1, L)\n");
  CHECK(facts.handed == Entries{"L\tcreate_aggregate", "ListHandler\taddHandler", "Longest\tcreate_aggregate",
                                "handler\taddHandler"});
}

TEST_CASE("handed: displays and values stored in a module or class go to no particular callee", "[handed]") {
  FileFacts facts = extract("REG = {'a': Alpha, 'b': mod.Beta}\n"
                            "PAIRS = [Listed(), (Tupled)]\n"
                            "class Server:\n"
                            "    handler_class = EchoHandler\n");
  CHECK(facts.handed == Entries{"Alpha\t", "Beta\t", "EchoHandler\t", "Listed\t", "Tupled\t"});
}

TEST_CASE("handed: a display in a call's arguments goes to that callee; a function's own display and alias stay", "[handed]") {
  FileFacts facts = extract("def setup(db):\n"
                            "    db.register_all([Alpha(), {'b': Beta}])\n"
                            "    shapes = [Circle(1), Square(2)]\n"
                            "    kind = Circle\n"
                            "    return shapes, kind\n");
  CHECK(facts.handed == Entries{"Alpha\tregister_all", "Beta\tregister_all"});
}

TEST_CASE("handed: self in a method is its class; a parameter is whatever the function is given", "[handed]") {
  FileFacts facts = extract("class Sink:\n"
                            "    def attach(self, log):\n"
                            "        log.addHandler(self)\n"
                            "def register(aggregate, db):\n"
                            "    db.create_aggregate('x', 1, aggregate)\n");
  CHECK(facts.handed == Entries{"=register\tcreate_aggregate", "Sink\taddHandler"});
}

TEST_CASE("handed: calls that only inspect, subscripts, parameter lists and except clauses hand nothing", "[handed]") {
  FileFacts facts = extract("def check(x, p=Default):\n"
                            "    assert isinstance(x, (Inspected, Other))\n"
                            "    print(Printed())\n"
                            "    y = table[Key]\n"
                            "    try:\n"
                            "        pass\n"
                            "    except (Caught, Missed):\n"
                            "        pass\n"
                            "class Derived(Base):\n"
                            "    pass\n");
  CHECK(facts.handed.empty());
}

TEST_CASE("handed: a value a function returns goes wherever the function's result goes", "[handed]") {
  FileFacts facts = extract("def make_sink():\n"
                            "    return sinks.ListSink()\n"
                            "def setup(log):\n"
                            "    log.addHandler(make_sink())\n"
                            "    pickle.dumps(Pickled())\n"
                            "    json.dumps(data, cls=Encoder)\n");
  CHECK(facts.handed == Entries{"Encoder\tdumps", "ListSink\t^make_sink", "make_sink\taddHandler"});
}

TEST_CASE("handed: a lambda argument hands what its body makes", "[handed]") {
  FileFacts facts = extract("def setup(db, n):\n"
                            "    db.create_aggregate('longest', 1, lambda: Longest(n))\n"
                            "    db.create_function('f', 1, lambda x, y=2: helpers.Shortest(x))\n");
  CHECK(facts.handed == Entries{"=setup\tLongest", "Longest\tcreate_aggregate", "Shortest\tcreate_function", "x\tShortest"});
}
