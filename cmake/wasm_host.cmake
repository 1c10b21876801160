# wasm_host.cmake — the native build's part of the WebAssembly build
# (docs/wasm.md): the reference helper, and the WebAssembly tree itself
# (cmake/wasm_modules.cmake), configured and built in build/wasm as a step of
# this build, so `cmake --build build` builds both.

# The same core and generated C the modules contain, compiled natively: the
# Node suite's and the bench's reference values, and the manifests' writer.
add_executable(mech-wasm-ref ${CMAKE_SOURCE_DIR}/wasm/native_ref.c ${CMAKE_SOURCE_DIR}/wasm/bench.c)
target_include_directories(mech-wasm-ref PRIVATE ${CMAKE_SOURCE_DIR}/wasm)
target_link_libraries(mech-wasm-ref PRIVATE mech_generated mech_internal)
set_target_properties(mech-wasm-ref PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/wasm)

find_program(EMCC_EXECUTABLE emcc)
if(EMCC_EXECUTABLE)
  set(wasm_default ON)
else()
  set(wasm_default OFF)
endif()
option(MECH_WASM "build the WebAssembly modules, their texts and manifests into MECH_WASM_DIST (needs emcc)"
  ${wasm_default})
set(MECH_WASM_DIST ${CMAKE_SOURCE_DIR}/wasm/dist CACHE PATH "where the modules, texts and manifests go")
if(NOT MECH_WASM)
  return()
endif()
if(NOT EMCC_EXECUTABLE)
  message(FATAL_ERROR "MECH_WASM is on but emcc was not found (run scripts/setup.sh, or configure with -DMECH_WASM=OFF)")
endif()

# Emscripten's own toolchain file (what emcmake passes), beside the real emcc:
# /usr/share/emscripten on Debian, upstream/emscripten in an emsdk.
get_filename_component(emcc_real ${EMCC_EXECUTABLE} REALPATH)
get_filename_component(emscripten_root ${emcc_real} DIRECTORY)
set(MECH_EMSCRIPTEN_TOOLCHAIN ${emscripten_root}/cmake/Modules/Platform/Emscripten.cmake
  CACHE FILEPATH "Emscripten's CMake toolchain file")
if(NOT EXISTS ${MECH_EMSCRIPTEN_TOOLCHAIN})
  message(FATAL_ERROR "no Emscripten toolchain file at ${MECH_EMSCRIPTEN_TOOLCHAIN}: set MECH_EMSCRIPTEN_TOOLCHAIN")
endif()

# Built on every build of this tree (BUILD_ALWAYS): the WebAssembly tree's
# own dependency tracking decides what, if anything, is stale.  The helper
# and mechgen are file dependencies there, so a rebuilt one reruns what it made.
include(ExternalProject)
ExternalProject_Add(wasm
  SOURCE_DIR ${CMAKE_SOURCE_DIR}
  BINARY_DIR ${CMAKE_BINARY_DIR}/wasm
  CMAKE_ARGS
    -DCMAKE_TOOLCHAIN_FILE=${MECH_EMSCRIPTEN_TOOLCHAIN}
    -DCMAKE_BUILD_TYPE=Release
    -DMECHGEN_EXECUTABLE=$<TARGET_FILE:mechgen>
    -DMECH_HELPER_EXECUTABLE=$<TARGET_FILE:mech-wasm-ref>
    -DMECH_WASM_DIST=${MECH_WASM_DIST}
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  DEPENDS mechgen mech-wasm-ref)

include(${CMAKE_SOURCE_DIR}/cmake/web.cmake)
