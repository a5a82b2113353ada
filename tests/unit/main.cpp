// The Catch2 runner for every unit test under tests/unit/.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
