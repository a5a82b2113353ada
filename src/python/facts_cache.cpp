#include "python/facts_cache.hpp"

#include "util/binary.hpp"
#include "util/checksum.hpp"
#include "util/files.hpp"
#include "util/hex.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace impact::python {

namespace {

// Bump when FileFacts, its encoding or what the extractor records changes: old caches are ignored.
constexpr uint64_t k_format_version = 86; // 86: `.name` counted by component position (a `*` marker before it counts too); 85: names read as attributes of values (or of names no import, def or class binds) stand as `.name` in the name table; 84: (withdrawn before release); 83: object.__setattr__(obj, name, v) is setattr; vars(cls) of a plain function is getmembers; 82: 81's reading of import_module(obj.__module__) withdrawn (code may set __module__); 80: hasattr(self, computed) and setattr(self, computed, v) are readers of self's getters and setters only; a class body's `@size.setter` of its own property is no read; 79: the compile check refuses trailing import commas, `raise from`, stray call commas, and reads a # in a nested f-string literal as 3.11 text; a keyword argument named eval or exec is no call of the builtin, and a plain name assigned at module level or in a class body is no read; 78: match patterns read attributes and get; annotated template bindings and templates given as default or keyword values; 77: a header flag for files with path strings (FactsHeader::has_path_strings); 76: a flag expression over UPPER_CASE names of other modules is a constant; 75: a star-importing module keeps reads of builtin names (the star may bind them); 74: skipif / xfail string conditions inside any decorator (pytest.param marks); 73: string conditions of skipif / xfail markers assigned in a class body are reads of the class; 72: module-level reads only in a main guard's body kept apart (FileFacts::module_program); 71: adjacent string literals are also read as one path string; 70: stores into globals() by key or update() (FileFacts::stores_globals); 69: monkeypatch.setattr/delattr, patch.object, mocker.spy (object, "name") and patch.multiple keywords read the attribute; 68: the argvalues of a pytest.mark.parametrize decorating a module-level function are values it holds (StoredValue::parametrize); 67: a template literal inside a function reads its fields' attributes wherever it goes; 66: a module-level template no code of the file formats is read by the module level; 65: imports inside strings of code (k_import_code string references); 64: the compile check reads match patterns (SyntaxIssue::invalid_pattern: a name bound twice, alternatives binding different names, duplicate mapping keys, ...) and an annotated global in a class body; 63: the compile check refuses break/continue/return in except*, import ... as __debug__, and an annotated global or nonlocal name in a function; 62: doctest.testmod(module) and DocTestSuite(module) read the module's namespace; 61: a fixture's name= given as a module string constant, or "*" when it cannot be read; 60: a lambda argument hands what its body makes; 59: a str.format template held in an attribute (`self.template.format(user)`); 58: the names a class body's string annotations spell are the class's annotation reads; 57: the names spelled by string conditions of skipif / xfail markers are reads of the marked definition; 56: the classes and callables a file hands to other code as values (FileFacts::handed); 55: the names a function's string annotations spell are its references; 54: what the >>> examples of a module's strings import (FileFacts::doctest_modules); 53: a MappingProxyType over a literal dict is constant; 52: module-level names no code of the file can change (FileFacts::constant_names); 51: a class's reads only in its body's annotations (Symbol::annotation_refs); 50: a str.format template held in a name, and lookup functions imported under another name (`from builtins import getattr as ga`); 49: a line continuation at the end of the file does not compile; 48: the replacement fields of a literal str.format template read attributes; 47: a name bound or given as a keyword (`getattr=`), and `vars` named without a call, are no lookups; 46: builtins.getattr (hasattr, setattr) and getattr(*args); 45: inspect.getattr_static, object.__getattribute__(obj, name) and x.__getattribute__(name) are getattr; 44: getattr (hasattr, setattr, attrgetter, ...) named as a value or called inside another such call's arguments looks up any name; 43: globals() only stored into reads nothing; 42: getmembers(param) is getattr(param, computed); a decorator factory with no plain first parameter; 41: getattr(str, computed) reads nothing; 40: vars(param) is param.__dict__; `del name` reads no name; 39: getattr(value, "bump_" + part) is `.*@bump_`; 38: getattr(obj, TABLE[key]) over a local table of literal names reads those names; 37: string references a module-level value holds (k_import_held); 36: a nested function's reads of an enclosing function's locals and parameters are local; 35: a method's aliases in its class body (Symbol::aliases); 34: a function's annotations are its own reads, not its module's or class body's; 33: module-level values that only store what they name (FileFacts::stored_values, module_stored; Symbol::wraps_direct); 32: references only stored into doctest_namespace (Symbol::namespace_values); 31: decorators that only wrap (Symbol::wraps_only); 30: strings of a module-level __lazy_modules__ literal are no string references; 29: getattr(self, "visit_" + kind) is `.*visit_`; 28: sys.modules["a.b"] is `*modules.a.b`; 27: docstrings are no path strings; 26: super().m is read as `super.m`; 25: fragments of only wildcards and slashes dropped; 24: # impact-loads: entries among the path strings; 19: CPython's view of the source (line ends, NFKC names); 20: oversized files; 21: the compile check; 22: path strings; 23: getattr(value, computed) is k_any_value_attr
constexpr std::string_view k_magic = "IMPFACTS";
constexpr std::string_view k_grammar = "tree-sitter-python-0.23.6";

// The key of a git object id: its first 20 bytes (all of a SHA-1 id). A malformed id, which git never
// writes, gives the all-zero key.
FactsCache::Oid to_binary(const std::string& hex) {
  FactsCache::Oid out{};
  if (!util::from_hex(std::string_view(hex).substr(0, 2 * out.size()), out)) out.fill(0);
  return out;
}

FactsCache::Oid oid_of(std::string_view raw) {
  FactsCache::Oid out{};
  // A truncated file gives an empty view whose data() is null, which memcpy must not be given.
  if (!raw.empty()) std::memcpy(out.data(), raw.data(), std::min(raw.size(), out.size()));
  return out;
}

} // namespace

