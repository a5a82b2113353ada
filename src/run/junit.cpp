// Reading a JUnit XML report: test durations (`impact durations --from junit.xml`) and outcomes (the
// monorepo's --report-json). Only the <testcase> elements' attributes and the names of the elements
// inside them matter, so this reads tags, not a whole XML tree.
#include "impact/error.hpp"
#include "impact/run/durations.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <system_error>

namespace impact {

namespace {

constexpr const char* k_fix = "pass the JUnit XML file pytest wrote (pytest --junitxml=FILE)";

// The text of an attribute value with XML's entities and character references replaced.
std::string unescape(std::string_view raw) {
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      out += raw[i];
      continue;
    }
    size_t semi = raw.find(';', i);
    if (semi == std::string_view::npos) {
      out += raw[i];
      continue;
    }
    std::string_view entity = raw.substr(i + 1, semi - i - 1);
    static const std::map<std::string_view, char> k_named = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    if (auto it = k_named.find(entity); it != k_named.end()) {
      out += it->second;
    } else if (entity.starts_with('#')) {
      bool hex = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X');
      unsigned long code = std::strtoul(std::string(entity.substr(hex ? 2 : 1)).c_str(), nullptr, hex ? 16 : 10);
      if (code < 0x80) out += static_cast<char>(code);
      else if (code < 0x800) out += {static_cast<char>(0xC0 | (code >> 6)), static_cast<char>(0x80 | (code & 0x3F))};
      else if (code < 0x10000) {
        out += {static_cast<char>(0xE0 | (code >> 12)), static_cast<char>(0x80 | ((code >> 6) & 0x3F)),
                static_cast<char>(0x80 | (code & 0x3F))};
      } else {
        out += {static_cast<char>(0xF0 | (code >> 18)), static_cast<char>(0x80 | ((code >> 12) & 0x3F)),
                static_cast<char>(0x80 | ((code >> 6) & 0x3F)), static_cast<char>(0x80 | (code & 0x3F))};
      }
    } else {
      out.append(raw.substr(i, semi - i + 1));
    }
    i = semi;
  }
  return out;
}

// The attributes of the tag whose text (after the name, before '>') is `tag`.
std::map<std::string, std::string> attributes(std::string_view tag, const std::string& name) {
  std::map<std::string, std::string> out;
  size_t i = 0;
  while (i < tag.size()) {
    while (i < tag.size() && (std::isspace(static_cast<unsigned char>(tag[i])) || tag[i] == '/')) ++i;
    if (i >= tag.size()) break;
    size_t eq = tag.find('=', i);
    if (eq == std::string_view::npos) throw Error("{}: a <testcase> tag has an attribute without a value; {}", name, k_fix);
    std::string key(tag.substr(i, eq - i));
    while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
    size_t q = eq + 1;
    while (q < tag.size() && std::isspace(static_cast<unsigned char>(tag[q]))) ++q;
    if (q >= tag.size() || (tag[q] != '"' && tag[q] != '\'')) {
      throw Error("{}: a <testcase> attribute's value is not quoted; {}", name, k_fix);
    }
    size_t end = tag.find(tag[q], q + 1);
    if (end == std::string_view::npos) throw Error("{}: a <testcase> attribute's value is not closed; {}", name, k_fix);
    out[key] = unescape(tag.substr(q + 1, end - q - 1));
    i = end + 1;
  }
  return out;
}

// The node id of a test case: its file from `file` when pytest wrote one (xunit1), else the longest
// dotted prefix of `classname` that names a .py file under `root`; the rest are classes.
std::string node_id(const std::string& classname, const std::string& test, const std::string& file,
                     const std::filesystem::path& root) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t dot = classname.find('.', start);
    parts.push_back(classname.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  size_t module_parts = parts.size();
  std::string path;
  std::error_code ec;
  for (size_t n = parts.size(); n >= 1; --n) {
    std::string candidate;
    for (size_t i = 0; i < n; ++i) candidate += (i ? "/" : "") + parts[i];
    candidate += ".py";
    if ((!file.empty() && candidate == file) || std::filesystem::is_regular_file(root / candidate, ec)) {
      path = candidate;
      module_parts = n;
      break;
    }
  }
  if (path.empty()) { // no such file here: the whole classname as the module, as pytest's xunit2 does
    for (size_t i = 0; i < parts.size(); ++i) path += (i ? "/" : "") + parts[i];
    path += ".py";
    module_parts = parts.size();
    if (!file.empty()) path = file;
  }
  std::string out = path;
  for (size_t i = module_parts; i < parts.size(); ++i) out += "::" + parts[i];
  return out + "::" + test;
}

} // namespace

