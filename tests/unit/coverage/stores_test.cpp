#include "coverage/stores.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Whether the body `body` (lines of one function, after its `def` line) keeps what `compute` returns.
bool keeps(const std::string& body, bool shared_self = false, std::set<std::string_view> module_level = {}) {
  static std::vector<std::string> keep; // the text the views point into
  keep.push_back("def caller(self, k):\n" + body);
  std::vector<std::string_view> lines{""};
  std::string_view text = keep.back();
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end - at));
    at = end == std::string_view::npos ? text.size() : end + 1;
  }
  bool bypassed = false;
  auto last = static_cast<uint32_t>(lines.size() - 1);
  return impact::keeps_items(lines, 2, last, {"compute"}, shared_self, module_level, false, false, bypassed).has_value();
}

} // namespace

TEST_CASE("stores: each target of a chained, tuple, bracketed or annotated assignment counts", "[coverage][stores]") {
  CHECK(keeps("    v = self._c[k] = compute(k)\n    return v\n"));
  CHECK(keeps("    self.n, self.v = 1, compute(k)\n", true));
  CHECK(keeps("    (self.v, self.n) = compute(k), 1\n", true));
  CHECK(keeps("    [self.v] = [compute(k)]\n", true));
  CHECK(keeps("    self.v: int = compute(k)\n", true));
  CHECK(keeps("    _REG[k] = c = Conf(compute(k))\n"));
}

TEST_CASE("stores: what a fresh local or an unshared instance holds is not kept", "[coverage][stores]") {
  CHECK_FALSE(keeps("    out = {}\n    out[k] = compute(k)\n    return out\n"));
  CHECK_FALSE(keeps("    self.n, self.v = 1, compute(k)\n", false));
  CHECK_FALSE(keeps("    x = y = compute(k)\n    return x + y\n"));
  CHECK_FALSE(keeps("    self._c[k] = other(k)\n"));
}

TEST_CASE("stores: set, put, push and appendleft are mutating calls", "[coverage][stores]") {
  CHECK(keeps("    t = {k: compute(k)}\n    _cv.set(t)\n"));
  CHECK(keeps("    QUEUE.put(compute(k))\n"));
  CHECK_FALSE(keeps("    done = threading.Event()\n    done.set()\n"));
}

TEST_CASE("stores: a one-line clause's statement counts", "[coverage][stores]") {
  CHECK(keeps("    if k not in _C: _C[k] = compute(k)\n    return _C[k]\n"));
  CHECK(keeps("    if d.get(k) is None: d[k] = compute(k)\n"));
  CHECK_FALSE(keeps("    if x: y = compute(k)\n    return y\n"));
}

TEST_CASE("stores: a value from the change reaches a store through tuple, walrus, for and with targets", "[coverage][stores]") {
  CHECK(keeps("    result, err = compute(k)\n    _C[k] = result\n"));
  CHECK(keeps("    if k not in _C and (v := compute(k)):\n        _C[k] = v\n"));
  CHECK(keeps("    for key, val in compute(k):\n        _C[key] = val\n"));
  CHECK(keeps("    with compute(k) as res:\n        _C[k] = res\n"));
  CHECK_FALSE(keeps("    for key, val in other(k):\n        _C[key] = val\n"));
}
