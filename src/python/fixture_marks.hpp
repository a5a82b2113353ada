#pragma once
// What pytest's fixture decorator and usefixtures marks say, read from the tree (docs/selection.md
// `fixtures`): the name a fixture is requested by, whether it is autouse, and the fixtures a mark
// makes a test use.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace impact::python {

// `fixture`, `pytest.fixture`, `yield_fixture`, ... as a decorator's callee.
bool is_fixture_decorator(std::string_view callee);

// @pytest.fixture / @pytest.fixture(name="x", autouse=True) on `sym` (`call` null without arguments):
// sets Symbol::fixture (the name pytest injects it by) and Symbol::autouse.
void read_fixture(Symbol& sym, TSNode call, std::string_view src, const Grammar& g);

// The fixture names of a usefixtures("a", "b") call; anything not a literal makes it dynamic.
void read_usefixtures(TSNode call, std::string_view src, const Grammar& g, std::vector<std::string>& names, bool& dynamic);

// pytestmark = pytest.mark.usefixtures(...) / [marks...]: the fixtures every test in scope uses.
void read_pytestmark(TSNode value, std::string_view src, const Grammar& g, std::vector<std::string>& names, bool& dynamic);

} // namespace impact::python
