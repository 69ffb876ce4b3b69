/* ctx.c — see ctx.h. */
#include "support/ctx.h"

#include <stdlib.h>

cr_ctx *test_ctx(const cr_game *g)
{
    static cr_ctx *cx;
    static size_t have;
    if (cx == NULL || have < g->scratch_size) {
        cr_ctx_free(cx);
        cx = cr_ctx_new(g);
        if (cx == NULL) abort();
        have = g->scratch_size;
    }
    cx->ev = NULL;
    return cx;
}
