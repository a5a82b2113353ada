#include "report/strict_json.hpp"

#include "util/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>

namespace impact::report {

namespace {

using nlohmann::json;

bool is_identifier(std::string_view key) {
  if (key.empty() || std::isdigit(static_cast<unsigned char>(key.front()))) return false;
  return std::all_of(key.begin(), key.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A value as JSON on one line, control characters and non-ASCII escaped: safe inside a one-line message.
std::string quoted(const json& value) { return value.dump(-1, ' ', true, json::error_handler_t::replace); }

// A value as the reader sees it in a message: its JSON type, and the value itself when it is short.
std::string describe(const json& value) {
  if (value.is_object() || value.is_array()) return fmt::format("an {}", value.type_name());
  if (value.is_null()) return "null";
  std::string text = quoted(value);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return fmt::format("a {} {}", value.type_name(), text);
}

// Where the parser is inside the document, to name a repeated key by its path.
struct Frame {
  bool object = false;
  std::set<std::string> keys;
  std::string key;
  long index = -1;
};

std::string path_of(const std::vector<Frame>& stack) {
  std::string path = "$";
  for (const auto& f : stack) path = f.object ? child_path(path, f.key) : fmt::format("{}[{}]", path, f.index);
  return path;
}

std::pair<size_t, size_t> line_column(std::string_view text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

} // namespace

std::string child_path(const std::string& path, std::string_view key) {
  if (is_identifier(key)) return fmt::format("{}.{}", path, key);
  return fmt::format("{}[{}]", path, quoted(json(std::string(key))));
}

namespace {

// The document builder with duplicate keys recorded. nlohmann's callback parser is not used: after
// each object it scans the enclosing array from its start for discarded values, which made a replay
// of n node ids take O(n^2) time (500,000 of them took 80 s). This handler forwards every event to
// the plain DOM builder, which appends in constant time, and keeps only the key sets of the open
// objects.
class StrictSax final : public json::json_sax_t {
public:
  explicit StrictSax(json& root) : m_dom(root, false) {}

  bool null() override { return value() && m_dom.null(); }
  bool boolean(bool v) override { return value() && m_dom.boolean(v); }
  bool number_integer(number_integer_t v) override { return value() && m_dom.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) override { return value() && m_dom.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) override { return value() && m_dom.number_float(v, s); }
  bool string(string_t& v) override { return value() && m_dom.string(v); }
  bool binary(binary_t& v) override { return value() && m_dom.binary(v); }
  bool start_object(std::size_t n) override {
    value();
    m_stack.push_back(Frame{true, {}, {}, -1});
    return m_dom.start_object(n);
  }
  bool key(string_t& k) override {
    Frame& f = m_stack.back();
    f.key = k;
    if (!f.keys.insert(k).second && !m_repeated) m_repeated = path_of(m_stack);
    return m_dom.key(k);
  }
  bool end_object() override {
    m_stack.pop_back();
    return m_dom.end_object();
  }
  bool start_array(std::size_t n) override {
    value();
    m_stack.push_back(Frame{false, {}, {}, -1});
    return m_dom.start_array(n);
  }
  bool end_array() override {
    m_stack.pop_back();
    return m_dom.end_array();
  }
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) override {
    m_error_byte = byte;
    m_error_id = e.id;
    return false;
  }

  const std::optional<std::string>& repeated() const { return m_repeated; }
  std::size_t error_byte() const { return m_error_byte; }
  int error_id() const { return m_error_id; }

private:
  // A value starts: the next element of the enclosing array, if it is one.
  bool value() {
    if (!m_stack.empty() && !m_stack.back().object) ++m_stack.back().index;
    return true;
  }

  nlohmann::detail::json_sax_dom_parser<json> m_dom;
  std::vector<Frame> m_stack;
  std::optional<std::string> m_repeated;
  std::size_t m_error_byte = 0;
  int m_error_id = 0;
};

} // namespace

json parse_strict(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) throw ShapeError{"", "the file is empty"};
  json doc;
  StrictSax sax(doc);
  if (!json::sax_parse(text.begin(), text.end(), &sax)) {
    // The parser stops at the first byte it cannot use: past the end means the text stopped early.
    std::size_t byte = sax.error_byte();
    auto [line, column] = line_column(text, byte == 0 ? 0 : byte - 1);
    if (byte >= text.size()) {
      throw ShapeError{"", fmt::format("truncated: the JSON ends at line {} before the document is complete", line)};
    }
    if (sax.error_id() == 406) {
      // A number past what a double holds (1e999): valid JSON, but no decision file has one.
      throw ShapeError{"", fmt::format("a number too large to read (such as 1e999) at line {}, column {}", line, column)};
    }
    throw ShapeError{"", fmt::format("not JSON: syntax error at line {}, column {}", line, column)};
  }
  if (sax.repeated()) throw ShapeError{*sax.repeated(), "this key appears more than once in its object"};
  return doc;
}

void StrictValue::fail(std::string problem) const { throw ShapeError{m_path, std::move(problem)}; }

void StrictValue::expect(bool ok, std::string_view what) const {
  if (!ok) fail(fmt::format("expected {}, found {}", what, describe(*m_value)));
}

std::string StrictValue::string() const {
  expect(m_value->is_string(), "a string");
  return m_value->get<std::string>();
}

std::optional<std::string> StrictValue::string_or_null() const {
  if (m_value->is_null()) return std::nullopt;
  expect(m_value->is_string(), "a string or null");
  return m_value->get<std::string>();
}

int64_t StrictValue::integer(int64_t min) const {
  expect(m_value->is_number_integer(), "an integer");
  if (m_value->is_number_unsigned() && m_value->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    fail("the integer is too large");
  }
  int64_t value = m_value->get<int64_t>();
  if (value < min) fail(fmt::format("expected an integer >= {}, found {}", min, value));
  return value;
}

std::optional<int64_t> StrictValue::integer_or_null(int64_t min) const {
  if (m_value->is_null()) return std::nullopt;
  expect(m_value->is_number_integer(), "an integer or null");
  return integer(min);
}

bool StrictValue::boolean() const {
  expect(m_value->is_boolean(), "true or false");
  return m_value->get<bool>();
}

double StrictValue::number() const {
  expect(m_value->is_number(), "a number");
  return m_value->get<double>();
}

std::vector<StrictValue> StrictValue::array() const {
  expect(m_value->is_array(), "an array");
  std::vector<StrictValue> out;
  for (size_t i = 0; i < m_value->size(); ++i) out.emplace_back((*m_value)[i], fmt::format("{}[{}]", m_path, i));
  return out;
}

std::vector<std::string> StrictValue::strings() const {
  expect(m_value->is_array(), "an array of strings");
  std::vector<std::string> out;
  for (const auto& item : array()) out.push_back(item.string());
  return out;
}

StrictObject StrictValue::object(std::initializer_list<std::string_view> required,
                                 std::initializer_list<std::string_view> optional) const {
  expect(m_value->is_object(), "an object");
  std::vector<std::string> allowed(required.begin(), required.end());
  allowed.insert(allowed.end(), optional.begin(), optional.end());
  for (const auto& [key, value] : m_value->items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string problem = "unknown key";
    if (auto near = util::closest(key, allowed)) problem += fmt::format(" (did you mean '{}'?)", *near);
    throw ShapeError{child_path(m_path, key), problem};
  }
  for (std::string_view key : required) {
    if (!m_value->contains(key)) throw ShapeError{child_path(m_path, key), "required field is missing"};
  }
  return StrictObject(*m_value, m_path);
}

std::vector<std::pair<std::string, StrictValue>> StrictValue::map() const {
  expect(m_value->is_object(), "an object");
  std::vector<std::pair<std::string, StrictValue>> out;
  for (const auto& [key, value] : m_value->items()) out.emplace_back(key, StrictValue(value, child_path(m_path, key)));
  return out;
}

size_t StrictValue::one_of(const std::vector<std::string>& values) const {
  std::string text = string();
  auto it = std::find(values.begin(), values.end(), text);
  if (it == values.end()) {
    std::string problem = fmt::format("{} is not one of {}", quoted(*m_value), fmt::join(values, ", "));
    if (auto near = util::closest(text, values)) problem += fmt::format(" (did you mean '{}'?)", *near);
    fail(problem);
  }
  return static_cast<size_t>(it - values.begin());
}

StrictValue StrictObject::operator[](std::string_view key) const {
  auto it = m_value->find(key);
  if (it == m_value->end()) throw ShapeError{child_path(m_path, key), "required field is missing"};
  return StrictValue(*it, child_path(m_path, key));
}

std::optional<StrictValue> StrictObject::get(std::string_view key) const {
  auto it = m_value->find(key);
  if (it == m_value->end()) return std::nullopt;
  return StrictValue(*it, child_path(m_path, key));
}

} // namespace impact::report
