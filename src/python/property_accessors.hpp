#pragma once
// `@size.setter` (`.getter`, `.deleter`) in a class body reads the property `size` the body defined
// just before: it copies the property with another accessor and calls none of its functions. Such a
// read is no read of the method (docs/selection.md `stored-values`), or a change in a getter's body
// would run every importer of the module through the class body (every property with a setter).
#include "impact/python/facts.hpp"

namespace impact::python {

// Drops from each class's refs `m.setter`, `m.getter` and `m.deleter` where `m` is a method of the
// class that the builtin `property` (or an accessor of it) decorates.
void drop_property_accessor_reads(FileFacts& facts);

} // namespace impact::python
