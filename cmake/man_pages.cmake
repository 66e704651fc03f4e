# poolscope(1) and poolscope-gui(1), written from each program's --help by
# help2man (cmake/man_page.cmake) with the hand-written sections of
# docs/man/*.h2m, gzipped as Debian installs them. Built with `all` where
# help2man is installed (scripts/install-deps installs it); skipped with a
# message elsewhere. POOLSCOPE_MAN_PAGES lists what was set up, for install.
set(POOLSCOPE_MAN_PAGES "")
find_program(HELP2MAN help2man)
find_program(GZIP gzip)
if(NOT HELP2MAN OR NOT GZIP)
  message(STATUS "man pages: skipped (help2man or gzip missing; scripts/install-deps installs them)")
  return()
endif()

function(poolscope_man_page target description)  # ARGN: the subcommands
  set(page ${PROJECT_BINARY_DIR}/man/${target}.1.gz)
  set(include ${PROJECT_SOURCE_DIR}/docs/man/${target}.h2m)
  list(JOIN ARGN "," subcommands)  # one argument through the command line
  add_custom_command(
    OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${HELP2MAN} -DGZIP=${GZIP} -DPROGRAM=$<TARGET_FILE:${target}>
            "-DNAME=${description}" -DVERSION=${PROJECT_VERSION} -DINCLUDE=${include}
            "-DSUBCOMMANDS=${subcommands}" -DOUTPUT=${page} -P ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
    DEPENDS ${target} ${include} ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
    COMMENT "Writing the man page ${target}(1)" VERBATIM)
  add_custom_target(${target}_man ALL DEPENDS ${page})
  set(POOLSCOPE_MAN_PAGES ${POOLSCOPE_MAN_PAGES} ${target} PARENT_SCOPE)
endfunction()

poolscope_man_page(poolscope "compare worker-pool designs under the same scripted workload"
                   run explore sweep validate pools describe scenarios)
if(TARGET poolscope-gui)
  poolscope_man_page(poolscope-gui "watch worker-pool designs differ, live or replayed")
endif()
