// Path-like fragments of string literals and folder listings, read from the token stream.
#include "python/lexer.hpp"
#include "impact/python/project_facts.hpp"
#include "python/path_literals.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace impact::python;

namespace {

PathReads reads_of(std::string_view source) {
  std::vector<Token> tokens;
  lex(source, tokens);
  return read_path_literals(source, tokens);
}

std::vector<std::string> texts(const PathReads& reads) {
  std::vector<std::string> out;
  for (const auto& l : reads.literals) out.push_back(l.text);
  return out;
}

bool has(const PathReads& reads, std::string_view text) {
  auto t = texts(reads);
  return std::find(t.begin(), t.end(), text) != t.end();
}

} // namespace

TEST_CASE("path literals: plain strings give their path-like fragments with the line") {
  auto reads = reads_of("import os\nROOT = os.path.dirname(__file__)\nwith open(os.path.join(ROOT, '..', 'README.md')) as f:\n    pass\n");
  CHECK(has(reads, "README.md"));
  CHECK_FALSE(has(reads, "..")); // no letter: names nothing by itself
  auto it = std::find_if(reads.literals.begin(), reads.literals.end(), [](const PathLiteral& l) { return l.text == "README.md"; });
  REQUIRE(it != reads.literals.end());
  CHECK(it->line == 3);
  CHECK(reads.listing_line == 0);
}

TEST_CASE("path literals: f-string fields split fragments, escapes and raw backslashes become separators") {
  auto reads = reads_of("p = f\"{root}/docs/{name}.rst\"\nq = 'data\\\\cases.json'\nr = r'tpl\\base.html'\ns = 'a\\nb.txt'\n");
  CHECK(has(reads, "/docs/"));
  CHECK(has(reads, ".rst"));
  CHECK(has(reads, "data/cases.json"));
  CHECK(has(reads, "tpl/base.html"));
  CHECK(has(reads, "b.txt"));
  CHECK_FALSE(has(reads, "root"));
}

TEST_CASE("path literals: long strings keep only fragments that look like paths") {
  std::string doc = "def f():\n    HELP = \"\"\"" + std::string(220, ' ') + "Reads the config, see docs/usage.rst and CHANGES.rst for more words.\"\"\"\n";
  auto reads = reads_of(doc);
  CHECK(has(reads, "docs/usage.rst"));
  CHECK(has(reads, "CHANGES.rst"));
  CHECK_FALSE(has(reads, "Reads"));
  CHECK_FALSE(has(reads, "words."));
}

TEST_CASE("path literals: a string that is a statement of its own names nothing, unless it holds a doctest") {
  auto reads = reads_of("\"\"\"Reads data/a.json.\"\"\"\nimport os\n\n\ndef f():\n    \"see \" \"data/b.json\"\n"
                        "    return open('data/c.json')\n\n\ndef g():\n    \"\"\"\n    >>> open('data/d.json').read()\n    \"\"\"\n");
  CHECK_FALSE(has(reads, "data/a.json"));
  CHECK_FALSE(has(reads, "data/b.json"));
  CHECK(has(reads, "data/c.json"));
  CHECK(has(reads, "data/d.json"));
}

TEST_CASE("path literals: collect_ignore names files pytest skips, not files anything reads") {
  auto reads = reads_of("collect_ignore = ['docs/conf.py', 'setup.py']\ncollect_ignore_glob += ['*_py2.py']\nX = 'data.json'\n");
  CHECK_FALSE(has(reads, "docs/conf.py"));
  CHECK_FALSE(has(reads, "*_py2.py"));
  CHECK(has(reads, "data.json"));
}

TEST_CASE("path literals: folder listings without a literal bound are recorded") {
  CHECK(reads_of("import os\nfor name in os.listdir(HERE):\n    pass\n").listing_line == 2);
  CHECK(reads_of("x = 1\nfiles = list(DATA.iterdir())\n").listing_line == 2);
  CHECK(reads_of("import shutil\nshutil.copytree(SRC, tmp_path)\n").listing_line == 2);
  CHECK(reads_of("import glob\nfiles = glob.glob(pattern)\n").listing_line == 2);
  // A glob whose pattern is a literal is bounded by it: the fragment is matched against file names.
  auto bounded = reads_of("import glob\nfiles = glob.glob(os.path.join(HERE, '*.json'))\n");
  CHECK(bounded.listing_line == 0);
  CHECK(has(bounded, "*.json"));
  CHECK(reads_of("walk = 3\nprint(walk)\n").listing_line == 0); // a name, not a call of a method
}

TEST_CASE("path literals: repeated fragments are kept once, at their first line") {
  auto reads = reads_of("a = 'x.json'\nb = 'x.json'\n");
  REQUIRE(reads.literals.size() == 1);
  CHECK(reads.literals[0].line == 1);
}

TEST_CASE("path literals: past the cap the file counts as a reader of anything") {
  std::string src;
  for (size_t i = 0; i < k_max_path_literals + 10; ++i) src += "x = 'f" + std::to_string(i) + ".dat'\n";
  auto reads = reads_of(src);
  CHECK(reads.truncated);
  CHECK(reads.literals.size() == k_max_path_literals);
}

TEST_CASE("path literals: kept in the facts and through the cache's encoding") {
  impact::FactsExtractor extractor;
  auto facts = extractor.extract("import os\nDATA = os.path.join(os.path.dirname(__file__), 'data', 'cases.json')\nfor n in os.listdir(DATA):\n    pass\n");
  REQUIRE(facts.paths.strings.size() == 2);
  CHECK(facts.paths.strings[0] == std::pair<std::string, uint32_t>{"data", 2});
  CHECK(facts.paths.strings[1] == std::pair<std::string, uint32_t>{"cases.json", 2});
  CHECK(facts.paths.listing_line == 3);
  CHECK_FALSE(facts.paths.reads_anything);
  impact::ProjectFacts project;
  project.add(impact::SourceFile{impact::RepoPath("m.py"), "0", false, {}, false}, project.own(facts));
  auto decoded = project.paths(0);
  CHECK(decoded.strings == facts.paths.strings);
  CHECK(decoded.listing_line == 3);
  impact::FileFacts full = project.full(0);
  CHECK(full.paths.strings == facts.paths.strings);
  project.add(impact::SourceFile{impact::RepoPath("n.py"), "1", false, {}, false}, std::string_view("\x01", 1));
  CHECK(project.paths(1).reads_anything); // unreadable facts: it may read anything
}

TEST_CASE("path literals: a lone wildcard is no pattern, and a glob of it lists everything") {
  auto prose = reads_of("'''`from pkg import *` loads every module.'''\nq = 'SELECT count(*) FROM t'\n");
  CHECK_FALSE(has(prose, "*"));
  CHECK(prose.listing_line == 0);
  CHECK(reads_of("from pathlib import Path\nfiles = Path(HERE).glob('*')\n").listing_line == 2);
  CHECK(has(reads_of("x = '*.*'\n"), "*.*"));
}

TEST_CASE("path literals: adjacent literals are read one by one and as the one string Python makes of them") {
  auto reads = reads_of("NAME = 'py' 'project.toml'\nOTHER = ('data/'\n    f'{kind}.json')\n");
  CHECK(has(reads, "py"));
  CHECK(has(reads, "project.toml"));
  CHECK(has(reads, "pyproject.toml"));
  CHECK(has(reads, "data/"));
  CHECK(has(reads, ".json"));
  CHECK_FALSE(has(reads, "py'"));
}
