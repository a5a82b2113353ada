// Regression tests for the inputs the fuzz targets of tests/fuzz/ found (docs/testing.md, "Fuzzing"):
// each names the corpus file that holds the input as found, and checks the smallest form of it.
#include "impact/error.hpp"
#include "impact/report.hpp"
#include "python/facts_cache.hpp"
#include "python/facts_codec.hpp"
#include "support.hpp"
#include "util/checksum.hpp"
#include "util/files.hpp"
#include "python/lexer.hpp"
#include "util/binary.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

using impact::python::lex;
using impact::python::Token;

namespace {

bool inside(const std::vector<Token>& tokens, size_t size) {
  for (const auto& t : tokens) {
    if (t.begin > t.end || t.end > size) return false;
  }
  return true;
}

} // namespace

TEST_CASE("lexer: a string that ends in a backslash at the end of the file ends at the file's end",
          "[fuzz][lexer]") {
  // tests/fuzz/corpus/lexer/crash_backslash_at_end_of_string.py: the escape skipped two bytes past
  // the last one, and the string token ended one byte past the source.
  for (std::string source : {"'\\", "x = \"\\", "'''\\", "f'\\", "f'{a}\\", "rb\"\\"}) {
    INFO(source);
    std::vector<Token> tokens;
    lex(source, tokens);
    CHECK(inside(tokens, source.size()));
  }
}

TEST_CASE("lexer: f-strings nested without end do not overflow the stack", "[fuzz][lexer]") {
  // tests/fuzz/corpus/lexer/crash_fstring_nesting.py: every replacement field recursed, so a file of
  // f"{f"{f"{... or of nested format specs {:{:{:... took the stack with it.
  for (std::string unit : {"f\"{", "f'{", "{:"}) {
    std::string source = unit == "{:" ? "f'{a:" : "";
    for (int i = 0; i < 500000; ++i) source += unit;
    std::vector<Token> tokens;
    lex(source, tokens);
    CHECK(inside(tokens, source.size()));
  }
  SECTION("names are still read up to CPython's own limit of nesting") {
    std::string source;
    for (int i = 0; i < 100; ++i) source += "f'{";
    source += "deep_name";
    std::vector<Token> tokens;
    lex(source, tokens);
    bool found = false;
    for (const auto& t : tokens) found = found || source.substr(t.begin, t.end - t.begin) == "deep_name";
    CHECK(found);
  }
}

namespace {

// One symbol's encoded facts (the layout of facts_codec.cpp's encode) whose parent field is `parent`.
std::string blob_with_parent(uint64_t parent) {
  impact::util::Writer empty_list;
  empty_list.u64(0);
  impact::util::Writer rest;
  rest.u64(1); // one symbol
  rest.str("f");
  for (int field = 0; field < 5; ++field) rest.u64(field == 0 ? 0 : 1); // kind, then four lines
  rest.u64(parent);
  for (int list = 0; list < 3; ++list) rest.u64(0); // decorators, params, bases
  rest.u64(0);                                       // flags
  rest.str("");                                      // fixture
  for (int list = 0; list < 7; ++list) rest.u64(0); // usefixtures, aliases, module names, __all__, collect_ignore(_glob)
  rest.u64(0);                                       // module_usefixtures (dynamic, then names)
  rest.u64(0);                                       // constant_names
  rest.u64(0);                                       // doctest_modules
  rest.u64(0);                                       // handed
  impact::util::Writer refs;
  refs.u64(1);
  for (int field = 0; field < 5; ++field) refs.u64(0); // dynamic, refs; module flags, module refs, stored values
  impact::util::Writer out;
  out.u64(0);
  out.str(empty_list.buffer());
  out.str(empty_list.buffer());
  out.str(rest.buffer());
  out.str(refs.buffer());
  out.str(empty_list.buffer()); // the name table
  impact::util::Writer paths;
  for (int field = 0; field < 3; ++field) paths.u64(0); // listing line, reads anything, no strings
  out.str(paths.buffer());
  return out.buffer();
}

} // namespace

TEST_CASE("facts codec: a corrupt parent index is rejected without overflowing", "[fuzz][facts_codec]") {
  // A parent field of 2^31 became INT32_MIN, and INT32_MIN - 1 is undefined behaviour (UBSan stops
  // there); any parent past the symbol count must make the decoders fail.
  impact::FileFacts facts;
  impact::FactsView view;
  REQUIRE(impact::python::decode_full(blob_with_parent(0), facts)); // the layout is right
  REQUIRE(impact::python::decode_view(blob_with_parent(0), view));
  for (uint64_t parent : {uint64_t{2}, uint64_t{0x80000000}, uint64_t{0x80000001}, uint64_t{0xffffffff},
                          uint64_t{0x100000000}, ~uint64_t{0}}) {
    INFO(parent);
    CHECK_FALSE(impact::python::decode_full(blob_with_parent(parent), facts));
    CHECK_FALSE(impact::python::decode_view(blob_with_parent(parent), view));
  }
}

TEST_CASE("replay reader: a number too large for a double is refused with one clear line", "[fuzz][report]") {
  // tests/fuzz/corpus/replay/crash_number_out_of_range.json: nlohmann's out_of_range escaped
  // parse_report, and main printed "internal error; please report it".
  for (const char* text : {"[1e999]", "{\"version\": 1e999}", "{\"version\": -1e400}"}) {
    INFO(text);
    CHECK_THROWS_WITH(impact::parse_report(text, "saved.json"),
                      Catch::StartsWith("saved.json: a number too large to read"));
  }
}

TEST_CASE("facts cache: a file cut inside an entry's key is dropped, even with a valid checksum",
          "[fuzz][facts_cache]") {
  // tests/fuzz/corpus/facts_cache/crash_truncated_entry_key: the key of a cut entry was an empty view
  // whose null data() went to memcpy (undefined behaviour; UBSan stops there).
  impact::testing::TempDir dir;
  auto file = dir / "facts.bin";
  {
    impact::python::FactsCache cache(file);
    cache.put("0123456789abcdef0123456789abcdef01234567", "facts");
    cache.save();
  }
  std::string whole = *impact::util::read_file(file);
  whole.resize(whole.size() - 8); // the checksum
  size_t entry = whole.find("facts") - 1 - 20; // the payload, its one-byte length, the 20-byte key
  for (size_t cut : {entry, entry + 1, entry + 19}) {
    INFO(cut);
    std::string bytes = whole.substr(0, cut);
    uint64_t sum = impact::util::checksum64(bytes);
    bytes.append(reinterpret_cast<const char*>(&sum), 8);
    dir.write("facts.bin", bytes);
    impact::python::FactsCache cache(file);
    CHECK(cache.storage() == nullptr);
    CHECK_FALSE(cache.warning().empty());
  }
}
