#include "coverage/generated_tests.hpp"

#include <catch2/catch.hpp>

using impact::generated_test_form;

TEST_CASE("generated_test_form: a test or a class's test, named by setattr or a metaclass", "[coverage][generated]") {
  CHECK(generated_test_form("test_a"));
  CHECK(generated_test_form("TestCases::test_tab-marked_definition_001"));
  CHECK(generated_test_form("TestMadeTriple::test_one[2-4]"));
  CHECK(generated_test_form("test_x[a.b/c]")); // a parameter id may hold anything
}

TEST_CASE("generated_test_form: doctests, paths and nested classes are not", "[coverage][generated]") {
  CHECK_FALSE(generated_test_form(""));
  CHECK_FALSE(generated_test_form("pkg.mod.func"));                // a module's doctest
  CHECK_FALSE(generated_test_form("usage.txt"));                   // a text doctest
  CHECK_FALSE(generated_test_form("Outer::Inner::test_a"));        // not made this way: static collection's
  CHECK_FALSE(generated_test_form("::test_a"));
  CHECK_FALSE(generated_test_form("Cls::"));
}
