#pragma once
// A compact binary encoding for caches: LEB128 varints and length-prefixed strings. The Reader never
// reads past its buffer: a truncated or corrupt input sets ok() to false and yields zero values.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace impact::util {

class Writer {
public:
  void u64(uint64_t v) {
    while (v >= 0x80) {
      m_out.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    m_out.push_back(static_cast<char>(v));
  }
  void str(std::string_view s) {
    u64(s.size());
    m_out.append(s);
  }
  void raw(std::string_view s) { m_out.append(s); }
  void strings(const std::vector<std::string>& v) {
    u64(v.size());
    for (const auto& s : v) str(s);
  }
  std::string& buffer() { return m_out; }

private:
  std::string m_out;
};

class Reader {
public:
  explicit Reader(std::string_view in) : m_in(in) {}

  uint64_t u64() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (m_pos >= m_in.size()) return fail();
      auto byte = static_cast<uint8_t>(m_in[m_pos++]);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return v;
    }
    return fail();
  }
  uint32_t u32() { return static_cast<uint32_t>(u64()); }
  std::string_view raw(size_t n) {
    if (n > m_in.size() - m_pos) {
      fail();
      return {};
    }
    auto out = m_in.substr(m_pos, n);
    m_pos += n;
    return out;
  }
  std::string str() { return std::string(raw(static_cast<size_t>(u64()))); }
  std::vector<std::string> strings() {
    std::vector<std::string> v;
    uint64_t n = u64();
    if (n > m_in.size() - m_pos) {
      fail();
      return v;
    }
    v.reserve(static_cast<size_t>(n));
    for (uint64_t i = 0; i < n && m_ok; ++i) v.push_back(str());
    return v;
  }
  // A count that cannot exceed the remaining bytes (every element takes at least one).
  size_t count() {
    uint64_t n = u64();
    if (n > m_in.size() - m_pos) {
      fail();
      return 0;
    }
    return static_cast<size_t>(n);
  }
  bool ok() const { return m_ok; }
  bool done() const { return m_pos == m_in.size(); }
  size_t position() const { return m_pos; }

private:
  uint64_t fail() {
    m_ok = false;
    m_pos = m_in.size();
    return 0;
  }

  std::string_view m_in;
  size_t m_pos = 0;
  bool m_ok = true;
};

} // namespace impact::util
