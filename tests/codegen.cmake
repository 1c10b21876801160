# Generated dynamics vs the dense reference: one ctest per model in models/,
# so a new .mech file is validated with no edit here.
add_executable(validate_generated ${CMAKE_CURRENT_LIST_DIR}/validate_generated.c)
target_link_libraries(validate_generated PRIVATE mech_generated mech_internal)

file(GLOB MECH_VALIDATE_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech
     ${CMAKE_SOURCE_DIR}/models/loops/*.mech)
foreach(model ${MECH_VALIDATE_MODELS})
  get_filename_component(stem ${model} NAME_WLE)
  add_test(NAME validate_generated_${stem} COMMAND validate_generated ${stem} ${model})
endforeach()

# The inline sincos every generated file uses, against libm over ~10^6 arguments.
add_executable(test_sincos ${CMAKE_CURRENT_LIST_DIR}/test_sincos.c)
target_include_directories(test_sincos PRIVATE ${CMAKE_SOURCE_DIR}/core/codegen)
target_link_libraries(test_sincos PRIVATE m)
add_test(NAME test_sincos COMMAND test_sincos)

# An over-constrained loop is refused at generation, with the fix in the message.
add_test(NAME mechgen_rejects_overconstrained
         COMMAND mechgen ${CMAKE_CURRENT_LIST_DIR}/overconstrained_fourbar.mech
                 ${CMAKE_BINARY_DIR}/overconstrained.c ${CMAKE_BINARY_DIR}/overconstrained.h)
set_tests_properties(mechgen_rejects_overconstrained PROPERTIES
                     PASS_REGULAR_EXPRESSION "over-constrained: rank\\(K\\) = 2 < nc = 5.*point-on-line")
