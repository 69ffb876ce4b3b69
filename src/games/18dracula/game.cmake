# game.cmake — 18Dracula's own build rules, included by the top
# CMakeLists.txt (which includes every src/games/*/game.cmake, after the
# library, the program and the tests are defined).
#
# The bundled board, src/games/18dracula/boards/medieval.board, becomes a C
# array in the library (d18_board_builtin(), docs/18dracula-board.md);
# d18-board-svg draws any board file as SVG (docs/18dracula-board.svg is its
# output for the bundled one); and the router's test counts raw allocations
# around d18_route_solve, as the conformance suite does on the hot path.
set(D18_DIR ${CMAKE_CURRENT_LIST_DIR})
set(D18_BOARD_FILE ${D18_DIR}/boards/medieval.board)
if(EXISTS ${D18_BOARD_FILE})
  set(D18_BOARD_C ${CMAKE_BINARY_DIR}/gen/d18_builtin_board.c)
  add_custom_command(OUTPUT ${D18_BOARD_C}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/gen
    COMMAND ${CMAKE_COMMAND} -DIN=${D18_BOARD_FILE} -DOUT=${D18_BOARD_C} -DSYM=d18_builtin_board
            -P ${D18_DIR}/boards/embed.cmake
    DEPENDS ${D18_BOARD_FILE} ${D18_DIR}/boards/embed.cmake
    COMMENT "Embedding the bundled 18Dracula board")
  target_sources(croupier-objects PRIVATE ${D18_BOARD_C})
endif()
if(EXISTS ${D18_DIR}/tools/board_svg.c)
  add_executable(d18-board-svg ${D18_DIR}/tools/board_svg.c)
  target_include_directories(d18-board-svg PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(d18-board-svg PRIVATE croupier)
  set_target_properties(d18-board-svg PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  # The picture in the docs is the tool's output for the bundled board.
  add_test(NAME games/18dracula/board_svg_current
           COMMAND d18-board-svg --check ${CMAKE_SOURCE_DIR}/docs/18dracula-board.svg)
endif()
if(TARGET games_18dracula_test_router)
  target_link_options(games_18dracula_test_router PRIVATE
                      -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc)
endif()
