#pragma once
// The relation of a hop that the walks take from another stage's vocabulary: a graph edge's kind, a
// changed file's status, a changed symbol's kind of change (each word is the same in both).
#include "impact/decision.hpp"
#include "impact/graph.hpp"

namespace impact::decision {

Relation relation_of(EdgeKind kind);
Relation relation_of(FileStatus status);
Relation relation_of(ChangeKind kind);

} // namespace impact::decision
