# capture.cmake — run a command and keep its standard output in a file,
# replaced only when the command succeeds (a failed run leaves no partial
# output for the next build to take as current).
#   cmake -DOUT=<file> -P capture.cmake -- <command> [args...]
set(cmd "")
set(after_dashes OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_dashes)
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after_dashes ON)
  endif()
endforeach()
execute_process(COMMAND ${cmd} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${cmd}: ${status}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
