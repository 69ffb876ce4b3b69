/* server/bots.c — the bot workers: a pool of threads (--bot-threads) that
 * play the bot seats of every game.  A game with a bot to act is queued
 * once (bot_queued; the queue holds a reference); a worker takes it,
 * copies the seat's observation under the game's mutex, thinks without it
 * (the game's other connections are served meanwhile) and submits under it
 * only if the game has not moved on.
 *
 * Lock order: g->mu, then job_mu (a leaf: the queue and the bot counters).
 * A worker holds neither while a bot thinks.
 *
 * Durability: a worker's moves are stored (sv_flush) before it lets go of
 * the game for good; while it thinks about the next move, whoever renders
 * the game for a client stores them first (sv_sync).  No bot move is shown
 * before it is stored.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "civetweb.h"
#include "croupier/bot.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "server/accept_cap.h"
#include "server/server_internal.h"

/* ---- bot workers ---- */

void sv_enqueue_bot(sv_game *g)
{
    sv_server *sv = g->srv;
    if (g->bot_queued) return;
    g->bot_queued = 1;
    sv_game_hold(g); /* the job's reference */
    pthread_mutex_lock(&sv->job_mu);
    g->next_job = NULL;
    if (sv->job_tail)
        sv->job_tail->next_job = g;
    else
        sv->job_head = g;
    sv->job_tail = g;
    pthread_cond_signal(&sv->job_cv);
    pthread_mutex_unlock(&sv->job_mu);
}

/* The server's bot for seat s of g, made (or remade after a hand-over)
 * from the seat's spec; NULL when it cannot be made or its memory is over
 * --bot-memory-mb (the random policy plays the seat's moves then).  Under
 * g->mu, with no worker thinking for g. */
static cr_bot *sv_seat_bot(sv_game *g, int s)
{
    sv_server *sv = g->srv;
    const char *spec = cr_match_seat_spec(g->m, s);
    if (strcmp(g->bot_made[s], spec) == 0) return g->bots[s]; /* NULL: refused before */
    cr_bot_free(g->bots[s]);
    g->bots[s] = NULL;
    snprintf(g->bot_made[s], sizeof g->bot_made[s], "%s", spec);
    char err[256];
    cr_bot *b = cr_match_bot_new(g->m, g->bot_game, spec, s, err, sizeof err);
    if (!b) {
        sv_log(sv, "game %s: bot %s of P%d: %s; the random policy plays", g->meta.id, spec, s, err);
        return NULL;
    }
    size_t cap = (size_t)sv->cfg.bot_memory_mb * 1024 * 1024;
    if (cr_bot_memory(b) > cap) {
        sv_log(sv,
               "game %s: bot %s of P%d needs %zu KB, over --bot-memory-mb %d; the random "
               "policy plays",
               g->meta.id, spec, s, cr_bot_memory(b) / 1024, sv->cfg.bot_memory_mb);
        cr_bot_free(b);
        pthread_mutex_lock(&sv->job_mu);
        sv->bot_heavy++;
        pthread_mutex_unlock(&sv->job_mu);
        return NULL;
    }
    cr_bot_set_time_cap(b, sv->cfg.bot_deadline_ms);
    g->bots[s] = b;
    return b;
}

/* Bot moves of g.  For each: under g->mu the seat's observation and legal
 * actions are copied, with the game's version and the seat's decision
 * number; the worker thinks without the mutex (every other connection of
 * the game is served meanwhile) and submits under it only if the game has
 * not moved on (a timeout, a resignation, a hand-over, a reload): a stale
 * move is dropped.  A bot that overruns the per-move deadline
 * (--bot-deadline-ms) has its choice replaced by the random policy's,
 * seeded by the match (cr_match_substitute_seed); the record holds the
 * action played, so replays are exact.  Bots are made by the match
 * (cr_match_bot_new) on the game's own bot_game and seeded by it before
 * each move (cr_match_bot_seed): the server derives no seed itself.
 *
 * Consecutive bot moves (with the chance that follows) are stored in one
 * append, as long as bots are to act and for up to 5 ms (then the game is
 * queued again, so games take turns).  Entries not stored yet are never
 * shown: whoever renders the game for a client meanwhile stores them first
 * (sv_sync). */
