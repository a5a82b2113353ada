#include "impact/config.hpp"
#include "impact/error.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::env_of;
using impact::testing::TempDir;

namespace {

using Strings = std::vector<std::string>;

ImpactConfig load(const TempDir& dir, std::map<std::string, std::string> env = {}) {
  return load_impact_config(dir.path(), env_of(std::move(env)));
}

// The message of the impact::Error that loading throws.
std::string error_of(const TempDir& dir, std::map<std::string, std::string> env = {}) {
  try {
    load(dir, std::move(env));
  } catch (const impact::Error& e) { return e.what(); }
  FAIL("no impact::Error thrown");
  return {};
}

} // namespace

TEST_CASE("load_impact_config without [tool.impact] gives the defaults", "[impact_config]") {
  TempDir dir;
  auto check_defaults = [&] {
    auto c = load(dir);
    CHECK(c.file.empty());
    CHECK(c.mode.value == Mode::balanced);
    CHECK(to_string(c.mode.source) == "default");
    CHECK_FALSE(c.mode.is_set());
    CHECK_FALSE(c.strict.value);
    CHECK(c.use_index.value);
    CHECK(c.pytest_command.value.empty());
    CHECK(c.fallback_command.value.empty());
    CHECK(c.ignore.value.empty());
  };
  SECTION("no pyproject.toml") { check_defaults(); }
  SECTION("a pyproject.toml without the table") {
    dir.write("pyproject.toml", "[project]\nname = \"x\"\n");
    check_defaults();
  }
}

TEST_CASE("load_impact_config reads every key of [tool.impact]", "[impact_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.impact]\n"
                              "pytest-command = [\"uv\", \"run\", \"pytest\"]\n"
                              "fallback-command = [\"scripts/ci.sh\", \"--all\"]\n"
                              "ignore = [\"docs/\", \"*.md\"]\n"
                              "mode = \"safe\"\n"
                              "strict = true\n"
                              "use-index = false\n");
  auto c = load(dir);
  CHECK(c.file == dir / "pyproject.toml");
  CHECK(c.pytest_command.value == Strings{"uv", "run", "pytest"});
  CHECK(c.fallback_command.value == Strings{"scripts/ci.sh", "--all"});
  CHECK(c.ignore.value == Strings{"docs/", "*.md"});
  CHECK(c.mode.value == Mode::safe);
  CHECK(c.strict.value);
  CHECK_FALSE(c.use_index.value);
  for (const auto* source : {&c.pytest_command.source, &c.fallback_command.source, &c.ignore.source, &c.mode.source,
                             &c.strict.source, &c.use_index.source}) {
    INFO(to_string(*source));
    CHECK(*source == SettingSource::from_file("pyproject.toml"));
  }
  CHECK(c.mode.is_set());
}

TEST_CASE("load_impact_config rejects unknown keys, suggesting the nearest one", "[impact_config]") {
  TempDir dir;
  SECTION("a near miss") {
    dir.write("pyproject.toml", "[tool.impact]\nmdoe = \"fast\"\n");
    auto error = error_of(dir);
    CHECK_THAT(error, Catch::Contains("pyproject.toml"));
    CHECK_THAT(error, Catch::Contains("unknown key 'mdoe'"));
    CHECK_THAT(error, Catch::Contains("did you mean 'mode'?"));
  }
  SECTION("underscores for dashes") {
    dir.write("pyproject.toml", "[tool.impact]\npytest_command = [\"pytest\"]\n");
    CHECK_THAT(error_of(dir), Catch::Contains("did you mean 'pytest-command'?"));
  }
  SECTION("nothing near") {
    dir.write("pyproject.toml", "[tool.impact]\ncompletely-unrelated = 1\n");
    auto error = error_of(dir);
    CHECK_THAT(error, Catch::Contains("unknown key 'completely-unrelated'"));
    CHECK_THAT(error, !Catch::Contains("did you mean"));
    CHECK_THAT(error, Catch::Contains("docs/configuration.md"));
  }
  SECTION("even next to valid keys") {
    dir.write("pyproject.toml", "[tool.impact]\nmode = \"fast\"\nstrikt = true\n");
    CHECK_THAT(error_of(dir), Catch::Contains("did you mean 'strict'?"));
  }
}

