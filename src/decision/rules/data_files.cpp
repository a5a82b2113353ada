// Rule `data-files` of docs/selection.md: which data files the code that reads them bounds.
#include "decision/rules/data_files.hpp"

#include "decision/rules/file_readers.hpp"
#include "decision/rules/path_words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace impact {

namespace {

using path_words::extension_of;
using path_words::ascii_lower;
using path_words::one_of;

// Sources a build compiles into an importable extension, and the compiled forms the interpreter
// imports: what they change is code, reached through imports of a module no Python file defines.
bool build_input(std::string_view ext) {
  return one_of(ext, {"c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "inl", "ipp", "m", "mm", "pyx", "pxd",
                      "pxi", "pyi", "pyc", "pyo", "pyd", "so", "dylib", "dll", "lib", "a", "o", "obj", "rs", "go",
                      "f", "f90", "f95", "for", "cu", "cuh", "swg", "i", "sip", "pth", "pyw", "pyz", "whl",
                      "egg", "cmake", "mk", "bzl", "bazel", "build", "ninja", "def"});
}

// Files other programs read by their name alone (a build tool, a package manager, an interpreter or
// a pytest plugin at start-up), so that no string in Python code needs to name them.
bool conventional_name(std::string_view name) {
  return one_of(name, {"makefile", "gnumakefile", "cmakelists.txt", "meson.build", "meson_options.txt",
                       "meson.options", "manifest.in", "dockerfile", "containerfile", "docker-compose.yml",
                       "docker-compose.yaml", "compose.yml", "compose.yaml", "package.json", "package-lock.json",
                       "yarn.lock", "pnpm-lock.yaml", "cargo.toml", "cargo.lock", "go.mod", "go.sum", "build",
                       "workspace", "justfile", "py.typed", ".coveragerc", "pytest.toml", ".pytest.toml",
                       "pyvenv.cfg", "hatch.toml", "pdm.toml", "uv.toml", "pixi.toml", "pixi.lock", "conda.yaml",
                       "conda.yml", "vcpkg.json", "conanfile.txt", "procfile"});
}

} // namespace

std::optional<std::string> unbounded_data(const RepoPath& path) {
  std::string name = ascii_lower(path.filename());
  std::string_view ext = extension_of(name);
  if (build_input(ext)) return fmt::format("a .{} file is built into or read as code, which no string names", ext);
  if (conventional_name(name) || name.starts_with("dockerfile") || name.starts_with("makefile")) {
    return std::string("other programs read it by its name (a build, a package manager, the interpreter or a "
                       "pytest plugin)");
  }
  if (name == ".env" || name.starts_with(".env.") || name == ".envrc") {
    return std::string("an environment file: pytest plugins and shells load it into every test's environment");
  }
  if (ext == "ipynb") return std::string("a notebook: pytest plugins (nbval, nbmake) collect notebooks as tests");
  if (name.starts_with("test") || name.find("_test.") != std::string::npos || name.find("_tests.") != std::string::npos) {
    return std::string("it is named like a test: a pytest plugin may collect it (YAML, feature or text tests)");
  }
  return std::nullopt;
}

bool could_name_data(std::string_view literal, const RepoPath& path) {
  if (could_name(literal, path)) return true;
  std::string lit = ascii_lower(literal);
  std::replace(lit.begin(), lit.end(), '\\', '/');
  auto slash = lit.rfind('/');
  std::string_view last = slash == std::string::npos ? std::string_view(lit) : std::string_view(lit).substr(slash + 1);
  if (last.size() < 2) return false;
  std::string name = ascii_lower(path.filename());
  return name.starts_with(last) || name.ends_with(last);
}

bool django_convention_folder(const RepoPath& path) {
  std::string_view folders = path.parent();
  for (size_t begin = 0; begin < folders.size();) {
    size_t end = folders.find('/', begin);
    if (end == std::string_view::npos) end = folders.size();
    std::string part = ascii_lower(folders.substr(begin, end - begin));
    if (one_of(part, {"templates", "static", "fixtures", "locale", "jinja2", "templatetags"})) return true;
    begin = end + 1;
  }
  return false;
}

std::vector<std::string> datadir_owners(const RepoPath& path) {
  std::vector<std::string> out;
  std::string_view folder = path.parent();
  while (!folder.empty()) {
    out.push_back(std::string(folder) + ".py");
    auto slash = folder.rfind('/');
    folder = slash == std::string_view::npos ? std::string_view() : folder.substr(0, slash);
  }
  return out;
}

} // namespace impact
