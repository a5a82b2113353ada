#pragma once
// `--timings`: each stage's time, taken as laps of one clock.
#include "impact/report.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace impact {

// Appends the time since the last lap (or since it was made) under a stage's name.
class StageClock {
public:
  explicit StageClock(std::vector<StageTiming>& out) : m_out(out), m_last(std::chrono::steady_clock::now()) {}
  void lap(std::string stage) {
    auto now = std::chrono::steady_clock::now();
    m_out.push_back({std::move(stage), std::chrono::duration<double, std::milli>(now - m_last).count()});
    m_last = now;
  }

private:
  std::vector<StageTiming>& m_out;
  std::chrono::steady_clock::time_point m_last;
};

} // namespace impact
