/* bot_internal.h — what the bot implementations share: the bot object, the
 * function table every kind fills, spec parameter parsing, and the rollout
 * policies that search can borrow from other bots.
 *
 * Invariant: a bot's act() sees only the observation and the legal list.
 * Rollout policies (cr_policy_fn) are different: they run inside a search on
 * a state the search itself imagined (a determinization), so reading that
 * state is fine; the heuristic policy nevertheless reads only what its seat
 * could know there (its own Hand and King, public zones, counts), so it
 * behaves the same on an observation and on a full state.
 */
#ifndef CROUPIER_BOT_INTERNAL_H
#define CROUPIER_BOT_INTERNAL_H

#include <stddef.h>

#include "croupier/bot.h"
#include "croupier/game.h"
#include "croupier/parts.h"
#include "croupier/rng.h"

#if defined(__GNUC__)
#define BOT_HIDDEN __attribute__((visibility("hidden")))
#else
#define BOT_HIDDEN
#endif

enum { BOT_SPEC_MAX = 128, BOT_MAX_PARAMS = 8 };

/* One parsed "key=value" of a spec. */
typedef struct bot_param {
    char key[24];
    char value[48];
} bot_param;

typedef struct bot_spec {
    char kind[24];
    bot_param params[BOT_MAX_PARAMS];
    int n_params;
} bot_spec;

/* Parses "kind:k=v,k=v"; 0 with err filled on malformed text. */
BOT_HIDDEN int bot_spec_parse(const char *text, bot_spec *out, char *err, size_t errcap);

typedef struct bot_vtable {
    const char *kind;
    int wants_obs;
    /* Fills b->data; returns 0 with err filled on failure. */
    int (*create)(cr_bot *b, const bot_spec *spec, char *err, size_t errcap);
    cr_action (*act)(cr_bot *b, const void *obs, const cr_action *legal, int n_legal);
    void (*destroy)(cr_bot *b); /* frees b->data; may be NULL */
    /* cr_bot_last_choices; NULL for a bot that does not search */
    int (*choices)(const cr_bot *b, cr_bot_choice *out, int cap);
} bot_vtable;

struct cr_bot {
    const bot_vtable *vt;
    const cr_game *game; /* borrowed */
    int seat;
    cr_rng rng;
    void *data; /* owned by the kind: destroy() frees it */
    cr_bot_stats stats;
    char spec[BOT_SPEC_MAX];
    double time_cap_ms; /* cr_bot_set_time_cap; 0: none */
    size_t memory;      /* cr_bot_memory: sizeof *b, plus what create() adds */
};

BOT_HIDDEN extern const bot_vtable bot_random_vt;
BOT_HIDDEN extern const bot_vtable bot_heuristic_vt;
BOT_HIDDEN extern const bot_vtable bot_ismcts_vt;

/* Uniform over legal, skipping withdraw actions when others exist. */
BOT_HIDDEN cr_action bot_policy_random(const cr_game *g, const void *st, int seat,
                                       const cr_action *legal, int n, cr_rng *rng);
/* The game's own player (cr_game_parts.heuristic), or NULL if it has none. */
static inline cr_policy_fn bot_heuristic_policy(const cr_game *g) { return cr_parts(g)->heuristic; }

/* Seeds a bot generator: one stream per seat so that seats sharing a seed
 * still draw independently. */
BOT_HIDDEN void bot_seed_rng(cr_rng *r, uint64_t seed, int seat);

BOT_HIDDEN double bot_now_seconds(void);

#endif
