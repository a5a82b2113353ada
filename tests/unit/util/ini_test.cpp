#include "util/ini.hpp"

#include <catch2/catch.hpp>

using impact::util::IniFile;
using impact::util::parse_ini;
using impact::util::shell_split;

namespace {

// Parses text that must be valid.
IniFile parse(std::string_view text) {
  std::string error;
  auto ini = parse_ini(text, error);
  INFO(error);
  REQUIRE(ini.has_value());
  CHECK(error.empty());
  return *ini;
}

// Parses text that must be rejected and returns the error.
std::string error_of(std::string_view text) {
  std::string error;
  auto ini = parse_ini(text, error);
  CHECK_FALSE(ini.has_value());
  return error;
}

using Strings = std::vector<std::string>;

} // namespace

TEST_CASE("parse_ini reads keys with '=' or ': ' separators", "[ini]") {
  SECTION("key = value, spaces around the separator trimmed") {
    auto ini = parse("[pytest]\ntestpaths = tests\naddopts=-q\n");
    const auto* s = ini.section("pytest");
    REQUIRE(s != nullptr);
    CHECK(s->at("testpaths") == "tests");
    CHECK(s->at("addopts") == "-q");
  }
  SECTION("key: value") {
    auto ini = parse("[pytest]\ntestpaths: tests unit\n");
    CHECK(ini.section("pytest")->at("testpaths") == "tests unit");
  }
  SECTION("'=' wins unless the name before it holds a ':'") {
    auto ini = parse("[s]\nurl = http://example.com\nname: a = b\n");
    CHECK(ini.section("s")->at("url") == "http://example.com");
    CHECK(ini.section("s")->at("name") == "a = b");
  }
  SECTION("an empty value is kept") {
    auto ini = parse("[s]\nkey =\n");
    CHECK(ini.section("s")->at("key").empty());
  }
  SECTION("sections are kept apart and a missing one is null") {
    auto ini = parse("[a]\nx = 1\n[b]\nx = 2\n");
    CHECK(ini.section("a")->at("x") == "1");
    CHECK(ini.section("b")->at("x") == "2");
    CHECK(ini.has_section("a"));
    CHECK_FALSE(ini.has_section("c"));
    CHECK(ini.section("c") == nullptr);
  }
  SECTION("section names keep their inner text, a trailing comment after ']' is dropped") {
    auto ini = parse("[tool:pytest] # comment\nx = 1\n");
    CHECK(ini.has_section("tool:pytest"));
  }
}

TEST_CASE("parse_ini joins indented continuation lines with newlines", "[ini]") {
  SECTION("a value continued on the following lines") {
    auto ini = parse("[pytest]\naddopts = -q\n    -p app.plugin\n\t--strict-markers\n");
    CHECK(ini.section("pytest")->at("addopts") == "-q\n-p app.plugin\n--strict-markers");
  }
  SECTION("an empty first line does not start the value with a newline") {
    auto ini = parse("[pytest]\ntestpaths =\n    tests\n    integration\n");
    CHECK(ini.section("pytest")->at("testpaths") == "tests\nintegration");
  }
  SECTION("comment and blank lines inside a continued value are skipped") {
    auto ini = parse("[pytest]\naddopts =\n    -p foo\n# a comment\n\n    --strict\nnext = 1\n");
    CHECK(ini.section("pytest")->at("addopts") == "-p foo\n--strict");
    CHECK(ini.section("pytest")->at("next") == "1");
  }
}

TEST_CASE("parse_ini treats '#' and ';' lines as comments but keeps them inside values", "[ini]") {
  SECTION("whole-line comments, indented or not") {
    auto ini = parse("# top\n; also\n[s]\n  # indented\n  ; indented\nx = 1\n");
    CHECK(ini.section("s")->size() == 1);
    CHECK(ini.section("s")->at("x") == "1");
  }
  SECTION("no inline comments in values") {
    auto ini = parse("[s]\nx = a # b\ny = c ; d\n");
    CHECK(ini.section("s")->at("x") == "a # b");
    CHECK(ini.section("s")->at("y") == "c ; d");
  }
}