std::string facts_cache_file_name() { return fmt::format("facts-v{}.bin", k_format_version); }

std::string facts_format() { return fmt::format("facts-v{} {}", k_format_version, k_grammar); }

// Layout of both files: magic, version, grammar, entry count, entries (20-byte oid, length-prefixed
// facts), and an 8-byte checksum of everything before it.
FactsCache::FactsCache(std::filesystem::path file) : m_file(std::move(file)) {
  auto mapped = util::MappedFile::open(m_file);
  if (!mapped) return;
  if (!read_entries(mapped->view())) {
    m_index.clear();
    m_warning = fmt::format("the facts cache {} is unreadable or from another version; it will be rebuilt",
                            m_file.string());
    return;
  }
  m_data = std::move(mapped);
  m_main_entries = m_index.size();
  m_main_bytes = m_data->view().size();
  // What later runs added since the file was last written whole. A damaged or foreign one is dropped
  // (its entries are only parsed again); entries the main file holds too are the same facts.
  if (auto added = util::MappedFile::open(journal_file())) {
    if (read_entries(added->view())) {
      m_journal = std::move(added);
      m_journal_entries = m_index.size() - m_main_entries;
      m_journal_bytes = m_journal->view().size();
    } else {
      std::erase_if(m_index, [&](const auto& e) { return e.second.ordinal >= m_main_entries; });
    }
  }
  m_used.assign(m_index.size(), 0);
}

bool FactsCache::read_entries(std::string_view all) {
  bool valid = all.size() >= 8;
  if (valid) {
    uint64_t stored = 0;
    std::memcpy(&stored, all.data() + all.size() - 8, 8);
    all.remove_suffix(8);
    valid = stored == util::checksum64(all);
  }
  util::Reader in(all);
  valid = valid && in.raw(k_magic.size()) == k_magic && in.u64() == k_format_version && in.str() == k_grammar;
  size_t count = valid ? in.count() : 0;
  m_index.reserve(m_index.size() + count);
  for (size_t i = 0; i < count && in.ok(); ++i) {
    Oid oid = oid_of(in.raw(20));
    std::string_view payload = in.raw(static_cast<size_t>(in.u64()));
    if (in.ok()) m_index.emplace(oid, Entry{payload, m_index.size()});
  }
  return valid && in.ok() && in.done();
}

std::filesystem::path FactsCache::journal_file() const {
  auto name = m_file.filename();
  return m_file.parent_path() / name.replace_extension(".added.bin");
}

std::shared_ptr<const void> FactsCache::storage() const {
  if (!m_journal) return m_data;
  auto both = std::make_shared<std::pair<std::shared_ptr<const util::MappedFile>, std::shared_ptr<const util::MappedFile>>>(m_data, m_journal);
  return both;
}

std::optional<std::string_view> FactsCache::find(const std::string& oid_hex) const {
  Oid key = to_binary(oid_hex);
  auto it = m_index.find(key);
  if (it == m_index.end()) {
    auto added = m_added.find(key); // parsed by an earlier load of this run (put() is never concurrent)
    if (added == m_added.end()) return std::nullopt;
    return added->second;
  }
  m_used[it->second.ordinal] = 1;
  return it->second.payload;
}

