/* heuristic.c — the `heuristic` bot: the game's own hand-written player
 * (cr_game_parts.heuristic, e.g. src/games/NAME/heuristic.c), fed with the
 * seat's observation.  A game without one cannot seat this bot. */
#include <stdio.h>

#include "bots/bot_internal.h"

static int heuristic_create(cr_bot *b, const bot_spec *spec, char *err, size_t errcap)
{
    if (spec->n_params > 0) {
        if (err && errcap) snprintf(err, errcap, "heuristic: takes no parameters");
        return 0;
    }
    if (!bot_heuristic_policy(b->game)) {
        if (err && errcap)
            snprintf(err, errcap, "heuristic: no heuristic player for game %s", b->game->def->name);
        return 0;
    }
    return 1;
}

static cr_action heuristic_act(cr_bot *b, const void *obs, const cr_action *legal, int n)
{
    return bot_heuristic_policy(b->game)(b->game, obs, b->seat, legal, n, &b->rng);
}

const bot_vtable bot_heuristic_vt = {
    .kind = "heuristic",
    .wants_obs = 1,
    .create = heuristic_create,
    .act = heuristic_act,
    .destroy = NULL,
};