namespace {

struct BadFile {
  const char* what;
  const char* key; // what the message must name
  const char* pyproject;
};

// Each case's error names pyproject.toml and `key`.
void check_rejected(const std::vector<BadFile>& cases, const char* also = nullptr) {
  for (const auto& c : cases) {
    INFO(c.what);
    TempDir dir;
    dir.write("pyproject.toml", c.pyproject);
    auto error = error_of(dir);
    CHECK_THAT(error, Catch::Contains("pyproject.toml"));
    CHECK_THAT(error, Catch::Contains(c.key));
    if (also != nullptr) CHECK_THAT(error, Catch::Contains(also));
  }
}

} // namespace

TEST_CASE("load_impact_config rejects values of the wrong type, naming the key", "[impact_config]") {
  check_rejected({
      {"an argv as a string", "pytest-command", "[tool.impact]\npytest-command = \"uv run pytest\"\n"},
      {"an argv with numbers", "fallback-command", "[tool.impact]\nfallback-command = [\"ci\", 1]\n"},
      {"ignore as a string", "ignore", "[tool.impact]\nignore = \"docs/\"\n"},
      {"mode as a number", "mode", "[tool.impact]\nmode = 1\n"},
      {"an unknown mode", "mode", "[tool.impact]\nmode = \"turbo\"\n"},
      {"strict as a string", "strict", "[tool.impact]\nstrict = \"yes\"\n"},
      {"[tool.impact] that is not a table", "[tool.impact]", "[tool]\nimpact = 1\n"},
  });
}

TEST_CASE("load_impact_config rejects numbers where true or false is required", "[impact_config]") {
  check_rejected({{"use-index = 0", "use-index", "[tool.impact]\nuse-index = 0\n"},
                  {"strict = 1", "strict", "[tool.impact]\nstrict = 1\n"}},
                 "true or false");
}

TEST_CASE("load_impact_config rejects an empty argv", "[impact_config]") {
  check_rejected({{"no elements", "pytest-command", "[tool.impact]\npytest-command = []\n"},
                  {"an empty program", "pytest-command", "[tool.impact]\npytest-command = [\"\", \"-q\"]\n"},
                  {"an empty fallback", "fallback-command", "[tool.impact]\nfallback-command = []\n"}},
                 "is empty");
}

TEST_CASE("load_impact_config accepts an empty ignore list", "[impact_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.impact]\nignore = []\n");
  auto c = load(dir);
  CHECK(c.ignore.value.empty());
  CHECK(to_string(c.ignore.source) == "pyproject.toml");
}

TEST_CASE("load_impact_config names the file and place of a TOML syntax error", "[impact_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.impact]\nmode = \n");
  CHECK_THAT(error_of(dir), Catch::StartsWith("pyproject.toml:2:"));
}

TEST_CASE("load_impact_config lets the environment override pyproject.toml, recording the source", "[impact_config]") {
  TempDir dir;
  dir.write("pyproject.toml",
            "[tool.impact]\nmode = \"safe\"\nstrict = false\nfallback-command = [\"make\", \"test\"]\n");
  SECTION("IMPACT_MODE") {
    auto c = load(dir, {{"IMPACT_MODE", "fast"}});
    CHECK(c.mode.value == Mode::fast);
    CHECK(to_string(c.mode.source) == "IMPACT_MODE");
  }
  SECTION("IMPACT_STRICT") {
    for (const char* yes : {"1", "true", "yes"}) {
      auto c = load(dir, {{"IMPACT_STRICT", yes}});
      CHECK(c.strict.value);
      CHECK(to_string(c.strict.source) == "IMPACT_STRICT");
    }
    CHECK_FALSE(load(dir, {{"IMPACT_STRICT", "0"}}).strict.value);
  }
  SECTION("IMPACT_NO_INDEX turns use-index off") {
    auto c = load(dir, {{"IMPACT_NO_INDEX", "1"}});
    CHECK_FALSE(c.use_index.value);
    CHECK(to_string(c.use_index.source) == "IMPACT_NO_INDEX");
    CHECK(load(dir, {{"IMPACT_NO_INDEX", "no"}}).use_index.value);
  }
  SECTION("IMPACT_FALLBACK_COMMAND as a JSON array") {
    auto c = load(dir, {{"IMPACT_FALLBACK_COMMAND", R"(["scripts/ci.sh", "--all"])"}});
    CHECK(c.fallback_command.value == Strings{"scripts/ci.sh", "--all"});
    CHECK(to_string(c.fallback_command.source) == "IMPACT_FALLBACK_COMMAND");
  }
  SECTION("untouched settings keep pyproject.toml as their source") {
    auto c = load(dir, {{"IMPACT_MODE", "fast"}});
    CHECK(to_string(c.strict.source) == "pyproject.toml");
    CHECK(c.fallback_command.value == Strings{"make", "test"});
  }
}

