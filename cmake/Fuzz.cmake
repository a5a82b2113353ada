# IMPACT_FUZZ=ON builds the libFuzzer targets of tests/fuzz/ (docs/testing.md, "Fuzzing"): clang only,
# with everything instrumented for coverage-guided fuzzing under ASan and UBSan. Use its own build
# folder: cmake -S . -B build-fuzz -G Ninja -DIMPACT_FUZZ=ON -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
option(IMPACT_FUZZ "Build the libFuzzer targets of tests/fuzz/ (clang, ASan, UBSan)" OFF)
if(IMPACT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "IMPACT_FUZZ needs clang and its libFuzzer (scripts/install-deps installs them); "
      "configure with -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  # fuzzer-no-link instruments the library code; only the targets link libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
