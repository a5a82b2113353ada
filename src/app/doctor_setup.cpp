// `impact doctor`: pytest-cov, where pytest's configuration lives, and what the coverage index measured.
#include "app/doctor.hpp"

#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "impact/graph.hpp"

#include <fmt/format.h>

#include <set>

namespace impact::app {

namespace {

std::filesystem::path canonical_or_same(const std::filesystem::path& p) {
  std::error_code ec;
  auto out = std::filesystem::weakly_canonical(p, ec);
  return ec ? p : out;
}

bool is_outside(const std::filesystem::path& path, const std::filesystem::path& root) {
  auto rel = canonical_or_same(path).lexically_relative(canonical_or_same(root));
  return rel.empty() || *rel.begin() == "..";
}

} // namespace

Check pytest_cov_check(const ProbeReport& probe) {
  Check c{"pytest_cov", CheckStatus::ok, "", "", {}, {}};
  if (probe.pytest_cov) {
    c.what = fmt::format("pytest-cov is installed for {}", probe.executable);
    return c;
  }
  c.status = CheckStatus::warn;
  c.what = fmt::format("pytest-cov cannot be imported by {} ({}): impact index needs it to build the coverage index",
                       probe.executable, probe.pytest_cov_error);
  c.fix = fmt::format("install it where pytest runs: {} -m pip install pytest-cov (or apt install python3-pytest-cov)",
                      probe.executable);
  return c;
}

Check config_location_check(const ProbeReport& probe, const std::filesystem::path& root, const PytestConfig& pytest) {
  Check c{"config_location", CheckStatus::ok, "", "", {}, {}};
  std::string ours = pytest.inifile.empty() ? std::string("none") : pytest.inifile;
  if (probe.inipath && is_outside(*probe.inipath, root)) {
    c.status = CheckStatus::warn;
    c.what = fmt::format("pytest reads its configuration from {}, outside the repository; impact reads the "
                         "repository's ({}), so the two see different options",
                         *probe.inipath, ours);
    c.fix = "put pytest's configuration in the repository's root (pytest.ini, or [tool.pytest.ini_options] in "
            "pyproject.toml): an empty one stops pytest's search upwards";
    return c;
  }
  auto expected = canonical_or_same(root / pytest.rootdir);
  if (!probe.rootpath.empty() && canonical_or_same(probe.rootpath) != expected) {
    c.status = CheckStatus::warn;
    c.what = fmt::format("pytest's rootdir is {}, impact's is {}: node ids and paths differ between them",
                         probe.rootpath, expected.string());
    c.fix = "put pytest's configuration file in the repository's root, or pass --rootdir in [tool.impact] pytest-command";
    return c;
  }
  c.what = probe.inipath ? fmt::format("pytest and impact read the same configuration ({})", ours)
                         : std::string("pytest reads no configuration file, and neither does impact");
  return c;
}

Check index_check(const std::filesystem::path& index_path, const ImportGraph& graph) {
  Check c{"index", CheckStatus::ok, "", "", {}, {}};
  std::error_code ec;
  if (!std::filesystem::exists(index_path, ec)) {
    c.what = "no coverage index (optional: impact index builds one)";
    return c;
  }
  try {
    IndexReader index(index_path);
    size_t source = 0, tests = 0;
    std::set<std::string> paths; // a merged index may hold several versions of a path: counted once
    for (auto& version : index.file_oids()) paths.insert(std::move(version.path));
    for (const auto& path : paths) {
      auto file = index.file(RepoPath(path));
      if (!file || !file->measured || file->lines.empty()) continue;
      auto node = graph.find(path);
      bool test = node && (graph.nodes[*node].test_pattern || graph.nodes[*node].conftest);
      ++(test ? tests : source);
    }
    const IndexMeta& meta = index.meta();
    if (source == 0) {
      c.status = CheckStatus::fail;
      c.what = fmt::format("the coverage index (built {} at {}) measured no source file, {} test file(s) only: it "
                           "cannot vouch for any change to the code",
                           meta.built_at, meta.commit.substr(0, 12), tests);
      c.fix = "make the tests import the work tree (the imports check), install pytest-cov, then rebuild it: impact index";
      return c;
    }
    c.what = fmt::format("the coverage index measured {} source file(s) and {} test file(s) ({} tests)", source, tests,
                         meta.tests);
  } catch (const Error& e) {
    c.status = CheckStatus::warn;
    c.what = fmt::format("the coverage index cannot be read: {}", e.what());
    c.fix = "rebuild it: impact index";
  }
  return c;
}

} // namespace impact::app
