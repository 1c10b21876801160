# XPBD and the SO(3) toolkit: FD checks of every Jacobian and
# constraint gradient, and XPBD runs checked for correctness (never timing).
foreach(name test_so3 test_xpbd_gradients test_xpbd_sim test_xpbd_collide test_xpbd_contact
             test_xpbd_rod_narrow test_xpbd_rod_contact)
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
