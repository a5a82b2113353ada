#include "impact/python/project_facts.hpp"

#include "python/facts_cache.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <map>

using namespace impact;
using impact::testing::TempDir;

namespace {

struct Sources {
  std::map<std::string, std::string> content; // path -> source
  std::atomic<size_t> reads{0};

  ReadSource reader() {
    return [this](const SourceFile& f) {
      ++reads;
      auto it = content.find(f.path.str);
      return it == content.end() ? FileRead::absent() : FileRead::found(it->second);
    };
  }
};

// The files of `sources`, sorted, with an id derived from the content's position and a version.
std::vector<SourceFile> files_of(const Sources& sources, size_t version = 0) {
  std::vector<SourceFile> files;
  size_t i = 0;
  for (const auto& [path, _] : sources.content)
    files.push_back(testing::source_file(path, testing::oid(1000 * version + i++)));
  return files;
}

std::vector<std::string> modules_imported(const ProjectFacts& facts, size_t i) {
  std::vector<std::string> out;
  for (const auto& imp : facts.full(i).imports) out.push_back(imp.module);
  return out;
}

} // namespace

TEST_CASE("load_facts parses cache misses and takes cache hits without parsing", "[load_facts]") {
  TempDir dir;
  Sources sources;
  sources.content = {{"a.py", "import os\n"}, {"pkg/b.py", "from . import c\n"}, {"pkg/c.py", "def test_c(): pass\n"}};
  auto file = dir / "facts.bin";

  {
    python::FactsCache cache(file);
    auto facts = load_facts(files_of(sources), sources.reader(), cache, 2);
    CHECK(facts.parsed == 3);
    CHECK(sources.reads == 3);
    REQUIRE(facts.size() == 3);
    CHECK(facts.files[0].path.str == "a.py");
    CHECK(modules_imported(facts, 0) == std::vector<std::string>{"os"});
    cache.save();
  }
  SECTION("a warm run parses nothing and gives the same facts") {
    sources.reads = 0;
    python::FactsCache cache(file);
    auto facts = load_facts(files_of(sources), sources.reader(), cache, 2);
    CHECK(facts.parsed == 0);
    CHECK(sources.reads == 0);
    REQUIRE(facts.size() == 3);
    CHECK(modules_imported(facts, 0) == std::vector<std::string>{"os"});
    CHECK(facts.full(1).imports.at(0).level == 1);
    CHECK(facts.full(2).symbols.at(0).qualname == "test_c");
  }
  SECTION("a changed file is parsed again, the others are not") {
    sources.reads = 0;
    sources.content["a.py"] = "import json\n";
    auto files = files_of(sources);
    files[0].oid = testing::oid(999);
    python::FactsCache cache(file);
    auto facts = load_facts(files, sources.reader(), cache, 1);
    CHECK(facts.parsed == 1);
    CHECK(sources.reads == 1);
    CHECK(modules_imported(facts, 0) == std::vector<std::string>{"json"});
  }
  SECTION("the facts outlive the cache object") {
    ProjectFacts facts;
    {
      python::FactsCache cache(file);
      facts = load_facts(files_of(sources), sources.reader(), cache, 1);
    }
    CHECK(modules_imported(facts, 0) == std::vector<std::string>{"os"});
  }
}

TEST_CASE("load_facts adds what it parsed to the cache", "[load_facts]") {
  TempDir dir;
  Sources sources;
  sources.content = {{"a.py", "import os\n"}};
  python::FactsCache cache(dir / "facts.bin");
  auto files = files_of(sources);
  auto facts = load_facts(files, sources.reader(), cache, 1); // the cache views these until it is saved
  cache.save();
  python::FactsCache reloaded(dir / "facts.bin");
  CHECK(reloaded.find(files[0].oid).has_value());
}

TEST_CASE("load_facts gives a file it cannot read empty facts with parse_error", "[load_facts]") {
  Sources sources;
  sources.content = {{"a.py", "import os\n"}};
  std::vector<SourceFile> files = files_of(sources);
  files.push_back(testing::source_file("gone.py", testing::oid(77)));
  python::FactsCache cache;
  auto facts = load_facts(files, sources.reader(), cache, 1);
  REQUIRE(facts.size() == 2);
  CHECK_FALSE(facts.header(0).parse_error);
  CHECK(facts.header(1).parse_error);
  CHECK(facts.full(1).imports.empty());
}

TEST_CASE("load_facts on many threads keeps every file's facts in order", "[load_facts]") {
  Sources sources;
  for (int i = 0; i < 300; ++i) sources.content[fmt::format("m{:03}.py", i)] = fmt::format("import dep{}\n", i);
  python::FactsCache cache;
  auto facts = load_facts(files_of(sources), sources.reader(), cache, 8);
  CHECK(facts.parsed == 300);
  REQUIRE(facts.size() == 300);
  for (size_t i = 0; i < 300; ++i) {
    INFO(facts.files[i].path.str);
    CHECK(facts.files[i].path.str == fmt::format("m{:03}.py", i));
    CHECK(modules_imported(facts, i) == std::vector<std::string>{fmt::format("dep{}", i)});
  }
}

TEST_CASE("load_facts of no files is empty", "[load_facts]") {
  Sources sources;
  python::FactsCache cache;
  auto facts = load_facts({}, sources.reader(), cache, 4);
  CHECK(facts.size() == 0);
  CHECK(facts.parsed == 0);
}
