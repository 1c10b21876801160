# The public library: its only global symbols are mech_ (nm), and a program
# that includes only <mech/mech.h> links it alone and runs every engine.
add_executable(test_public_api ${CMAKE_CURRENT_LIST_DIR}/test_public_api.c)
target_link_libraries(test_public_api PRIVATE mech_public_lib)
add_test(NAME public_api COMMAND test_public_api)
add_executable(test_actuators ${CMAKE_CURRENT_LIST_DIR}/test_actuators.c)
target_link_libraries(test_actuators PRIVATE mech_public_lib)
add_test(NAME actuators COMMAND test_actuators)
add_test(NAME public_symbols_are_mech
  COMMAND sh -c "bad=$(nm -g --defined-only \"$1\" | awk 'NF == 3 && $3 !~ /^mech_/ {print $3}'); [ -z \"$bad\" ] || { echo \"non-mech_ globals: $bad\"; exit 1; }; nm -g --defined-only \"$1\" | grep -c ' T mech_'"
    sh ${CMAKE_BINARY_DIR}/libmech.a)

