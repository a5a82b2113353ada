// Reading installed distributions from site-packages folders: dist-info and egg-info.
#include "impact/environment.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace impact;
namespace fs = std::filesystem;

namespace {

struct Site {
  fs::path dir;
  Site() {
    dir = fs::temp_directory_path() / ("impact-env-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Site() { fs::remove_all(dir); }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << text;
  }
};

} // namespace

TEST_CASE("environment: a wheel's dist-info gives name, version, modules, requirements and plugins") {
  Site site;
  site.write("Python_DateUtil-2.8.2.dist-info/METADATA",
             "Metadata-Version: 2.1\nName: python-dateutil\nVersion: 2.8.2\nRequires-Dist: six (>=1.5)\n\nLong text\nName: not-a-header\n");
  site.write("Python_DateUtil-2.8.2.dist-info/RECORD",
             "dateutil/__init__.py,sha256=x,1\ndateutil/tz/tz.py,sha256=x,1\n"
             "Python_DateUtil-2.8.2.dist-info/METADATA,,\n../../bin/tool,,\n\"odd,name.py\",,\n");
  site.write("six-1.16.0.dist-info/METADATA", "Name: six\nVersion: 1.16.0\n");
  site.write("six-1.16.0.dist-info/RECORD", "six.py,sha256=x,1\n__pycache__/six.cpython-311.pyc,,\n");
  site.write("pytest_cov-4.1.dist-info/METADATA", "Name: pytest-cov\nVersion: 4.1\nRequires-Dist: pytest>=4.6\nRequires-Dist: coverage[toml]>=5.2.1\n");
  site.write("pytest_cov-4.1.dist-info/entry_points.txt", "[pytest11]\npytest_cov = pytest_cov.plugin\n");
  site.write("pytest_cov-4.1.dist-info/top_level.txt", "pytest_cov\n");
  auto env = read_environment({site.dir});
  REQUIRE(env.distributions.count("python-dateutil") == 1);
  const auto& du = env.distributions.at("python-dateutil");
  CHECK(du.version == "2.8.2");
  CHECK(du.import_names == std::vector<std::string>{"dateutil", "odd,name"});
  CHECK(du.requirements == std::vector<std::string>{"six"});
  CHECK_FALSE(du.pytest_plugin);
  CHECK(env.distributions.at("six").import_names == std::vector<std::string>{"six"});
  const auto& cov = env.distributions.at("pytest-cov");
  CHECK(cov.pytest_plugin);
  CHECK(cov.requirements == std::vector<std::string>{"coverage", "pytest"});
  CHECK(cov.import_names == std::vector<std::string>{"pytest_cov"});
}

TEST_CASE("environment: Debian's egg-info folders and files") {
  Site site;
  site.write("requests-2.28.1.egg-info/PKG-INFO", "Metadata-Version: 2.1\nName: requests\nVersion: 2.28.1\n");
  site.write("requests-2.28.1.egg-info/top_level.txt", "requests\n");
  site.write("requests-2.28.1.egg-info/requires.txt", "charset_normalizer<3,>=2\nidna<4,>=2.5\n\n[socks]\nPySocks!=1.5.7,>=1.5.6\n");
  site.write("oldlib-1.0.egg-info", "Metadata-Version: 1.0\nName: oldlib\nVersion: 1.0\n");
  auto env = read_environment({site.dir, site.dir / "missing"});
  const auto& r = env.distributions.at("requests");
  CHECK(r.import_names == std::vector<std::string>{"requests"});
  CHECK(r.requirements == std::vector<std::string>{"charset-normalizer", "idna"});
  CHECK(r.extra_requirements == std::vector<std::string>{"pysocks"}); // the socks feature
  CHECK(env.distributions.at("oldlib").import_names.empty()); // unknown modules: the caller is uncertain
}

TEST_CASE("environment: requirements by extra; a development extra's are not dependencies") {
  Site site;
  site.write("pytest-7.2.1.dist-info/METADATA",
             "Name: pytest\nVersion: 7.2.1\nRequires-Dist: pluggy (<2.0,>=0.12)\n"
             "Requires-Dist: colorama ; sys_platform == \"win32\"\n"
             "Requires-Dist: argcomplete ; extra == \"testing\"\n"
             "Requires-Dist: hypothesis (>=3.56) ; extra == 'testing'\n"
             "Requires-Dist: sphinx ; (python_version >= \"3.8\") and extra == \"docs\"\n"
             "Requires-Dist: pysocks ; extra == \"socks\"\n"
             "Requires-Dist: shared ; extra == \"dev\" or extra == \"speedups\"\n"
             "Requires-Dist: nextra ; python_version < \"3.8\"\n");
  site.write("oldreq-1.0.egg-info/PKG-INFO", "Name: oldreq\nVersion: 1.0\n");
  site.write("oldreq-1.0.egg-info/requires.txt",
             "six\n\n[:python_version < \"3.8\"]\nimportlib-metadata\n\n[tests]\npytest\n\n"
             "[docs:python_version >= \"3.8\"]\nsphinx\n\n[yaml]\npyyaml\n");
  auto env = read_environment({site.dir});
  const auto& pytest = env.distributions.at("pytest");
  CHECK(pytest.requirements == std::vector<std::string>{"colorama", "nextra", "pluggy"});
  CHECK(pytest.extra_requirements == std::vector<std::string>{"pysocks", "shared"});
  const auto& old = env.distributions.at("oldreq");
  CHECK(old.requirements == std::vector<std::string>{"importlib-metadata", "six"});
  CHECK(old.extra_requirements == std::vector<std::string>{"pyyaml"});
  CHECK(development_extra("testing"));
  CHECK(development_extra("Docs"));
  CHECK(development_extra("tests_extra"));
  CHECK(development_extra("pre_commit"));
  CHECK_FALSE(development_extra("socks"));
  CHECK_FALSE(development_extra("testingtools")); // a word, not a prefix with a separator
  CHECK_FALSE(development_extra("yaml"));
}

TEST_CASE("environment: the interpreter behind a pytest argv") {
  CHECK(interpreter_of({"/usr/bin/python3", "-m", "pytest"}) == "/usr/bin/python3");
  CHECK_FALSE(interpreter_of({}));
  Site site;
  site.write("bin/pytest", "#!/opt/venv/bin/python3.11\nimport sys\n");
  site.write("bin/pytest2", "#! /usr/bin/env python3\n");
  CHECK(interpreter_of({(site.dir / "bin/pytest").string()}) == "/opt/venv/bin/python3.11");
  CHECK(interpreter_of({(site.dir / "bin/pytest2").string()}) == "python3");
}

TEST_CASE("environment: the real interpreter's site folders", "[slow]") {
  auto dirs = site_dirs_of("/usr/bin/python3", fs::temp_directory_path());
  REQUIRE(dirs);
  auto env = read_environment(*dirs);
  REQUIRE(env.distributions.count("pytest") == 1);
  const auto& pytest = env.distributions.at("pytest");
  CHECK(std::find(pytest.import_names.begin(), pytest.import_names.end(), "pytest") != pytest.import_names.end());
  CHECK(std::find(pytest.requirements.begin(), pytest.requirements.end(), "pluggy") != pytest.requirements.end());
  CHECK_FALSE(site_dirs_of("/nonexistent/python", fs::temp_directory_path()));
}
