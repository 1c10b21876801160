# The spatial layer: the SO(3) Lie toolkit's FD checks (tests/spatial/test_so3.c).
add_executable(test_so3 ${CMAKE_CURRENT_LIST_DIR}/test_so3.c)
target_link_libraries(test_so3 mech_internal)
add_test(NAME test_so3 COMMAND test_so3)

# The inline sincos every generated file uses, against libm over ~10^6 arguments.
add_executable(test_sincos ${CMAKE_CURRENT_LIST_DIR}/test_sincos.c)
target_include_directories(test_sincos PRIVATE ${CMAKE_SOURCE_DIR}/core/codegen)
target_link_libraries(test_sincos PRIVATE m)
add_test(NAME test_sincos COMMAND test_sincos)
