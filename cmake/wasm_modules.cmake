# wasm_modules.cmake — the WebAssembly tree (docs/wasm.md).  The native build
# configures it in build/wasm with Emscripten's toolchain and hands it two of
# its own programs: mechgen (MECHGEN_EXECUTABLE) and the reference helper
# mech-wasm-ref (MECH_HELPER_EXECUTABLE), which writes the manifests.
#
#   <dist>/runtime.wasm          parser + ABA and XPBD: runs any .mech text
#   <dist>/<model>.wasm          one per shipped model: its generated dynamics
#   <dist>/models/<model>.mech   the text each was made from
#   <dist>/models.json           the manifest listModels() returns
#   <dist>/scenes.json           the XPBD scenes of models/xpbd/ for the page
#   libmech_wasm.a               the shared core every module links
#   rod_bench.wasm               not built by default: scripts/bench.sh asks for it
#
# <dist> is MECH_WASM_DIST (wasm/dist, what wasm/index.mjs loads).

set(MECH_HELPER_EXECUTABLE "" CACHE FILEPATH "the native build's mech-wasm-ref, which writes the manifests")
set(MECH_WASM_DIST ${CMAKE_SOURCE_DIR}/wasm/dist CACHE PATH "where the modules, texts and manifests go")
if(NOT MECHGEN_EXECUTABLE OR NOT MECH_HELPER_EXECUTABLE)
  message(FATAL_ERROR "the WebAssembly tree is configured by the native build (cmake --build build), "
    "which passes MECHGEN_EXECUTABLE and MECH_HELPER_EXECUTABLE")
endif()
set(dist ${MECH_WASM_DIST})
file(MAKE_DIRECTORY ${dist}/models)

set(MECH_WASM_INCLUDES ${MECH_CORE_INCLUDES} ${CMAKE_SOURCE_DIR}/wasm)
# 1 MiB of stack and 2 MiB to start: a module holds one model's state; memory
# grows on demand and index.mjs refreshes its views when it does.
# cmake/mech_now_ms.js declares the clock core/sim/clock.c imports (env.mech_now_ms, from wasm/module.mjs).
set(MECH_WASM_LINK -sSTANDALONE_WASM --no-entry -sALLOW_MEMORY_GROWTH=1 -sTOTAL_STACK=1MB -sINITIAL_MEMORY=2MB
  --js-library=${CMAKE_SOURCE_DIR}/cmake/mech_now_ms.js)
set(MECH_WASM_EXPORTS -sEXPORTED_FUNCTIONS=_malloc,_free)
# Added for the per-model modules' own sources (the generated dynamics,
# model.c; not the shared archive): wasm SIMD, so that
# mech_sincos2 (core/spatial/mech_sincos.h) evaluates its two angles with
# f64x2 operations as it does with SSE2 natively.  Measured (docs/wasm.md,
# "Benchmark"): up to 8% faster (bintree, satellite, threelink, fourlink),
# the rest within noise; -O3 and -mnontrapping-fptoint gain nothing.  Node >= 20 and current browsers run
# wasm SIMD; results are bit-identical (no FMA, no reassociation).  No SLP
# vectorizer: it turned the unrolled range checks of model.c's mw_forward into
# i64x2 code that V8 spills (and zeroes the spill slots of) on every call,
# 1.5 ns of threelink's forward(); the generated code's vectors are explicit.
set(MECH_WASM_GEN_FLAGS -msimd128 -fno-slp-vectorize)

# The shared core, compiled once into an archive every module links (the
# linker takes from it only what a module uses).
add_library(mech_wasm STATIC ${MECH_CORE_SOURCES} ${CMAKE_SOURCE_DIR}/wasm/bench.c ${CMAKE_SOURCE_DIR}/wasm/bench_sim.c
  ${CMAKE_SOURCE_DIR}/wasm/sim.c)
target_include_directories(mech_wasm PRIVATE ${MECH_WASM_INCLUDES})
# -O3 for the core (after the build type's -O2, so it wins): the XPBD scenes
# step 16 % (bowling) and 5 % (bristlebot) faster under Node than at -O2,
# bit-identical (docs/xpbd.md, "Timing"); -msimd128 on the whole core changed
# nothing.  It is needed by the rod's banded solve and assembly, written with
# vector extensions on pairs of rows (bit-identical): wasm SIMD makes each one
# f64x2 operation, where without it they are lowered to scalar code slower
# than plain loops (bowling, tiles alone: 1.24 ms/step before, 1.13 with,
# 1.38 without; with the assembly too, 0.95).
target_compile_options(mech_wasm PRIVATE -O3)
set_source_files_properties(${CMAKE_SOURCE_DIR}/core/xpbd/rod_banded.c ${CMAKE_SOURCE_DIR}/core/xpbd/rod_solve.c
  PROPERTIES COMPILE_OPTIONS -msimd128)

