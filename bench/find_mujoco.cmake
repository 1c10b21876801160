# Shared by tests/mujoco/mujoco.cmake and bench/CMakeLists.txt: find MuJoCo and make
# its imported target usable.  Debian's libmujoco-dev 2.2.2 lists
# /usr/include/libqhull_r/ among the target's include directories without
# installing it, which CMake rejects at generate time; drop such entries.
# Sets mujoco_FOUND.
find_package(mujoco QUIET)
if(mujoco_FOUND)
  get_target_property(mech_mujoco_inc mujoco::mujoco INTERFACE_INCLUDE_DIRECTORIES)
  set(mech_mujoco_existing)
  foreach(dir ${mech_mujoco_inc})
    if(EXISTS ${dir})
      list(APPEND mech_mujoco_existing ${dir})
    endif()
  endforeach()
  set_target_properties(mujoco::mujoco PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${mech_mujoco_existing}")
else()
  message(STATUS "MuJoCo not found (CMake package 'mujoco', e.g. Debian's libmujoco-dev): "
                 "MuJoCo cross-checks and the MuJoCo benchmark column are skipped")
endif()
