#include "util/hex.hpp"

#include <catch2/catch.hpp>

#include <array>

using impact::util::from_hex;
using impact::util::to_hex;

TEST_CASE("to_hex writes two lowercase digits per byte", "[hex]") {
  CHECK(to_hex("") == "");
  CHECK(to_hex(std::string("\x00\x0f\xa0\xff", 4)) == "000fa0ff");
}

TEST_CASE("from_hex reads what to_hex wrote, in either case", "[hex]") {
  std::string bytes("\x01\x23\xab\xcd\xef\x00", 6);
  CHECK(from_hex(to_hex(bytes)) == bytes);
  CHECK(from_hex("0123ABCDEF00") == bytes);
  CHECK(from_hex("") == std::string());
}

TEST_CASE("from_hex refuses what is not hex", "[hex]") {
  CHECK_FALSE(from_hex("abc").has_value()); // odd length
  CHECK_FALSE(from_hex("zz").has_value());
  CHECK_FALSE(from_hex("0g").has_value());
}

TEST_CASE("from_hex into a fixed buffer wants exactly its size", "[hex]") {
  std::array<char, 2> out{};
  CHECK(from_hex("beef", out));
  CHECK(out == std::array<char, 2>{static_cast<char>(0xbe), static_cast<char>(0xef)});
  CHECK_FALSE(from_hex("bee", out));
  CHECK_FALSE(from_hex("beefed", out));
  CHECK_FALSE(from_hex("be-f", out));
}