# A module: an executable <name>.wasm in <dist>, linked with the archive.
function(mech_wasm_executable target name)
  target_link_libraries(${target} PRIVATE mech_wasm)
  target_link_options(${target} PRIVATE ${MECH_WASM_LINK} ${MECH_WASM_EXPORTS})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name} SUFFIX .wasm RUNTIME_OUTPUT_DIRECTORY ${dist})
endfunction()

# The runtime module carries the code generator (wasm/jit.c): its function
# table is exported (as __indirect_function_table, which STANDALONE_WASM
# exports) and may grow, for the jitted modules' functions.
add_executable(runtime ${CMAKE_SOURCE_DIR}/wasm/runtime.c ${CMAKE_SOURCE_DIR}/wasm/jit.c
  ${CMAKE_SOURCE_DIR}/wasm/observe.c ${CMAKE_SOURCE_DIR}/wasm/xpbd.c ${CMAKE_SOURCE_DIR}/wasm/mesh_hull.c
  ${MECHGEN_SOURCES})
target_include_directories(runtime PRIVATE ${MECH_WASM_INCLUDES})
mech_wasm_executable(runtime runtime)
# wasm-opt inlines every function that has one caller, whatever its size, so
# since XPBD contact the whole contact stage (broad phase, narrow-phase
# dispatch, manifold solve, velocity pass) was merged with the solver into
# the engine's one step function, which V8 compiles into slower code: the
# triple pendulum and 3-RPS without any contact took 2.63 and 7.1 µs per
# substep instead of 2.20 and 5.9 under Node (native code was unaffected).
# Larger functions stay calls; limits of 100 to 3000 measure the same, and
# the contact scenes (bristlebot, bowling) no slower.
target_link_options(runtime PRIVATE -sALLOW_TABLE_GROWTH
  -sBINARYEN_EXTRA_PASSES=--one-caller-inline-max-function-size=1000)

# mech_wasm_module(<stem> <mech file> <generated symbol> <generated .c> <generated .h>):
# called by mech_add_model (cmake/mech_add_model.cmake) in this tree.
# wasm/model.c includes the generated source itself (MW_GEN_SOURCE); the
# text is embedded as bytes (<stem>_text.c) and copied beside the module;
# wasm/scene.c opens the model's terrain scenes on it (mw_open_scene).
function(mech_wasm_module stem mech symbol gen_c gen_h)
  if(stem STREQUAL runtime)
    message(FATAL_ERROR "${mech}: a model may not be named runtime (the runtime module's name)")
  endif()
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${mech})
  set(text ${CMAKE_BINARY_DIR}/src/${stem}_text.c)
  add_custom_command(
    OUTPUT ${text}
    COMMAND ${CMAKE_COMMAND} -DIN=${mech} -DOUT=${text} -DNAME=${rel} -P ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake
    DEPENDS ${mech} ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake
    VERBATIM)
  add_custom_command(
    OUTPUT ${dist}/models/${stem}.mech
    COMMAND ${CMAKE_COMMAND} -E copy ${mech} ${dist}/models/${stem}.mech
    DEPENDS ${mech}
    VERBATIM)
  set_source_files_properties(${gen_c} PROPERTIES HEADER_FILE_ONLY ON)
  add_executable(model_${stem} ${CMAKE_SOURCE_DIR}/wasm/model.c
    ${CMAKE_SOURCE_DIR}/wasm/observe.c ${CMAKE_SOURCE_DIR}/wasm/scene.c ${text} ${gen_c} ${gen_h} ${dist}/models/${stem}.mech)
  target_include_directories(model_${stem} PRIVATE ${MECH_WASM_INCLUDES} ${CMAKE_BINARY_DIR}/generated)
  target_compile_definitions(model_${stem} PRIVATE MW_GEN=${symbol} MW_GEN_SOURCE="${stem}.c")
  target_compile_options(model_${stem} PRIVATE ${MECH_WASM_GEN_FLAGS})
  target_link_options(model_${stem} PRIVATE ${MECH_WASM_GEN_FLAGS})
  mech_wasm_executable(model_${stem} ${stem})
endfunction()

# Every shipped Featherstone model, in the manifest's order: trees, loops, tracked vehicles.
foreach(model ${MECH_MODELS})
  get_filename_component(stem ${model} NAME_WLE)
  mech_add_model(${stem} ${model})
endforeach()

