// ProjectLayout::fingerprint: the layout as bytes, for the stored graph's key.
#include "impact/project.hpp"
#include "util/binary.hpp"

namespace impact {

// A new field of either struct must go into the fingerprint: a stored graph keyed without it would be
// reused after that field changed (docs/cache.md, "The stored graph"). These sizes are libstdc++'s on
// x86-64; when one fails, add the field below and update the size.
#if defined(__x86_64__) && defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)
#define IMPACT_CHECK_LAYOUT_SIZES 1
static_assert(sizeof(PytestConfig) == 464, "a field was added to PytestConfig: add it to ProjectLayout::fingerprint()");
#endif

std::string ProjectLayout::fingerprint() const {
#ifdef IMPACT_CHECK_LAYOUT_SIZES
  static_assert(sizeof(ProjectLayout) == 608, "a member was added to ProjectLayout: add it to fingerprint()");
#endif
  util::Writer out;
  const PytestConfig& c = m_config;
  out.str(c.inifile);
  out.str(c.rootdir);
  for (const auto* list : {&c.testpaths, &c.python_files, &c.python_classes, &c.python_functions, &c.pythonpath,
                           &c.norecursedirs, &c.addopts, &c.usefixtures, &c.doctest_globs, &c.plugins, &c.ignore_paths,
                           &c.ignore_globs, &c.arg_paths, &c.unknown_options, &c.values, &c.entry_point_plugins}) {
    out.strings(*list);
  }
  out.u64((c.doctest_modules ? 1 : 0) | (c.pyargs ? 2 : 0));
  for (const auto* list : {&m_roots, &m_collection_roots, &m_package_dirs, &m_venv_dirs, &m_not_checked_out}) out.strings(*list);
  out.u64(m_conftest_ignores.size());
  for (const auto& ignore : m_conftest_ignores) {
    out.str(ignore.dir);
    out.strings(ignore.paths);
    out.strings(ignore.globs);
  }
  return std::move(out.buffer());
}

} // namespace impact
