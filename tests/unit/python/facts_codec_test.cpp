#include "python/facts_codec.hpp"

#include "support.hpp"
#include "util/binary.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::python::decode_full;
using impact::python::decode_header;
using impact::python::decode_imports;
using impact::python::encode;

namespace {

using Strings = std::vector<std::string>;

// Facts with every field set to something other than its default.
FileFacts everything() {
  FileFacts f;
  ImportFact plain;
  plain.kind = ImportKind::plain;
  plain.line = 1;
  plain.module = "a.b.c";
  plain.aliases = {"abc"};
  ImportFact from;
  from.kind = ImportKind::from;
  from.level = 2;
  from.flags = k_import_in_function | k_import_guarded;
  from.line = 300;
  from.module = "pkg.sub";
  from.names = {"x", "y"};
  from.aliases = {"x", "why"};
  ImportFact star;
  star.kind = ImportKind::star;
  star.level = 1;
  star.flags = k_import_type_checking | k_import_conditional;
  star.line = 70000;
  ImportFact ref;
  ref.kind = ImportKind::string_ref;
  ref.module = "app.views";
  ref.names = {"index"};
  ref.line = 9;
  ImportFact plugin;
  plugin.kind = ImportKind::plugin;
  plugin.module = "app.fixtures";
  ImportFact dynamic;
  dynamic.kind = ImportKind::dynamic;
  dynamic.module = "app.dyn";
  f.imports = {plain, from, star, ref, plugin, dynamic};
  UncertainImport bounded;
  bounded.line = 12;
  bounded.call = "importlib.import_module";
  bounded.prefix = "app.plugins.";
  UncertainImport relative;
  relative.line = 13;
  relative.call = "import_module";
  relative.prefix = "handlers.";
  relative.level = 2;
  f.uncertain_imports = {bounded, relative};
  Symbol cls;
  cls.qualname = "TestA";
  cls.kind = SymbolKind::class_;
  cls.first_line = 3;
  cls.def_line = 4;
  cls.body_line = 5;
  cls.last_line = 20;
  cls.decorators = {"dataclass"};
  cls.bases = {"Base", "mixins.M"};
  cls.has_init = true;
  Symbol method;
  method.qualname = "TestA.test_m";
  method.kind = SymbolKind::method;
  method.first_line = method.def_line = 6;
  method.body_line = 7;
  method.last_line = 8;
  method.parent = 0;
  method.params = {"self", "tmp_path"};
  method.is_async = true;
  Symbol fn;
  fn.qualname = "helper";
  fn.first_line = fn.def_line = fn.body_line = fn.last_line = 21;
  f.symbols = {cls, method, fn};
  f.module_names = {"X", "Y"};
  f.all_names = Strings{"helper", "TestA"};
  f.all_dynamic = true;
  f.collect_ignore = {"legacy"};
  f.collect_ignore_glob = {"*_old.py"};
  f.pytest_plugins_dynamic = true;
  f.has_doctest = true;
  f.parse_error = true;
  f.defines_module_getattr = true;
  f.stores_globals = true;
  return f;
}

void check_same_imports(const std::vector<ImportFact>& a, const std::vector<ImportFact>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("import " << i);
    CHECK(a[i].kind == b[i].kind);
    CHECK(a[i].level == b[i].level);
    CHECK(a[i].flags == b[i].flags);
    CHECK(a[i].line == b[i].line);
    CHECK(a[i].module == b[i].module);
    CHECK(a[i].names == b[i].names);
    CHECK(a[i].aliases == b[i].aliases);
  }
}

void check_same(const FileFacts& a, const FileFacts& b) {
  check_same_imports(a.imports, b.imports);
  REQUIRE(a.uncertain_imports.size() == b.uncertain_imports.size());
  for (size_t i = 0; i < a.uncertain_imports.size(); ++i) {
    CHECK(a.uncertain_imports[i].line == b.uncertain_imports[i].line);
    CHECK(a.uncertain_imports[i].call == b.uncertain_imports[i].call);
    CHECK(a.uncertain_imports[i].prefix == b.uncertain_imports[i].prefix);
    CHECK(a.uncertain_imports[i].level == b.uncertain_imports[i].level);
  }
  REQUIRE(a.symbols.size() == b.symbols.size());
  for (size_t i = 0; i < a.symbols.size(); ++i) {
    const auto& x = a.symbols[i];
    const auto& y = b.symbols[i];
    INFO("symbol " << x.qualname);
    CHECK(x.qualname == y.qualname);
    CHECK(x.kind == y.kind);
    CHECK(x.first_line == y.first_line);
    CHECK(x.def_line == y.def_line);
    CHECK(x.body_line == y.body_line);
    CHECK(x.last_line == y.last_line);
    CHECK(x.parent == y.parent);
    CHECK(x.decorators == y.decorators);
    CHECK(x.params == y.params);
    CHECK(x.bases == y.bases);
    CHECK(x.is_async == y.is_async);
    CHECK(x.has_init == y.has_init);
  }
  CHECK(a.module_names == b.module_names);
  CHECK(a.all_names == b.all_names);
  CHECK(a.all_dynamic == b.all_dynamic);
  CHECK(a.collect_ignore == b.collect_ignore);
  CHECK(a.collect_ignore_glob == b.collect_ignore_glob);
  CHECK(a.pytest_plugins_dynamic == b.pytest_plugins_dynamic);
  CHECK(a.has_doctest == b.has_doctest);
  CHECK(a.parse_error == b.parse_error);
  CHECK(a.defines_module_getattr == b.defines_module_getattr);
  CHECK(a.stores_globals == b.stores_globals);
}