# The mesh files of each robot folder (cmake/sources.cmake), beside its text as models/<name>/<path>: the page
# fetches them when the model is opened (web/src/mesh-assets.js), so they add nothing to the first page's download.
foreach(folder ${MECH_ROBOT_FOLDERS})
  get_filename_component(stem ${folder} NAME)
  file(GLOB_RECURSE meshes CONFIGURE_DEPENDS RELATIVE ${folder} ${folder}/*.obj ${folder}/*.stl)
  foreach(mesh ${meshes})
    configure_file(${folder}/${mesh} ${dist}/models/${stem}/${mesh} COPYONLY)
  endforeach()
endforeach()

# The shipped models without a generated module (the tracked vehicles, while
# they are not in MECH_MODELS): their texts only, which the shim opens on the
# runtime engine.
set(text_models ${MECH_TRACK_MODELS})
list(REMOVE_ITEM text_models ${MECH_MODELS} "")
# Ships the text `file` as models/<stem>.mech without a module of its own (appended to text_copies), refusing a
# stem that is shipped already.
function(mech_ship_text file stem)
  get_property(stems GLOBAL PROPERTY MECH_MODEL_STEMS)
  if(stem IN_LIST stems OR stem STREQUAL runtime)
    message(FATAL_ERROR "${file}: a model named ${stem} is shipped already (or names the runtime module)")
  endif()
  set_property(GLOBAL APPEND PROPERTY MECH_MODEL_STEMS ${stem})
  add_custom_command(
    OUTPUT ${dist}/models/${stem}.mech
    COMMAND ${CMAKE_COMMAND} -E copy ${file} ${dist}/models/${stem}.mech
    DEPENDS ${file}
    VERBATIM)
  set(text_copies ${text_copies} ${dist}/models/${stem}.mech PARENT_SCOPE)
endfunction()

foreach(model ${text_models})
  get_filename_component(stem ${model} NAME_WLE)
  mech_ship_text(${model} ${stem})
endforeach()

# The terrain scenes (cmake/sources.cmake): texts only, each run on its base
# model's module; the manifest names that module (FILE@BASE to the helper).
set(scene_entries "")
foreach(scene base IN ZIP_LISTS MECH_TERRAIN_SCENES MECH_TERRAIN_BASES)
  get_filename_component(stem ${scene} NAME_WLE)
  get_property(stems GLOBAL PROPERTY MECH_MODEL_STEMS)
  if(NOT base IN_LIST stems)
    message(FATAL_ERROR "${scene}: its base '${base}' is not a shipped model with a generated module")
  endif()
  mech_ship_text(${scene} ${stem})
  list(APPEND scene_entries ${scene}@${base})
endforeach()
add_custom_target(model_texts ALL DEPENDS ${text_copies})

# The manifests, from the native parser: models.json (listModels(); every
# entry engine 'featherstone', backend 'generated' when the model has a
# module, else 'runtime') and scenes.json (the page's XPBD gallery: engine
# 'xpbd', with each scene's rod count), so neither the shim nor the page opens
# a model to learn about it.
foreach(kind models scenes)
  if(kind STREQUAL models)
    set(files ${MECH_MODELS} ${text_models} ${scene_entries})
    set(deps ${MECH_MODELS} ${text_models} ${MECH_TERRAIN_SCENES})
    set(verb info)
  else()
    set(files ${MECH_SCENES})
    set(deps ${MECH_SCENES})
    set(verb scenes)
  endif()
  add_custom_command(
    OUTPUT ${dist}/${kind}.json
    COMMAND ${CMAKE_COMMAND} -DOUT=${dist}/${kind}.json -P ${CMAKE_SOURCE_DIR}/cmake/capture.cmake --
      ${MECH_HELPER_EXECUTABLE} ${verb} ${files}
    DEPENDS ${MECH_HELPER_EXECUTABLE} ${deps} ${CMAKE_SOURCE_DIR}/cmake/capture.cmake
    COMMENT "Writing ${kind}.json"
    VERBATIM)
endforeach()
add_custom_target(manifests ALL DEPENDS ${dist}/models.json ${dist}/scenes.json)

# What an earlier configure put in <dist> for a model since removed.
get_property(stems GLOBAL PROPERTY MECH_MODEL_STEMS)
file(GLOB shipped ${dist}/*.wasm ${dist}/models/*.mech)
foreach(file ${shipped})
  get_filename_component(stem ${file} NAME_WLE)
  if(NOT stem IN_LIST stems AND NOT file STREQUAL ${dist}/runtime.wasm)
    file(REMOVE ${file})
  endif()
endforeach()

# The Table 2 rods timed in WebAssembly (bench/rod_wasm.mjs), into this tree's
# directory (build/wasm/rod_bench.wasm).
add_executable(rod_bench EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/bench/rod_wasm.c ${CMAKE_SOURCE_DIR}/bench/rod_scenes.c
  ${CMAKE_SOURCE_DIR}/tests/fixtures/rod_fixtures.c)
target_include_directories(rod_bench PRIVATE ${MECH_CORE_INCLUDES} ${CMAKE_SOURCE_DIR}/bench ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(rod_bench PRIVATE mech_wasm)
target_link_options(rod_bench PRIVATE ${MECH_WASM_LINK})
set_target_properties(rod_bench PROPERTIES SUFFIX .wasm)
