# web.cmake — the playground as a static site in dist/ (scripts/build-web.sh,
# Vite), rebuilt when the page, the shim, the bundled XPBD scenes, the
# dependencies or the WebAssembly tree's outputs change.  Included after
# cmake/wasm_host.cmake, whose tree writes MECH_WASM_DIST.
file(GLOB web_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/web/src/*)
file(GLOB shim_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/wasm/*.mjs)
set(wasm_outputs ${MECH_WASM_DIST}/runtime.wasm ${MECH_WASM_DIST}/models.json ${MECH_WASM_DIST}/scenes.json)
foreach(model ${MECH_MODELS})
  get_filename_component(stem ${model} NAME_WLE)
  list(APPEND wasm_outputs ${MECH_WASM_DIST}/${stem}.wasm ${MECH_WASM_DIST}/models/${stem}.mech)
endforeach()
add_custom_command(
  OUTPUT ${CMAKE_SOURCE_DIR}/dist/index.html
  COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/build-web.sh
  DEPENDS ${CMAKE_SOURCE_DIR}/scripts/build-web.sh ${CMAKE_SOURCE_DIR}/web/index.html
    ${CMAKE_SOURCE_DIR}/web/vite.config.js ${web_sources} ${shim_sources} ${MECH_SCENES}
    ${CMAKE_SOURCE_DIR}/package-lock.json ${wasm_outputs}
  COMMENT "Building the playground into dist/"
  VERBATIM)
add_custom_target(web ALL DEPENDS ${CMAKE_SOURCE_DIR}/dist/index.html)
# The outputs above are the WebAssembly tree's: build it first.
add_dependencies(web wasm)
