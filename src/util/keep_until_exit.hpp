#pragma once
// Large structures that a short-lived process would free just before it exits (an import graph of
// 13,000 modules, every file's facts): handed here, they are left to the OS, which reclaims the whole
// address space at once. They stay reachable through a static pointer, so leak checkers do not count
// them. Only for code that runs once per process (not once per project of a monorepo).
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace impact::util {

template <typename T>
void keep_until_exit(T&& value) {
  static auto* kept = new std::vector<std::shared_ptr<void>>();
  kept->push_back(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

} // namespace impact::util
