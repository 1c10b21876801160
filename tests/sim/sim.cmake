# The integrators' asserted order on every tree model (tests/sim/test_integrate.c).
add_executable(test_integrate ${CMAKE_CURRENT_LIST_DIR}/test_integrate.c)
target_link_libraries(test_integrate PRIVATE mech_internal m)
file(GLOB MECH_TREE_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech)
foreach(model ${MECH_TREE_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME integrate_order_${stem} COMMAND test_integrate ${model})
endforeach()