void FactsCache::put(const std::string& oid_hex, std::string_view encoded) {
  if (m_file.empty()) return;
  Oid key = to_binary(oid_hex);
  if (m_index.contains(key)) return;
  m_added[key] = encoded;
}

bool FactsCache::put_raw(std::string_view oid, std::string_view encoded) {
  if (m_file.empty() || oid.size() != sizeof(Oid)) return false;
  Oid key = oid_of(oid);
  if (m_index.contains(key)) return false;
  return m_added.emplace(key, encoded).second;
}

std::vector<std::pair<std::string_view, std::string_view>> FactsCache::loaded_entries() const {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  out.reserve(m_index.size());
  for (const auto& [oid, entry] : m_index) out.emplace_back(std::string_view(oid.data(), oid.size()), entry.payload);
  return out;
}

bool FactsCache::worth_saving() const { return !m_file.empty() && (!m_added.empty() || worth_pruning()); }

bool FactsCache::worth_pruning() const {
  size_t unused = 0, total = 0;
  for (const auto& [oid, entry] : m_index) {
    total += entry.payload.size();
    if (m_used[entry.ordinal] == 0) unused += entry.payload.size();
  }
  return unused > dead_weight() && unused * 2 > total;
}

namespace {

std::string encoded_file(const std::vector<std::pair<std::string_view, std::string_view>>& entries) {
  util::Writer out;
  out.raw(k_magic);
  out.u64(k_format_version);
  out.str(k_grammar);
  out.u64(entries.size());
  for (const auto& [oid, payload] : entries) {
    out.raw(oid);
    out.str(payload);
  }
  uint64_t sum = util::checksum64(out.buffer());
  out.raw(std::string_view(reinterpret_cast<const char*>(&sum), 8));
  return std::move(out.buffer());
}

} // namespace

bool FactsCache::save_added() {
  if (!m_data || m_added.empty() || worth_pruning()) return false;
  size_t added = 0;
  for (const auto& [oid, payload] : m_added) added += payload.size() + 24;
  if (m_journal_bytes + added > std::max(dead_weight(), m_main_bytes / 8)) return false;
  std::vector<std::pair<std::string_view, std::string_view>> entries;
  entries.reserve(m_journal_entries + m_added.size());
  for (const auto& [oid, entry] : m_index) {
    if (entry.ordinal >= m_main_entries) entries.emplace_back(std::string_view(oid.data(), oid.size()), entry.payload);
  }
  for (const auto& [oid, payload] : m_added) entries.emplace_back(std::string_view(oid.data(), oid.size()), payload);
  std::sort(entries.begin(), entries.end());
  util::write_file_atomic(journal_file(), encoded_file(entries));
  return true;
}

void FactsCache::save() {
  if (!worth_saving()) return;
  // A run that only added a few files' facts writes them beside the cache file, not the whole file
  // again: until the added ones weigh an eighth of the file (at least dead_weight()).
  if (save_added()) return;
  // Keep what this run used and what it added, then unused entries (another branch's files, a
  // deleted file's), smallest first, up to as many entries again and as many bytes again (at least
  // dead_weight()): switching branches stays warm, and the file neither grows without bound nor
  // carries a large dead entry for ever.
  auto key = [](const Oid& oid) { return std::string_view(oid.data(), oid.size()); };
  std::vector<std::pair<std::string_view, std::string_view>> entries, unused;
  size_t bytes = 0;
  for (const auto& [oid, payload] : m_added) {
    entries.emplace_back(key(oid), payload);
    bytes += payload.size();
  }
  for (const auto& [oid, entry] : m_index) {
    if (m_used[entry.ordinal] != 0) {
      entries.emplace_back(key(oid), entry.payload);
      bytes += entry.payload.size();
    } else {
      unused.emplace_back(key(oid), entry.payload);
    }
  }
  size_t budget = entries.size() * 2 + 1000;
  size_t byte_budget = std::max(bytes, dead_weight());
  std::sort(unused.begin(), unused.end(), [](const auto& a, const auto& b) {
    return a.second.size() != b.second.size() ? a.second.size() < b.second.size() : a.first < b.first;
  });
  size_t kept_bytes = 0;
  for (const auto& e : unused) {
    if (entries.size() >= budget || kept_bytes + e.second.size() > byte_budget) break;
    entries.push_back(e);
    kept_bytes += e.second.size();
  }
  util::write_file_atomic(m_file, encoded_file(entries));
  // Everything the added file held is in the file now.
  std::error_code ignored;
  std::filesystem::remove(journal_file(), ignored);
}

} // namespace impact::python
