/* croupier/analysis.h — a coach: each decision one seat made in a recorded
 * game, evaluated by search from what that seat knew then (after gnubg's
 * analysis of a match).
 *
 * For every decision of the seat with two or more choices, an ISMCTS search
 * with an even root (every choice searched alike, `root=even`) and the win
 * as its reward estimates the seat's win chance after each choice; the
 * played choice is compared with the best.  The search reads the seat's
 * observation only (bot.h): it imagines the hidden cards and the dice to
 * come by sampling them from that observation, never from the record, so
 * the analysis of a decision is the same whatever was hidden from the seat
 * and whatever happened after it.  Deterministic: a given record, seat,
 * budget, thread count and seed give the same analysis.
 *
 * A loss is the best choice's win chance minus the played one's.  It marks
 * the move doubtful or a blunder when it passes the threshold and also
 * twice its standard error (an estimate's noise is never called a mistake),
 * and only such losses count toward the error rate.
 */
#ifndef CROUPIER_ANALYSIS_H
#define CROUPIER_ANALYSIS_H

#include <stdint.h>

#include "croupier/game.h"
#include "croupier/match.h"
#include "croupier/record.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct cr_analysis_opts {
    long iters;      /* search iterations per decision (0: 1000) */
    int threads;     /* search threads (0: 1) */
    uint64_t seed;   /* the analysis's own seed (0 is a seed like another) */
    double doubtful; /* loss in win chance that marks a doubtful move (0: 0.04) */
    double blunder;  /* ... a blunder (0: 0.10) */
} cr_analysis_opts;

typedef enum cr_move_mark { CR_MOVE_FINE = 0, CR_MOVE_DOUBTFUL, CR_MOVE_BLUNDER } cr_move_mark;

typedef struct cr_analysis_entry {
    int step;      /* the decision's action index in the record */
    int decision;  /* the seat's decision number: its actions before this one */
    int n_choices; /* choices searched (withdraw actions left out) */
    cr_action played, best;
    double played_win, best_win; /* estimated win chances, 0..1 */
    double loss, stderr_loss;    /* best_win - played_win, and its standard error */
    cr_move_mark mark;
} cr_analysis_entry;

typedef struct cr_analysis_summary {
    int decisions; /* decisions analysed (two or more choices) */
    int doubtful, blunders;
    double total_loss; /* sum of the losses past twice their standard error */
    double error_rate; /* total_loss per analysed decision, in thousandths of a win */
} cr_analysis_summary;

typedef struct cr_analyser cr_analyser;

/* An analyser of `seat`'s decisions in games of g (borrowed: g outlives
 * it).  NULL with the reason in err (a game without a sampler, no memory). */
cr_analyser *cr_analyser_new(const cr_game *g, int seat, const cr_analysis_opts *opts, char *err,
                             size_t errcap);
void cr_analyser_free(cr_analyser *a);

/* Evaluates the decision of the analyser's seat in st (a whole state whose
 * player to act is that seat; the search reads only observe(st, seat)),
 * where it played `played`.  `step` keys the search's seed.  Returns 1 and
 * fills out when the decision had two or more choices and `played` is one
 * of them, else 0 (nothing to judge: one choice, or a take-back). */
int cr_analyser_decision(cr_analyser *a, const void *st, cr_action played, int step,
                         cr_analysis_entry *out);

/* Called by cr_analyse_record after each action with the actions done and
 * the total (a progress bar).  Returning nonzero stops the analysis there
 * (a viewer's Esc, a server shutting down): cr_analyse_record then returns
 * CR_ERR_ILLEGAL with err "stopped" and no entries. */
typedef int (*cr_analysis_progress)(void *ctx, int done, int total);

/* Analyses every decision of `seat` in record r (loaded by cr_record_load
 * with game g).  *out (cr_alloc'ed, caller cr_free's) gets one entry per
 * analysed decision, in order; sum the totals.  progress may be NULL. */
cr_status cr_analyse_record(const cr_game *g, const cr_record *r, int seat,
                            const cr_analysis_opts *opts, cr_analysis_entry **out, int *n_out,
                            cr_analysis_summary *sum, cr_analysis_progress progress, void *ctx,
                            char *err, size_t errcap) CR_MUST_CHECK;

/* --- Hints while playing --------------------------------------------------
 * What `tier` (a tier's name, bot.h, or any bot spec; NULL: the game's
 * strongest tier) would play for `seat`, the seat to act in m, and why, in
 * one line of buf (snprintf semantics):
 *   "club would play: pass"
 *   "expert would play: visit BM1 (its search rates it 41%, pass 35%)"
 * (a search bot's rating of its choice and of the runner-up: the mean
 * reward of its rollouts, the win chance or a blend with the score margin
 * as its spec says, bot.h)
 * The bot reads only the seat's observation and is seeded from the record's
 * length, so the same position gives the same hint, and m is not changed.
 * Refused (CR_ERR_ILLEGAL, err says why) when seat is not to act, and when
 * two or more seats are human unless the table agreed to hints when it was
 * made (cr_match_allow_hints, match.h): with other humans at the table a
 * hint is otherwise a second opinion they did not agree to. */
cr_status cr_match_hint(const cr_match *m, int seat, const char *tier, char *buf, size_t cap,
                        char *err, size_t errcap) CR_MUST_CHECK;

/* cr_match_hint in two halves, for a caller that must not hold the match
 * while a bot thinks (the server: the thinking runs without the game's
 * lock, on a copy of the seat's observation and legal actions).
 * cr_hint_tier: the tier a hint names (tier, or the game's strongest when
 * tier is NULL or ""; NULL when the game names no tiers).  cr_hint_think:
 * what `tier` would play for `seat` from obs (observe(st, seat)) and the
 * legal list, seeded by `seed` (cr_match_hint uses the record's length);
 * CR_ERR_INVALID for a bad tier.  cr_hint_text: the line of cr_match_hint
 * for that choice, the actions worded for the seat in m (which must still
 * be at the position the hint was thought for). */
typedef struct cr_hint {
    cr_action action; /* what the tier would play */
    int rated;        /* its search rated it: value */
    double value;
    int has_other; /* ... and the runner-up (most visits among the others) */
    cr_action other;
    double other_value;
} cr_hint;
const char *cr_hint_tier(const cr_game *g, const char *tier);
cr_status cr_hint_think(const cr_game *g, int seat, const char *tier, uint64_t seed,
                        const void *obs, const cr_action *legal, int n, cr_hint *out, char *err,
                        size_t errcap) CR_MUST_CHECK;
void cr_hint_text(const cr_match *m, int seat, const char *tier, const cr_hint *h, char *buf,
                  size_t cap);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
