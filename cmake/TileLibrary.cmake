# add_tile_library(<name> <sources...> [DEPENDS <targets...>] [LINK_LIBS <libs...>])
#
# A static, position-independent library of the project, linked to the shared
# libMLIR.so (never to MLIR's static archives: two copies of MLIR's global
# registries would break the pass plugin), installed and exported as Tile::<name>.
function(add_tile_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${TILE_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${TILE_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
  install(TARGETS ${name} EXPORT TileTargets ARCHIVE DESTINATION lib)
endfunction()
