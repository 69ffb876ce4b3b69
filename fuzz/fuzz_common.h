/* fuzz_common.h — what the three libFuzzer targets share: picking a table
 * (game, variant, player count) for an input, driving a game at random,
 * and the check that turns a broken promise into a crash libFuzzer keeps.
 *
 * Every game-specific assumption of the fuzz targets lives here, behind
 * these few functions: the targets themselves see games only through
 * include/croupier/.  When the core gains cr_position_load (issue 7, item
 * 1), fuzz_game_for_position() becomes a call to it. */
#ifndef CROUPIER_FUZZ_COMMON_H
#define CROUPIER_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/game.h"
#include "croupier/rng.h"

/* The entry point every target defines (libFuzzer's, or fuzz_main.c's). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with "fuzz check failed: <what>" when cond is false: a broken
 * promise of the API is a finding, like a crash. */
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) fuzz_fail(__FILE__, __LINE__, __VA_ARGS__);                                   \
    } while (0)

#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 3, 4)))
#endif
void fuzz_fail(const char *file, int line, const char *fmt, ...);

/* Tables: every game of the registry x every variant x every player count
 * the variant allows, in registry order.  fuzz_table(i) is created on first
 * use and kept for the life of the process (first roller 0). */
int fuzz_table_count(void);
const cr_game *fuzz_table(int i);

/* A new game for a position given as text: the table its header names
 * ("game", "variant", "players", "first_roller", read the way
 * `croupier run` reads them), else the first table.  NULL only when no
 * table can be created.  Caller frees with cr_game_free. */
cr_game *fuzz_game_for_position(const uint8_t *data, size_t size);

/* Plays up to `steps` random actions from st (chance sampled with rng),
 * stopping at the end of the game.  Returns the number applied. */
int fuzz_random_walk(const cr_game *g, void *st, cr_rng *rng, int steps);

/* 1 if a is in the legal list (decision) or a chance outcome with
 * probability > 0 (chance); 0 otherwise and at the end of the game. */
int fuzz_is_legal(const cr_game *g, const void *st, cr_action a);

/* Bounds of the buffers the targets keep on the stack.  The core refuses
 * games whose lists exceed 4096 (game.c), so these hold every game. */
enum { FUZZ_MAX_LIST = 4096, FUZZ_MAX_EVENTS = 512, FUZZ_TEXT_CAP = 1 << 20 };

#endif
