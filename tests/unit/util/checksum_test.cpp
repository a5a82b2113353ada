#include "util/checksum.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using impact::util::checksum64;

TEST_CASE("checksum64 depends on the content only", "[checksum]") {
  SECTION("the same bytes give the same sum") {
    CHECK(checksum64("hello world") == checksum64(std::string("hello world")));
  }
  SECTION("a view at any alignment gives the sum of its bytes") {
    std::string big = "xhello, checksum";
    CHECK(checksum64(std::string_view(big).substr(1)) == checksum64("hello, checksum"));
  }
  SECTION("the empty input has a sum") { CHECK(checksum64("") == checksum64(std::string_view("x", 0))); }
}

// A default-constructed view has a null data pointer: no memcpy from it (UBSan checks this).
TEST_CASE("checksum64 accepts a default-constructed view", "[checksum]") {
  CHECK(checksum64(std::string_view()) == checksum64(""));
}

TEST_CASE("checksum64 changes when any single bit changes", "[checksum]") {
  std::string data = "The quick brown fox jumps over the lazy dog";
  uint64_t original = checksum64(data);
  for (size_t i = 0; i < data.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = data;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      INFO("byte " << i << " bit " << bit);
      CHECK(checksum64(flipped) != original);
    }
  }
}

TEST_CASE("checksum64 tells lengths apart, trailing zero bytes included", "[checksum]") {
  std::set<uint64_t> sums;
  for (size_t n = 0; n <= 24; ++n) sums.insert(checksum64(std::string(n, '\0')));
  CHECK(sums.size() == 25);
}
