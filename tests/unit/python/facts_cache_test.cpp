#include "python/facts_cache.hpp"

#include "support.hpp"
#include "util/files.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using impact::python::FactsCache;
using impact::testing::TempDir;

namespace {

// 40 hex digits, like a git blob id.
const std::string k_a = "0123456789abcdef0123456789abcdef01234567";
const std::string k_b = "fedcba9876543210fedcba9876543210fedcba98";
const std::string k_c = "1111111111111111111111111111111111111111";

// A cache file holding k_a and k_b.
std::filesystem::path make_cache(const TempDir& dir) {
  auto file = dir / "cache/facts.bin";
  FactsCache cache(file);
  const std::string b_facts("facts\0of b", 10); // put() keeps a view: the text outlives save()
  cache.put(k_a, "facts of a");
  cache.put(k_b, b_facts);
  cache.save();
  return file;
}

std::vector<std::string> entries_of(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("FactsCache finds saved entries by their 40-hex id after a reload", "[facts_cache]") {
  TempDir dir;
  auto file = make_cache(dir);
  FactsCache cache(file);
  CHECK(cache.warning().empty());
  CHECK(cache.find(k_a) == std::optional<std::string_view>("facts of a"));
  CHECK(cache.find(k_b) == std::optional<std::string_view>(std::string_view("facts\0of b", 10)));
  CHECK_FALSE(cache.find(k_c).has_value());
  SECTION("views live as long as storage()") {
    std::shared_ptr<const void> storage;
    std::string_view view;
    {
      FactsCache other(file);
      storage = other.storage();
      view = *other.find(k_a);
    }
    REQUIRE(storage != nullptr);
    CHECK(view == "facts of a"); // the mapping outlived the cache (ASan would see an unmapped read)
  }
}

TEST_CASE("FactsCache starts empty and silent when there is no file", "[facts_cache]") {
  TempDir dir;
  FactsCache cache(dir / "missing.bin");
  CHECK(cache.warning().empty());
  CHECK_FALSE(cache.find(k_a).has_value());
  SECTION("saving without additions writes nothing") {
    cache.save();
    CHECK_FALSE(std::filesystem::exists(dir / "missing.bin"));
  }
}

TEST_CASE("FactsCache drops a corrupted or truncated file with a warning", "[facts_cache]") {
  TempDir dir;
  auto file = make_cache(dir);
  std::string good = *impact::util::read_file(file);
  std::string flipped = good;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x20);
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"one byte changed", flipped},
      {"the last bytes cut off", good.substr(0, good.size() - 3)},
      {"only the first half", good.substr(0, good.size() / 2)},
      {"an empty file", ""},
      {"not a cache at all", "hello, this is not a cache file at all"},
  };
  for (const auto& [what, content] : cases) {
    INFO(what);
    impact::util::write_file_atomic(file, content);
    FactsCache cache(file);
    CHECK_FALSE(cache.warning().empty());
    CHECK_THAT(cache.warning(), Catch::Contains(file.string()));
    CHECK_FALSE(cache.find(k_a).has_value());
    CHECK_FALSE(cache.find(k_b).has_value());
  }
}

TEST_CASE("FactsCache rebuilds a dropped file on save", "[facts_cache]") {
  TempDir dir;
  auto file = dir / "facts.bin";
  impact::util::write_file_atomic(file, "junk");
  {
    FactsCache cache(file);
    REQUIRE_FALSE(cache.warning().empty());
    cache.put(k_c, "fresh");
    cache.save();
  }
  FactsCache reloaded(file);
  CHECK(reloaded.warning().empty());
  CHECK(reloaded.find(k_c) == std::optional<std::string_view>("fresh"));
}

TEST_CASE("FactsCache keeps entries across saves", "[facts_cache]") {
  TempDir dir;
  auto file = dir / "facts.bin";
  SECTION("saving twice from one object") {
    FactsCache cache(file);
    cache.put(k_a, "a");
    cache.save();
    cache.put(k_b, "b");
    cache.save();
    FactsCache reloaded(file);
    CHECK(reloaded.find(k_a) == std::optional<std::string_view>("a"));
    CHECK(reloaded.find(k_b) == std::optional<std::string_view>("b"));
    CHECK(entries_of(dir.path()) == std::vector<std::string>{"facts.bin"});
  }
  SECTION("a later run adds to what an earlier run saved, used or not") {
    {
      FactsCache first(file);
      first.put(k_a, "a");
      first.save();
    }
    {
      FactsCache second(file);
      second.put(k_b, "b");
      second.save();
    }
    FactsCache third(file);
    CHECK(third.find(k_a) == std::optional<std::string_view>("a"));
    CHECK(third.find(k_b) == std::optional<std::string_view>("b"));
    third.save(); // nothing added: the file stays as it is
    FactsCache fourth(file);
    CHECK(fourth.find(k_a).has_value());
    CHECK(fourth.find(k_b).has_value());
    CHECK(entries_of(dir.path()) == std::vector<std::string>{"facts.added.bin", "facts.bin"});
  }
  SECTION("put of a loaded id keeps the loaded entry") {
    {
      FactsCache first(file);
      first.put(k_a, "original");
      first.save();
    }
    FactsCache second(file);
    second.put(k_a, "other");
    second.put(k_b, "b");
    second.save();
    FactsCache third(file);
    CHECK(third.find(k_a) == std::optional<std::string_view>("original"));
    CHECK(third.find(k_b) == std::optional<std::string_view>("b"));
  }
}

