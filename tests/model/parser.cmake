# The .mech parser (tests/model/test_parser.c): models, round-trips, tests/bad/*.
# Runs twice: against mech_internal, and rebuilt from source under ASan + UBSan.
set(MECH_PARSER_ARGS ${CMAKE_SOURCE_DIR}/models ${CMAKE_CURRENT_LIST_DIR}/../bad)

add_executable(test_parser ${CMAKE_CURRENT_LIST_DIR}/test_parser.c)
target_link_libraries(test_parser PRIVATE mech_internal)
add_test(NAME parser COMMAND test_parser ${MECH_PARSER_ARGS})

if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang" AND NOT EMSCRIPTEN)
  file(GLOB MECH_PARSER_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/core/model/*.c)
  set(MECH_SANITIZE -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_executable(test_parser_asan ${CMAKE_CURRENT_LIST_DIR}/test_parser.c ${MECH_PARSER_SOURCES}
                                  ${CMAKE_SOURCE_DIR}/core/spatial/spatial.c)
  target_include_directories(test_parser_asan PRIVATE ${MECH_CORE_INCLUDES})
  target_compile_options(test_parser_asan PRIVATE ${MECH_SANITIZE} -g)
  target_link_options(test_parser_asan PRIVATE ${MECH_SANITIZE})
  target_link_libraries(test_parser_asan PRIVATE m)
  add_test(NAME parser_asan COMMAND test_parser_asan ${MECH_PARSER_ARGS})
endif()

# Track bands and the ground (tests/model/test_track_parse.c): belt lengths against
# closed forms, the design pose of models/tracks/*.mech (track_min, track_demo,
# m113) and of any vehicle kept out of the generated set
# (models/tracks/large/*.mech), warnings, terrain.
add_executable(test_track_parse ${CMAKE_CURRENT_LIST_DIR}/test_track_parse.c)
target_link_libraries(test_track_parse PRIVATE mech_internal m)
file(GLOB MECH_LARGE_TRACK_MODELS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/models/tracks/large/*.mech)
add_test(NAME track_parse COMMAND test_track_parse ${CMAKE_SOURCE_DIR}/models/tracks ${MECH_LARGE_TRACK_MODELS})
