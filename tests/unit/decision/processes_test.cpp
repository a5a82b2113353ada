// Which test files may start a process (decision/processes.hpp): their own code, a conftest.py in
// their scope, or test code they import names a way to start one; the project's own code counts only
// where it forks (its children's coverage is never saved).
#include "decision/processes.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using impact::testing::Project;

namespace {

// Whether the test file at a path of the built project may start a process.
class Starts {
public:
  explicit Starts(const Project& p)
      : m_built(impact::testing::build(p)), m_starters(m_built->graph, &m_built->facts) {}
  bool operator()(std::string_view path) {
    auto node = m_built->graph.find(path);
    REQUIRE(node);
    return m_starters.starts(*node);
  }
  bool any() const { return m_starters.any(); }

private:
  std::unique_ptr<impact::testing::Built> m_built;
  impact::decision::ProcessStarters m_starters;
};

} // namespace

TEST_CASE("processes: a test file starts a process through its own code, a conftest.py or a helper beside it",
          "[decision][processes]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/run.py", "import subprocess\n\ndef go():\n    subprocess.run(['ls'])\n")
      .file("tests/test_plain.py", "from app.run import go\n\ndef test_go():\n    assert go\n")
      .file("tests/test_own.py", "import subprocess\n\ndef test_x():\n    subprocess.run(['ls'])\n")
      .file("tests/test_os.py", "import os\n\ndef test_x():\n    os.system('ls')\n")
      .file("tests/test_from_os.py", "from os import system as run_it\n\ndef test_x():\n    run_it('ls')\n")
      .file("tests/test_platform.py", "import platform\n\ndef test_x():\n    assert platform.system()\n")
      .file("tests/helpers.py", "from subprocess import check_output\n")
      .file("tests/test_helped.py", "import helpers\n\ndef test_x():\n    assert helpers\n")
      .file("tests/cli/conftest.py", "import pexpect\n")
      .file("tests/cli/test_scoped.py", "def test_x():\n    pass\n")
      .file("tests/test_pytester.py", "def test_x(pytester):\n    pytester.run('ls')\n");
  Starts starts(p);
  CHECK(starts.any());
  CHECK_FALSE(starts("tests/test_plain.py")); // the project's own code starts it: the child inherits the environment
  CHECK(starts("tests/test_own.py"));
  CHECK(starts("tests/test_os.py"));
  CHECK(starts("tests/test_from_os.py"));
  CHECK_FALSE(starts("tests/test_platform.py")); // platform.system() is no os.system()
  CHECK(starts("tests/test_helped.py"));
  CHECK(starts("tests/cli/test_scoped.py"));
  CHECK(starts("tests/test_pytester.py"));
}

TEST_CASE("processes: without facts every test file may start one", "[decision][processes]") {
  Project p;
  p.file("tests/test_a.py", "def test_a():\n    pass\n");
  auto built = impact::testing::build(p);
  impact::decision::ProcessStarters starters(built->graph, nullptr);
  CHECK(starters.any());
  CHECK(starters.starts(*built->graph.find("tests/test_a.py")));
}

TEST_CASE("processes: a test file that loads project code that forks keeps its share", "[decision][processes]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/pool.py", "import multiprocessing\n\ndef go(f, xs):\n    return multiprocessing.Pool(2).map(f, xs)\n")
      .file("app/uses_pool.py", "from app.pool import go\n")
      .file("app/futures.py", "from concurrent.futures import ProcessPoolExecutor\n")
      .file("app/threads.py", "from concurrent.futures import ThreadPoolExecutor\n")
      .file("app/forks.py", "import os\n\ndef go():\n    return os.fork()\n")
      .file("tests/test_pool.py", "from app.uses_pool import go\n\ndef test_x():\n    assert go\n")
      .file("tests/test_futures.py", "import app.futures\n\ndef test_x():\n    pass\n")
      .file("tests/test_forks.py", "from app import forks\n\ndef test_x():\n    pass\n")
      .file("tests/test_threads.py", "import app.threads\n\ndef test_x():\n    pass\n")
      .file("app/quiet.py", "import sys\n\ndef quiet(f):\n    sys.settrace(None)\n    return f()\n")
      .file("tests/test_quiet.py", "from app.quiet import quiet\n\ndef test_x():\n    assert quiet\n")
      .file("tests/test_debugger.py", "import bdb\n\ndef test_x():\n    bdb.Bdb().set_trace()\n");
  Starts starts(p);
  CHECK(starts.any());
  CHECK(starts("tests/test_pool.py")); // through app/uses_pool.py
  CHECK(starts("tests/test_futures.py"));
  CHECK(starts("tests/test_forks.py"));
  CHECK_FALSE(starts("tests/test_threads.py")); // threads are traced
  CHECK(starts("tests/test_quiet.py"));            // the tracer replaced: nothing recorded until it is back
  CHECK(starts("tests/test_debugger.py"));
}
