// libFuzzer target: everything impact reads from a Python source file, over arbitrary bytes: the facts
// (FactsExtractor), the shape the semantic diff compares, the statement starts coverage ingest uses, and
// doctest imports. The facts must survive their own encoding: what encode() writes, every decoder reads
// back whole.
#include "impact/python/facts.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/python/shape.hpp"
#include "impact/python/text_reads.hpp"
#include "python/facts_codec.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  static impact::FactsExtractor extractor; // reused from file to file, as load_facts does
  impact::FileFacts facts = extractor.extract(source);

  std::string blob = impact::python::encode(facts);
  impact::FileFacts back;
  impact::FactsView view;
  impact::ImportScratch scratch;
  if (!impact::python::decode_full(blob, back) || impact::python::encode(back) != blob) std::abort();
  if (!impact::python::decode_view(blob, view) || view.symbols.size() != facts.symbols.size()) std::abort();
  if (!impact::python::decode_imports(blob, scratch) || scratch.imports.size() != facts.imports.size()) std::abort();

  impact::shape_of(source);
  impact::statement_starts(source);
  impact::python::doctest_imports(source);
  return 0;
}