// The end of the imports section: the flags word, the section's length and the section.
size_t imports_section_end(std::string_view blob) {
  util::Reader in(blob);
  in.u64();
  auto length = static_cast<size_t>(in.u64());
  return in.position() + length;
}

} // namespace

TEST_CASE("encode then decode_full round-trips every field", "[facts_codec]") {
  SECTION("facts with every field set") {
    FileFacts original = everything();
    FileFacts decoded;
    REQUIRE(decode_full(encode(original), decoded));
    check_same(original, decoded);
  }
  SECTION("empty facts") {
    FileFacts decoded;
    decoded.parse_error = true; // overwritten by the decode
    REQUIRE(decode_full(encode(FileFacts{}), decoded));
    check_same(FileFacts{}, decoded);
    CHECK_FALSE(decoded.all_names.has_value());
  }
  SECTION("an empty __all__ stays present") {
    FileFacts f;
    f.all_names = Strings{};
    FileFacts decoded;
    REQUIRE(decode_full(encode(f), decoded));
    REQUIRE(decoded.all_names.has_value());
    CHECK(decoded.all_names->empty());
  }
  SECTION("facts read from real source") {
    FileFacts original = testing::extract("import os\nfrom . import x as y\n__all__ = ['f']\n"
                                          "@pytest.fixture\nasync def f(a, *b):\n    import_module(name)\n"
                                          "class C(B):\n    def __init__(self):\n        pass\n");
    FileFacts decoded;
    REQUIRE(decode_full(encode(original), decoded));
    check_same(original, decoded);
  }
  SECTION("stored values keep their line and whether a parametrize mark holds them") {
    FileFacts original = testing::extract("import pytest\nfrom pkg import f, g\nALIAS = f\n\n"
                                          "@pytest.mark.parametrize('fn', [g])\ndef test_a(fn):\n    pass\n");
    REQUIRE(original.stored_values.size() == 2);
    FileFacts decoded;
    REQUIRE(decode_full(encode(original), decoded));
    REQUIRE(decoded.stored_values.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
      CHECK(decoded.stored_values[i].name == original.stored_values[i].name);
      CHECK(decoded.stored_values[i].line == original.stored_values[i].line);
      CHECK(decoded.stored_values[i].refs == original.stored_values[i].refs);
      CHECK(decoded.stored_values[i].parametrize == original.stored_values[i].parametrize);
    }
    CHECK(decoded.stored_values[1].parametrize);
  }
}

TEST_CASE("decode_header reads the flags without the rest", "[facts_codec]") {
  FactsHeader h;
  SECTION("every flag on") {
    REQUIRE(decode_header(encode(everything()), h));
    CHECK(h.parse_error);
    CHECK(h.has_doctest);
    CHECK(h.all_dynamic);
    CHECK(h.has_all);
    CHECK(h.pytest_plugins_dynamic);
    CHECK(h.defines_module_getattr);
    CHECK(h.has_uncertain_imports);
    CHECK(h.has_collect_ignore);
  }
  SECTION("every flag off") {
    REQUIRE(decode_header(encode(FileFacts{}), h));
    CHECK_FALSE(h.parse_error);
    CHECK_FALSE(h.has_doctest);
    CHECK_FALSE(h.all_dynamic);
    CHECK_FALSE(h.has_all);
    CHECK_FALSE(h.pytest_plugins_dynamic);
    CHECK_FALSE(h.defines_module_getattr);
    CHECK_FALSE(h.has_uncertain_imports);
    CHECK_FALSE(h.has_collect_ignore);
  }
  SECTION("collect_ignore_glob alone sets has_collect_ignore") {
    FileFacts f;
    f.collect_ignore_glob = {"*.py"};
    REQUIRE(decode_header(encode(f), h));
    CHECK(h.has_collect_ignore);
  }
  SECTION("an empty blob is not a header") { CHECK_FALSE(decode_header("", h)); }
  SECTION("the compile check rides in the flags word, with the line compile_verdict reports") {
    FileFacts f;
    f.parse_error = true;
    f.compile = CompileCheck{SyntaxIssue::print_statement, 70000, 10, 3};
    REQUIRE(decode_header(encode(f), h));
    CHECK(h.parse_error);
    CHECK(h.compile.issue == SyntaxIssue::print_statement);
    CHECK(h.compile.line == 70000);
    CHECK(h.compile.needs_minor == 10);
    f.compile = CompileCheck{SyntaxIssue::none, 0, 12, 41};
    REQUIRE(decode_header(encode(f), h));
    CHECK(h.compile == f.compile);
    FileFacts back;
    REQUIRE(decode_full(encode(f), back));
    CHECK(back.compile == f.compile);
  }
}

