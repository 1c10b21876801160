# Every quoted #include points down the layers (spatial, model, rbda, contact, sim, then codegen and xpbd, then
# the bindings), or is one of the named exceptions: the table and the exceptions are in scripts/check-layers.mjs.
find_program(MECH_NODE_EXECUTABLE node REQUIRED)
add_test(NAME layers COMMAND ${MECH_NODE_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/check-layers.mjs ${CMAKE_SOURCE_DIR})