TEST_CASE("load_impact_config rejects bad environment values, naming the variable", "[impact_config]") {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"IMPACT_MODE", "quick"},
      {"IMPACT_STRICT", "maybe"},
      {"IMPACT_NO_INDEX", "2"},
      {"IMPACT_FALLBACK_COMMAND", "make test"},
      {"IMPACT_FALLBACK_COMMAND", "[]"},
      {"IMPACT_FALLBACK_COMMAND", R"(["a", 1])"},
      {"IMPACT_FALLBACK_COMMAND", R"(["", "x"])"},
  };
  for (const auto& [variable, value] : cases) {
    INFO(variable << "=" << value);
    CHECK_THAT(error_of(dir, {{variable, value}}), Catch::Contains(variable));
  }
}

TEST_CASE("impact_config_keys lists every key", "[impact_config]") {
  CHECK(impact_config_keys() == Strings{"pytest-command", "fallback-command", "ignore", "always-run", "triggers", "mode",
                                        "strict", "use-index", "projects", "cache-remote"});
}

TEST_CASE("load_impact_config reads always-run and triggers", "[impact_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.impact]\nalways-run = [\"tests/test_smoke.py\"]\n"
                              "triggers = [{ name = \"db\", paths = [\"db/*.sql\"], run = [\"tests/db/\"] },\n"
                              "            { paths = [\"vendor/**\"], run = \"all\" }]\n");
  auto c = load(dir, {});
  CHECK(c.always_run.value == Strings{"tests/test_smoke.py"});
  REQUIRE(c.triggers.value.size() == 2);
  CHECK(c.triggers.value[0].name == "db");
  CHECK(c.triggers.value[0].paths == Strings{"db/*.sql"});
  CHECK(c.triggers.value[0].run == Strings{"tests/db/"});
  CHECK_FALSE(c.triggers.value[0].run_all);
  CHECK(c.triggers.value[1].name == "triggers[1]");
  CHECK(c.triggers.value[1].run_all);
}

TEST_CASE("load_impact_config refuses a malformed trigger, naming it and the fix", "[impact_config]") {
  struct Bad {
    const char* toml;
    const char* says;
  };
  std::vector<Bad> cases = {
      {"triggers = { paths = [\"a\"], run = \"all\" }\n", "must be an array of tables"},
      {"triggers = [{ paths = [\"a\"] }]\n", "triggers[0]: a trigger needs both paths and run"},
      {"triggers = [{ paths = [\"a\"], run = \"everything\" }]\n", "write run = \"all\" or a list of tests"},
      {"triggers = [{ paths = [], run = \"all\" }]\n", "paths is empty"},
      {"triggers = [{ path = [\"a\"], run = \"all\" }]\n", "did you mean 'paths'?"},
      {"triggers = [{ paths = [\"a\"], run = [] }]\n", "run is empty"},
      {"always-run = \"tests/test_smoke.py\"\n", "always-run must be an array of strings"},
  };
  for (const auto& bad : cases) {
    TempDir dir;
    dir.write("pyproject.toml", std::string("[tool.impact]\n") + bad.toml);
    INFO(bad.toml);
    CHECK_THROWS_WITH(load(dir, {}), Catch::Contains(bad.says) && Catch::Contains("pyproject.toml"));
  }
}

TEST_CASE("load_impact_config reads IMPACT_PYTEST and IMPACT_IGNORE as the environment layer", "[impact_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.impact]\npytest-command = [\"uv\", \"run\", \"pytest\"]\nignore = [\"*.md\"]\n");
  auto c = load(dir, {{"IMPACT_PYTEST", "/opt/pytest"}, {"IMPACT_IGNORE", R"(["docs/", "*.txt"])"}});
  CHECK(c.pytest_command.value == Strings{"/opt/pytest"});
  CHECK(to_string(c.pytest_command.source) == "IMPACT_PYTEST");
  CHECK(c.ignore.value == Strings{"docs/", "*.txt"});
  CHECK(to_string(c.ignore.source) == "IMPACT_IGNORE");
  SECTION("an empty list clears the configured one") {
    auto cleared = load(dir, {{"IMPACT_IGNORE", "[]"}});
    CHECK(cleared.ignore.value.empty());
    CHECK(to_string(cleared.ignore.source) == "IMPACT_IGNORE");
  }
  SECTION("a list that is not JSON") { CHECK_THAT(error_of(dir, {{"IMPACT_IGNORE", "docs/"}}), Catch::Contains("IMPACT_IGNORE")); }
}

