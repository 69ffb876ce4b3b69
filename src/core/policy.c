/* policy.c — the uniform policy every game and bot may use: a random legal
 * action, skipping actions that only withdraw a half-built choice when
 * others exist (undoing half a composition over and over is no play). */
#include "croupier/parts.h"

cr_action cr_policy_random(const cr_game *g, const void *st, int seat, const cr_action *legal,
                           int n, cr_rng *rng)
{
    (void)seat;
    if (n == 1) return legal[0];
    if (!g->def->is_withdraw) return legal[cr_rng_below(rng, (uint32_t)n)];
    /* Draw among the non-withdraw actions without building a second list:
     * rejection is cheap since withdraw actions are at most one or two. */
    for (int tries = 0; tries < 16; tries++) {
        cr_action a = legal[cr_rng_below(rng, (uint32_t)n)];
        if (!g->def->is_withdraw(g, st, a)) return a;
    }
    int keep = 0;
    for (int i = 0; i < n; i++)
        if (!g->def->is_withdraw(g, st, legal[i])) keep++;
    if (keep == 0) return legal[cr_rng_below(rng, (uint32_t)n)];
    int k = (int)cr_rng_below(rng, (uint32_t)keep);
    for (int i = 0; i < n; i++)
        if (!g->def->is_withdraw(g, st, legal[i]) && k-- == 0) return legal[i];
    return legal[0];
}
