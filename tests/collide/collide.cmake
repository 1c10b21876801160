# The collision library's convex hull collider against closed forms and brute force.
add_executable(test_hull_collide ${CMAKE_CURRENT_LIST_DIR}/test_hull_collide.c)
target_link_libraries(test_hull_collide mech_internal)
add_test(NAME test_hull_collide COMMAND test_hull_collide)
