/* heuristic.c — the `heuristic` bot: the game's own hand-written player
 * (cr_game_parts.heuristic, e.g. src/games/NAME/heuristic.c), fed with the
 * seat's observation.  A game without one cannot seat this bot.
 *
 * `heuristic:noise=X` (0 <= X <= 1) plays, at each decision, a uniformly
 * random legal action with probability X and the heuristic's otherwise: a
 * weaker player of the same style (the "casual" tier), drawn from the bot's
 * own generator, so as reproducible as the plain one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot_internal.h"
#include "croupier/alloc.h"

typedef struct heuristic_bot {
    uint32_t noise; /* the chance of a random move, out of 2^32 - 1 */
} heuristic_bot;

static int heuristic_create(cr_bot *b, const bot_spec *spec, char *err, size_t errcap)
{
    double noise = 0;
    for (int i = 0; i < spec->n_params; i++) {
        const char *k = spec->params[i].key, *v = spec->params[i].value;
        char *end;
        if (strcmp(k, "noise") == 0) {
            noise = strtod(v, &end);
            if (*end == '\0' && noise >= 0 && noise <= 1) continue;
        }
        if (err && errcap)
            snprintf(err, errcap, "heuristic: bad parameter %s=%s (noise=X, X from 0 to 1)", k, v);
        return 0;
    }
    if (!bot_heuristic_policy(b->game)) {
        if (err && errcap)
            snprintf(err, errcap, "heuristic: no heuristic player for game %s", b->game->def->name);
        return 0;
    }
    heuristic_bot *hb = cr_calloc(1, sizeof *hb);
    if (!hb) {
        if (err && errcap) snprintf(err, errcap, "heuristic: out of memory");
        return 0;
    }
    hb->noise = (uint32_t)(noise * 4294967295.0);
    b->data = hb;
    b->memory += sizeof *hb;
    return 1;
}

static cr_action heuristic_act(cr_bot *b, const void *obs, const cr_action *legal, int n)
{
    const heuristic_bot *hb = b->data;
    if (hb->noise && cr_rng_u32(&b->rng) < hb->noise)
        return bot_policy_random(b->game, obs, b->seat, legal, n, &b->rng);
    return bot_heuristic_policy(b->game)(b->game, obs, b->seat, legal, n, &b->rng);
}

static void heuristic_destroy(cr_bot *b)
{
    cr_free(b->data);
    b->data = NULL;
}

const bot_vtable bot_heuristic_vt = {
    .kind = "heuristic",
    .wants_obs = 1,
    .create = heuristic_create,
    .act = heuristic_act,
    .destroy = heuristic_destroy,
};
