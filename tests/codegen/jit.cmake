# The code generator's WebAssembly back end (core/codegen/emit_wasm.c): the
# structure of the module it writes for every shipped model
# (tests/codegen/test_wasm_module.c); the Node suite runs them
# (tests/node/jit-wasm.test.mjs, jit.test.mjs).
add_executable(test_wasm_module ${CMAKE_CURRENT_LIST_DIR}/test_wasm_module.c)
target_link_libraries(test_wasm_module PRIVATE mechgen_lib)
file(GLOB jit_models CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech ${CMAKE_SOURCE_DIR}/models/loops/*.mech
     ${CMAKE_SOURCE_DIR}/models/tracks/*.mech)
add_test(NAME test_wasm_module COMMAND test_wasm_module ${jit_models} ${MECH_ROBOT_MODELS})
# mechgen --wasm alone writes the module, and refuses an over-constrained loop as for C.
add_test(NAME mechgen_wasm_cli
         COMMAND mechgen --wasm ${CMAKE_BINARY_DIR}/threelink.wasm ${CMAKE_SOURCE_DIR}/models/threelink.mech)
add_test(NAME mechgen_wasm_rejects_overconstrained
         COMMAND mechgen --wasm ${CMAKE_BINARY_DIR}/overconstrained.wasm
                 ${CMAKE_CURRENT_LIST_DIR}/../fixtures/overconstrained_fourbar.mech)
set_tests_properties(mechgen_wasm_rejects_overconstrained PROPERTIES WILL_FAIL TRUE)
