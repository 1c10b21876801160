# mech_add_model.cmake — mech_add_model(<stem> <mech file>): one shipped model
# in whichever tree includes it.
#
# Both trees run the code generator on the file (generated/<stem>.c and .h in
# the tree's build directory).  Natively the generated source joins the
# global property MECH_GENERATED_SOURCES and the registry (MECH_REGISTRY_*),
# from which core/codegen/CMakeLists.txt builds mech_generated.  Under
# Emscripten the model becomes its own module, <stem>.wasm
# (cmake/wasm_modules.cmake, mech_wasm_module).  Call it from the directory
# that makes the consuming target: a custom command's outputs belong to the
# directory that declares them.

# A cross build cannot run the mechgen it compiles: the WebAssembly tree is
# handed the native build's.
set(MECHGEN_EXECUTABLE "" CACHE FILEPATH "host mechgen to run instead of the one built here")

function(mech_add_model stem mech)
  get_property(stems GLOBAL PROPERTY MECH_MODEL_STEMS)
  get_property(files GLOBAL PROPERTY MECH_MODEL_FILES)
  list(FIND stems ${stem} seen)
  if(NOT seen EQUAL -1)
    list(GET files ${seen} other)
    message(FATAL_ERROR "two models named ${stem}: ${other} and ${mech}")
  endif()
  set_property(GLOBAL APPEND PROPERTY MECH_MODEL_STEMS ${stem})
  set_property(GLOBAL APPEND PROPERTY MECH_MODEL_FILES ${mech})

  if(MECHGEN_EXECUTABLE)
    set(mechgen ${MECHGEN_EXECUTABLE})
  elseif(TARGET mechgen)
    set(mechgen mechgen)
  else()
    message(FATAL_ERROR "mech_add_model: no mechgen (set MECHGEN_EXECUTABLE to a host build's)")
  endif()
  set(out ${CMAKE_BINARY_DIR}/generated)
  file(MAKE_DIRECTORY ${out})
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${mech})
  string(MAKE_C_IDENTIFIER "mechgen_${stem}" symbol)    # matches c_identifier() in core/codegen/main.c
  add_custom_command(
    OUTPUT ${out}/${stem}.c ${out}/${stem}.h
    COMMAND ${mechgen} ${rel} ${out}/${stem}.c ${out}/${stem}.h
    DEPENDS ${mechgen} ${mech}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    COMMENT "Generating dynamics for ${rel}"
    VERBATIM)

  if(EMSCRIPTEN)
    mech_wasm_module(${stem} ${mech} ${symbol} ${out}/${stem}.c ${out}/${stem}.h)
  else()
    set_property(GLOBAL APPEND PROPERTY MECH_GENERATED_SOURCES ${out}/${stem}.c)
    set_property(GLOBAL APPEND_STRING PROPERTY MECH_REGISTRY_INCLUDES "#include \"${stem}.h\"\n")
    set_property(GLOBAL APPEND_STRING PROPERTY MECH_REGISTRY_ENTRIES "    &${symbol},\n")
  endif()
endfunction()
