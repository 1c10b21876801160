# Generated dynamics vs the dense reference: one ctest per shipped model
# (trees, loops, tracked vehicles), so a new .mech file is validated with no
# edit here.  1000 states each, gated at 1e-9 scaled up to nv = 64 and by
# (nv / 64)^4 above it: both sides end in a factorization of H, whose
# condition grows like a serial chain's length to the fourth power
# (validate_generated.c, gate()).
add_executable(validate_generated ${CMAKE_CURRENT_LIST_DIR}/validate_generated.c)
target_link_libraries(validate_generated PRIVATE mech_generated mech_internal)

file(GLOB MECH_VALIDATE_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech
     ${CMAKE_SOURCE_DIR}/models/loops/*.mech ${CMAKE_SOURCE_DIR}/models/tracks/*.mech)
# The robots imported from models/robots/ (cmake/sources.cmake) with them.
foreach(model ${MECH_VALIDATE_MODELS} ${MECH_ROBOT_MODELS})
  get_filename_component(stem ${model} NAME_WLE)
  add_test(NAME validate_generated_${stem} COMMAND validate_generated ${stem} ${model})
endforeach()

# A band's shoes without the band: a 32-link chain curled like a track on its
# rollers (tests/codegen/polygon_chain.mech), generated here for this test only by
# each algorithm (mechgen keeps the articulated-body algorithm for it, and the
# L^T D L's stability on such a chain is what the test was written for) and
# compared with the dense reference at its design pose and near it, where an
# unstable factorization shows at once (tests/codegen/test_polygon_chain.c).
foreach(algorithm crba aba)
  set(polygon_chain ${CMAKE_CURRENT_BINARY_DIR}/polygon_chain_${algorithm})
  add_custom_command(
    OUTPUT ${polygon_chain}.c ${polygon_chain}.h
    COMMAND mechgen --algorithm ${algorithm} tests/codegen/polygon_chain.mech ${polygon_chain}.c ${polygon_chain}.h
    DEPENDS mechgen ${CMAKE_CURRENT_LIST_DIR}/polygon_chain.mech
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    COMMENT "Generating dynamics for tests/codegen/polygon_chain.mech by ${algorithm}"
    VERBATIM)
  add_executable(test_polygon_chain_${algorithm} ${CMAKE_CURRENT_LIST_DIR}/test_polygon_chain.c ${polygon_chain}.c)
  target_include_directories(test_polygon_chain_${algorithm} PRIVATE ${CMAKE_SOURCE_DIR}/core
                             ${CMAKE_CURRENT_BINARY_DIR})
  target_compile_options(test_polygon_chain_${algorithm} PRIVATE -O2)
  target_link_libraries(test_polygon_chain_${algorithm} PRIVATE mech_internal m)
  add_test(NAME test_polygon_chain_${algorithm}
           COMMAND test_polygon_chain_${algorithm} ${CMAKE_CURRENT_LIST_DIR}/polygon_chain.mech)
endforeach()

# An over-constrained loop is refused at generation, with the fix in the message.
add_test(NAME mechgen_rejects_overconstrained
         COMMAND mechgen ${CMAKE_CURRENT_LIST_DIR}/../fixtures/overconstrained_fourbar.mech
                 ${CMAKE_BINARY_DIR}/overconstrained.c ${CMAKE_BINARY_DIR}/overconstrained.h)
set_tests_properties(mechgen_rejects_overconstrained PROPERTIES
                     PASS_REGULAR_EXPRESSION "over-constrained: rank\\(K\\) = 2 < nc = 5.*point-on-line")

# Both algorithms on every model, whatever mechgen keeps: validate_generated_<m>
# checks the one it keeps (CRBA + L^T D L or the articulated-body algorithm,
# the fewer operations), validate_other_<m> the other, generated with
# `mechgen --algorithm other` into a registry of its own and checked by the
# same program at the same gates.
set(other_dir ${CMAKE_BINARY_DIR}/generated_other)
file(MAKE_DIRECTORY ${other_dir})
set(other_sources "")
set(other_includes "")
set(other_entries "")
set(other_models ${MECH_VALIDATE_MODELS} ${MECH_ROBOT_MODELS})
foreach(model ${other_models})
  get_filename_component(stem ${model} NAME_WLE)
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${model})
  string(MAKE_C_IDENTIFIER "mechgen_${stem}" symbol)
  add_custom_command(
    OUTPUT ${other_dir}/${stem}.c ${other_dir}/${stem}.h
    COMMAND mechgen --algorithm other ${rel} ${other_dir}/${stem}.c ${other_dir}/${stem}.h
    DEPENDS mechgen ${model}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    COMMENT "Generating the other algorithm's dynamics for ${rel}"
    VERBATIM)
  list(APPEND other_sources ${other_dir}/${stem}.c)
  string(APPEND other_includes "#include \"${stem}.h\"\n")
  string(APPEND other_entries "    &${symbol},\n")
  add_test(NAME validate_other_${stem} COMMAND validate_generated_other ${stem} ${model})
endforeach()
list(LENGTH other_models other_count)
file(CONFIGURE OUTPUT ${other_dir}/registry.c @ONLY CONTENT
"/* registry.c — every model by the algorithm mechgen does not keep, written by tests/codegen/codegen.cmake. */
#include <stddef.h>

#include \"sim/generated.h\"
${other_includes}
const mech_generated *const mechgen_all[] = {
${other_entries}    NULL
};
const int mechgen_count = ${other_count};
")
add_executable(validate_generated_other ${CMAKE_CURRENT_LIST_DIR}/validate_generated.c ${other_sources}
               ${other_dir}/registry.c ${CMAKE_SOURCE_DIR}/core/codegen/lookup.c)
target_include_directories(validate_generated_other PRIVATE ${CMAKE_SOURCE_DIR}/core ${other_dir})
# -O1: the CRBA code of the M113 (25.5 MB of C) takes gcc -O2 about 115 s of
# CPU and -O1 40 s, both at 0.96 GB; no level reassociates floating point, so
# the results are the same and only this test's run time changes.
target_compile_options(validate_generated_other PRIVATE -O1)
target_link_libraries(validate_generated_other PRIVATE mech_internal m)
# The generated size estimated from the structure (core/codegen/estimate.h)
# within a factor of the size written, on every shipped model and chains with
# loops; a model over the limits refused from the estimate in under a second
# (tests/codegen/test_estimate.c).
add_executable(test_estimate ${CMAKE_CURRENT_LIST_DIR}/test_estimate.c)
target_include_directories(test_estimate PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(test_estimate PRIVATE mechgen_lib)
add_test(NAME test_estimate COMMAND test_estimate ${MECH_VALIDATE_MODELS} ${MECH_ROBOT_MODELS})
# mechgen refuses such a model from the estimate, before generating, for
# either target: a 96-link chain with every second link closed to the base, written here.
set(too_large ${CMAKE_BINARY_DIR}/too_large_chain.mech)
set(text "gravity 0 0 -9.81\n")
foreach(i RANGE 95)
  math(EXPR up "${i} - 1")
  if(i EQUAL 0)
    set(up base)
  else()
    set(up b${up})
  endif()
  math(EXPR q0 "7 + ${i} % 5")
  string(APPEND text "body b${i}\n  parent ${up}\n  joint revolute y\n  pos 0.1 0 0\n  mass 1\n  com 0.05 0 0\n"
         "  inertia 0.001 0.001 0.001\n  q0 ${q0}\nend\n")
  if(i MATCHES "[13579]$")
    string(APPEND text "loop c${i}\n  type point-on-line\n  pred base\n  ppos ${i} 0 0\n  paxis y\n  succ b${i}\n"
           "  spos 0.1 0 0\nend\n")
  endif()
endforeach()
file(CONFIGURE OUTPUT ${too_large} CONTENT "${text}")
add_test(NAME mechgen_refuses_by_estimate_c
         COMMAND mechgen ${too_large} ${CMAKE_BINARY_DIR}/too_large.c ${CMAKE_BINARY_DIR}/too_large.h)
set_tests_properties(mechgen_refuses_by_estimate_c PROPERTIES
                     PASS_REGULAR_EXPRESSION "too large to generate: .* bytes of C source \\(at most 33554432\\)")
add_test(NAME mechgen_refuses_by_estimate_wasm COMMAND mechgen --wasm ${CMAKE_BINARY_DIR}/too_large.wasm ${too_large})
set_tests_properties(mechgen_refuses_by_estimate_wasm PROPERTIES
                     PASS_REGULAR_EXPRESSION "too large to generate: .* bytes of WebAssembly in one function \\(at most 7654321\\)")
