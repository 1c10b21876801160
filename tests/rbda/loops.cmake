# Loops, force elements, observe/find (tests/rbda/test_loops.c) on every
# models/loops/*.mech and the over-constrained rejection.
add_executable(test_loops ${CMAKE_CURRENT_LIST_DIR}/test_loops.c)
target_link_libraries(test_loops PRIVATE mech_internal m)
file(GLOB MECH_LOOP_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/loops/*.mech)
foreach(model ${MECH_LOOP_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME loops_${stem} COMMAND test_loops model ${model})
endforeach()
add_test(NAME loops_overconstrained COMMAND test_loops overconstrained ${CMAKE_CURRENT_LIST_DIR}/../fixtures/overconstrained_fourbar.mech)
