# nlohmann-json, the header-only JSON library behind the manifest reader and
# writer (and tile-run's --json output), as the INTERFACE target
# TileNlohmannJson.
#
# Where from, in order:
#   -DTILE_NLOHMANN_JSON_INCLUDE_DIR=DIR   a folder that holds
#                                          nlohmann/json.hpp (the GPU machine
#                                          has no package: bench/gpu/
#                                          run-bench.sh passes bench/carry/
#                                          include when it exists)
#   find_package(nlohmann_json 3 CONFIG)   Debian's nlohmann-json3-dev
#
# The library is used without exceptions (JSON_NOEXCEPTION): the compiler
# links the manifest library and is built with -fno-exceptions, so the code
# checks every type before it converts and parses with allow_exceptions =
# false; anything that would still throw aborts instead.
include_guard(GLOBAL)

set(TILE_NLOHMANN_JSON_INCLUDE_DIR "" CACHE PATH
  "A folder holding nlohmann/json.hpp, used instead of find_package(nlohmann_json)")

add_library(TileNlohmannJson INTERFACE)
if(TILE_NLOHMANN_JSON_INCLUDE_DIR)
  if(NOT EXISTS "${TILE_NLOHMANN_JSON_INCLUDE_DIR}/nlohmann/json.hpp")
    message(FATAL_ERROR
      "TILE_NLOHMANN_JSON_INCLUDE_DIR is ${TILE_NLOHMANN_JSON_INCLUDE_DIR}, "
      "which holds no nlohmann/json.hpp")
  endif()
  message(STATUS "nlohmann-json: ${TILE_NLOHMANN_JSON_INCLUDE_DIR}")
  target_include_directories(TileNlohmannJson SYSTEM INTERFACE
    ${TILE_NLOHMANN_JSON_INCLUDE_DIR})
else()
  find_package(nlohmann_json 3 CONFIG QUIET)
  if(NOT nlohmann_json_FOUND)
    message(FATAL_ERROR
      "nlohmann-json not found (the manifest library needs it). Install "
      "Debian's nlohmann-json3-dev (scripts/install-deps.sh does), or pass "
      "-DTILE_NLOHMANN_JSON_INCLUDE_DIR=DIR with a folder DIR that holds "
      "nlohmann/json.hpp (a copy of /usr/include/nlohmann as "
      "DIR/nlohmann).")
  endif()
  message(STATUS "nlohmann-json: ${nlohmann_json_DIR} (${nlohmann_json_VERSION})")
  target_link_libraries(TileNlohmannJson INTERFACE nlohmann_json::nlohmann_json)
endif()
target_compile_definitions(TileNlohmannJson INTERFACE JSON_NOEXCEPTION)
