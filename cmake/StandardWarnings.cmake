# Warnings for the project's own code; third-party code (the grammar) is compiled without them.
add_library(impact_warnings INTERFACE)
target_compile_options(impact_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough -Wformat=2)
option(IMPACT_WERROR "Treat warnings as errors" OFF)
if(IMPACT_WERROR)
  target_compile_options(impact_warnings INTERFACE -Werror)
endif()