TEST_CASE("parse_ini reads CRLF line endings", "[ini]") {
  auto ini = parse("[pytest]\r\ntestpaths = tests\r\naddopts =\r\n    -q\r\n    -x\r\n");
  CHECK(ini.section("pytest")->at("testpaths") == "tests");
  CHECK(ini.section("pytest")->at("addopts") == "-q\n-x");
}

TEST_CASE("parse_ini rejects malformed lines naming the line number", "[ini]") {
  SECTION("a key before any section") {
    auto error = error_of("\nx = 1\n");
    CHECK(error.starts_with("line 2:"));
  }
  SECTION("a continuation line right after a section header") {
    auto error = error_of("[s]\n  dangling\n");
    CHECK(error.starts_with("line 2:"));
  }
  SECTION("a continuation line before anything") {
    auto error = error_of("  dangling\n[s]\n");
    CHECK(error.starts_with("line 1:"));
  }
  SECTION("a line that is neither key nor section") {
    auto error = error_of("[s]\nx = 1\n\njust words\n");
    CHECK(error.starts_with("line 4:"));
    CHECK_THAT(error, Catch::Contains("just words"));
  }
  SECTION("an unterminated section header") {
    auto error = error_of("[broken\nx = 1\n");
    CHECK(error.starts_with("line 1:"));
  }
  SECTION("a comment character inside the header cuts it") {
    auto error = error_of("[sec;tion]\n");
    CHECK(error.starts_with("line 1:"));
  }
}

TEST_CASE("parse_ini splits at the first ':' even without a space after it, like iniconfig", "[ini]") {
  SECTION("key:value") {
    std::string error;
    auto ini = parse_ini("[s]\nkey:value\n", error);
    INFO(error);
    REQUIRE(ini.has_value());
    CHECK(ini->section("s")->at("key") == "value");
  }
  SECTION("a ':' before '=' makes ':' the separator") {
    std::string error;
    auto ini = parse_ini("[s]\na:b = c\n", error);
    INFO(error);
    REQUIRE(ini.has_value());
    CHECK(ini->section("s")->at("a") == "b = c");
  }
}

TEST_CASE("parse_ini rejects duplicate keys and sections like iniconfig", "[ini]") {
  SECTION("a key given twice in a section") {
    auto error = error_of("[pytest]\ntestpaths = a\ntestpaths = b\n");
    CHECK(error.starts_with("line 3:"));
  }
  SECTION("a section given twice") {
    auto error = error_of("[pytest]\nx = 1\n[pytest]\ny = 2\n");
    CHECK(error.starts_with("line 3:"));
  }
}

TEST_CASE("parse_ini rejects an empty section name like iniconfig", "[ini]") {
  auto error = error_of("[]\nx = 1\n");
  CHECK(error.starts_with("line 1:"));
}

TEST_CASE("shell_split splits like Python's shlex.split", "[ini][shlex]") {
  SECTION("whitespace of any kind and amount separates words") {
    CHECK(shell_split("  -p   foo\t--x\n-q  ") == Strings{"-p", "foo", "--x", "-q"});
    CHECK(shell_split("").empty());
    CHECK(shell_split("   ").empty());
  }
  SECTION("single quotes keep everything literally, backslashes included") {
    CHECK(shell_split("'a b' 'c\\d'") == Strings{"a b", "c\\d"});
  }
  SECTION("double quotes keep spaces and unescape only \\\" and \\\\") {
    CHECK(shell_split("\"a b\"") == Strings{"a b"});
    CHECK(shell_split("\"say \\\"hi\\\"\"") == Strings{"say \"hi\""});
    CHECK(shell_split("\"a\\\\b\"") == Strings{"a\\b"});
    CHECK(shell_split("\"a\\nb\"") == Strings{"a\\nb"});
  }
  SECTION("a backslash outside quotes escapes the next character") {
    CHECK(shell_split("a\\ b c") == Strings{"a b", "c"});
    CHECK(shell_split("\\'x") == Strings{"'x"});
  }
  SECTION("quoted parts join the word around them") {
    CHECK(shell_split("--ignore=\"tests/my dir\" -k'a or b'") == Strings{"--ignore=tests/my dir", "-ka or b"});
  }
  SECTION("empty quotes make an empty word") { CHECK(shell_split("a '' \"\"") == Strings{"a", "", ""}); }
  SECTION("'#' is an ordinary character") { CHECK(shell_split("a #b") == Strings{"a", "#b"}); }
}
