# One mechanism, two engines: XPBD vs ABA + Störmer–Verlet on the
# same .mech file; the position gap must shrink when XPBD's step halves.
add_executable(xpbd_gap ${CMAKE_CURRENT_LIST_DIR}/xpbd_gap.c)
target_link_libraries(xpbd_gap PRIVATE mech_internal m)
foreach(stem threelink satellite)
  add_test(NAME xpbd_gap_${stem} COMMAND xpbd_gap ${CMAKE_SOURCE_DIR}/models/${stem}.mech)
endforeach()
# The elbow's wrist is chaotic: after ~1.6 s the gap saturates for any step
# (Featherstone's own first-order Euler shows it too, docs/xpbd.md), so it is
# gated over its first second.
add_test(NAME xpbd_gap_elbow COMMAND xpbd_gap ${CMAKE_SOURCE_DIR}/models/elbow.mech 1)

# The §9.1 scenes written in the model language (models/xpbd/*.mech) against
# the C scenes they reproduce.
add_executable(xpbd_scene_files ${CMAKE_CURRENT_LIST_DIR}/xpbd_scene_files.c ${CMAKE_CURRENT_LIST_DIR}/xpbd_scenes.c)
target_link_libraries(xpbd_scene_files PRIVATE mech_internal m)
add_test(NAME xpbd_scene_files COMMAND xpbd_scene_files ${CMAKE_SOURCE_DIR}/models/xpbd)
