# sources.cmake — the lists both build trees read (the native one and the
# WebAssembly one, cmake/wasm_modules.cmake), written once.  Folders are
# globbed so a new file needs no edit here.

# The core: model language, spatial and SO(3) algebra, dense reference
# dynamics, simulation, XPBD, collision detection, the contact stage.
file(GLOB MECH_CORE_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/core/model/*.c
  ${CMAKE_SOURCE_DIR}/core/rbda/*.c
  ${CMAKE_SOURCE_DIR}/core/sim/*.c
  ${CMAKE_SOURCE_DIR}/core/spatial/*.c
  ${CMAKE_SOURCE_DIR}/core/xpbd/*.c
  ${CMAKE_SOURCE_DIR}/core/collide/*.c
  ${CMAKE_SOURCE_DIR}/core/contact/*.c)

# The code generator (core/codegen/) without mechgen's main.c and the
# registry lookup (lookup.c, in mech_generated): the library mechgen_lib
# natively, and compiled into the runtime WebAssembly module, whose jit
# generates any .mech text's dynamics (docs/wasm.md, "Jit").
set(MECHGEN_SOURCES)
foreach(file expr sym_spatial gen gen_kinematics gen_rnea gen_crba gen_world gen_elements gen_loops gen_ltdl gen_aba
             gen_method2 stages plan emit wasm_writer emit_wasm estimate mechgen)
  list(APPEND MECHGEN_SOURCES ${CMAKE_SOURCE_DIR}/core/codegen/${file}.c)
endforeach()

# Where the core's headers are: the public API (include/mech/) and the
# internal headers beside their sources, each included by its folder
# ("sim/generated.h"; scripts/check-layers.mjs checks which folder may include which).
set(MECH_CORE_INCLUDES ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/core)

# The shipped Featherstone models, one generated module each: trees
# (models/*.mech), then closed loops and force elements (models/loops/*.mech),
# then tracked vehicles (models/tracks/*.mech: bands expanded into shoes, their
# contact stage run by every engine's step, docs/contact.md).
file(GLOB MECH_TREE_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech)
file(GLOB MECH_LOOP_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/loops/*.mech)
# The M113 (models/tracks/m113.mech, nv 169) is among them: by CRBA + L^T D L
# it was 2.9e5 operations, 25.5 MB of C, gcc -O2 115 s and 1.0 GB, the
# WebAssembly link 725 s and 3.25 GB, which kept it out of this set; by the
# articulated-body algorithm, which mechgen keeps for it, 4.9e4 operations,
# 3.5 MB of C, gcc -O2 9 s and 0.36 GB, the link 15 s and 0.35 GB
# (docs/codegen.md, "Two algorithms"; docs/contact.md, "The M113").
# models/tracks/large/*.mech (no recursion) is for vehicles whose generated
# code would still be too large for every build tree; none is there now.
# tests/model/parser.cmake and tests/contact/contact.cmake check any by their own glob.
file(GLOB MECH_TRACK_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/tracks/*.mech)
# Writes the .mech text that `node script source` prints into `out` when the tree is configured (keeping out's
# timestamp when the text is unchanged, so nothing downstream reruns); `what` names the step in an error.
function(mech_configure_text what script source out)
  execute_process(COMMAND ${MECH_NODE_EXECUTABLE} ${script} ${source}
    OUTPUT_FILE ${out}.new ERROR_VARIABLE why RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} ${source} failed: ${why}")
  endif()
  file(COPY_FILE ${out}.new ${out} ONLY_IF_DIFFERENT)
  file(REMOVE ${out}.new)
endfunction()

# The robots of models/robots/ (MJCF, URDF) imported into .mech when the tree
# is configured, by the importer every other path uses (scripts/import.mjs,
# docs/import.md), into <build>/robots/; from there they are generated like
# every other model.  A changed source or importer reconfigures; an unchanged
# result keeps its timestamp, so nothing downstream reruns.
# A robot with meshes is a folder holding its scene.xml, named after the folder.
file(GLOB MECH_ROBOT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/robots/*.xml ${CMAKE_SOURCE_DIR}/models/robots/*.urdf
  ${CMAKE_SOURCE_DIR}/models/robots/*/scene.xml)
set(MECH_ROBOT_MODELS "")
set(MECH_ROBOT_FOLDERS "") # the robots with meshes: their folders, whose files the WebAssembly tree ships
if(MECH_ROBOT_SOURCES)
  find_program(MECH_NODE_EXECUTABLE node REQUIRED)
  file(GLOB importer_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/wasm/import/*.mjs)
  file(GLOB robot_includes CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/robots/*/*.xml)
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${importer_sources} ${CMAKE_SOURCE_DIR}/scripts/import.mjs ${MECH_ROBOT_SOURCES} ${robot_includes})
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/robots)
  foreach(source ${MECH_ROBOT_SOURCES})
    get_filename_component(stem ${source} NAME_WLE)
    if(stem STREQUAL "scene")
      get_filename_component(folder ${source} DIRECTORY)
      get_filename_component(stem ${folder} NAME)
      list(APPEND MECH_ROBOT_FOLDERS ${folder})
    endif()
    set(out ${CMAKE_BINARY_DIR}/robots/${stem}.mech)
    mech_configure_text(importing ${CMAKE_SOURCE_DIR}/scripts/import.mjs ${source} ${out})
    list(APPEND MECH_ROBOT_MODELS ${out})
  endforeach()
endif()
set(MECH_MODELS ${MECH_TREE_MODELS} ${MECH_LOOP_MODELS} ${MECH_TRACK_MODELS} ${MECH_ROBOT_MODELS})

# The terrain scenes of models/tracks/scenes/*.scene: a tracked vehicle of models/tracks/ with another ground
# (docs/mech-format.md, "Terrain scenes"), composed into <build>/scenes/tracks/<scene>.mech when the tree is
# configured (scripts/scene.mjs), as the robots are imported.  No code is generated for them: the dynamics do
# not read the ground, so each runs on its base model's module (wasm/scene.c).  MECH_TERRAIN_SCENES lists the
# composed files, MECH_TERRAIN_BASES the base model of each.
file(GLOB MECH_SCENE_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/tracks/scenes/*.scene)
set(MECH_TERRAIN_SCENES "")
set(MECH_TERRAIN_BASES "")
if(MECH_SCENE_SOURCES)
  find_program(MECH_NODE_EXECUTABLE node REQUIRED)
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${CMAKE_SOURCE_DIR}/scripts/scene.mjs ${MECH_SCENE_SOURCES} ${MECH_TRACK_MODELS} ${MECH_LOOP_MODELS})
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/scenes/tracks)
  foreach(source ${MECH_SCENE_SOURCES})
    get_filename_component(stem ${source} NAME_WLE)
    set(out ${CMAKE_BINARY_DIR}/scenes/tracks/${stem}.mech)
    mech_configure_text(composing ${CMAKE_SOURCE_DIR}/scripts/scene.mjs ${source} ${out})
    file(STRINGS ${source} base REGEX "^base[ \t]")
    string(REGEX REPLACE "^base[ \t]+([A-Za-z0-9_]+).*" "\\1" base "${base}")
    list(APPEND MECH_TERRAIN_SCENES ${out})
    list(APPEND MECH_TERRAIN_BASES ${base})
  endforeach()
endif()

# The XPBD scenes (rods, the pendulum and robot of the XPBD papers): text
# only, run by the runtime module on engine 'xpbd'.
file(GLOB MECH_SCENES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/xpbd/*.mech)
