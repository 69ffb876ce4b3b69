/* sim_internal.h — helpers shared by the lab's files.  The lab knows no
 * game: what it counts for one (its rule-level counters, end reasons,
 * per-seat labels) is the game's own profile, cr_game_parts.lab. */
#ifndef CROUPIER_SIM_INTERNAL_H
#define CROUPIER_SIM_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "croupier/game.h"
#include "croupier/parts.h"
#include "croupier/sim.h"

#if defined(__GNUC__)
#define SIM_HIDDEN __attribute__((visibility("hidden")))
#else
#define SIM_HIDDEN
#endif

/* Every summary figure is a function of integer sums over the games (wins,
 * games, scores, ends, achievements) and of the histograms of rounds and
 * actions (the percentiles are read from them by nearest rank): a tally.
 * Integer sums do not depend on the order of the games, so a tally kept
 * per worker and added at the end gives exactly the figures of one folded
 * from per_game[] in index order, without keeping a result per game (the
 * lab's streaming mode: memory does not grow with the run).  The score
 * sums were doubles added in index order: integer sums far below 2^53 give
 * the same doubles. */
typedef struct cr_sim_tally {
    long seat_wins[CR_MAX_PLAYERS], seat_games[CR_MAX_PLAYERS];
    int64_t seat_score[CR_MAX_PLAYERS];
    long label_wins[CR_SIM_MAX_LABELS], label_games[CR_SIM_MAX_LABELS];
    int64_t label_score[CR_SIM_MAX_LABELS];
    long no_winner, ends[CR_SIM_MAX_ENDS];
    long ach_seat[CR_SIM_MAX_ACHIEVEMENTS][CR_MAX_PLAYERS];
    long ach_total[CR_SIM_MAX_ACHIEVEMENTS], ach_games[CR_SIM_MAX_ACHIEVEMENTS];
    long games;
    /* hist[0]: rounds, hist[1]: actions; hist[k][v] games of length v, for
     * v < cap[k] (grown by doubling past the longest game seen: a few KB) */
    long *hist[2];
    uint32_t cap[2];
} sim_tally; /* cr_sim_result.tally */

/* splitmix64: derives independent seeds from (seed, index, seat). */
SIM_HIDDEN uint64_t sim_mix(uint64_t seed, uint64_t a, uint64_t b);
SIM_HIDDEN double sim_now(void);

/* cr_sim_ratings_read, on files already open when files is not NULL (read
 * from where they stand, not closed; names[i] is files[i]'s name in the
 * messages), else on the files names[] (opened one at a time).  The fuzz
 * target fuzz_rating_csv reads memory through it. */
SIM_HIDDEN cr_status sim_ratings_read_streams(const cr_rate_config *cfg, FILE *const *files,
                                              const char *const *names, int n_paths,
                                              cr_rate_result *out, char *err, size_t errcap);

#endif
