/* sim_internal.h — helpers shared by the lab's files.  The lab knows no
 * game: what it counts for one (its rule-level counters, end reasons,
 * per-seat labels) is the game's own profile, cr_game_parts.lab. */
#ifndef CROUPIER_SIM_INTERNAL_H
#define CROUPIER_SIM_INTERNAL_H

#include <stdint.h>

#include "croupier/game.h"
#include "croupier/parts.h"
#include "croupier/sim.h"

#if defined(__GNUC__)
#define SIM_HIDDEN __attribute__((visibility("hidden")))
#else
#define SIM_HIDDEN
#endif

/* splitmix64: derives independent seeds from (seed, index, seat). */
SIM_HIDDEN uint64_t sim_mix(uint64_t seed, uint64_t a, uint64_t b);
SIM_HIDDEN double sim_now(void);

#endif
