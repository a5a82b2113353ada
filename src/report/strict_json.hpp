#pragma once
// Reading a JSON document strictly: parsing that rejects duplicate keys, and a view of the parsed value
// that checks each field's type as it is read and knows its JSON path ("$.selected[2].node_id"), so a
// bad field is named exactly. Used for saved documents, where a half-understood file would turn into a
// confident wrong answer.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact::report {

// What is wrong with a document and where; the caller adds the file's name and the fix.
struct ShapeError {
  std::string path;    // "$.selected[0].node_id", or "" when the text is not JSON at all
  std::string problem; // "expected a string, found a number"
};

// Parses `text` as one JSON value. Throws ShapeError when it is empty, not JSON, truncated, or repeats a
// key within one object.
nlohmann::json parse_strict(std::string_view text);

// "$.a[3]" + key: ".key" for a plain identifier, "[\"odd key\"]" for anything else.
std::string child_path(const std::string& path, std::string_view key);

class StrictObject;

// One value of the document with its path. Each accessor throws ShapeError on a type mismatch.
class StrictValue {
public:
  StrictValue(const nlohmann::json& value, std::string path) : m_value(&value), m_path(std::move(path)) {}

  const std::string& path() const { return m_path; }
  const nlohmann::json& raw() const { return *m_value; }
  bool is_null() const { return m_value->is_null(); }

  std::string string() const;
  std::optional<std::string> string_or_null() const;
  // An integer >= `min`.
  int64_t integer(int64_t min = 0) const;
  std::optional<int64_t> integer_or_null(int64_t min = 0) const;
  bool boolean() const;
  double number() const;
  std::vector<StrictValue> array() const;
  std::vector<std::string> strings() const; // an array of strings
  // An object whose keys are exactly `required` plus any of `optional`: an unknown key or a missing
  // required one is an error (unknown keys are reported first, with the nearest allowed name).
  StrictObject object(std::initializer_list<std::string_view> required,
                      std::initializer_list<std::string_view> optional = {}) const;
  // An object with any keys (a map), each value checked by the caller.
  std::vector<std::pair<std::string, StrictValue>> map() const;
  // One of `values`, as its index.
  size_t one_of(const std::vector<std::string>& values) const;

  [[noreturn]] void fail(std::string problem) const;

private:
  void expect(bool ok, std::string_view what) const;

  const nlohmann::json* m_value;
  std::string m_path;
};

// An object whose keys were checked: operator[] gives a listed field (nullopt-free: required fields are
// known to be there), `get` an optional one.
class StrictObject {
public:
  StrictObject(const nlohmann::json& value, std::string path) : m_value(&value), m_path(std::move(path)) {}

  StrictValue operator[](std::string_view key) const;
  std::optional<StrictValue> get(std::string_view key) const;
  const std::string& path() const { return m_path; }

private:
  const nlohmann::json* m_value;
  std::string m_path;
};

} // namespace impact::report
