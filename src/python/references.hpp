#pragma once
// Which names each symbol's code reads, from the token stream: the input of the symbol-level graph.
#include "impact/python.hpp"
#include "python/lexer.hpp"

#include <vector>

namespace impact::python {

// Fills Symbol::refs / dynamic_access for every symbol of `facts` (whose body byte ranges the
// statement walk recorded) and FileFacts::module_refs for module-level code. Class bodies count as
// their class's code. `tokens` is scratch space, reused from call to call.
void collect_references(std::string_view source, FileFacts& facts, std::vector<Token>& tokens);

} // namespace impact::python