TEST_CASE("decode_imports gives the same imports as views", "[facts_codec]") {
  FileFacts original = everything();
  std::string blob = encode(original);
  ImportScratch scratch;
  scratch.names.emplace_back("stale"); // cleared first
  REQUIRE(decode_imports(blob, scratch));
  REQUIRE(scratch.imports.size() == original.imports.size());
  for (size_t i = 0; i < original.imports.size(); ++i) {
    const auto& view = scratch.imports[i];
    const auto& fact = original.imports[i];
    INFO("import " << i);
    CHECK(view.kind == fact.kind);
    CHECK(view.level == fact.level);
    CHECK(view.flags == fact.flags);
    CHECK(view.line == fact.line);
    CHECK(view.module == fact.module);
    Strings names(scratch.names.begin() + static_cast<long>(view.names_begin),
                  scratch.names.begin() + static_cast<long>(view.names_end));
    Strings aliases(scratch.aliases.begin() + static_cast<long>(view.aliases_begin),
                    scratch.aliases.begin() + static_cast<long>(view.aliases_end));
    CHECK(names == fact.names);
    CHECK(aliases == fact.aliases);
    // Views point into the blob, not into copies.
    if (!view.module.empty()) {
      CHECK(view.module.data() >= blob.data());
      CHECK(view.module.data() < blob.data() + blob.size());
    }
  }
}

TEST_CASE("decoders return false on truncated blobs without crashing", "[facts_codec]") {
  std::string blob = encode(everything());
  size_t imports_end = imports_section_end(blob);
  REQUIRE(imports_end < blob.size());
  for (size_t n = 0; n < blob.size(); ++n) {
    std::string prefix = blob.substr(0, n); // its own allocation: reading past it is caught by sanitizers
    INFO("prefix of " << n << " of " << blob.size() << " bytes");
    FileFacts facts;
    CHECK_FALSE(decode_full(prefix, facts));
    ImportScratch scratch;
    bool imports_ok = decode_imports(prefix, scratch);
    if (n < imports_end) CHECK_FALSE(imports_ok);
  }
}

TEST_CASE("decoders survive corrupted blobs", "[facts_codec]") {
  std::string blob = encode(everything());
  SECTION("every byte replaced in turn") {
    for (size_t i = 0; i < blob.size(); ++i) {
      for (unsigned char value : {0x00, 0x7f, 0x80, 0xff}) {
        std::string bad = blob;
        bad[i] = static_cast<char>(value);
        FileFacts facts;
        ImportScratch scratch;
        FactsHeader header;
        CHECK_NOTHROW(decode_full(bad, facts));
        CHECK_NOTHROW(decode_imports(bad, scratch));
        CHECK_NOTHROW(decode_header(bad, header));
      }
    }
  }
  SECTION("trailing bytes make decode_full fail") {
    FileFacts facts;
    CHECK_FALSE(decode_full(blob + "x", facts));
  }
  SECTION("a symbol whose parent is out of range is rejected") {
    FileFacts f;
    Symbol s;
    s.qualname = "orphan";
    s.parent = 5;
    f.symbols = {s};
    FileFacts facts;
    CHECK_FALSE(decode_full(encode(f), facts));
  }
}

