# Forward dynamics against MuJoCo (tests/mujoco/test_mujoco.c): one test per
# models/*.mech plus a closed-form check of MuJoCo itself.  MuJoCo is optional;
# core/ never links it.
include(${CMAKE_SOURCE_DIR}/bench/find_mujoco.cmake)
if(NOT mujoco_FOUND)
  return()
endif()

add_executable(test_mujoco ${CMAKE_CURRENT_LIST_DIR}/test_mujoco.c
                           ${CMAKE_CURRENT_LIST_DIR}/mjcf.c)
target_link_libraries(test_mujoco PRIVATE mech_internal mujoco::mujoco m)
# Generator expressions, not if(TARGET): true wherever core/codegen is added.
set(mech_has_generated $<TARGET_EXISTS:mech_generated>)
target_link_libraries(test_mujoco PRIVATE $<${mech_has_generated}:mech_generated>)
target_compile_definitions(test_mujoco PRIVATE $<${mech_has_generated}:MECH_HAVE_GENERATED>)

add_test(NAME mujoco_closed_form COMMAND test_mujoco --closed-form)
file(GLOB MECH_MUJOCO_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech)
# With actuation: the servo arm (motor, position, velocity and general kinds)
# and the imported robots (the Panda's general servos, the URDF arm's motors).
list(APPEND MECH_MUJOCO_MODELS ${CMAKE_SOURCE_DIR}/models/loops/servoarm.mech ${MECH_ROBOT_MODELS})
foreach(model ${MECH_MUJOCO_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME mujoco_${stem} COMMAND test_mujoco ${model})
  set_tests_properties(mujoco_${stem} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# Fixed tendons (springs, damping, actuators on tendons) and equality
# constraints (joint and connect, through the constraint solve): fixtures,
# the dense reference only (tests/node/tendons.test.mjs checks the jit's code).
foreach(stem tendon_arm equality_joint equality_connect)
  add_test(NAME mujoco_${stem} COMMAND test_mujoco ${CMAKE_SOURCE_DIR}/tests/fixtures/${stem}.mech --dense-only)
endforeach()