TEST_CASE("load_impact_config lets flags override the environment and the file", "[impact_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.impact]\nmode = \"safe\"\nstrict = true\nuse-index = false\n"
                              "fallback-command = [\"make\", \"test\"]\nignore = [\"*.md\"]\n");
  auto env = env_of({{"IMPACT_MODE", "fast"}, {"IMPACT_STRICT", "1"}, {"IMPACT_NO_INDEX", "1"},
                     {"IMPACT_PYTEST", "/opt/pytest"}, {"IMPACT_FALLBACK_COMMAND", R"(["ci"])"}});
  ConfigFlags flags;
  flags.mode = Mode::balanced;
  flags.strict = false;
  flags.use_index = true;
  flags.pytest_command = Strings{"tox", "-e", "py"};
  flags.fallback_command = Strings{"scripts/all.sh"};
  flags.ignore = Strings{"docs/"};
  auto c = load_impact_config(dir.path(), env, flags);
  CHECK(c.mode.value == Mode::balanced);
  CHECK(to_string(c.mode.source) == "--mode");
  CHECK_FALSE(c.strict.value);
  CHECK(to_string(c.strict.source) == "--no-strict");
  CHECK(c.use_index.value);
  CHECK(to_string(c.use_index.source) == "--use-index");
  CHECK(c.pytest_command.value == Strings{"tox", "-e", "py"});
  CHECK(to_string(c.pytest_command.source) == "--pytest-command");
  CHECK(c.fallback_command.value == Strings{"scripts/all.sh"});
  CHECK(to_string(c.fallback_command.source) == "--fallback-command");
  CHECK(c.ignore.value == Strings{"docs/"});
  CHECK(to_string(c.ignore.source) == "--ignore");
  SECTION("the positive and negative flags name themselves") {
    ConfigFlags other;
    other.strict = true;
    other.use_index = false;
    auto o = load_impact_config(dir.path(), env, other);
    CHECK(to_string(o.strict.source) == "--strict");
    CHECK(to_string(o.use_index.source) == "--no-index");
    CHECK(to_string(o.mode.source) == "IMPACT_MODE"); // untouched by the flags
  }
  SECTION("a bad lower layer is an error even under a flag") {
    dir.write("pyproject.toml", "[tool.impact]\nmode = \"quick\"\n");
    ConfigFlags mode_flag;
    mode_flag.mode = Mode::fast;
    try {
      load_impact_config(dir.path(), env_of({}), mode_flag);
      FAIL("no error");
    } catch (const impact::Error& e) { CHECK_THAT(e.what(), Catch::Contains("quick")); }
  }
}

TEST_CASE("parse_argv_json accepts a non-empty array of strings only", "[impact_config]") {
  CHECK(parse_argv_json(R"(["a", "b c"])", "--x") == Strings{"a", "b c"});
  for (const char* bad : {"a b", "[]", R"([""])", R"(["a", 1])", R"({"a": 1})", "\"a\""}) {
    INFO(bad);
    try {
      parse_argv_json(bad, "--fallback-command");
      FAIL("no error");
    } catch (const impact::Error& e) { CHECK_THAT(e.what(), Catch::StartsWith("--fallback-command: ")); }
  }
}

TEST_CASE("describe_source names the key only for the file", "[impact_config]") {
  CHECK(describe_source("fallback-command", SettingSource::from_file("pyproject.toml")) ==
        "fallback-command in pyproject.toml");
  CHECK(describe_source("fallback-command", SettingSource::from_env("IMPACT_FALLBACK_COMMAND")) ==
        "IMPACT_FALLBACK_COMMAND");
  CHECK(describe_source("pytest-command", SettingSource::from_flag("--pytest-command")) == "--pytest-command");
  CHECK(describe_source("mode", SettingSource{}) == "default");
}
