# Writes the version .cpp (cmake/version.cpp.in) with the project's version and
# the commit of SOURCE_DIR. Run at every build (cmake -P, from cmake/version.cmake);
# configure_file rewrites OUTPUT only when its text changes, so an unchanged
# commit rebuilds nothing.
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -DPOOLSCOPE_VERSION=... [-DPOOLSCOPE_COMMIT=...] -P version_file.cmake
# POOLSCOPE_COMMIT, when given, wins (a distribution building from a tarball
# can name its commit); else git is asked; else "unknown".
if(NOT POOLSCOPE_COMMIT)
  set(POOLSCOPE_COMMIT unknown)
  find_program(GIT git)
  if(GIT)
    # Only the source tree's own repository counts: a tarball unpacked
    # inside some other git checkout is not that checkout's commit.
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel
                    OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0)
      file(REAL_PATH "${top}" top)
      file(REAL_PATH "${SOURCE_DIR}" src)
    endif()
    if(rc EQUAL 0 AND top STREQUAL src)
      execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                      OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
      if(rc EQUAL 0 AND hash)
        set(POOLSCOPE_COMMIT ${hash})
        # Tracked files edited since that commit: say so, the binary is not that commit.
        # --no-optional-locks: a build must not take the index lock from a
        # git command the developer is running.
        execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} --no-optional-locks status --porcelain --untracked-files=no
                        OUTPUT_VARIABLE changes RESULT_VARIABLE rc ERROR_QUIET)
        if(rc EQUAL 0 AND changes)
          string(APPEND POOLSCOPE_COMMIT "+dirty")
        endif()
      endif()
    endif()
  endif()
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.cpp.in ${OUTPUT} @ONLY)
