# Loops, force elements, observe/find (tests/test_loops.c) on every
# models/loops/*.mech, the over-constrained rejection, and the integrators'
# asserted order on every tree model (tests/test_integrate.c).
add_executable(test_loops ${CMAKE_CURRENT_LIST_DIR}/test_loops.c)
target_link_libraries(test_loops PRIVATE mech_internal m)
file(GLOB MECH_LOOP_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/loops/*.mech)
foreach(model ${MECH_LOOP_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME loops_${stem} COMMAND test_loops model ${model})
endforeach()
add_test(NAME loops_overconstrained COMMAND test_loops overconstrained ${CMAKE_CURRENT_LIST_DIR}/overconstrained_fourbar.mech)

add_executable(test_integrate ${CMAKE_CURRENT_LIST_DIR}/test_integrate.c)
target_link_libraries(test_integrate PRIVATE mech_internal m)
file(GLOB MECH_TREE_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech)
foreach(model ${MECH_TREE_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME integrate_order_${stem} COMMAND test_integrate ${model})
endforeach()

# The mech CLI on loop models: check (nc, nact, rank(K) at q0), a near-manifold
# compare, and a short run.
if(TARGET mech)
  add_test(NAME mech_check_loop_models COMMAND mech check ${MECH_LOOP_MODELS})
  foreach(stem fourbar quartercar hmmwv_pitman)
    if(EXISTS ${CMAKE_SOURCE_DIR}/models/loops/${stem}.mech)
      add_test(NAME mech_compare_${stem} COMMAND mech compare ${CMAKE_SOURCE_DIR}/models/loops/${stem}.mech --trials 200)
    endif()
  endforeach()
  if(EXISTS ${CMAKE_SOURCE_DIR}/models/loops/fourbar.mech)
    add_test(NAME mech_run_fourbar COMMAND mech run ${CMAKE_SOURCE_DIR}/models/loops/fourbar.mech --time 0.5)
  endif()
  # Every command refuses an over-constrained loop when it loads the model, at the loop's place.
  foreach(cmd check run)
    add_test(NAME mech_${cmd}_refuses_overconstrained COMMAND mech ${cmd} ${CMAKE_CURRENT_LIST_DIR}/overconstrained_fourbar.mech)
    set_tests_properties(mech_${cmd}_refuses_overconstrained PROPERTIES WILL_FAIL TRUE)
    add_test(NAME mech_${cmd}_overconstrained_message COMMAND mech ${cmd} ${CMAKE_CURRENT_LIST_DIR}/overconstrained_fourbar.mech)
    set_tests_properties(mech_${cmd}_overconstrained_message PROPERTIES PASS_REGULAR_EXPRESSION
      "overconstrained_fourbar.mech:26:6: loop 'pivot' is over-constrained: rank\\(K\\) = 2 < nc = 5, 3 redundant rows")
  endforeach()
  # The mech_run_* tests can fail: a run that blows up exits 1 and says where.
  add_test(NAME mech_run_fails_on_blowup COMMAND mech run ${CMAKE_CURRENT_LIST_DIR}/unstable_spring.mech --time 0.5)
  set_tests_properties(mech_run_fails_on_blowup PROPERTIES WILL_FAIL TRUE)
  add_test(NAME mech_run_blowup_message COMMAND mech run ${CMAKE_CURRENT_LIST_DIR}/unstable_spring.mech --time 0.5)
  set_tests_properties(mech_run_blowup_message PROPERTIES
                       PASS_REGULAR_EXPRESSION "state is not finite after step [0-9]+ \\(t = [0-9.]+ s\\); the run failed")
endif()
