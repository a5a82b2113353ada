#include "app/doctor.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace impact::app;

TEST_CASE("the text report caps a check's items and sums up what needs fixing", "[doctor]") {
  std::vector<std::string> items;
  for (int i = 0; i < 12; ++i) {
    std::string name = "f"; // appended, not "f" + ...: GCC 12 -O3 warns falsely (-Wrestrict) on the operator+
    name += std::to_string(i);
    items.push_back(name);
  }
  std::vector<Check> checks = {Check{"pytest", CheckStatus::ok, "pytest runs", "", {}, {}},
                               Check{"non_python", CheckStatus::warn, "12 file(s)", "ignore them", items, {}}};
  std::string text = render_doctor_text(checks);
  CHECK(text.find("ok    pytest           pytest runs\n") != std::string::npos);
  CHECK(text.find("warn  non_python       12 file(s)\n") != std::string::npos);
  CHECK(text.find("- f9\n") != std::string::npos);
  CHECK(text.find("- f10\n") == std::string::npos);
  CHECK(text.find("- and 2 more\n") != std::string::npos);
  CHECK(text.find("fix: ignore them\n") != std::string::npos);
  CHECK(text.ends_with("1 to fix: 0 fail, 1 warn (of 2 checks)\n"));
  CHECK(render_doctor_text({checks[0]}).ends_with("all 1 checks passed\n"));
}

TEST_CASE("the JSON report keeps whole lists and says whether all is well", "[doctor]") {
  Check c{"collection", CheckStatus::fail, "differs", "fix it", {"pytest only: a.py (1)"}, {{"only_pytest", {"a.py::t"}}}};
  std::string json = render_doctor_json({c});
  CHECK(json.find("\"schema\": \"impact.doctor\"") != std::string::npos);
  CHECK(json.find("\"healthy\": false") != std::string::npos);
  CHECK(json.find("\"only_pytest\": [\n        \"a.py::t\"\n      ]") != std::string::npos);
  CHECK(render_doctor_json({Check{"index", CheckStatus::ok, "none", "", {}, {}}}).find("\"fix\": null") !=
        std::string::npos);
}
