#include "app/commands.hpp"
#include "impact/error.hpp"
#include "impact/python/compile_check.hpp"
#include "impact/python/facts.hpp"
#include "util/files.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace impact::app {

// `impact facts FILE`: what impact reads from one Python file, as JSON. A debugging aid.
int run_facts(const cli::Options& options) {
  auto path = options.directory / options.target;
  auto source = util::read_file(path);
  if (!source) throw Error("cannot read {}; pass a Python file", path.string());
  FactsExtractor extractor;
  FileFacts facts = extractor.extract(*source);
  using nlohmann::json;
  json imports = json::array();
  for (const auto& i : facts.imports) {
    imports.push_back({{"kind", std::string(to_string(i.kind))}, {"module", i.module}, {"level", i.level},
                       {"names", i.names}, {"aliases", i.aliases}, {"line", i.line}, {"flags", i.flags}});
  }
  json uncertain = json::array();
  for (const auto& u : facts.uncertain_imports) {
    uncertain.push_back({{"line", u.line}, {"call", u.call}, {"prefix", u.prefix}, {"level", u.level}});
  }
  json symbols = json::array();
  for (const auto& s : facts.symbols) {
    symbols.push_back({{"qualname", s.qualname}, {"kind", std::string(to_string(s.kind))},
                       {"lines", {s.first_line, s.def_line, s.body_line, s.last_line}},
                       {"decorators", s.decorators}, {"params", s.params}, {"bases", s.bases},
                       {"refs", s.refs}, {"dynamic_access", s.dynamic_access}, {"has_init", s.has_init},
                       {"wraps_only", s.wraps_only}, {"wraps_direct", s.wraps_direct}, {"aliases", s.aliases},
                       {"namespace_values", s.namespace_values}, {"annotation_refs", s.annotation_refs}});
  }
  json stored = json::array();
  for (const auto& v : facts.stored_values) {
    stored.push_back({{"name", v.name}, {"line", v.line}, {"refs", v.refs}, {"wrappers", v.wrappers}});
  }
  json doc = {{"imports", imports},
              {"uncertain_imports", uncertain},
              {"symbols", symbols},
              {"module_refs", facts.module_refs},
              {"module_stored", facts.module_stored},
              {"module_program", facts.module_program},
              {"stored_values", stored},
              {"module_dynamic_access", facts.module_dynamic_access},
              {"module_names", facts.module_names},
              {"constant_names", facts.constant_names},
              {"doctest_modules", facts.doctest_modules},
              {"handed", facts.handed},
              {"all", facts.all_names ? json(*facts.all_names) : json(nullptr)},
              {"parse_error", facts.parse_error},
              {"compile", {{"issue", std::string(to_string(facts.compile.issue))},
                           {"certain", is_certain(facts.compile.issue)},
                           {"line", facts.compile.line},
                           {"needs_python", facts.compile.needs_minor == 0 ? json(nullptr)
                                                                           : json(fmt::format("3.{}", facts.compile.needs_minor))},
                           {"needs_line", facts.compile.needs_line}}},
              {"has_doctest", facts.has_doctest}};
  fmt::print("{}\n", doc.dump(2, ' ', false, json::error_handler_t::replace));
  return 0;
}

} // namespace impact::app
