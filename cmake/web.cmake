# The browser build: the designs, the scenario engine and the simulation,
# compiled by Debian's emscripten into one WebAssembly module with a small
# JavaScript API (scenarios/web/), and the GUI as a static web site
# (visualizer/web/). scripts/web configures it into build-web/;
# docs/web-engine.md explains what it shares with the desktop and what not.
#
# Exceptions are emscripten's JavaScript-based ones: the simulation's fibers
# need Asyncify, which cannot unwind wasm's native exceptions.
add_compile_options(-fexceptions)
add_link_options(-fexceptions)
# libc++ 13 lacks two C++23 pieces the code uses; pools/core/std23/ adds
# them, ahead of the standard headers it wraps (its README.md).
include_directories(BEFORE SYSTEM ${PROJECT_SOURCE_DIR}/pools/core/std23)

# Debian's header-only libraries: nlohmann/json, and for the GUI CLI11 and
# stb's PNG writer. Their folders alone join the include path, since all of
# /usr/include would shadow emscripten's own C library.
set(host_include ${PROJECT_BINARY_DIR}/host-include)
file(MAKE_DIRECTORY ${host_include})
foreach(folder nlohmann CLI stb)
  if(EXISTS /usr/include/${folder})
    file(CREATE_LINK /usr/include/${folder} ${host_include}/${folder} SYMBOLIC)
  endif()
endforeach()
add_library(nlohmann_json INTERFACE)
target_include_directories(nlohmann_json SYSTEM INTERFACE ${host_include})
add_library(nlohmann_json::nlohmann_json ALIAS nlohmann_json)
add_library(CLI11 INTERFACE)
target_include_directories(CLI11 SYSTEM INTERFACE ${host_include})
add_library(CLI11::CLI11 ALIAS CLI11)

# The designs register themselves from objects nothing names: linked whole
# (pools/CMakeLists.txt), which CMake knows how to ask of wasm-ld only when told.
set(CMAKE_LINK_LIBRARY_USING_WHOLE_ARCHIVE "LINKER:--whole-archive" "<LINK_ITEM>" "LINKER:--no-whole-archive")
set(CMAKE_LINK_LIBRARY_USING_WHOLE_ARCHIVE_SUPPORTED TRUE)

include(GNUInstallDirs)
include(cmake/version.cmake)
add_subdirectory(pools)      # every design, the core, the simulation (fibers: core/sim/*.web.*)
add_subdirectory(labs)       # the labs' reference pools, registered like any design
add_subdirectory(scenarios)  # the engine, and scenarios/web/: the module and its API
add_subdirectory(visualizer) # the GUI as a static site (visualizer/web/: build-web/site/)
add_subdirectory(tests/web)  # what scripts/web --test runs under Node.js
