#include "util/files.hpp"

#include "impact/error.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

using impact::testing::TempDir;
using impact::util::read_file;
using impact::util::relative_to;
using impact::util::write_file_atomic;

namespace {

std::vector<std::string> entries_of(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    out.push_back(std::filesystem::relative(e.path(), dir).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("write_file_atomic creates parents and leaves no temporary files", "[files]") {
  TempDir dir;
  SECTION("a new file in new folders") {
    write_file_atomic(dir / "a/b/c.txt", "content");
    CHECK(read_file(dir / "a/b/c.txt") == "content");
    CHECK(entries_of(dir.path()) == std::vector<std::string>{"a", "a/b", "a/b/c.txt"});
  }
  SECTION("an existing file is replaced whole") {
    write_file_atomic(dir / "f.txt", "a much longer first content");
    write_file_atomic(dir / "f.txt", "short");
    CHECK(read_file(dir / "f.txt") == "short");
    CHECK(entries_of(dir.path()) == std::vector<std::string>{"f.txt"});
  }
  SECTION("binary content and the empty content are written exactly") {
    std::string binary("\0\x01\xff\n\r", 5);
    write_file_atomic(dir / "bin", binary);
    write_file_atomic(dir / "empty", "");
    CHECK(read_file(dir / "bin") == binary);
    CHECK(read_file(dir / "empty") == "");
  }
}

TEST_CASE("write_file_atomic throws impact::Error naming the path when it cannot write", "[files]") {
  TempDir dir;
  dir.write("file", "x");
  SECTION("a parent that is a file") {
    CHECK_THROWS_AS(write_file_atomic(dir / "file/child.txt", "y"), impact::Error);
    CHECK_THROWS_WITH(write_file_atomic(dir / "file/child.txt", "y"), Catch::Contains((dir / "file").string()));
  }
  SECTION("a target that is a folder leaves no temporary file behind") {
    std::filesystem::create_directories(dir / "folder");
    CHECK_THROWS_WITH(write_file_atomic(dir / "folder", "y"), Catch::Contains("folder"));
    CHECK(entries_of(dir.path()) == std::vector<std::string>{"file", "folder"});
  }
}

TEST_CASE("read_file returns the whole content, or nullopt for a missing file", "[files]") {
  TempDir dir;
  SECTION("a missing file") { CHECK_FALSE(read_file(dir / "missing.txt").has_value()); }
  SECTION("a folder cannot be read as a file") { CHECK_FALSE(read_file(dir.path()).has_value()); }
  SECTION("an empty file is empty, not missing") {
    dir.write("empty", "");
    auto content = read_file(dir / "empty");
    REQUIRE(content.has_value());
    CHECK(content->empty());
  }
  SECTION("a file larger than any read buffer") {
    std::string big;
    for (int i = 0; i < 100000; ++i) big += static_cast<char>('a' + i % 26);
    dir.write("big", big);
    CHECK(read_file(dir / "big") == big);
  }
}

TEST_CASE("relative_to gives '/'-separated paths below the base only", "[files]") {
  CHECK(relative_to("/repo/src/app/x.py", "/repo") == "src/app/x.py");
  CHECK(relative_to("/repo/./src/../tests/t.py", "/repo") == "tests/t.py");
  CHECK(relative_to("/repo", "/repo") == "");
  CHECK_FALSE(relative_to("/other/x.py", "/repo").has_value());
  CHECK_FALSE(relative_to("/repo2/x.py", "/repo").has_value());
}

TEST_CASE("MappedFile views a file's content and outlives a rename over it", "[files]") {
  TempDir dir;
  auto path = dir / "data.bin";
  write_file_atomic(path, std::string("abc\0def", 7));
  auto mapped = impact::util::MappedFile::open(path);
  REQUIRE(mapped != nullptr);
  CHECK(mapped->view() == std::string_view("abc\0def", 7));
  SECTION("a new version renamed over it leaves the mapped one as it was") {
    write_file_atomic(path, "replaced");
    CHECK(mapped->view() == std::string_view("abc\0def", 7));
    CHECK(impact::util::MappedFile::open(path)->view() == "replaced");
  }
  SECTION("an empty file maps as empty") {
    write_file_atomic(dir / "empty.bin", "");
    auto empty = impact::util::MappedFile::open(dir / "empty.bin");
    REQUIRE(empty != nullptr);
    CHECK(empty->view().empty());
  }
  SECTION("a missing file or a folder is null") {
    CHECK(impact::util::MappedFile::open(dir / "missing.bin") == nullptr);
    CHECK(impact::util::MappedFile::open(dir.path()) == nullptr);
  }
}

TEST_CASE("read_regular_file never opens a special file and bounds what it reads", "[files]") {
  using impact::util::read_regular_file;
  using impact::util::ReadStatus;
  TempDir dir;
  dir.write("small.py", "x = 1\n");
  SECTION("a regular file is read whole") {
    auto r = read_regular_file(dir / "small.py");
    CHECK(r.status == ReadStatus::ok);
    CHECK(r.content == "x = 1\n");
  }
  SECTION("a FIFO is refused without blocking, directly or through a link") {
    REQUIRE(::mkfifo((dir / "pipe").c_str(), 0600) == 0);
    std::filesystem::create_symlink(dir / "pipe", dir / "link.py");
    CHECK(read_regular_file(dir / "pipe").status == ReadStatus::not_regular);
    CHECK(read_regular_file(dir / "link.py").status == ReadStatus::not_regular);
    CHECK(read_file(dir / "link.py") == std::nullopt);
  }
  SECTION("a device is refused: /dev/zero would never end") {
    CHECK(read_regular_file("/dev/zero").status == ReadStatus::not_regular);
    CHECK(impact::util::read_head("/dev/zero", 16).empty());
  }
  SECTION("a folder is refused") { CHECK(read_regular_file(dir.path()).status == ReadStatus::not_regular); }
  SECTION("a missing file, or a dangling link, is missing") {
    std::filesystem::create_symlink(dir / "nowhere", dir / "dangling");
    CHECK(read_regular_file(dir / "absent").status == ReadStatus::missing);
    CHECK(read_regular_file(dir / "dangling").status == ReadStatus::missing);
  }
  SECTION("a link is not followed when asked not to") {
    std::filesystem::create_symlink(dir / "small.py", dir / "alias.py");
    CHECK(read_regular_file(dir / "alias.py").content == "x = 1\n");
    CHECK(read_regular_file(dir / "alias.py", impact::util::k_max_read_bytes, false).status == ReadStatus::not_regular);
    CHECK(impact::util::read_link(dir / "alias.py") == (dir / "small.py").string());
    CHECK(impact::util::read_link(dir / "small.py") == std::nullopt);
  }
  SECTION("a file over the limit is refused, one at the limit is read") {
    CHECK(read_regular_file(dir / "small.py", 5).status == ReadStatus::too_large);
    CHECK(read_regular_file(dir / "small.py", 6).content == "x = 1\n");
  }
}

TEST_CASE("read_config_file says why a configuration file cannot be read", "[files]") {
  TempDir dir;
  REQUIRE(::mkfifo((dir / "pyproject.toml").c_str(), 0600) == 0);
  CHECK(impact::util::read_config_file(dir / "absent.toml", "absent.toml") == std::nullopt);
  CHECK_THROWS_WITH(impact::util::read_config_file(dir / "pyproject.toml", "pyproject.toml"),
                    Catch::Contains("pyproject.toml is not a regular file"));
}
