// Dependency pins: the distributions a requirements file, a lockfile or a requirement list moves.
#include "impact/pins.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using Names = std::vector<std::string>;

namespace {
Names moved(PinFile kind, std::string_view before, std::string_view after) {
  auto diff = pin_diff(kind, before, after);
  REQUIRE(diff);
  return diff->distributions;
}
} // namespace

TEST_CASE("pins: names as PEP 503 and PEP 508 read them") {
  CHECK(normalize_distribution("Foo.Bar__baz") == "foo-bar-baz");
  CHECK(requirement_name("Requests[socks]>=2.0 ; python_version < '3.9'") == "requests");
  CHECK(requirement_name("attrs") == "attrs");
  CHECK(requirement_name("pkg @ https://example.org/pkg.whl") == "pkg");
  CHECK(requirement_name("https://example.org/pkg-1.0.tar.gz") == "");
  CHECK(requirement_name("./local/pkg") == "");
  CHECK(requirement_name("pkg-1.0-py3-none-any.whl") == "");
  CHECK(requirement_name("-r base.txt") == "");
}

TEST_CASE("pins: which files hold pins") {
  CHECK(pin_file_kind(RepoPath("requirements.txt")) == PinFile::requirements);
  CHECK(pin_file_kind(RepoPath("requirements/test.in")) == PinFile::requirements);
  CHECK(pin_file_kind(RepoPath("ci/requirements/dev.txt")) == PinFile::requirements);
  CHECK(pin_file_kind(RepoPath("constraints.txt")) == PinFile::requirements);
  CHECK(pin_file_kind(RepoPath("uv.lock")) == PinFile::uv_lock);
  CHECK(pin_file_kind(RepoPath("poetry.lock")) == PinFile::poetry_lock);
  CHECK(pin_file_kind(RepoPath("Pipfile.lock")) == PinFile::pipfile_lock);
  CHECK(pin_file_kind(RepoPath("setup.cfg")) == PinFile::none);
}

TEST_CASE("pins: requirements files by distribution") {
  std::string before = "# test deps\nattrs==23.1\nrequests==2.31 \\\n    --hash=sha256:aaa\n-r base.txt\n";
  CHECK(moved(PinFile::requirements, before, "# test deps\nattrs==23.2\nrequests==2.31 \\\n    --hash=sha256:aaa\n-r base.txt\n") == Names{"attrs"});
  CHECK(moved(PinFile::requirements, before, "# test deps\nattrs==23.1\nrequests==2.31 \\\n    --hash=sha256:bbb\n-r base.txt\n") == Names{"requests"});
  CHECK(moved(PinFile::requirements, before, before + "idna==3.4  # via requests\n") == Names{"idna"});
  CHECK(moved(PinFile::requirements, before, "# dev and test deps\n" + before.substr(12)) == Names{});
  CHECK(moved(PinFile::requirements, "", "pytest==8.0\n") == Names{"pytest"});
  // An include, an index or an editable path changed: nothing can be said by distribution.
  CHECK_FALSE(pin_diff(PinFile::requirements, before, "attrs==23.1\nrequests==2.31 --hash=sha256:aaa\n-r dev.txt\n"));
  CHECK_FALSE(pin_diff(PinFile::requirements, "", "--index-url https://mirror/simple\n"));
  CHECK_FALSE(pin_diff(PinFile::requirements, "", "-e ./plugins/extra\n"));
}

TEST_CASE("pins: uv.lock by package, with the packages that depend on a changed one") {
  std::string before = R"(version = 1
requires-python = ">=3.9"

[[package]]
name = "app"
version = "0.1.0"
source = { editable = "." }
dependencies = [{ name = "requests" }]

[[package]]
name = "requests"
version = "2.31.0"
source = { registry = "https://pypi.org/simple" }
dependencies = [{ name = "idna" }, { name = "urllib3" }]

[[package]]
name = "idna"
version = "3.4"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "urllib3"
version = "2.0.0"
source = { registry = "https://pypi.org/simple" }
)";
  std::string idna = before;
  idna.replace(idna.find("version = \"3.4\""), 15, "version = \"3.6\"");
  CHECK(moved(PinFile::uv_lock, before, idna) == Names{"idna"});
  CHECK(pin_diff(PinFile::uv_lock, before, idna)->dependents.at("idna") == Names{"requests"});
  // The project's own entry: only the dependencies that came or went.
  std::string added = before;
  added.replace(added.find("dependencies = [{ name = \"requests\" }]"), 38,
                "dependencies = [{ name = \"requests\" }, { name = \"idna\" }]");
  CHECK(moved(PinFile::uv_lock, before, added) == Names{"idna"});
  std::string header = before;
  header.replace(header.find(">=3.9"), 5, ">=3.10");
  CHECK(moved(PinFile::uv_lock, before, header) == Names{});
  CHECK_FALSE(pin_diff(PinFile::uv_lock, before, "[[package]\n"));
}

TEST_CASE("pins: poetry.lock, pdm.lock and Pipfile.lock") {
  std::string poetry = "[[package]]\nname = \"flask\"\nversion = \"3.0.0\"\n\n[package.dependencies]\nJinja2 = \">=3.1\"\n\n"
                       "[[package]]\nname = \"jinja2\"\nversion = \"3.1.2\"\n\n[metadata]\ncontent-hash = \"aaa\"\n";
  std::string poetry2 = poetry;
  poetry2.replace(poetry2.find("3.1.2"), 5, "3.1.3");
  poetry2.replace(poetry2.find("aaa"), 3, "bbb");
  CHECK(moved(PinFile::poetry_lock, poetry, poetry2) == Names{"jinja2"});
  CHECK(pin_diff(PinFile::poetry_lock, poetry, poetry2)->dependents.at("jinja2") == Names{"flask"});
  std::string pdm = "[[package]]\nname = \"rich\"\nversion = \"13.0\"\ndependencies = [\"pygments>=2\"]\n\n"
                    "[[package]]\nname = \"pygments\"\nversion = \"2.16\"\n";
  std::string pdm2 = pdm;
  pdm2.replace(pdm2.find("2.16"), 4, "2.17");
  CHECK(moved(PinFile::pdm_lock, pdm, pdm2) == Names{"pygments"});
  CHECK(pin_diff(PinFile::pdm_lock, pdm, pdm2)->dependents.at("pygments") == Names{"rich"});
  std::string pipfile = R"({"_meta": {"hash": {"sha256": "a"}}, "default": {"six": {"version": "==1.16.0"}}, "develop": {}})";
  std::string pipfile2 = R"({"_meta": {"hash": {"sha256": "b"}}, "default": {"six": {"version": "==1.17.0"}}, "develop": {}})";
  auto diff = pin_diff(PinFile::pipfile_lock, pipfile, pipfile2);
  REQUIRE(diff);
  CHECK(diff->distributions == Names{"six"});
  CHECK_FALSE(diff->has_graph);
  CHECK_FALSE(pin_diff(PinFile::pipfile_lock, pipfile, "{"));
}

TEST_CASE("pins: requirement lists of pyproject.toml") {
  auto diff = requirement_list_diff({"attrs>=22", "click"}, {"attrs>=23", "click", "rich"});
  REQUIRE(diff);
  CHECK(diff->distributions == Names{"attrs", "rich"});
  CHECK_FALSE(requirement_list_diff({}, {"https://example.org/x.whl"}));
}
