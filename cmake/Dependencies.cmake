# Every third-party library comes from a Debian 12 package (scripts/install-deps installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)
pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
pkg_check_modules(UTF8PROC REQUIRED IMPORTED_TARGET libutf8proc) # NFKC of identifiers (PEP 3131)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(fmt 9 REQUIRED)
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
find_package(tomlplusplus 3 REQUIRED)
find_package(tsl-robin-map 1 REQUIRED) # header-only open-addressing hash sets, for the reference pass
find_package(Threads REQUIRED)
# jemalloc replaces glibc's malloc in the binary: the warm path allocates many small objects and
# glibc's consolidation dominated its profile. Sanitizer builds keep the sanitizer's allocator.
if(NOT IMPACT_SANITIZE)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
endif()
