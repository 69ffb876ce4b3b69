/* parts.c — what DML plugs into the game-agnostic layers (croupier/parts.h).
 * This branch fills in the clients' help (display.c); the other members are
 * filled by their own modules. */
#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

const cr_game_parts dml_parts = {
    .help = dml_help,
};