TEST_CASE("ProjectFacts decodes what add() and own() hold, and finds files by path", "[facts_codec]") {
  ProjectFacts facts;
  facts.add(testing::source_file("a.py", testing::oid(0)), facts.own(everything()));
  facts.add(testing::source_file("b/c.py", testing::oid(1)), facts.own(FileFacts{}));
  facts.add(testing::source_file("d.py", testing::oid(2)), "garbage that is no blob");
  REQUIRE(facts.size() == 3);
  SECTION("find by path") {
    CHECK(facts.find("a.py") == 0);
    CHECK(facts.find("b/c.py") == 1);
    CHECK(facts.find("d.py") == 2);
    CHECK(facts.find("b.py") == ProjectFacts::npos);
    CHECK(facts.find("") == ProjectFacts::npos);
  }
  SECTION("full() and header() of good blobs") {
    check_same(everything(), facts.full(0));
    CHECK(facts.header(0).has_all);
    CHECK_FALSE(facts.header(1).has_all);
    ImportScratch scratch;
    facts.imports(0, scratch);
    CHECK(scratch.imports.size() == everything().imports.size());
  }
  SECTION("a corrupt blob decodes as empty facts with parse_error") {
    FileFacts f = facts.full(2);
    CHECK(f.parse_error);
    CHECK(f.imports.empty());
    CHECK(f.symbols.empty());
  }
}

TEST_CASE("ProjectFacts::files_mentioning agrees with mentions() for every file", "[facts_codec]") {
  auto reading = [](std::vector<std::string> module_refs) {
    FileFacts f;
    f.module_refs = std::move(module_refs);
    return f;
  };
  ProjectFacts facts;
  facts.add(testing::source_file("a.py", testing::oid(0)), facts.own(reading({"shop.total", "run"})));
  facts.add(testing::source_file("b.py", testing::oid(1)), facts.own(reading({"helper"})));
  facts.add(testing::source_file("c.py", testing::oid(2)), facts.own(reading({"self.run", ".*"})));
  facts.add(testing::source_file("d.py", testing::oid(3)), facts.own(FileFacts{}));
  SECTION("the files whose references name it, ascending, by any component") {
    CHECK(facts.files_mentioning("run") == std::vector<uint32_t>{0, 2});
    CHECK(facts.files_mentioning("total") == std::vector<uint32_t>{0});
    CHECK(facts.files_mentioning("shop") == std::vector<uint32_t>{0});
    CHECK(facts.files_mentioning("*") == std::vector<uint32_t>{2});
    CHECK(facts.files_mentioning("nobody").empty());
    for (std::string name : {"run", "total", "shop", "helper", "self", "*", "nobody"}) {
      std::vector<uint32_t> scanned;
      for (uint32_t i = 0; i < facts.size(); ++i) {
        if (facts.mentions(i, name)) scanned.push_back(i);
      }
      CHECK(facts.files_mentioning(name) == scanned);
    }
  }
  SECTION("the same answers past the first scans, from the inverted index") {
    for (int round = 0; round < 4; ++round) { // 28 questions: the index answers the later ones
      for (std::string name : {"run", "total", "shop", "helper", "self", "*", "nobody"}) {
        std::vector<uint32_t> scanned;
        for (uint32_t i = 0; i < facts.size(); ++i) {
          if (facts.mentions(i, name)) scanned.push_back(i);
        }
        CHECK(facts.files_mentioning(name) == scanned);
      }
    }
  }
  SECTION("a file whose name table cannot be read mentions every name") {
    facts.add(testing::source_file("e.py", testing::oid(4)), "garbage that is no blob");
    CHECK(facts.files_mentioning("helper") == std::vector<uint32_t>{1, 4});
    CHECK(facts.files_mentioning("nobody") == std::vector<uint32_t>{4});
  }
  SECTION("a file added after a lookup is in the next one") {
    CHECK(facts.files_mentioning("helper") == std::vector<uint32_t>{1});
    facts.add(testing::source_file("e.py", testing::oid(4)), facts.own(reading({"helper.x"})));
    CHECK(facts.files_mentioning("helper") == std::vector<uint32_t>{1, 4});
  }
}

TEST_CASE("ProjectFacts::mentions_hash answers as mentions() does, the name hashed once", "[facts_codec]") {
  FileFacts a;
  a.module_refs = {"shop.total", "run"};
  ProjectFacts facts;
  facts.add(testing::source_file("a.py", testing::oid(0)), facts.own(a));
  facts.add(testing::source_file("b.py", testing::oid(1)), facts.own(FileFacts{}));
  facts.add(testing::source_file("c.py", testing::oid(2)), "garbage that is no blob");
  for (std::string name : {"run", "total", "shop", "helper", "__dict__", ""}) {
    uint32_t hash = ProjectFacts::mention_hash(name);
    for (uint32_t i = 0; i < facts.size(); ++i) CHECK(facts.mentions_hash(i, hash) == facts.mentions(i, name));
  }
  CHECK(facts.mentions_hash(2, ProjectFacts::mention_hash("nobody"))); // unreadable: mentions everything
}
