# poolscope_version: the library behind scenarios/engine/version.h, for the two
# programs' --version. Its one .cpp is generated at every build, and rewritten
# only when the version or the commit changed (cmake/version_file.cmake). Only
# the programs link it, so a new commit relinks them and nothing else.
set(version_cpp ${PROJECT_BINARY_DIR}/generated/version.cpp)
set(version_args -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${version_cpp}
                 -DPOOLSCOPE_VERSION=${PROJECT_VERSION} -DPOOLSCOPE_COMMIT=${POOLSCOPE_COMMIT})
# Once now, so the file exists for the first build's dependency scan.
execute_process(COMMAND ${CMAKE_COMMAND} ${version_args} -P ${CMAKE_CURRENT_LIST_DIR}/version_file.cmake)
# BYPRODUCTS: Ninja checks the file's time after the command (restat), so an
# unchanged file leaves its dependents alone.
add_custom_target(poolscope_version_file
                  COMMAND ${CMAKE_COMMAND} ${version_args} -P ${CMAKE_CURRENT_LIST_DIR}/version_file.cmake
                  BYPRODUCTS ${version_cpp} VERBATIM)
add_library(poolscope_version STATIC ${version_cpp})
add_dependencies(poolscope_version poolscope_version_file)
target_include_directories(poolscope_version PUBLIC ${PROJECT_SOURCE_DIR})
