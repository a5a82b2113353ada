// parse_floor: what tree-sitter alone needs to parse every .py file under a folder, against what
// impact's fact extraction needs, on the same files in the same run (so the ratio is meaningful on a
// noisy machine).   parse_floor <dir> [threads]
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"
#include "util/files.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

namespace {

template <typename F>
double timed_parallel(unsigned threads, size_t n, F&& per_thread) {
  auto start = std::chrono::steady_clock::now();
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back([&] { per_thread(next, n); });
  for (auto& t : pool) t.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: parse_floor <dir> [threads]\n");
    return 2;
  }
  unsigned threads = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : std::thread::hardware_concurrency();
  std::vector<std::string> sources;
  size_t bytes = 0;
  for (auto& entry : std::filesystem::recursive_directory_iterator(argv[1])) {
    if (entry.path().string().find("/.git/") != std::string::npos) continue;
    if (entry.is_regular_file() && entry.path().extension() == ".py") {
      sources.push_back(impact::util::read_file(entry.path()).value_or(""));
      bytes += sources.back().size();
    }
  }
  double parse = timed_parallel(threads, sources.size(), [&](std::atomic<size_t>& next, size_t n) {
    impact::python::Parser parser;
    for (size_t i = next++; i < n; i = next++) ts_tree_delete(parser.parse(sources[i]));
  });
  double extract = timed_parallel(threads, sources.size(), [&](std::atomic<size_t>& next, size_t n) {
    impact::FactsExtractor extractor;
    for (size_t i = next++; i < n; i = next++) (void)extractor.extract(sources[i]);
  });
  fmt::print("{} files, {:.1f} MB, {} thread(s)\n", sources.size(), static_cast<double>(bytes) / 1e6, threads);
  fmt::print("tree-sitter parse only: {:.2f} s ({:.1f} MB/s)\n", parse, static_cast<double>(bytes) / 1e6 / parse);
  fmt::print("impact fact extraction: {:.2f} s ({:.2f}x the parse)\n", extract, extract / parse);
  return 0;
}
