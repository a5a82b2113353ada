#include "app/commands.hpp"
#include "cli/options.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace impact::cli;

namespace {

// parse() over `args` (after the program name): the options, or the exit code it stopped with.
struct Parsed {
  std::optional<Options> options;
  int code = -1;
};

Parsed parse_args(std::vector<std::string> args) {
  static std::string program = "impact";
  std::vector<char*> argv{program.data()};
  for (auto& a : args) argv.push_back(a.data());
  Parsed out;
  try {
    out.options = parse(static_cast<int>(argv.size()), argv.data(), impact::app::subcommands());
  } catch (const Exit& e) {
    out.code = e.code;
  }
  return out;
}

} // namespace

TEST_CASE("values a flag's type accepts but that name nothing are usage errors (issue 11)", "[cli]") {
  using Args = std::vector<std::string>;
  for (const Args& args : {Args{"--changed="}, Args{"--changed", ""}, Args{"--budget-ms", "nan"},
                           Args{"--budget-ms", "-1"}, Args{"--budget-ms", "inf"}, Args{"--mode", ""},
                           Args{"--output", ""}, Args{"--impact", ""}, Args{"index", "--from", ""},
                           Args{"--force"}, Args{"-C", "/nonexistent/folder"}, Args{"-C", ""}}) {
    INFO(args.front() << " " << (args.size() > 1 ? args[1] : std::string()));
    CHECK(parse_args(args).code == 2);
  }
}

TEST_CASE("the same flags with a value that names something parse", "[cli]") {
  auto changed = parse_args({"--changed=origin/main"});
  REQUIRE(changed.options);
  CHECK(changed.options->changed_rev == "origin/main");
  auto head = parse_args({"--changed"});
  REQUIRE(head.options);
  CHECK(!head.options->changed_rev);
  auto budget = parse_args({"--budget-ms", "0"});
  REQUIRE(budget.options);
  CHECK(budget.options->budget_ms == 0);
  auto forced = parse_args({"--impact", "saved.json", "--force"});
  REQUIRE(forced.options);
  CHECK(forced.options->force);
  auto hook = parse_args({"install-hook", "--force"});
  REQUIRE(hook.options);
  CHECK((hook.options->verb == Verb::install_hook && hook.options->force));
  auto here = parse_args({"-C", "."});
  REQUIRE(here.options);
}

TEST_CASE("--no-reorder belongs to the run, the only command that orders a pytest run", "[cli]") {
  auto run = parse_args({"--no-reorder", "--", "-v"});
  REQUIRE(run.options);
  CHECK(run.options->no_reorder);
  CHECK(!parse_args({}).options->no_reorder);
  CHECK(parse_args({"select", "--no-reorder"}).code == 2);
  CHECK(parse_args({"audit", "--no-reorder"}).code == 2);
}
