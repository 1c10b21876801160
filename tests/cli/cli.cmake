# The mech command-line tool (cli/): its commands on the shipped models, and that usage errors and
# blow-ups fail with their message.
# Summaries of every model, one compare, a short run, and that
# usage errors fail.
if(TARGET mech)
  add_test(NAME mech_check_models COMMAND mech check ${MECH_TREE_MODELS})
  if(EXISTS ${CMAKE_SOURCE_DIR}/models/threelink.mech)
    add_test(NAME mech_compare_threelink COMMAND mech compare ${CMAKE_SOURCE_DIR}/models/threelink.mech --trials 200)
    add_test(NAME mech_run_threelink COMMAND mech run ${CMAKE_SOURCE_DIR}/models/threelink.mech --time 0.5)
  endif()
  add_test(NAME mech_usage_error COMMAND mech run --engine bogus)
  set_tests_properties(mech_usage_error PROPERTIES WILL_FAIL TRUE)

  # Loop models: check (nc, nact, rank(K) at q0), a near-manifold compare, and a short run.
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
    add_test(NAME mech_${cmd}_refuses_overconstrained COMMAND mech ${cmd} ${CMAKE_CURRENT_LIST_DIR}/../fixtures/overconstrained_fourbar.mech)
    set_tests_properties(mech_${cmd}_refuses_overconstrained PROPERTIES WILL_FAIL TRUE)
    add_test(NAME mech_${cmd}_overconstrained_message COMMAND mech ${cmd} ${CMAKE_CURRENT_LIST_DIR}/../fixtures/overconstrained_fourbar.mech)
    set_tests_properties(mech_${cmd}_overconstrained_message PROPERTIES PASS_REGULAR_EXPRESSION
      "overconstrained_fourbar.mech:26:6: loop 'pivot' is over-constrained: rank\\(K\\) = 2 < nc = 5, 3 redundant rows")
  endforeach()
  # The mech_run_* tests can fail: a run that blows up exits 1 and says where.
  add_test(NAME mech_run_fails_on_blowup COMMAND mech run ${CMAKE_CURRENT_LIST_DIR}/../fixtures/unstable_spring.mech --time 0.5)
  set_tests_properties(mech_run_fails_on_blowup PROPERTIES WILL_FAIL TRUE)
  add_test(NAME mech_run_blowup_message COMMAND mech run ${CMAKE_CURRENT_LIST_DIR}/../fixtures/unstable_spring.mech --time 0.5)
  set_tests_properties(mech_run_blowup_message PROPERTIES
                       PASS_REGULAR_EXPRESSION "state is not finite after step [0-9]+ \\(t = [0-9.]+ s\\); the run failed")
endif()

# A command that must fail with exit status 1 and say `message` (an extended regular expression) on stderr.
function(mech_cli_refuses name message)
  add_test(NAME ${name} COMMAND sh -c [=[m=$1; shift; out=$("$@" 2>&1 >/dev/null); rc=$?; printf '%s\n' "$out"; [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -Eq "$m"]=]
           sh "${message}" $<TARGET_FILE:mech> ${ARGN})
endfunction()
if(TARGET mech)
  set(track_min ${CMAKE_SOURCE_DIR}/models/tracks/track_min.mech)
  # A run whose --time and --dt ask for more steps than a run may take is refused before it starts.
  mech_cli_refuses(mech_sim_step_cap "2e\\+09 steps a run, more than the 1e\\+08" sim ${track_min} --dt 1e-9 --time 2)
  # A trace that cannot be written (a full device) fails the command.
  mech_cli_refuses(mech_sim_trace_write_error "writing the trace '/dev/full' failed" sim ${track_min} --time 2 --trace /dev/full)
  # Only regular files are read: a directory (as a FIFO with no writer, which would block the open) is refused.
  mech_cli_refuses(mech_check_not_regular "not a regular file" check ${CMAKE_SOURCE_DIR}/models)
endif()
