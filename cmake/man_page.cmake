# Writes one gzipped man page from a program's --help with help2man (cmake -P,
# from cmake/man_pages.cmake):
#   -DHELP2MAN= -DGZIP= -DPROGRAM=/path/to/prog -DNAME="one-line description"
#   -DVERSION= -DINCLUDE=docs/man/prog.h2m -DSUBCOMMANDS=run,validate -DOUTPUT=prog.1.gz
# Each subcommand's own --help goes in a COMMANDS section, preformatted,
# after INCLUDE's hand-written sections.
get_filename_component(dir ${PROGRAM} DIRECTORY)
get_filename_component(prog ${PROGRAM} NAME)
# Run by name, from PATH, so the usage lines say "poolscope", not the build path.
set(run_by_name ${CMAKE_COMMAND} -E env "PATH=${dir}:$ENV{PATH}")

file(READ ${INCLUDE} include_text)
string(REPLACE "," ";" SUBCOMMANDS "${SUBCOMMANDS}")
if(SUBCOMMANDS)
  string(APPEND include_text "\n[COMMANDS]\n")
  foreach(sub ${SUBCOMMANDS})
    execute_process(COMMAND ${run_by_name} ${prog} ${sub} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "man page: '${prog} ${sub} --help' failed (exit ${rc}); expected its help text")
    endif()
    string(REGEX REPLACE "\nExit codes:[^\n]*\n" "\n" help "${help}")  # said once, on the main page
    string(REPLACE "\\" "\\e" help "${help}")                    # roff's escape character
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}") # a leading . or ' is a roff request
    string(APPEND include_text ".SS \"${prog} ${sub}\"\n.nf\n${help}.fi\n")
  endforeach()
endif()
get_filename_component(page ${OUTPUT} NAME_WLE)  # prog.1
set(include_file ${OUTPUT}.h2m)
set(page_file ${OUTPUT}.tmp)
file(WRITE ${include_file} "${include_text}")
execute_process(COMMAND ${run_by_name} ${HELP2MAN} --no-info --name=${NAME} --version-string=${VERSION}
                        --include=${include_file} --output=${page_file} ${prog}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man page: help2man failed on ${PROGRAM} (exit ${rc}); expected it to read its --help")
endif()
# -n: no name or time stamp in the archive, so the same page gives the same file.
execute_process(COMMAND ${GZIP} -9nc ${page_file} OUTPUT_FILE ${OUTPUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man page: gzip failed on ${page_file} (exit ${rc})")
endif()
file(REMOVE ${include_file} ${page_file})
