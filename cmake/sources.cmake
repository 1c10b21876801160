# sources.cmake — the lists both build trees read (the native one and the
# WebAssembly one, cmake/wasm_modules.cmake), written once.  Folders are
# globbed so a new file needs no edit here.

# The core: model language, spatial and SO(3) algebra, dense reference
# dynamics, simulation, XPBD, the contact stage.
file(GLOB MECH_CORE_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/core/model/*.c
  ${CMAKE_SOURCE_DIR}/core/rbda/*.c
  ${CMAKE_SOURCE_DIR}/core/sim/*.c
  ${CMAKE_SOURCE_DIR}/core/spatial/*.c
  ${CMAKE_SOURCE_DIR}/core/xpbd/*.c
  ${CMAKE_SOURCE_DIR}/core/contact/*.c)

# The code generator (core/codegen/) without mechgen's main.c and the
# registry lookup (lookup.c, in mech_generated): the library mechgen_lib
# natively, and compiled into the runtime WebAssembly module, whose jit
# generates any .mech text's dynamics (docs/wasm.md, "Jit").
set(MECHGEN_SOURCES)
foreach(file expr sym_spatial gen gen_kinematics gen_rnea gen_crba gen_world gen_elements gen_loops gen_ltdl gen_aba
             gen_method2 stages plan emit wasm_writer emit_wasm mechgen)
  list(APPEND MECHGEN_SOURCES ${CMAKE_SOURCE_DIR}/core/codegen/${file}.c)
endforeach()

# Where the core's headers are: the public API (include/mech/), the internal
# headers beside their sources, the generated-code interface.
set(MECH_CORE_INCLUDES ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/core ${CMAKE_SOURCE_DIR}/core/codegen)

# The shipped Featherstone models, one generated module each: trees
# (models/*.mech), then closed loops and force elements (models/loops/*.mech),
# then tracked vehicles (models/tracks/*.mech: bands expanded into shoes, their
# contact stage run by every engine's step, docs/contact.md).
file(GLOB MECH_TREE_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/*.mech)
file(GLOB MECH_LOOP_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/loops/*.mech)
# Not models/tracks/large/*.mech (no recursion): vehicles whose generated code
# is too large for every build tree.  m113 (nv 169) by CRBA + L^T D L was 2.9e5
# operations, 25.5 MB of C, gcc -O2 115 s and 1.0 GB, the WebAssembly link 725 s
# and 3.25 GB; by the articulated-body algorithm, which mechgen now keeps for
# it, 4.9e4 operations and 3.5 MB of C, gcc -O2 9 s and 0.36 GB, emcc 5 s, the
# link 15 s and 0.35 GB (docs/codegen.md, "Two algorithms"): still above the
# 2 MB of C this set takes.  They run on the runtime engines (ABA, dense) and
# in `mech sim`; tests/parser.cmake and tests/contact.cmake check them by their
# own glob.
file(GLOB MECH_TRACK_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/tracks/*.mech)
# The robots of models/robots/ (MJCF, URDF) imported into .mech when the tree
# is configured, by the importer every other path uses (scripts/import.mjs,
# docs/import.md), into <build>/robots/; from there they are generated like
# every other model.  A changed source or importer reconfigures; an unchanged
# result keeps its timestamp, so nothing downstream reruns.
file(GLOB MECH_ROBOT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/robots/*.xml ${CMAKE_SOURCE_DIR}/models/robots/*.urdf)
set(MECH_ROBOT_MODELS "")
if(MECH_ROBOT_SOURCES)
  find_program(MECH_NODE_EXECUTABLE node REQUIRED)
  file(GLOB importer_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/wasm/import/*.mjs)
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${importer_sources} ${CMAKE_SOURCE_DIR}/scripts/import.mjs ${MECH_ROBOT_SOURCES})
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/robots)
  foreach(source ${MECH_ROBOT_SOURCES})
    get_filename_component(stem ${source} NAME_WLE)
    set(out ${CMAKE_BINARY_DIR}/robots/${stem}.mech)
    execute_process(COMMAND ${MECH_NODE_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/import.mjs ${source}
      OUTPUT_FILE ${out}.new ERROR_VARIABLE warnings RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "importing ${source} failed: ${warnings}")
    endif()
    file(COPY_FILE ${out}.new ${out} ONLY_IF_DIFFERENT)
    file(REMOVE ${out}.new)
    list(APPEND MECH_ROBOT_MODELS ${out})
  endforeach()
endif()
set(MECH_MODELS ${MECH_TREE_MODELS} ${MECH_LOOP_MODELS} ${MECH_TRACK_MODELS} ${MECH_ROBOT_MODELS})

# The XPBD scenes (rods, the pendulum and robot of the XPBD papers): text
# only, run by the runtime module on engine 'xpbd'.
file(GLOB MECH_SCENES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/xpbd/*.mech)
