#pragma once
// The names a class body reads only in the annotations of its annotated assignments
// (docs/selection.md `annotations`): `config: Final[IniConfig]` names IniConfig where the class
// statement runs, at import, but runs none of its code (under `from __future__ import annotations`
// nothing of the annotation is evaluated then; without it, a plain name or attribute is only looked
// up). Whatever later reads the annotation (`typing.get_type_hints`, a framework) gets it from the
// class, so the decision may follow such a read through the class instead of the module's import-time
// code, when the class's machinery (bases, metaclass, decorators) is the project's own or inert.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"

#include <string_view>

namespace impact::python {

// Moves each class's references read only in such annotations to the end of its refs and sets
// Symbol::annotation_refs to their number.
void mark_class_annotations(TSNode root, std::string_view source, FileFacts& facts);

} // namespace impact::python
