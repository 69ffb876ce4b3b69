# embed_text.cmake — turns a text file into a C string, at build time.
#
#   cmake -DINPUT=docs/play-GAME.md -DOUTPUT=build/generated/guide_GAME.c
#         -DSYMBOL=cr_guide_GAME -P cmake/embed_text.cmake
#
# The bytes are written as hex (0x23,0x20,...) and end with a NUL, so no
# character of the file can break out of the literal: the text is data,
# never C.  CMakeLists.txt runs this for every docs/play-GAME.md (a game's
# player's guide, cr_game_parts.guide).
if(NOT INPUT OR NOT OUTPUT OR NOT SYMBOL)
  message(FATAL_ERROR "embed_text.cmake needs -DINPUT, -DOUTPUT and -DSYMBOL")
endif()
file(READ "${INPUT}" CR_EMBED_HEX HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," CR_EMBED_BYTES "${CR_EMBED_HEX}")
# 16 bytes a line keeps the file readable in a diff
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " CR_EMBED_BYTES "${CR_EMBED_BYTES}")
set(CR_EMBED_SYMBOL "${SYMBOL}")
get_filename_component(CR_EMBED_SOURCE "${INPUT}" NAME)
configure_file("${CMAKE_CURRENT_LIST_DIR}/embed_text.c.in" "${OUTPUT}" @ONLY)