namespace {

// Calls `visit(attributes, body)` for each <testcase> of a JUnit XML report, `body` being the text
// between its tags ("" for <testcase .../>). Throws impact::Error naming `name` for what is no report.
template <class Visit>
void for_each_testcase(std::string_view text, const std::string& name, Visit&& visit) {
  if (text.find("<testsuite") == std::string_view::npos) {
    throw Error("{}: no <testsuite> element: not a JUnit XML report; {}", name, k_fix);
  }
  for (size_t at_tag = text.find("<testcase"); at_tag != std::string_view::npos;
       at_tag = text.find("<testcase", at_tag + 1)) {
    size_t start = at_tag + 9;
    if (start < text.size() && !std::isspace(static_cast<unsigned char>(text[start])) && text[start] != '>' &&
        text[start] != '/') {
      continue; // <testcases>, not a test case
    }
    size_t end = text.find('>', start);
    if (end == std::string_view::npos) throw Error("{}: a <testcase> tag is not closed; {}", name, k_fix);
    bool empty = text[end - 1] == '/';
    auto attrs = attributes(text.substr(start, end - start), name);
    if (!attrs.contains("name") || !attrs.contains("classname")) {
      throw Error("{}: a <testcase> has no name or classname attribute; {}", name, k_fix);
    }
    std::string_view body;
    if (!empty) {
      size_t close = text.find("</testcase>", end);
      if (close == std::string_view::npos) throw Error("{}: a <testcase> element is not closed; {}", name, k_fix);
      body = text.substr(end + 1, close - end - 1);
    }
    visit(attrs, body);
  }
}

double seconds_of(std::map<std::string, std::string>& attrs, const std::string& name) {
  auto t = attrs.find("time");
  if (t == attrs.end()) return 0;
  char* stop = nullptr;
  double seconds = std::strtod(t->second.c_str(), &stop);
  if (stop == t->second.c_str() || *stop != '\0' || !std::isfinite(seconds) || seconds < 0) {
    throw Error("{}: <testcase name=\"{}\">: time=\"{}\" is not a number of seconds; {}", name, attrs["name"],
                t->second, k_fix);
  }
  return seconds;
}

std::string id_of(std::map<std::string, std::string>& attrs, const std::filesystem::path& root) {
  return node_id(attrs["classname"], attrs["name"], attrs.contains("file") ? attrs["file"] : "", root);
}

} // namespace

Durations parse_junit(std::string_view text, const std::string& name, const std::filesystem::path& root,
                      const std::string& at) {
  Durations out;
  for_each_testcase(text, name, [&](std::map<std::string, std::string>& attrs, std::string_view) {
    std::string id = id_of(attrs, root);
    out[id].seconds += seconds_of(attrs, name); // a test listed twice (a rerun) took both times
    out[id].at = at;
  });
  return out;
}

std::map<std::string, JunitCase> parse_junit_cases(std::string_view text, const std::string& name,
                                                   const std::filesystem::path& root) {
  std::map<std::string, JunitCase> out;
  for_each_testcase(text, name, [&](std::map<std::string, std::string>& attrs, std::string_view body) {
    JunitCase& c = out[id_of(attrs, root)];
    c.seconds += seconds_of(attrs, name);
    // The worst of its entries: a test listed again (a rerun, or an error in teardown after a pass).
    std::string outcome = body.find("<error") != std::string_view::npos     ? "error"
                          : body.find("<failure") != std::string_view::npos ? "failed"
                          : body.find("<skipped") != std::string_view::npos ? "skipped"
                                                                            : "passed";
    auto rank = [](std::string_view o) { return o == "error" ? 3 : o == "failed" ? 2 : o == "passed" ? 1 : 0; };
    if (c.outcome.empty() || rank(outcome) > rank(c.outcome)) c.outcome = outcome;
  });
  return out;
}

} // namespace impact
