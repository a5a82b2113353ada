// The relations of evidence chains as words and rules (from impact/relations.def, where each is
// declared once), and the relations the walks take from the graph's and the diff's vocabulary.
#include "decision/relation.hpp"

#include <array>
#include <unordered_map>

namespace impact {

namespace {

struct RelationEntry {
  Relation relation;
  std::string_view word;
  std::string_view rules;
};

constexpr std::array k_relations = {
#define IMPACT_RELATION(value, word, rules) RelationEntry{Relation::value, word, rules},
#include "impact/relations.def"
#undef IMPACT_RELATION
};

const RelationEntry& entry(Relation relation) { return k_relations[static_cast<size_t>(relation)]; }

} // namespace

std::string_view to_string(Relation relation) { return entry(relation).word; }

std::string_view rules_of(Relation relation) { return entry(relation).rules; }

std::optional<Relation> relation_named(std::string_view word) {
  static const auto by_word = [] {
    std::unordered_map<std::string_view, Relation> out;
    for (const auto& e : k_relations) out.emplace(e.word, e.relation);
    return out;
  }();
  auto it = by_word.find(word);
  if (it == by_word.end()) return std::nullopt;
  return it->second;
}

const std::vector<Relation>& all_relations() {
  static const std::vector<Relation> all = [] {
    std::vector<Relation> out;
    for (const auto& e : k_relations) out.push_back(e.relation);
    return out;
  }();
  return all;
}

} // namespace impact

namespace impact::decision {

Relation relation_of(EdgeKind kind) {
  switch (kind) {
  case EdgeKind::import_: return Relation::import_;
  case EdgeKind::from_import: return Relation::from_import;
  case EdgeKind::star_import: return Relation::star_import;
  case EdgeKind::dynamic_import: return Relation::dynamic_import;
  case EdgeKind::dynamic_prefix: return Relation::dynamic_prefix;
  case EdgeKind::pytest_plugin: return Relation::pytest_plugin;
  case EdgeKind::string_ref: return Relation::string_ref;
  case EdgeKind::package_init: return Relation::package_init;
  case EdgeKind::conftest: return Relation::conftest;
  case EdgeKind::symlink: return Relation::symlink;
  case EdgeKind::name_match: return Relation::name_match;
  }
  return Relation::import_;
}

Relation relation_of(FileStatus status) {
  switch (status) {
  case FileStatus::added: return Relation::added;
  case FileStatus::modified: return Relation::modified;
  case FileStatus::deleted: return Relation::deleted;
  case FileStatus::renamed: return Relation::renamed;
  case FileStatus::type_changed: return Relation::type_changed;
  }
  return Relation::modified;
}

Relation relation_of(ChangeKind kind) {
  switch (kind) {
  case ChangeKind::comment_only: return Relation::comment_only;
  case ChangeKind::formatting_only: return Relation::formatting_only;
  case ChangeKind::docstring_only: return Relation::docstring_only;
  case ChangeKind::implementation: return Relation::implementation;
  case ChangeKind::signature: return Relation::signature;
  case ChangeKind::definition: return Relation::definition;
  case ChangeKind::class_body: return Relation::class_body;
  case ChangeKind::import_: return Relation::import_;
  case ChangeKind::module_code: return Relation::module_code;
  case ChangeKind::main_block: return Relation::main_block;
  case ChangeKind::type_checking: return Relation::type_checking;
  case ChangeKind::added_symbol: return Relation::added_symbol;
  case ChangeKind::deleted_symbol: return Relation::deleted_symbol;
  case ChangeKind::added_file: return Relation::added_file;
  case ChangeKind::deleted_file: return Relation::deleted_file;
  case ChangeKind::renamed_file: return Relation::renamed_file;
  case ChangeKind::unclassifiable: return Relation::unclassifiable;
  case ChangeKind::syntax_error: return Relation::syntax_error;
  }
  return Relation::unclassifiable;
}

} // namespace impact::decision
