# `cpack -G DEB` in a build directory (scripts/package does it in Release):
#   poolscope_VERSION_ARCH.deb      the runner, the scenarios, the docs: what a
#                                   headless machine (a grader, a CI runner) needs
#   poolscope-gui_VERSION_ARCH.deb  the GUI and its desktop entry; depends on
#                                   the first (for the scenarios and the design
#                                   pages it quotes) and on X11/OpenGL
# Two packages, so a server is not made to install a display stack. Library
# dependencies are read from the binaries (dpkg-shlibdeps, from dpkg-dev).
set(CPACK_PACKAGE_NAME poolscope)
set(CPACK_PACKAGE_VENDOR "poolscope")
set(CPACK_PACKAGE_CONTACT "poolscope maintainers <dev@poolscope>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's synopsis is the first line of its component's description
# below. CPackDeb puts the project's summary in front of that unless the
# summary is CPack's default, so it is set to that default on purpose.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_INSTALL_DIRECTORY poolscope)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)  # the packages carry no debug info: 5x smaller

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runner)
if(TARGET poolscope-gui)
  list(APPEND CPACK_COMPONENTS_ALL gui)
endif()
set(CPACK_COMPONENT_GUI_DEPENDS runner)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # NAME_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # poolscope-gui depends on poolscope of the same version

set(CPACK_DEBIAN_RUNNER_PACKAGE_NAME poolscope)
set(CPACK_DEBIAN_RUNNER_PACKAGE_SECTION education)
set(CPACK_COMPONENT_RUNNER_DESCRIPTION "compare worker-pool designs under the same workload
poolscope runs faithful C++ versions of well-known worker-pool designs
(valyala/fasthttp's workerPool, panjf2000/ants, gammazero/workerpool, Java's
ThreadPoolExecutor) side by side under the same scripted workload, and reports
what each did: completed, refused and why, queued, blocked, latencies, how many
workers it started and how it let them go.

This package holds the headless runner `poolscope`, the shipped scenarios,
the course labs' scenarios, the JSON Schemas of its formats and the
documentation. The GUI is in poolscope-gui.")

set(CPACK_DEBIAN_GUI_PACKAGE_NAME poolscope-gui)
set(CPACK_DEBIAN_GUI_PACKAGE_SECTION education)
# The GUI writes µ, ×, → and ≥, which ImGui's built-in font lacks (window.cpp).
set(CPACK_DEBIAN_GUI_PACKAGE_DEPENDS "fonts-dejavu-core")
set(CPACK_COMPONENT_GUI_DESCRIPTION "watch worker-pool designs differ, live or replayed (GUI)
poolscope-gui plots worker-pool designs running side by side under one
scenario: workers, busy, idle, queued and blocked over one time axis, a lane
per worker, markers for spawns, reaps and refusals, and each design explained,
with parameters tuned live. It appears in the desktop menu under Education.")

include(CPack)