static void sv_bot_move(sv_game *g)
{
    sv_server *sv = g->srv;
    pthread_mutex_lock(&g->mu);
    g->bot_queued = 0;
    double start = sv_mono();
    int moved = 0, stale = 0, late_n = 0;
    for (int k = 0; k < 256 && !g->thinking; k++) {
        int who = g->m && !g->outdated ? cr_match_to_act(g->m) : CR_TERMINAL;
        if (who < 0 || cr_match_is_human(g->m, who)) break;
        if (k > 0 && sv_mono() - start > 0.005) break;
        cr_bot *bot = sv_seat_bot(g, who);
        if (!g->rnd) {
            char err[256];
            g->rnd = cr_match_bot_new(g->m, g->bot_game, "random", 0, err, sizeof err);
            if (!g->rnd) {
                sv_log(sv, "game %s: %s", g->meta.id, err);
                break;
            }
        }
        int n = cr_match_legal(g->m, who, g->think_legal);
        if (n <= 0) break;
        int wants = bot && cr_bot_wants_obs(bot);
        if (wants) cr_match_observe(g->m, who, g->think_obs);
        uint64_t version = g->version;
        int decision = cr_match_decision(g->m, who);
        uint64_t seed = cr_match_bot_seed(g->m, who); /* as the match seeds its own bots */
        uint64_t substitute = cr_match_substitute_seed(g->m, who);
        g->thinking = 1;
        pthread_mutex_lock(&sv->job_mu);
        sv->bot_thinking++;
        pthread_mutex_unlock(&sv->job_mu);
        pthread_mutex_unlock(&g->mu);

        cr_action a = g->think_legal[0];
        int late = 0;
        if (n > 1 && bot) {
            cr_bot_reseed(bot, seed);
            double t0 = sv_mono();
            a = cr_bot_act(bot, wants ? g->think_obs : NULL, g->think_legal, n);
            double ms = (sv_mono() - t0) * 1000;
            late = ms > sv->cfg.bot_deadline_ms;
            if (late)
                sv_log(sv,
                       "game %s: bot %s of P%d took %.0f ms (deadline %d ms): the random "
                       "policy's move is played",
                       g->meta.id, cr_bot_spec(bot), who, ms, sv->cfg.bot_deadline_ms);
        }
        if (n > 1 && (late || !bot)) {
            cr_bot_reseed(g->rnd, substitute);
            a = cr_bot_act(g->rnd, NULL, g->think_legal, n);
        }

        pthread_mutex_lock(&g->mu);
        g->thinking = 0;
        pthread_mutex_lock(&sv->job_mu);
        sv->bot_thinking--;
        pthread_mutex_unlock(&sv->job_mu);
        late_n += late;
        char err[256];
        if (!g->m || g->outdated || g->version != version || cr_match_to_act(g->m) != who ||
            cr_match_is_human(g->m, who) || cr_match_decision(g->m, who) != decision) {
            stale = 1;
            break;
        }
        if (cr_match_submit_bot(g->m, who, a, err, sizeof err) != CR_OK) {
            sv_log(sv, "game %s: bot move of P%d refused: %s", g->meta.id, who, err);
            stale = 1;
            break;
        }
        sv_collect(g);
        sv_run_chance(g);
        moved++;
    }
    pthread_mutex_lock(&sv->job_mu);
    sv->bot_moves += moved;
    sv->bot_late += late_n;
    sv->bot_stale += stale;
    pthread_mutex_unlock(&sv->job_mu);
    char err[256];
    if (moved || g->n_pend) sv_flush(g, err, sizeof err);
    if ((moved || stale) && g->m && !g->outdated)
        sv_after_change(g); /* queues the next bot move, if any */
    pthread_mutex_unlock(&g->mu);
}

void *sv_worker(void *arg)
{
    sv_server *sv = arg;
    for (;;) {
        pthread_mutex_lock(&sv->job_mu);
        while (!sv->stopping && !sv->job_head) pthread_cond_wait(&sv->job_cv, &sv->job_mu);
        if (sv->stopping) {
            pthread_mutex_unlock(&sv->job_mu);
            return NULL;
        }
        sv_game *g = sv->job_head;
        sv->job_head = g->next_job;
        if (!sv->job_head) sv->job_tail = NULL;
        pthread_mutex_unlock(&sv->job_mu);
        sv_bot_move(g);
        sv_game_put(g);
    }
}
