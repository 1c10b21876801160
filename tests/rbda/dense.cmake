# Dense reference, ABA, energy/poses, integrator (tests/rbda/test_dense.c): spatial
# unit checks, a hand-built model with every joint type, one test per
# models/*.mech (CRBA vs ABA, ID, qd == dq/dt, drift, energy), and satellite
# free fall.  Each test prints its figures (ctest -V or --output-on-failure).
add_executable(test_dense ${CMAKE_CURRENT_LIST_DIR}/test_dense.c)
target_link_libraries(test_dense PRIVATE mech_internal m)

add_test(NAME dense_spatial COMMAND test_dense spatial)
add_test(NAME dense_hand COMMAND test_dense hand)
file(GLOB MECH_DENSE_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech)
foreach(model ${MECH_DENSE_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME dense_${stem} COMMAND test_dense model ${model})
endforeach()
file(GLOB MECH_DENSE_LOOP_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/loops/*.mech)
foreach(model ${MECH_DENSE_LOOP_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME dense_kinematics_${stem} COMMAND test_dense kinematics ${model})
endforeach()
if(EXISTS ${CMAKE_SOURCE_DIR}/models/satellite.mech)
  add_test(NAME dense_satellite_free_fall COMMAND test_dense satellite ${CMAKE_SOURCE_DIR}/models/satellite.mech)
endif()
