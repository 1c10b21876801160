# `rod` blocks in the model language : parsed fields, the
# xpbd_rod_desc and the scene built from a .mech file against the C API.
add_executable(test_rod_model ${CMAKE_CURRENT_LIST_DIR}/test_rod_model.c)
target_link_libraries(test_rod_model mech_internal)
add_test(NAME test_rod_model COMMAND test_rod_model ${CMAKE_SOURCE_DIR}/models/xpbd)
