# The core must also build warning-free under Emscripten (the product ships as WebAssembly).
find_program(EMCC_EXECUTABLE emcc)
if(EMCC_EXECUTABLE)
  add_test(NAME emcc_core_warning_free
    COMMAND ${EMCC_EXECUTABLE} -std=c11 -Wall -Wextra -Werror -O2 -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/core
      -fsyntax-only ${MECH_CORE_SOURCES})
else()
  message(WARNING "emcc not found: the Emscripten warning check is skipped (run scripts/setup.sh)")
endif()
