#include "python/facts_codec.hpp"

#include "util/binary.hpp"

#include <algorithm>
#include <cstring>

namespace impact::python {

namespace {

constexpr uint64_t k_parse_error = 1;
constexpr uint64_t k_has_doctest = 2;
constexpr uint64_t k_all_present = 4;
constexpr uint64_t k_all_dynamic = 8;
constexpr uint64_t k_plugins_dynamic = 16;
constexpr uint64_t k_module_getattr = 32;
constexpr uint64_t k_uncertain = 64;
constexpr uint64_t k_collect_ignore = 128;
constexpr uint64_t k_dynamic_access = 256;
constexpr uint64_t k_oversized = 512;
constexpr uint64_t k_stores_globals = 1024;
constexpr uint64_t k_path_strings = 2048;

uint64_t bit(bool on, uint64_t flag) { return on ? flag : uint64_t{0}; }

// What FactsHeader::has_dynamic_access says of a symbol: it reads names computed at run time.
bool reads_computed_names(const Symbol& s) {
  return s.dynamic_access || std::any_of(s.refs.begin(), s.refs.end(), [](const std::string& r) { return is_value_attr_reader(r); });
}

// The compile check rides in the flags word: the issue in bits 16-23, the Python 3 minor version its
// constructs need in bits 24-31, and one line in bits 32-63 (the issue's, else the version's: the one
// compile_verdict reports).
constexpr int k_issue_shift = 16, k_minor_shift = 24, k_line_shift = 32;

uint64_t compile_bits(const CompileCheck& c) {
  uint32_t line = c.issue != SyntaxIssue::none ? c.line : c.needs_line;
  return (uint64_t{static_cast<uint8_t>(c.issue)} << k_issue_shift) | (uint64_t{c.needs_minor} << k_minor_shift) |
         (uint64_t{line} << k_line_shift);
}

CompileCheck compile_of(uint64_t flags) {
  CompileCheck c;
  auto issue = static_cast<uint8_t>(flags >> k_issue_shift);
  c.issue = issue <= static_cast<uint8_t>(SyntaxIssue::unsure_construct) ? static_cast<SyntaxIssue>(issue)
                                                                          : SyntaxIssue::unsure_construct;
  c.needs_minor = static_cast<uint8_t>(flags >> k_minor_shift);
  auto line = static_cast<uint32_t>(flags >> k_line_shift);
  if (c.issue != SyntaxIssue::none) c.line = line;
  if (c.needs_minor != 0) c.needs_line = line;
  return c;
}

void section(util::Writer& out, const util::Writer& body) { out.str(const_cast<util::Writer&>(body).buffer()); }

FactsHeader header_of(uint64_t flags) {
  FactsHeader h;
  h.parse_error = (flags & k_parse_error) != 0;
  h.has_doctest = (flags & k_has_doctest) != 0;
  h.has_all = (flags & k_all_present) != 0;
  h.all_dynamic = (flags & k_all_dynamic) != 0;
  h.pytest_plugins_dynamic = (flags & k_plugins_dynamic) != 0;
  h.defines_module_getattr = (flags & k_module_getattr) != 0;
  h.has_uncertain_imports = (flags & k_uncertain) != 0;
  h.has_collect_ignore = (flags & k_collect_ignore) != 0;
  h.has_dynamic_access = (flags & k_dynamic_access) != 0;
  h.oversized = (flags & k_oversized) != 0;
  h.stores_globals = (flags & k_stores_globals) != 0;
  h.has_path_strings = (flags & k_path_strings) != 0;
  h.compile = compile_of(flags);
  return h;
}

// A symbol's parent as encoded (its index + 1, 0 at module level), checked against the symbol count
// before it becomes an int32_t: a corrupt value such as 2^31 must not overflow on the way.
constexpr int32_t k_bad_parent = -2;
int32_t parent_of(uint64_t encoded, size_t symbols) {
  return encoded > symbols ? k_bad_parent : static_cast<int32_t>(encoded) - 1;
}

// Reads a list of strings as views into the blob.
// The paths section: the listing line, whether it reads anything, then each string with its line.
bool read_paths(util::Reader& in, PathStrings& out) {
  out.listing_line = in.u32();
  out.reads_anything = in.u64() != 0;
  out.strings.resize(in.count());
  for (auto& [text, line] : out.strings) {
    text = in.str();
    line = in.u32();
  }
  return in.ok() && in.done();
}

bool read_views(util::Reader& in, std::vector<std::string_view>& out) {
  size_t n = in.count();
  for (size_t i = 0; i < n; ++i) out.push_back(in.raw(static_cast<size_t>(in.u64())));
  return in.ok();
}

// Every name the file's code reads, as sorted 32-bit hashes: the components of every reference, the
// parameters (fixture requests) and usefixtures names.
util::Writer name_table(const FileFacts& facts) {
  std::vector<uint32_t> hashes;
  // The names whose attributes resolution can follow: bound by an import, a def or a class. A chain
  // rooted elsewhere (a value: `.render`, a comprehension's or a with's variable, a module-level
  // assignment) may read the attribute of any object, a module handed over included.
  std::vector<std::string_view> known{"self", "cls", "super"};
  for (const auto& i : facts.imports) {
    if (i.kind == ImportKind::plain) {
      std::string_view alias = i.aliases.empty() ? std::string_view() : std::string_view(i.aliases.front());
      known.push_back(alias.empty() ? std::string_view(i.module).substr(0, i.module.find('.')) : alias);
    } else if (i.kind == ImportKind::from) {
      for (size_t k = 0; k < i.names.size(); ++k) {
        known.push_back(k < i.aliases.size() && !i.aliases[k].empty() ? std::string_view(i.aliases[k]) : std::string_view(i.names[k]));
      }
    }
  }
  for (const auto& sym : facts.symbols) {
    if (sym.parent == -1) known.push_back(sym.name());
  }
  std::sort(known.begin(), known.end());
  auto followed = [&](std::string_view root) { return std::binary_search(known.begin(), known.end(), root); };
  auto add_components = [&](std::string_view chain, bool values = false) {
    std::string_view root = chain.substr(0, chain.find('.'));
    // An attribute that may be a value's (a parameter's `.render`, `m.render` of a comprehension's
    // `m`, `mod.registry.render`) also stands as `.render`: any component past the first attribute,
    // and the first one too where the root is none that resolution follows.
    bool root_followed = !root.empty() && followed(root);
    size_t index = 0; // of `part` among the chain's components
    size_t start = 0;
    while (start <= chain.size()) {
      size_t dot = chain.find('.', start);
      std::string_view part = chain.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
      if (!part.empty()) hashes.push_back(name_hash(part));
      if (values && index > 0 && !part.empty() && !part.starts_with('*') && (index > 1 || !root_followed)) {
        hashes.push_back(name_hash(value_attr_name(part)));
      }
      ++index;
      // getattr(self, "visit_" + kind) is recorded as `.*visit_`: a reader of any member too.
      if (start > 0 && part.starts_with('*') && !any_member_prefix(chain.substr(start - 1, part.size() + 1)).empty()) {
        hashes.push_back(name_hash(k_any_member_name));
      }
      // getattr(value, "bump_" + part) is recorded as `.*@bump_`: a reader of any value attribute too.
      if (start > 0 && part.starts_with('*') && !any_value_attr_prefix(chain.substr(start - 1, part.size() + 1)).empty()) {
        hashes.push_back(name_hash(k_any_value_attr_name));
      }
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
  };
  for (const auto& s : facts.symbols) {
    for (const auto& r : s.refs) add_components(r, true);
    for (const auto& p : s.params) hashes.push_back(name_hash(p));
    for (const auto& b : s.bases) add_components(b.substr(0, b.find('['))); // subclasses name their bases
    for (const auto& u : s.usefixtures) hashes.push_back(name_hash(u));
  }
  for (const auto& r : facts.module_refs) add_components(r, true);
  for (const auto& u : facts.module_usefixtures) hashes.push_back(name_hash(u));
  // A handed name stands in the table as `&name` (handed_name()).
  for (const auto& h : facts.handed) hashes.push_back(name_hash(handed_name(std::string_view(h).substr(0, h.find('\t')))));
  for (const auto& i : facts.imports) {
    if (i.kind == ImportKind::string_ref) add_components(i.module);
    if (i.kind == ImportKind::string_ref && (i.flags & k_import_code) != 0) hashes.push_back(name_hash(k_code_string_name));
    for (const auto& n : i.names) add_components(n);
  }
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  util::Writer out;
  out.u64(hashes.size());
  for (uint32_t h : hashes) out.raw(std::string_view(reinterpret_cast<const char*>(&h), 4));
  return out;
}

} // namespace

uint32_t name_hash(std::string_view name) {
  uint32_t h = 2166136261u;
  for (char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}

bool decode_paths(std::string_view blob, PathStrings& out) {
  util::Reader in(blob);
  in.u64();
  for (int skip = 0; skip < 5; ++skip) in.raw(static_cast<size_t>(in.u64()));
  util::Reader paths(in.raw(static_cast<size_t>(in.u64())));
  return in.ok() && read_paths(paths, out);
}

std::string_view name_table(std::string_view blob) {
  util::Reader in(blob);
  in.u64();
  for (int skip = 0; skip < 4; ++skip) in.raw(static_cast<size_t>(in.u64()));
  util::Reader table(in.raw(static_cast<size_t>(in.u64())));
  size_t count = table.count();
  std::string_view data = table.raw(count * 4);
  if (!in.ok() || !table.ok()) return std::string_view("?", 1); // unreadable: mentions everything
  return data;
}

bool mentions(std::string_view blob, std::string_view name) { return mentions_in(name_table(blob), name); }

bool mentions_in(std::string_view data, std::string_view name) { return mentions_hash_in(data, name_hash(name)); }

bool mentions_hash_in(std::string_view data, uint32_t wanted) {
  if (data.size() % 4 != 0) return true;
  size_t count = data.size() / 4;
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    uint32_t v;
    std::memcpy(&v, data.data() + mid * 4, 4);
    if (v < wanted) lo = mid + 1;
    else hi = mid;
  }
  if (lo == count) return false;
  uint32_t v;
  std::memcpy(&v, data.data() + lo * 4, 4);
  return v == wanted;
}

std::string encode(const FileFacts& facts) {
  util::Writer imports;
  imports.u64(facts.imports.size());
  for (const auto& i : facts.imports) {
    imports.u64(static_cast<uint64_t>(i.kind));
    imports.u64(i.level);
    imports.u64(i.flags);
    imports.u64(i.line);
    imports.str(i.module);
    imports.strings(i.names);
    imports.strings(i.aliases);
  }
  util::Writer uncertain;
  uncertain.u64(facts.uncertain_imports.size());
  for (const auto& u : facts.uncertain_imports) {
    uncertain.u64(u.line);
    uncertain.str(u.call);
    uncertain.str(u.prefix);
    uncertain.u64(u.level);
  }
  util::Writer rest;
  rest.u64(facts.symbols.size());
  for (const auto& s : facts.symbols) {
    rest.str(s.qualname);
    rest.u64(static_cast<uint64_t>(s.kind));
    rest.u64(s.first_line);
    rest.u64(s.def_line);
    rest.u64(s.body_line);
    rest.u64(s.last_line);
    rest.u64(static_cast<uint64_t>(s.parent + 1));
    rest.strings(s.decorators);
    rest.strings(s.params);
    rest.strings(s.bases);
    rest.u64((s.is_async ? 1u : 0u) | (s.has_init ? 2u : 0u) | (s.autouse ? 4u : 0u) |
             (s.usefixtures_dynamic ? 8u : 0u) | (s.has_metaclass ? 16u : 0u) | (s.wraps_only ? 32u : 0u) |
             (s.wraps_direct ? 64u : 0u));
    rest.str(s.fixture);
    rest.strings(s.usefixtures);
    rest.strings(s.aliases);
  }
  rest.strings(facts.module_names);
  rest.strings(facts.all_names.value_or(std::vector<std::string>{}));
  rest.strings(facts.collect_ignore);
  rest.strings(facts.collect_ignore_glob);
  rest.u64(facts.module_usefixtures_dynamic ? 1 : 0);
  rest.strings(facts.module_usefixtures);
  rest.strings(facts.constant_names);
  rest.strings(facts.doctest_modules);
  rest.strings(facts.handed);

  util::Writer refs;
  refs.u64(facts.symbols.size());
  for (const auto& s : facts.symbols) {
    refs.u64((s.dynamic_access ? 1u : 0u) | (static_cast<uint64_t>(s.namespace_values) << 1) |
             (static_cast<uint64_t>(s.annotation_refs) << 32));
    refs.strings(s.refs);
  }
  refs.u64((facts.module_dynamic_access ? 1u : 0u) | (static_cast<uint64_t>(facts.module_stored) << 1) |
           (static_cast<uint64_t>(facts.module_program) << 32));
  refs.strings(facts.module_refs);
  refs.u64(facts.stored_values.size());
  for (const auto& v : facts.stored_values) {
    refs.str(v.name);
    refs.u64((static_cast<uint64_t>(v.line) << 1) | (v.parametrize ? 1u : 0u));
    refs.strings(v.refs);
    refs.strings(v.wrappers);
  }

  util::Writer out;
  out.u64(bit(facts.parse_error, k_parse_error) | bit(facts.has_doctest, k_has_doctest) | bit(facts.oversized, k_oversized) |
          bit(facts.stores_globals, k_stores_globals) |
          bit(!facts.paths.strings.empty() || facts.paths.listing_line != 0 || facts.paths.reads_anything, k_path_strings) |
          bit(facts.all_names.has_value(), k_all_present) | bit(facts.all_dynamic, k_all_dynamic) |
          bit(facts.pytest_plugins_dynamic, k_plugins_dynamic) | bit(facts.defines_module_getattr, k_module_getattr) |
          bit(!facts.uncertain_imports.empty(), k_uncertain) |
          bit(!facts.collect_ignore.empty() || !facts.collect_ignore_glob.empty(), k_collect_ignore) |
          bit(facts.module_dynamic_access ||
                  std::any_of(facts.module_refs.begin(), facts.module_refs.end(), [](const std::string& r) { return is_value_attr_reader(r); }) ||
                  std::any_of(facts.symbols.begin(), facts.symbols.end(), [](const Symbol& s) { return reads_computed_names(s); }),
              k_dynamic_access) |
          compile_bits(facts.compile));
  section(out, imports);
  section(out, uncertain);
  section(out, rest);
  section(out, refs);
  section(out, name_table(facts));
  util::Writer paths;
  paths.u64(facts.paths.listing_line);
  paths.u64(facts.paths.reads_anything ? 1 : 0);
  paths.u64(facts.paths.strings.size());
  for (const auto& [text, line] : facts.paths.strings) {
    paths.str(text);
    paths.u64(line);
  }
  section(out, paths);
  return std::move(out.buffer());
}

bool decode_header(std::string_view blob, FactsHeader& header) {
  util::Reader in(blob);
  header = header_of(in.u64());
  return in.ok();
}

bool decode_imports(std::string_view blob, ImportScratch& scratch) {
  scratch.imports.clear();
  scratch.names.clear();
  scratch.aliases.clear();
  util::Reader in(blob);
  in.u64();
  util::Reader section(in.raw(static_cast<size_t>(in.u64())));
  size_t n = section.count();
  scratch.imports.reserve(n);
  for (size_t k = 0; k < n; ++k) {
    ImportView v;
    v.kind = static_cast<ImportKind>(section.u64());
    v.level = static_cast<uint8_t>(section.u64());
    v.flags = static_cast<uint8_t>(section.u64());
    v.line = section.u32();
    v.module = section.raw(static_cast<size_t>(section.u64()));
    v.names_begin = scratch.names.size();
    read_views(section, scratch.names);
    v.names_end = scratch.names.size();
    v.aliases_begin = scratch.aliases.size();
    read_views(section, scratch.aliases);
    v.aliases_end = scratch.aliases.size();
    if (!section.ok()) return false;
    scratch.imports.push_back(v);
  }
  return in.ok() && section.ok();
}

bool decode_view(std::string_view blob, FactsView& view) {
  view = FactsView{};
  util::Reader in(blob);
  FactsHeader h = header_of(in.u64());
  view.defines_module_getattr = h.defines_module_getattr;
  in.raw(static_cast<size_t>(in.u64())); // imports: ProjectFacts::imports reads them
  in.raw(static_cast<size_t>(in.u64())); // uncertain imports
  util::Reader rest(in.raw(static_cast<size_t>(in.u64())));
  auto range = [&](util::Reader& r) {
    ViewRange out{static_cast<uint32_t>(view.strings.size()), 0};
    read_views(r, view.strings);
    out.end = static_cast<uint32_t>(view.strings.size());
    return out;
  };
  size_t n = rest.count();
  view.symbols.resize(n);
  view.strings.reserve(n * 6);
  for (auto& s : view.symbols) {
    s.qualname = rest.raw(static_cast<size_t>(rest.u64()));
    s.kind = static_cast<SymbolKind>(rest.u64());
    s.first_line = rest.u32();
    s.def_line = rest.u32();
    rest.u64(); // body line
    s.last_line = rest.u32();
    s.parent = parent_of(rest.u64(), n);
    s.decorators = range(rest);
    s.params = range(rest);
    s.bases = range(rest);
    uint64_t bits = rest.u64();
    s.has_init = (bits & 2) != 0;
    s.autouse = (bits & 4) != 0;
    s.usefixtures_dynamic = (bits & 8) != 0;
    s.has_metaclass = (bits & 16) != 0;
    s.wraps_only = (bits & 32) != 0;
    s.wraps_direct = (bits & 64) != 0;
    s.fixture = rest.raw(static_cast<size_t>(rest.u64()));
    s.usefixtures = range(rest);
    s.aliases = range(rest);
    if (!rest.ok() || s.parent == k_bad_parent) return false;
  }
  read_views(rest, view.module_names);
  for (int k = 0; k < 3; ++k) { // __all__, collect_ignore, collect_ignore_glob: not read here
    size_t count = rest.count();
    for (size_t i = 0; i < count; ++i) rest.raw(static_cast<size_t>(rest.u64()));
  }
  view.module_usefixtures_dynamic = rest.u64() != 0;
  view.module_usefixtures = range(rest);
  read_views(rest, view.constant_names);
  read_views(rest, view.doctest_modules);
  read_views(rest, view.handed);
  util::Reader refs(in.raw(static_cast<size_t>(in.u64())));
  if (refs.count() != n) return false;
  for (auto& s : view.symbols) {
    uint64_t flags = refs.u64();
    s.dynamic_access = (flags & 1) != 0;
    s.refs = range(refs);
    uint64_t stored = (flags >> 1) & 0x7fffffffu, annotated = flags >> 32;
    if (stored + annotated > s.refs.end - s.refs.begin) return false;
    s.namespace_values = static_cast<uint32_t>(stored);
    s.annotation_refs = static_cast<uint32_t>(annotated);
  }
  uint64_t module_flags = refs.u64();
  view.module_dynamic_access = (module_flags & 1) != 0;
  view.module_refs = range(refs);
  uint64_t module_stored = (module_flags >> 1) & 0x7fffffffu, module_program = module_flags >> 32;
  if (module_stored + module_program > view.module_refs.end - view.module_refs.begin) return false;
  view.module_stored = static_cast<uint32_t>(module_stored);
  view.module_program = static_cast<uint32_t>(module_program);
  size_t values = refs.count();
  view.stored_values.resize(values);
  for (auto& v : view.stored_values) {
    v.name = refs.raw(static_cast<size_t>(refs.u64()));
    uint64_t line = refs.u64();
    v.line = static_cast<uint32_t>(line >> 1);
    v.parametrize = (line & 1) != 0;
    v.refs = range(refs);
    v.wrappers = range(refs);
    if (v.refs.end - v.refs.begin != v.wrappers.end - v.wrappers.begin) return false;
  }
  return in.ok() && rest.ok() && refs.ok();
}

bool decode_full(std::string_view blob, FileFacts& facts) {
  util::Reader in(blob);
  FactsHeader h = header_of(in.u64());
  facts.parse_error = h.parse_error;
  facts.oversized = h.oversized;
  facts.has_doctest = h.has_doctest;
  facts.all_dynamic = h.all_dynamic;
  facts.pytest_plugins_dynamic = h.pytest_plugins_dynamic;
  facts.defines_module_getattr = h.defines_module_getattr;
  facts.stores_globals = h.stores_globals;
  facts.compile = h.compile;

  util::Reader imports(in.raw(static_cast<size_t>(in.u64())));
  facts.imports.resize(imports.count());
  for (auto& i : facts.imports) {
    i.kind = static_cast<ImportKind>(imports.u64());
    i.level = static_cast<uint8_t>(imports.u64());
    i.flags = static_cast<uint8_t>(imports.u64());
    i.line = imports.u32();
    i.module = imports.str();
    i.names = imports.strings();
    i.aliases = imports.strings();
  }
  util::Reader uncertain(in.raw(static_cast<size_t>(in.u64())));
  facts.uncertain_imports.resize(uncertain.count());
  for (auto& u : facts.uncertain_imports) {
    u.line = uncertain.u32();
    u.call = uncertain.str();
    u.prefix = uncertain.str();
    u.level = static_cast<uint8_t>(uncertain.u64());
  }
  util::Reader rest(in.raw(static_cast<size_t>(in.u64())));
  size_t n = rest.count();
  facts.symbols.resize(n);
  for (auto& s : facts.symbols) {
    s.qualname = rest.str();
    s.kind = static_cast<SymbolKind>(rest.u64());
    s.first_line = rest.u32();
    s.def_line = rest.u32();
    s.body_line = rest.u32();
    s.last_line = rest.u32();
    s.parent = parent_of(rest.u64(), n);
    s.decorators = rest.strings();
    s.params = rest.strings();
    s.bases = rest.strings();
    uint64_t bits = rest.u64();
    s.is_async = (bits & 1) != 0;
    s.has_init = (bits & 2) != 0;
    s.autouse = (bits & 4) != 0;
    s.usefixtures_dynamic = (bits & 8) != 0;
    s.has_metaclass = (bits & 16) != 0;
    s.wraps_only = (bits & 32) != 0;
    s.wraps_direct = (bits & 64) != 0;
    s.fixture = rest.str();
    s.usefixtures = rest.strings();
    s.aliases = rest.strings();
    if (s.parent == k_bad_parent) return false;
  }
  facts.module_names = rest.strings();
  auto all = rest.strings();
  if (h.has_all) facts.all_names = std::move(all);
  facts.collect_ignore = rest.strings();
  facts.collect_ignore_glob = rest.strings();
  facts.module_usefixtures_dynamic = rest.u64() != 0;
  facts.module_usefixtures = rest.strings();
  facts.constant_names = rest.strings();
  facts.doctest_modules = rest.strings();
  facts.handed = rest.strings();
  util::Reader refs(in.raw(static_cast<size_t>(in.u64())));
  if (refs.count() != facts.symbols.size()) return false;
  for (auto& s : facts.symbols) {
    uint64_t flags = refs.u64();
    s.dynamic_access = (flags & 1) != 0;
    s.refs = refs.strings();
    uint64_t stored = (flags >> 1) & 0x7fffffffu, annotated = flags >> 32;
    if (stored + annotated > s.refs.size()) return false;
    s.namespace_values = static_cast<uint32_t>(stored);
    s.annotation_refs = static_cast<uint32_t>(annotated);
  }
  uint64_t module_flags = refs.u64();
  facts.module_dynamic_access = (module_flags & 1) != 0;
  facts.module_refs = refs.strings();
  uint64_t module_stored = (module_flags >> 1) & 0x7fffffffu, module_program = module_flags >> 32;
  if (module_stored + module_program > facts.module_refs.size()) return false;
  facts.module_stored = static_cast<uint32_t>(module_stored);
  facts.module_program = static_cast<uint32_t>(module_program);
  facts.stored_values.resize(refs.count());
  for (auto& v : facts.stored_values) {
    v.name = refs.str();
    uint64_t line = refs.u64();
    v.line = static_cast<uint32_t>(line >> 1);
    v.parametrize = (line & 1) != 0;
    v.refs = refs.strings();
    v.wrappers = refs.strings();
    if (v.refs.size() != v.wrappers.size()) return false;
  }
  in.raw(static_cast<size_t>(in.u64())); // the name table
  util::Reader paths(in.raw(static_cast<size_t>(in.u64())));
  if (!read_paths(paths, facts.paths)) return false;
  return in.ok() && in.done() && imports.ok() && imports.done() && uncertain.ok() && uncertain.done() && rest.ok() &&
         rest.done() && refs.ok() && refs.done();
}

} // namespace impact::python
