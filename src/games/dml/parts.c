/* parts.c — what DML plugs into the game-agnostic layers (croupier/parts.h):
 * its hand-written player, its lab profile, its invariants. */
#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

const cr_game_parts dml_parts = {
    .heuristic = dml_heuristic,
    .lab = &dml_lab,
};
