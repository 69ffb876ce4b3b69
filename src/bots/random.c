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
    return cr_policy_random(g, st, seat, legal, n, rng);
}

const bot_vtable bot_random_vt = {
    .kind = "random",
    .wants_obs = 0,
    .create = NULL,
    .act = random_act,
    .destroy = NULL,
};
