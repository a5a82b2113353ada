#pragma once
// Wall-clock timings per pipeline stage, for `--timings` and the JSON report.
#include <chrono>
#include <string>
#include <vector>

namespace impact::util {

// Timings records how long each named stage took, in the order the stages ran.
class Timings {
public:
  struct Entry {
    std::string stage;
    double ms = 0;
  };

  void add(std::string stage, double ms) { m_entries.push_back({std::move(stage), ms}); }
  const std::vector<Entry>& entries() const { return m_entries; }

private:
  std::vector<Entry> m_entries;
};

// Adds the time from construction to destruction to a Timings under one stage name.
class ScopedTimer {
public:
  ScopedTimer(Timings& timings, std::string stage)
      : m_timings(timings), m_stage(std::move(stage)), m_start(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() { m_timings.add(std::move(m_stage), elapsed_ms(m_start)); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

  static double elapsed_ms(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
  }

private:
  Timings& m_timings;
  std::string m_stage;
  std::chrono::steady_clock::time_point m_start;
};

} // namespace impact::util
