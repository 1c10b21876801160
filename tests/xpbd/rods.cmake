# Cosserat rods: FD gradients, the banded solver against a dense
# solve, lumped masses and simulation claims (correctness only, never timing).
foreach(name test_rod_gradients test_rod_banded test_rod_sim)
  add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/${name}.c)
  target_link_libraries(${name} mech_internal)
  add_test(NAME ${name} COMMAND ${name})
endforeach()
