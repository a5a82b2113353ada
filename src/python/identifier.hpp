#pragma once
// Identifiers as CPython reads them (PEP 3131): a non-ASCII identifier is NFKC-normalised at parse
// time, so `ｍｕｌ` (fullwidth) and `mul` are the same name to the interpreter. String contents are
// never normalised: `getattr(a, "ｍｕｌ")` looks up the literal text.
#include <optional>
#include <string>
#include <string_view>

namespace impact::python {

// True when `text` holds a byte >= 0x80 (word at a time: the ASCII fast path of the callers).
bool has_non_ascii(std::string_view text);

// The NFKC form of the non-ASCII identifier `name` when it differs and is itself a valid identifier
// (letters, marks, digits, connectors and '_'); nullopt when it is unchanged, or when the text is no
// identifier CPython accepts (then the file does not compile and is left as it is).
std::optional<std::string> normalized_identifier(std::string_view name);

} // namespace impact::python
