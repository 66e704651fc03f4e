# `cmake --install build [--prefix P]`: where each file goes (docs/install.md).
#
#   P/bin/                        poolscope, poolscope-gui
#   P/share/poolscope/            what the programs read, in the source tree's
#                                 layout (scenarios/library, labs/scenarios,
#                                 docs/ with docs/schemas, assets/), found
#                                 from the programs' own location (data_dir.h)
#   P/share/doc/poolscope/        README.md; docs/ and assets/ link to the above
#   P/share/man/man1/             poolscope.1.gz, poolscope-gui.1.gz
#   P/share/applications/         poolscope-gui.desktop (the desktop menu's entry)
#   P/share/icons/hicolor/        the icon, scalable and 48/256 px
#
# Two components, which become two Debian packages (cmake/package.cmake):
# `runner` (the runner and all the data) and `gui` (the GUI and its desktop
# files), so a headless server need not pull in X11 and OpenGL.
set(data_dir ${CMAKE_INSTALL_DATADIR}/poolscope)

# --- runner: the program and everything both programs read ------------------------
install(TARGETS poolscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runner)
install(DIRECTORY scenarios/library DESTINATION ${data_dir}/scenarios COMPONENT runner FILES_MATCHING PATTERN "*.json")
install(DIRECTORY scenarios/challenges DESTINATION ${data_dir}/scenarios COMPONENT runner FILES_MATCHING PATTERN "*.json")
install(DIRECTORY labs/scenarios DESTINATION ${data_dir}/labs COMPONENT runner FILES_MATCHING PATTERN "*.json")
# docs/: the pages the GUI quotes and the schemas; docs/man/ only feeds help2man.
install(DIRECTORY docs DESTINATION ${data_dir} COMPONENT runner PATTERN man EXCLUDE)
install(DIRECTORY assets DESTINATION ${data_dir} COMPONENT runner PATTERN applications EXCLUDE)

# The human-readable documentation where Debian looks for it. The pages stay
# in share/poolscope (minimal images often drop share/doc, and the GUI must
# keep its pages); relative links keep README.md's links and images working.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runner)
file(RELATIVE_PATH doc_to_data ${CMAKE_INSTALL_FULL_DOCDIR} ${CMAKE_INSTALL_FULL_DATADIR}/poolscope)
install(CODE "
  set(doc \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DOCDIR}\")
  foreach(part docs assets)
    message(STATUS \"Linking: \${doc}/\${part} -> ${doc_to_data}/\${part}\")
    file(REMOVE_RECURSE \${doc}/\${part})
    file(CREATE_LINK ${doc_to_data}/\${part} \${doc}/\${part} SYMBOLIC)
  endforeach()" COMPONENT runner)

# --- gui: the program, its desktop entry and icon -----------------------------
if(TARGET poolscope-gui)
  install(TARGETS poolscope-gui RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT gui)
  install(FILES assets/applications/poolscope-gui.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications
          COMPONENT gui)
  set(icons ${CMAKE_INSTALL_DATADIR}/icons/hicolor)
  install(FILES assets/icons/poolscope.svg DESTINATION ${icons}/scalable/apps COMPONENT gui)
  foreach(size 48 256)
    install(FILES assets/icons/poolscope-${size}.png DESTINATION ${icons}/${size}x${size}/apps
            RENAME poolscope.png COMPONENT gui)
  endforeach()
endif()

# --- man pages (cmake/man_pages.cmake), each with its program's component --------
foreach(page ${POOLSCOPE_MAN_PAGES})
  set(component runner)
  if(page STREQUAL "poolscope-gui")
    set(component gui)
  endif()
  install(FILES ${PROJECT_BINARY_DIR}/man/${page}.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
endforeach()

# Everything the rules above install, and nothing else: what scripts/package
# builds before cpack (the tests and labs are not packaged).
add_custom_target(poolscope_install_parts)
add_dependencies(poolscope_install_parts poolscope)
if(TARGET poolscope-gui)
  add_dependencies(poolscope_install_parts poolscope-gui)
endif()
foreach(page ${POOLSCOPE_MAN_PAGES})
  add_dependencies(poolscope_install_parts ${page}_man)
endforeach()
