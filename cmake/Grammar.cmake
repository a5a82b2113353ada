# The tree-sitter-python grammar: an npm tarball at a pinned version, checked against the registry's
# published sha512 integrity, unpacked into the build tree and compiled in. Nothing of it is committed.
#
# Offline builds: put the tarball at IMPACT_GRAMMAR_TARBALL (or leave it in the build tree's _deps/ from
# an earlier build, or in ~/.cache/impact/); the hash is checked either way.
set(IMPACT_GRAMMAR_VERSION "0.23.6")
set(IMPACT_GRAMMAR_SHA512
  "c8833dcf4a31288c53edb02d3ce860a1597a8135e59a5221b9eee58854f8a013c5fe585aec76b8750052f3602fea130c459a159c5248f0cea62fe4b05a82c3dc")
set(IMPACT_GRAMMAR_URL
  "https://registry.npmjs.org/tree-sitter-python/-/tree-sitter-python-${IMPACT_GRAMMAR_VERSION}.tgz")
set(IMPACT_GRAMMAR_TARBALL "" CACHE FILEPATH "tree-sitter-python-${IMPACT_GRAMMAR_VERSION}.tgz to use instead of downloading")

set(_grammar_dir "${CMAKE_BINARY_DIR}/_deps/tree-sitter-python-${IMPACT_GRAMMAR_VERSION}")
set(_grammar_tgz "${CMAKE_BINARY_DIR}/_deps/tree-sitter-python-${IMPACT_GRAMMAR_VERSION}.tgz")
set(_grammar_user_cache "$ENV{HOME}/.cache/impact/tree-sitter-python-${IMPACT_GRAMMAR_VERSION}.tgz")

function(_impact_grammar_hash_ok file out)
  set(${out} FALSE PARENT_SCOPE)
  if(EXISTS "${file}")
    file(SHA512 "${file}" _actual)
    if(_actual STREQUAL IMPACT_GRAMMAR_SHA512)
      set(${out} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

if(IMPACT_GRAMMAR_TARBALL)
  _impact_grammar_hash_ok("${IMPACT_GRAMMAR_TARBALL}" _ok)
  if(NOT _ok)
    message(FATAL_ERROR "IMPACT_GRAMMAR_TARBALL=${IMPACT_GRAMMAR_TARBALL} is missing or does not match "
      "the sha512 of tree-sitter-python ${IMPACT_GRAMMAR_VERSION}; download ${IMPACT_GRAMMAR_URL} again")
  endif()
  configure_file("${IMPACT_GRAMMAR_TARBALL}" "${_grammar_tgz}" COPYONLY)
endif()

_impact_grammar_hash_ok("${_grammar_tgz}" _ok)
if(NOT _ok)
  _impact_grammar_hash_ok("${_grammar_user_cache}" _cached_ok)
  if(_cached_ok)
    configure_file("${_grammar_user_cache}" "${_grammar_tgz}" COPYONLY)
  else()
    message(STATUS "Downloading tree-sitter-python ${IMPACT_GRAMMAR_VERSION} from the npm registry")
    file(DOWNLOAD "${IMPACT_GRAMMAR_URL}" "${_grammar_tgz}"
      EXPECTED_HASH SHA512=${IMPACT_GRAMMAR_SHA512}
      STATUS _status TLS_VERIFY ON)
    list(GET _status 0 _code)
    if(NOT _code EQUAL 0)
      list(GET _status 1 _message)
      file(REMOVE "${_grammar_tgz}")
      message(FATAL_ERROR "could not download ${IMPACT_GRAMMAR_URL}: ${_message}; "
        "pass -DIMPACT_GRAMMAR_TARBALL=<path to the .tgz> to build offline")
    endif()
    # Keep a copy outside the build tree so that a fresh build directory works offline.
    get_filename_component(_cache_dir "${_grammar_user_cache}" DIRECTORY)
    file(MAKE_DIRECTORY "${_cache_dir}")
    file(COPY_FILE "${_grammar_tgz}" "${_grammar_user_cache}" ONLY_IF_DIFFERENT RESULT _ignored)
  endif()
endif()

if(NOT EXISTS "${_grammar_dir}/src/parser.c")
  file(REMOVE_RECURSE "${_grammar_dir}" "${CMAKE_BINARY_DIR}/_deps/package")
  file(ARCHIVE_EXTRACT INPUT "${_grammar_tgz}" DESTINATION "${CMAKE_BINARY_DIR}/_deps"
    PATTERNS package/src package/LICENSE)
  file(RENAME "${CMAKE_BINARY_DIR}/_deps/package" "${_grammar_dir}")
endif()

add_library(tree_sitter_python STATIC "${_grammar_dir}/src/parser.c" "${_grammar_dir}/src/scanner.c")
target_include_directories(tree_sitter_python PRIVATE "${_grammar_dir}/src")
set_target_properties(tree_sitter_python PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
# Generated code: compiled optimised even in debug builds (parsing is the cold floor), without warnings.
target_compile_options(tree_sitter_python PRIVATE -O2 -w)
