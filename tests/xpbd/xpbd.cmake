# XPBD: FD checks of every Jacobian and
# constraint gradient, and XPBD runs checked for correctness (never timing).
foreach(name test_xpbd_gradients test_xpbd_sim test_xpbd_collide test_xpbd_contact
             test_xpbd_rod_narrow test_xpbd_rod_contact test_xpbd_joint_forces)
  add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/${name}.c)
  target_link_libraries(${name} mech_internal)
  if(name STREQUAL "test_xpbd_rod_contact")
    add_test(NAME ${name} COMMAND ${name} ${CMAKE_SOURCE_DIR}/models/xpbd)
  else()
    add_test(NAME ${name} COMMAND ${name})
  endif()
endforeach()
# The §9.1 scenes built in C (a test fixture, not part of the core).
target_sources(test_xpbd_sim PRIVATE ${CMAKE_CURRENT_LIST_DIR}/xpbd_scenes.c)

# On the public library alone: a `ramp` target on a rigid revolute drive: a motor at constant speed (XPBD).
add_executable(test_xpbd_motor ${CMAKE_CURRENT_LIST_DIR}/test_xpbd_motor.c)
target_link_libraries(test_xpbd_motor PRIVATE mech_public_lib)
add_test(NAME xpbd_motor COMMAND test_xpbd_motor)

# The rod contact scenes: the bristlebot walks forward on its legs, the bowling ball knocks pins over.
add_executable(test_rod_scenes ${CMAKE_CURRENT_LIST_DIR}/test_rod_scenes.c)
target_link_libraries(test_rod_scenes PRIVATE mech_public_lib)
add_test(NAME xpbd_rod_scenes COMMAND test_rod_scenes ${CMAKE_SOURCE_DIR}/models/xpbd)
