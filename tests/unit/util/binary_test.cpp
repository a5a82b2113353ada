#include "util/binary.hpp"

#include <catch2/catch.hpp>

#include <limits>

using impact::util::Reader;
using impact::util::Writer;

namespace {

// A buffer holding one of everything the Writer can write.
std::string sample() {
  Writer w;
  w.u64(0);
  w.u64(127);
  w.u64(128);
  w.u64(300);
  w.u64(uint64_t{1} << 32);
  w.u64(std::numeric_limits<uint64_t>::max());
  w.str("");
  w.str("hello");
  w.str(std::string("a\0b", 3));
  w.strings({"x", "", "yz"});
  w.raw("RAW");
  return w.buffer();
}

// Reads back what sample() wrote; every read is made whatever happened before.
struct Read {
  std::vector<uint64_t> numbers;
  std::vector<std::string> strings;
  std::vector<std::string> list;
  std::string raw;
};

Read read_sample(Reader& r) {
  Read out;
  for (int i = 0; i < 6; ++i) out.numbers.push_back(r.u64());
  for (int i = 0; i < 3; ++i) out.strings.push_back(r.str());
  out.list = r.strings();
  out.raw = std::string(r.raw(3));
  return out;
}

} // namespace

TEST_CASE("Writer and Reader round-trip varints, strings and raw bytes", "[binary]") {
  std::string buffer = sample();
  Reader r(buffer);
  Read got = read_sample(r);
  CHECK(r.ok());
  CHECK(r.done());
  CHECK(r.position() == buffer.size());
  CHECK(got.numbers ==
        std::vector<uint64_t>{0, 127, 128, 300, uint64_t{1} << 32, std::numeric_limits<uint64_t>::max()});
  CHECK(got.strings == std::vector<std::string>{"", "hello", std::string("a\0b", 3)});
  CHECK(got.list == std::vector<std::string>{"x", "", "yz"});
  CHECK(got.raw == "RAW");
}

TEST_CASE("Writer encodes varints in LEB128", "[binary]") {
  SECTION("values below 128 take one byte") {
    Writer w;
    w.u64(127);
    CHECK(w.buffer() == std::string("\x7f", 1));
  }
  SECTION("larger values take seven bits a byte, low bits first") {
    Writer w;
    w.u64(300);
    CHECK(w.buffer() == std::string("\xac\x02", 2));
  }
}

TEST_CASE("Reader on truncated input sets ok() false and never reads past the end", "[binary]") {
  std::string buffer = sample();
  for (size_t n = 0; n < buffer.size(); ++n) {
    // A copy of exactly n bytes, so that reading past it would leave the allocation.
    std::string prefix = buffer.substr(0, n);
    Reader r(prefix);
    read_sample(r);
    INFO("prefix of " << n << " bytes");
    CHECK_FALSE(r.ok());
    CHECK(r.position() <= prefix.size());
  }
}

TEST_CASE("Reader yields zero values once it has failed", "[binary]") {
  SECTION("a varint with no end") {
    std::string bytes(3, '\x80');
    Reader r(bytes);
    CHECK(r.u64() == 0);
    CHECK_FALSE(r.ok());
    CHECK(r.done());
  }
  SECTION("a varint longer than 64 bits") {
    std::string bytes(11, '\xff');
    Reader r(bytes);
    CHECK(r.u64() == 0);
    CHECK_FALSE(r.ok());
  }
  SECTION("a string longer than what is left") {
    Writer w;
    w.u64(100);
    w.raw("short");
    Reader r(w.buffer());
    CHECK(r.str().empty());
    CHECK_FALSE(r.ok());
    CHECK(r.u64() == 0);
  }
  SECTION("a count larger than the bytes left") {
    Writer w;
    w.u64(1'000'000);
    w.raw("abc");
    Reader r(w.buffer());
    CHECK(r.count() == 0);
    CHECK_FALSE(r.ok());
  }
  SECTION("a list of strings claiming more elements than bytes") {
    Writer w;
    w.u64(std::numeric_limits<uint64_t>::max());
    Reader r(w.buffer());
    CHECK(r.strings().empty());
    CHECK_FALSE(r.ok());
  }
  SECTION("raw beyond the end") {
    Reader r("abc");
    CHECK(r.raw(4).empty());
    CHECK_FALSE(r.ok());
    CHECK(r.raw(0).empty());
  }
}

TEST_CASE("Reader reports done() only at the end of its input", "[binary]") {
  Writer w;
  w.u64(5);
  w.u64(6);
  Reader r(w.buffer());
  CHECK_FALSE(r.done());
  CHECK(r.u64() == 5);
  CHECK_FALSE(r.done());
  CHECK(r.u64() == 6);
  CHECK(r.done());
  CHECK(r.ok());
}