TEST_CASE("FactsCache writes what a run added beside the file, until it weighs an eighth of it", "[facts_cache]") {
  TempDir dir;
  auto file = dir / "facts.bin";
  auto added = dir / "facts.added.bin";
  const std::string large(FactsCache::dead_weight() / 2, 'x');
  const std::string more(FactsCache::dead_weight() / 2 + 1000, 'y');
  {
    FactsCache first(file);
    first.put(k_a, "a");
    first.save();
  }
  auto main_bytes = *impact::util::read_file(file);
  {
    FactsCache second(file);
    CHECK(second.find(k_a).has_value());
    second.put(k_b, large);
    second.save();
  }
  CHECK(*impact::util::read_file(file) == main_bytes); // the cache file was not written again
  REQUIRE(std::filesystem::exists(added));
  SECTION("a reload finds both, and what was added first is kept by the next addition") {
    {
      FactsCache third(file);
      CHECK(third.warning().empty());
      CHECK(third.find(k_a) == std::optional<std::string_view>("a"));
      CHECK(third.find(k_b) == std::optional<std::string_view>(large));
      third.put(k_c, "c");
      third.save();
    }
    CHECK(*impact::util::read_file(file) == main_bytes);
    FactsCache fourth(file);
    CHECK(fourth.find(k_b) == std::optional<std::string_view>(large));
    CHECK(fourth.find(k_c) == std::optional<std::string_view>("c"));
  }
  SECTION("past the limit the whole cache is written, with the added entries, and the side file goes") {
    {
      FactsCache third(file);
      third.put(k_c, more);
      third.save();
    }
    CHECK_FALSE(std::filesystem::exists(added));
    CHECK(*impact::util::read_file(file) != main_bytes);
    FactsCache fourth(file);
    CHECK(fourth.find(k_a) == std::optional<std::string_view>("a"));
    CHECK(fourth.find(k_b) == std::optional<std::string_view>(large));
    CHECK(fourth.find(k_c) == std::optional<std::string_view>(more));
  }
  SECTION("a damaged side file loses only its own entries") {
    std::string bytes = *impact::util::read_file(added);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
    std::ofstream(added, std::ios::binary | std::ios::trunc) << bytes;
    FactsCache third(file);
    CHECK(third.warning().empty());
    CHECK(third.find(k_a) == std::optional<std::string_view>("a"));
    CHECK_FALSE(third.find(k_b).has_value());
    third.put(k_b, large); // parsed again, and written again beside the file
    third.save();
    FactsCache fourth(file);
    CHECK(fourth.find(k_b) == std::optional<std::string_view>(large));
  }
}

TEST_CASE("FactsCache without a file never loads or saves", "[facts_cache]") {
  FactsCache cache;
  cache.put(k_a, "a");
  CHECK_NOTHROW(cache.save());
  CHECK_FALSE(cache.find(k_a).has_value());
  CHECK(cache.warning().empty());
}

TEST_CASE("facts_cache_file_name names the format version", "[facts_cache]") {
  auto name = impact::python::facts_cache_file_name();
  CHECK(name.starts_with("facts-v"));
  CHECK(name.ends_with(".bin"));
}

TEST_CASE("FactsCache drops a large entry no run uses, without rewriting for small ones", "[facts_cache]") {
  TempDir dir;
  auto file = dir / "facts.bin";
  const std::string big(FactsCache::dead_weight() + 1, 'x'); // a deleted generated file's facts
  {
    FactsCache first(file);
    first.put(k_a, "a");
    first.put(k_b, "b");
    first.put(k_c, big);
    first.save();
  }
  SECTION("a warm run that uses it does not rewrite") {
    FactsCache warm(file);
    CHECK(warm.find(k_c).has_value());
    CHECK_FALSE(warm.worth_saving());
  }
  SECTION("small unused entries (another branch's files) are not worth a rewrite and are kept") {
    FactsCache warm(file);
    CHECK(warm.find(k_c).has_value());
    CHECK(warm.find(k_a).has_value());
    CHECK_FALSE(warm.worth_saving()); // k_b unused: a byte, nothing to gain
  }
  SECTION("once no run uses it, the next run rewrites without it and keeps the small ones") {
    auto before = std::filesystem::file_size(file);
    {
      FactsCache warm(file);
      CHECK(warm.find(k_a).has_value()); // nothing added, nothing parsed
      CHECK(warm.worth_saving());
      warm.save();
    }
    CHECK(std::filesystem::file_size(file) < before / 100);
    FactsCache after(file);
    CHECK(after.find(k_a).has_value());
    CHECK(after.find(k_b).has_value()); // unused, but small: kept for a branch switch
    CHECK_FALSE(after.find(k_c).has_value());
    CHECK_FALSE(after.worth_saving());
  }
}
