#pragma once
// Values the symbol walk computes on first use and keeps for the rest of the run: one idiom for every
// per-file or per-class table of the walk and its rules.
#include <optional>
#include <unordered_map>
#include <utility>

namespace impact::decision {

// One value per key, made by `make()` the first time the key is asked for. References stay valid
// while the map lives (its nodes never move).
template <typename Key, typename Value>
class LazyMap {
public:
  template <typename Make>
  const Value& get(const Key& key, Make&& make) {
    if (auto it = m_values.find(key); it != m_values.end()) return it->second;
    Value value = std::forward<Make>(make)(); // may ask this map for other keys
    return m_values.emplace(key, std::move(value)).first->second;
  }
  // The value of `key` if it was made already, else nullptr.
  const Value* find(const Key& key) const {
    auto it = m_values.find(key);
    return it == m_values.end() ? nullptr : &it->second;
  }
  size_t size() const { return m_values.size(); }

private:
  std::unordered_map<Key, Value> m_values;
};

// One value, made by `make()` the first time it is asked for.
template <typename Value>
class Lazy {
public:
  template <typename Make>
  const Value& get(Make&& make) {
    if (!m_value) m_value.emplace(std::forward<Make>(make)());
    return *m_value;
  }

private:
  std::optional<Value> m_value;
};

} // namespace impact::decision
