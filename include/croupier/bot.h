/* croupier/bot.h — players made of code.
 *
 * A bot chooses an action for one seat from what that seat may know: the
 * seat's observation blob (g->observe(), g->obs_size bytes) and the legal
 * actions.  It is never handed the true state.  A bot that must imagine the
 * hidden cards asks the game for a full state consistent with the
 * observation (g->def->sample(), "determinization"), so the same bot code
 * works for every game that implements the interface.
 *
 * A bot is a const function table plus per-instance data (Pachi engine.h).
 * Every bot owns a cr_rng seeded at creation: the same seeds give the same
 * choices, hence the same games.  (Time-limited search, `ismcts:ms=...`, is
 * the exception: how many iterations fit into the time varies from run to
 * run.)
 *
 * Specs (the text a user types; parameters after ':' separated by ','):
 *   random                        uniform over the legal list (withdraw
 *                                 actions included: it is the baseline)
 *   heuristic                     the game's hand-written player (its parts)
 *   ismcts:iters=2000             information-set MCTS, 2000 iterations
 *   ismcts:ms=500,threads=2,rollout=heuristic|random,c=0.7,nodes=N
 *   ismcts:iters=2000,root=even   every root action searched alike (analysis)
 *   ismcts:iters=2000,stop=full   no early stop (by default a one-thread
 *                                 counted search stops once the iterations
 *                                 left could not change its move)
 * See docs/bots.md.
 */
#ifndef CROUPIER_BOT_H
#define CROUPIER_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "croupier/game.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports what this header declares (CMakeLists.txt builds it
 * with every other symbol hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct cr_bot cr_bot;

/* Creates the bot described by `spec` to play `seat` of games of `g`.
 * The bot keeps a borrowed pointer to g: g must outlive it.  NULL with a
 * one-line reason in err (unknown bot, bad parameter, a bot that does not
 * support this game, out of memory).  Caller owns the result: cr_bot_free.
 * Allocates all the memory the bot will use (ISMCTS: its tree arenas). */
cr_bot *cr_bot_new(const cr_game *g, const char *spec, int seat, uint64_t seed, char *err,
                   size_t errcap);
void cr_bot_free(cr_bot *b); /* NULL is fine */

/* Chooses one of legal[0..n_legal) (n_legal >= 1) for the bot's seat.
 * obs is the seat's observation (g->obs_size bytes, borrowed for the call);
 * it may be NULL only for bots for which cr_bot_wants_obs() returns 0.
 * Always returns a member of legal. */
cr_action cr_bot_act(cr_bot *b, const void *obs, const cr_action *legal, int n_legal);

/* 0 when the bot never reads the observation (random): callers on a hot
 * path may then skip observe() and pass NULL. */
int cr_bot_wants_obs(const cr_bot *b);

/* Restarts the bot's generator as cr_bot_new(..., seed) would: a bot can be
 * reused for the next game without reallocating. */
void cr_bot_reseed(cr_bot *b, uint64_t seed);

int cr_bot_seat(const cr_bot *b);
const char *cr_bot_spec(const cr_bot *b); /* the spec it was made from */
const char *cr_bot_kind(const cr_bot *b); /* "random", "heuristic", "ismcts" */

/* Checks a spec without a game (parses the name and the parameters). */
int cr_bot_spec_valid(const char *spec, char *err, size_t errcap);

/* Tiers.  Each game names its levels of play, weakest first (three to five
 * of beginner, casual, club, expert, master: cr_game_parts.tiers), each a
 * bot spec of that game with a rating measured in the lab (docs/bots.md).
 * A tier's name is taken wherever a spec is: cr_bot_new resolves it for its
 * game, and cr_bot_spec_valid accepts the name of any game's tier.  The spec
 * tier `name` stands for in games of def, or NULL when def has no such tier. */
const char *cr_bot_tier_spec(const cr_game_def *def, const char *name);

/* Statistics of the last cr_bot_act (ISMCTS; zeros for other bots, and for
 * an ISMCTS call that did not search because one option was left). */
typedef struct cr_bot_stats {
    uint64_t iterations; /* summed over threads */
    uint64_t nodes;      /* tree nodes used, summed over threads */
    uint64_t rollout_actions;
    double seconds; /* wall time of the last cr_bot_act */
    int arena_full; /* 1 if a tree ran out of nodes and stopped expanding */
    int capped;     /* 1 if the search stopped at the time cap (cr_bot_set_time_cap) */
} cr_bot_stats;
void cr_bot_last_stats(const cr_bot *b, cr_bot_stats *out);

/* One root action of the last search: how often the search tried it and
 * the mean return it brought the bot's seat (with reward=win, the share of
 * the win: an estimate of the win chance after that action). */
typedef struct cr_bot_choice {
    cr_action action;
    uint64_t visits;
    double value;
} cr_bot_choice;
/* The root of the last cr_bot_act of a search bot (ISMCTS): writes at most
 * cap entries, in the order of the legal list (withdraw actions left out),
 * and returns how many there are; 0 for a bot that does not search and for
 * a call that did not search (one option). */
int cr_bot_last_choices(const cr_bot *b, cr_bot_choice *out, int cap);

/* A hard limit on the wall time of every later cr_bot_act (ms; 0: none,
 * the default).  A search that reaches it stops between iterations and
 * returns its best choice so far (stats.capped = 1): the caller (a server
 * with a per-move deadline) frees its thread promptly and decides what to
 * play.  Searches bounded by iters stay reproducible only under the cap. */
void cr_bot_set_time_cap(cr_bot *b, double ms);

/* The bytes the bot allocated when it was made (ISMCTS: its tree arenas,
 * paths and scratch states); a bot allocates nothing more while it plays. */
size_t cr_bot_memory(const cr_bot *b);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
