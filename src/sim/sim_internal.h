/* sim_internal.h — what the lab knows about particular games: a profile per
 * game naming its rule-level counters (counted from the omniscient event
 * stream), its end reasons, and a per-seat label read from the final state
 * (DML: the suit of the seat's Merchant King).  The rest of the lab only
 * uses the game interface. */
#ifndef CROUPIER_SIM_INTERNAL_H
#define CROUPIER_SIM_INTERNAL_H

#include <stdint.h>

#include "croupier/game.h"
#include "croupier/sim.h"

#if defined(__GNUC__)
#define SIM_HIDDEN __attribute__((visibility("hidden")))
#else
#define SIM_HIDDEN
#endif

typedef struct sim_profile {
    const char *game;
    int n_counters; /* <= CR_SIM_MAX_COUNTERS */
    const char *const *counter_names;
    /* Adds one event to counters[n_counters]. */
    void (*count)(const cr_event *e, uint64_t *counters);
    /* Rounds played, read from a terminal state. */
    uint32_t (*rounds)(const cr_game *g, const void *st);
    int n_ends; /* <= CR_SIM_MAX_ENDS - 1: the lab adds "aborted" */
    const char *const *end_names;
    /* Index of the end reason of a terminal state. */
    int (*end)(const cr_game *g, const void *st);
    const char *label_title;
    int n_labels; /* <= CR_SIM_MAX_LABELS */
    const char *const *label_names;
    /* The label of a seat in a terminal state, or -1. */
    int (*label)(const cr_game *g, const void *st, int seat);
} sim_profile;

SIM_HIDDEN extern const sim_profile sim_profile_dml;
/* The game's profile, or NULL (the lab then reports no counters). */
SIM_HIDDEN const sim_profile *sim_profile_find(const char *game);

/* splitmix64: derives independent seeds from (seed, index, seat). */
SIM_HIDDEN uint64_t sim_mix(uint64_t seed, uint64_t a, uint64_t b);
SIM_HIDDEN double sim_now(void);

#endif
