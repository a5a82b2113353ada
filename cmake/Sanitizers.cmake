# IMPACT_SANITIZE=ON instruments everything built here with ASan and UBSan; any report aborts the test.
if(IMPACT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
