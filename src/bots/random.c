/* random.c — the baseline bot: uniform over the whole legal list.
 *
 * The `random` bot includes withdraw actions (is_withdraw) in its draw, so
 * it exercises every legal path, as the conformance suite does; it is the
 * "1 in n" reference player of the lab.  The rollout policy of the search,
 * bot_policy_random, skips withdraw actions when others exist: undoing half
 * a choice only lengthens a simulated game. */
#include "bots/bot_internal.h"

static cr_action random_act(cr_bot *b, const void *obs, const cr_action *legal, int n)
{
    (void)obs;
    return legal[cr_rng_below(&b->rng, (uint32_t)n)];
}

cr_action bot_policy_random(const cr_game *g, const void *st, int seat, const cr_action *legal,
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

const bot_vtable bot_random_vt = {
    .kind = "random",
    .wants_obs = 0,
    .create = NULL,
    .act = random_act,
    .destroy = NULL,
};
