#pragma once
// Which names each symbol's code reads, from the token stream: the input of the symbol-level graph.
#include "impact/python.hpp"

namespace impact::python {

// Fills Symbol::refs / dynamic_access for every symbol of `facts` (whose body byte ranges the
// statement walk recorded) and FileFacts::module_refs for module-level code. Class bodies count as
// their class's code.
void collect_references(std::string_view source, FileFacts& facts);

} // namespace impact::python
