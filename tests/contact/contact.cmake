# The contact stage: its point laws (tests/contact/test_contact_laws.c), then the stage on a band built in the
# test and on every shipped model (tests/contact/test_contact_stage.c; with a band or a ground: every stage check;
# without: zero force).
add_executable(test_contact_laws ${CMAKE_CURRENT_LIST_DIR}/test_contact_laws.c)
target_link_libraries(test_contact_laws PRIVATE mech_internal m)
add_test(NAME contact_laws COMMAND test_contact_laws)
add_executable(test_contact_stage ${CMAKE_CURRENT_LIST_DIR}/test_contact_stage.c)
target_link_libraries(test_contact_stage PRIVATE mech_internal m)
add_test(NAME contact_synthetic COMMAND test_contact_stage synthetic)
# models/tracks/large/ would hold vehicles too big for the generated set
# (cmake/sources.cmake); their contact stage is checked all the same.
file(GLOB MECH_CONTACT_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech
     ${CMAKE_SOURCE_DIR}/models/loops/*.mech ${CMAKE_SOURCE_DIR}/models/tracks/*.mech
     ${CMAKE_SOURCE_DIR}/models/tracks/large/*.mech)
foreach(model ${MECH_CONTACT_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME contact_model_${stem} COMMAND test_contact_stage model ${model})
endforeach()

# The trajectory checks (tests/contact/test_trajectory.c, docs/contact.md "Trajectory
# checks"): each tracked vehicle settles from its design pose onto its ground;
# track_min is then parked on 15 degrees with its sprocket braked, once per
# friction law: the anchored law must hold the patch, the regularized one must
# be seen sliding, so the two are told apart.  track_min settles once more on
# its generated code, whose step runs the same contact stage.
if(TARGET mech_generated)
  add_executable(test_trajectory ${CMAKE_CURRENT_LIST_DIR}/test_trajectory.c)
  target_link_libraries(test_trajectory PRIVATE mech_internal mech_generated m)
  set(tracks ${CMAKE_SOURCE_DIR}/models/tracks)
  add_test(NAME trajectory_track_demo COMMAND test_trajectory ${tracks}/track_demo.mech)
  # The M113: tensioners and torsion bars in the energy budget; about 50 s of
  # CPU on the runtime ABA.
  add_test(NAME trajectory_m113 COMMAND test_trajectory ${tracks}/m113.mech)
  # The M113 on its generated code: settled, then parked on 15 degrees with
  # both sprockets braked, anchored friction (the patch must hold).
  add_test(NAME trajectory_m113_hold_anchored
           COMMAND test_trajectory ${tracks}/m113.mech --engine generated --slope 15 --fric anchor)
  add_test(NAME trajectory_track_min_generated COMMAND test_trajectory ${tracks}/track_min.mech --engine generated)
  add_test(NAME trajectory_track_min_hold_anchored
           COMMAND test_trajectory ${tracks}/track_min.mech --slope 15 --fric anchor)
  add_test(NAME trajectory_track_min_hold_regularized
           COMMAND test_trajectory ${tracks}/track_min.mech --slope 15 --fric reg)
  # `mech sim` itself, as a user runs it: settled, parked on the slope, traced.
  if(TARGET mech)
    add_test(NAME mech_sim_track_min
             COMMAND mech sim ${tracks}/track_min.mech --slope 15 --trace ${CMAKE_CURRENT_BINARY_DIR}/track_min_sim.csv)
  endif()
endif()

# The Featherstone constraint solve against closed forms (tests/contact/test_constraint.c; docs/contact.md,
# "The constraint solve").
add_executable(test_constraint ${CMAKE_CURRENT_LIST_DIR}/test_constraint.c)
target_link_libraries(test_constraint PRIVATE mech_internal m)
add_test(NAME constraint_solve COMMAND test_constraint)
if(TARGET mech_generated)
  add_executable(test_constraint_generated ${CMAKE_CURRENT_LIST_DIR}/test_constraint_generated.c)
  target_link_libraries(test_constraint_generated PRIVATE mech_internal mech_generated m)
  add_test(NAME constraint_generated COMMAND test_constraint_generated ${CMAKE_SOURCE_DIR}/models)
endif()

# The Fiala tire law against its closed forms (tests/contact/test_fiala.c).
add_executable(test_fiala ${CMAKE_CURRENT_LIST_DIR}/test_fiala.c)
target_link_libraries(test_fiala PRIVATE mech_internal m)
add_test(NAME contact_fiala COMMAND test_fiala)

# The HMMWVs on their tires (tests/contact/test_tire_vehicle.c): settled on flat ground, braked on 15 degrees
# (holds) and on 35 degrees with mu 0.8 (slides), coasting, a torque at a crawl.
add_executable(test_tire_vehicle ${CMAKE_CURRENT_LIST_DIR}/test_tire_vehicle.c)
target_link_libraries(test_tire_vehicle PRIVATE mech_internal m)
foreach(stem hmmwv hmmwv_pitman)
  set(model ${CMAKE_SOURCE_DIR}/models/loops/${stem}.mech)
  add_test(NAME tires_settle_${stem} COMMAND test_tire_vehicle ${model} settle)
  add_test(NAME tires_hold_15_${stem} COMMAND test_tire_vehicle ${model} slope 15 hold)
  add_test(NAME tires_slide_35_${stem} COMMAND test_tire_vehicle ${model} slope 35 slide --mu 0.8)
endforeach()
# A launch (4500 N m on each rear wheel) with and without the bump stops: the rebound stop limits the travel.
foreach(stem hmmwv hmmwv_pitman)
  add_test(NAME tires_launch_${stem} COMMAND test_tire_vehicle ${CMAKE_SOURCE_DIR}/models/loops/${stem}.mech launch 4500)
endforeach()
add_test(NAME tires_coast_hmmwv COMMAND test_tire_vehicle ${CMAKE_SOURCE_DIR}/models/loops/hmmwv.mech coast)
add_test(NAME tires_crawl_hmmwv COMMAND test_tire_vehicle ${CMAKE_SOURCE_DIR}/models/loops/hmmwv.mech crawl 250)

# Bump stops on tsdas against their closed form (tests/contact/test_stop.c).
add_executable(test_stop ${CMAKE_CURRENT_LIST_DIR}/test_stop.c)
target_link_libraries(test_stop PRIVATE mech_internal m)
add_test(NAME contact_stop COMMAND test_stop)

# Mesh shapes colliding through their convex hulls on the Featherstone solve and on XPBD
# (tests/contact/test_mesh_collider.c).
add_executable(test_mesh_collider ${CMAKE_CURRENT_LIST_DIR}/test_mesh_collider.c)
target_link_libraries(test_mesh_collider PRIVATE mech_internal m)
add_test(NAME mesh_collider COMMAND test_mesh_collider)
