/* ctx.h — a context (game.h, cr_ctx) for tests that call a game's
 * functions directly: scratch of g->scratch_size bytes, no event sink. */
#ifndef CROUPIER_TESTS_SUPPORT_CTX_H
#define CROUPIER_TESTS_SUPPORT_CTX_H

#include "croupier/game.h"

/* The calling test's context for g's game (made once, kept to the end of
 * the process; tests run on one thread). */
cr_ctx *test_ctx(const cr_game *g);

#endif
