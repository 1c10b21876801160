# The public library: its only global symbols are mech_ (nm), and a program
# that includes only <mech/mech.h> links it alone and runs every engine.
add_executable(test_public_api test_public_api.c)
target_link_libraries(test_public_api PRIVATE mech_public_lib)
add_test(NAME public_api COMMAND test_public_api)
add_test(NAME public_symbols_are_mech
  COMMAND sh -c "bad=$(nm -g --defined-only \"$1\" | awk 'NF == 3 && $3 !~ /^mech_/ {print $3}'); [ -z \"$bad\" ] || { echo \"non-mech_ globals: $bad\"; exit 1; }; nm -g --defined-only \"$1\" | grep -c ' T mech_'"
    sh ${CMAKE_BINARY_DIR}/libmech.a)

# A `ramp` target on a rigid revolute drive: a motor at constant speed (XPBD).
add_executable(test_xpbd_motor test_xpbd_motor.c)
target_link_libraries(test_xpbd_motor PRIVATE mech_public_lib)
add_test(NAME xpbd_motor COMMAND test_xpbd_motor)

# The rod contact scenes: the bristlebot walks forward on its legs, the bowling ball knocks pins over.
add_executable(test_rod_scenes test_rod_scenes.c)
target_link_libraries(test_rod_scenes PRIVATE mech_public_lib)
add_test(NAME xpbd_rod_scenes COMMAND test_rod_scenes ${CMAKE_SOURCE_DIR}/models/xpbd)
