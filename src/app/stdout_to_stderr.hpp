#pragma once
// While a StdoutToStderr lives, this process's stdout is its stderr: the report of a pytest run that
// impact starts goes to stderr, so that stdout carries impact's own report alone (a JSON document
// stays parseable). Used by `impact audit` and `impact doctor`.
#include <unistd.h>

#include <cstdio>

namespace impact::app {

class StdoutToStderr {
public:
  StdoutToStderr() {
    std::fflush(stdout);
    m_saved = ::dup(STDOUT_FILENO);
    if (m_saved >= 0) ::dup2(STDERR_FILENO, STDOUT_FILENO);
  }
  ~StdoutToStderr() {
    if (m_saved < 0) return;
    std::fflush(stdout);
    ::dup2(m_saved, STDOUT_FILENO);
    ::close(m_saved);
  }
  StdoutToStderr(const StdoutToStderr&) = delete;
  StdoutToStderr& operator=(const StdoutToStderr&) = delete;

private:
  int m_saved = -1;
};

} // namespace impact::app
