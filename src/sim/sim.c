/* sim.c — the lab's engine: plays cfg->games games between bots on
 * cfg->threads threads and summarizes them.
 *
 * Workers take game indices from a shared atomic counter.  Game i is fully
 * determined by (seed, i): its chance generator is seeded from (seed, i) and
 * the bot of seat s from (seed, i, s) (bots are reseeded, not recreated,
 * between games).  The result of game i goes to per_game[i]; rule counters
 * are integer sums per worker, added at the end.  Every summary figure is
 * computed from per_game[] in index order, so a run gives the same figures
 * with 1 or 16 threads.
 *
 * A run can also be played in parts (cr_sim_run_part: games first ..
 * first+count-1, each still seeded by its index in the whole run).  Parts
 * put back together in index order, their integer counters added, and
 * summarized again (cr_sim_summarize) give the whole run's figures exactly;
 * so do their tallies added word by word (cr_sim_tally_pack/unpack), with
 * no result per game kept anywhere: that is how the lab spreads one run
 * over MPI processes (docs/lab.md).
 *
 * Progress: the calling thread draws the bar on stderr while the workers
 * run, only when cr_sim_progress_enabled() says so (stderr is a terminal,
 * unless forced on or off).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "croupier/alloc.h"
#include "croupier/bot.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "sim/sim_internal.h"

enum { SIM_MAX_THREADS = 256 };

uint64_t sim_mix(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t z = seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL);
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double sim_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cr_sim_progress_enabled(int mode)
{
    if (mode == CR_SIM_PROGRESS_AUTO) return isatty(STDERR_FILENO) ? 1 : 0;
    return mode == CR_SIM_PROGRESS_ON;
}

void cr_sim_wilson(long wins, long n, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    const double z = 1.959963984540054;
    double p = (double)wins / (double)n, nn = (double)n;
    double den = 1 + z * z / nn;
    double mid = (p + z * z / (2 * nn)) / den;
    double half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / den;
    *lo = mid - half < 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
}

int cr_sim_split_specs(const char *list, char *buf, size_t bufcap, char **out, int max)
{
    size_t len = strlen(list);
    if (len + 1 > bufcap) return -1;
    memcpy(buf, list, len + 1);
    int n = 0;
    char *p = buf;
    char before = 0; /* the separator in front of p */
    while (*p) {
        char *end = p + strcspn(p, ",;");
        char sep = *end;
        *end = '\0';
        int continues =
            n > 0 && strchr(p, '=') && !strchr(p, ':') && before != ';' && strchr(out[n - 1], ':');
        if (continues) {
            /* glue back to the previous spec: restore the separator before p */
            p[-1] = ',';
        } else if (*p) {
            if (n == max) return -1;
            out[n++] = p;
        }
        if (!sep) break;
        before = sep;
        p = end + 1;
    }
    return n;
}

/* ---- the tally ---------------------------------------------------------------- */

/* The tally (sim_internal.h): every summary figure comes from it. */
static void tally_fini(sim_tally *t)
{
    cr_free(t->hist[0]);
    cr_free(t->hist[1]);
    t->hist[0] = t->hist[1] = NULL;
    t->cap[0] = t->cap[1] = 0;
}

/* Keeps *t (moved: *t is left empty) as r's tally, replacing any; 0 when
 * out of memory (t is then left as it was). */
static int tally_keep(cr_sim_result *r, sim_tally *t)
{
    sim_tally *kept = r->tally ? r->tally : cr_alloc(sizeof *kept);
    if (!kept) return 0;
    if (r->tally) tally_fini(r->tally);
    *kept = *t;
    memset(t, 0, sizeof *t);
    r->tally = kept;
    return 1;
}

/* Makes room for value v in histogram k; 0 when out of memory. */
static int tally_room(sim_tally *t, int k, uint32_t v)
{
    if (v < t->cap[k]) return 1;
    uint64_t cap = t->cap[k] ? t->cap[k] : 256;
    while (cap <= v) cap *= 2;
    long *h = cr_realloc(t->hist[k], (size_t)cap * sizeof *h);
    if (!h) return 0;
    memset(h + t->cap[k], 0, (size_t)(cap - t->cap[k]) * sizeof *h);
    t->hist[k] = h;
    t->cap[k] = (uint32_t)cap;
    return 1;
}

/* Adds one game of np seats, n_labels labels and n_ach achievements. */
static int tally_add(sim_tally *t, const cr_sim_game *gm, int np, int n_labels, int n_ach)
{
    if (!tally_room(t, 0, gm->rounds) || !tally_room(t, 1, gm->actions)) return 0;
    t->hist[0][gm->rounds]++;
    t->hist[1][gm->actions]++;
    t->games++;
    for (int k = 0; k < n_ach; k++) {
        int any = 0;
        for (int s = 0; s < np; s++)
            if (gm->achieved[s] >> k & 1) {
                t->ach_seat[k][s]++;
                t->ach_total[k]++;
                any = 1;
            }
        t->ach_games[k] += any;
    }
    if (gm->winner < 0) t->no_winner++;
    t->ends[gm->end]++;
    for (int s = 0; s < np; s++) {
        int won = gm->winner == s;
        t->seat_games[s]++;
        t->seat_wins[s] += won;
        t->seat_score[s] += gm->score[s];
        int l = gm->label[s];
        if (l >= 0 && l < n_labels) {
            t->label_games[l]++;
            t->label_wins[l] += won;
            t->label_score[l] += gm->score[s];
        }
    }
    return 1;
}

/* Adds tally b into a; 0 when out of memory. */
static int tally_merge(sim_tally *a, const sim_tally *b)
{
    for (int k = 0; k < 2; k++) {
        if (b->cap[k] && !tally_room(a, k, b->cap[k] - 1)) return 0;
        for (uint32_t v = 0; v < b->cap[k]; v++) a->hist[k][v] += b->hist[k][v];
    }
    a->games += b->games;
    a->no_winner += b->no_winner;
    for (int e = 0; e < CR_SIM_MAX_ENDS; e++) a->ends[e] += b->ends[e];
    for (int s = 0; s < CR_MAX_PLAYERS; s++) {
        a->seat_wins[s] += b->seat_wins[s];
        a->seat_games[s] += b->seat_games[s];
        a->seat_score[s] += b->seat_score[s];
    }
    for (int l = 0; l < CR_SIM_MAX_LABELS; l++) {
        a->label_wins[l] += b->label_wins[l];
        a->label_games[l] += b->label_games[l];
        a->label_score[l] += b->label_score[l];
    }
    for (int k = 0; k < CR_SIM_MAX_ACHIEVEMENTS; k++) {
        a->ach_total[k] += b->ach_total[k];
        a->ach_games[k] += b->ach_games[k];
        for (int s = 0; s < CR_MAX_PLAYERS; s++) a->ach_seat[k][s] += b->ach_seat[k][s];
    }
    return 1;
}

/* ---- the run ---------------------------------------------------------------- */

typedef struct sim_shared {
    const cr_sim_config *cfg;
    const cr_game *g;
    const cr_lab_profile *prof;
    cr_sim_result *res;
    const char *specs[CR_MAX_PLAYERS];
    cr_params params; /* the table, for each worker's match */
    long max_actions;
    uint32_t observed; /* bit s: seat s's bot reads its observation */
    long first, end;   /* the part played: games first .. end-1 */
    atomic_long next, done;
    atomic_int failed;
    char err[256];
    pthread_mutex_t err_lock;
} sim_shared;

typedef struct sim_worker {
    sim_shared *sh;
    uint64_t counters[CR_SIM_MAX_COUNTERS];
    uint64_t actions;
    sim_tally tally; /* the streaming mode's (cfg->no_per_game) */
} sim_worker;

static void sim_fail(sim_shared *sh, const char *msg)
{
    pthread_mutex_lock(&sh->err_lock);
    if (!atomic_load(&sh->failed)) snprintf(sh->err, sizeof sh->err, "%s", msg);
    atomic_store(&sh->failed, 1);
    pthread_mutex_unlock(&sh->err_lock);
}

/* The match of game i: its seed, from which every die and bot choice of
 * the game follows (match.h).  `croupier play --seed` with this seed and the
 * same seats plays game i again. */
uint64_t cr_sim_game_seed(uint64_t seed, long i) { return sim_mix(seed, (uint64_t)i, 0); }

/* Plays game i on the worker's match (reset to the game's seed).  The match
 * keeps the events of each apply for the lab's counters; an apply that
 * dropped some (beyond the game's proven max_events) would leave the counts
 * short, so it fails the run (0: played; -1: err filled). */
static int play_one(sim_worker *w, long i, cr_match *m, char *err, size_t errcap)
{
    sim_shared *sh = w->sh;
    const cr_game *g = cr_match_game(m);
    const cr_lab_profile *prof = sh->prof;
    cr_sim_game one, *out = sh->res->per_game ? &sh->res->per_game[i - sh->first] : &one;
    cr_match_reset(m, cr_sim_game_seed(sh->cfg->seed, i));
    /* The state is this worker's match's own, reset above and seen by
     * nobody but the bots: the game may drop what no bot of it reads. */
    if (prof && prof->observed_seats)
        prof->observed_seats(g, (void *)cr_match_state(m), sh->observed);
    long actions = 0;
    int aborted = 0;
    while (cr_match_to_act(m) != CR_TERMINAL) {
        if (actions >= sh->max_actions) {
            aborted = 1;
            break;
        }
        cr_status rc = cr_match_step(m);
        actions++;
        if (rc != CR_OK) {
            const cr_event *evs;
            if (cr_match_last_events(m, &evs) >= g->max_events)
                snprintf(err, errcap,
                         "game %ld (seed %llu): action %ld wrote more events than the game's "
                         "max_events (%d); its counts would be short",
                         i, (unsigned long long)sh->cfg->seed, actions, g->max_events);
            else
                snprintf(err, errcap, "game %ld (seed %llu): action %ld could not be played (%s)",
                         i, (unsigned long long)sh->cfg->seed, actions, cr_status_str(rc));
            return -1;
        }
        if (prof) {
            const cr_event *evs;
            int n = cr_match_last_events(m, &evs);
            for (int k = 0; k < n; k++) prof->count(&evs[k], w->counters);
        }
    }
    w->actions += (uint64_t)actions;
    const void *st = cr_match_state(m);
    memset(out, 0, sizeof *out);
    double ret[CR_MAX_PLAYERS] = {0};
    cr_result res;
    memset(&res, 0, sizeof res);
    out->winner = -1;
    if (!aborted) {
        g->def->returns(g, st, ret);
        if (g->def->result) g->def->result(g, st, &res);
        out->winners = res.winners;
        int n_win = 0, win = -1;
        for (int s = 0; s < g->num_players; s++)
            if (ret[s] > 0.5) {
                n_win++;
                win = s;
            }
        out->winner = (int8_t)(n_win == 1 ? win : -1);
    }
    /* cr_game_new keeps num_players <= CR_MAX_PLAYERS; the bound is
     * spelled out for the optimizer, which cannot see it */
    int np = g->num_players < CR_MAX_PLAYERS ? g->num_players : CR_MAX_PLAYERS;
    for (int s = 0; s < np; s++) {
        out->returns[s] = (float)ret[s];
        out->score[s] = res.score[s];
        out->rank[s] = res.rank[s];
        out->label[s] = (int8_t)(prof && prof->label ? prof->label(g, st, s) : -1);
    }
    int n_ends = prof ? prof->n_ends : 1;
    out->end = (uint8_t)(aborted ? n_ends : prof ? prof->end(g, st) : 0);
    out->rounds = prof && prof->rounds ? prof->rounds(g, st) : 0;
    out->actions = (uint32_t)actions;
    /* the achievements, by their index in the game's list */
    const cr_game_parts *parts = cr_parts(g);
    for (int s = 0; !aborted && parts->achievements && s < np; s++) {
        const char *keys[CR_SIM_MAX_ACHIEVEMENTS];
        int n = parts->achievements(g, st, s, keys, CR_SIM_MAX_ACHIEVEMENTS);
        for (int k = 0; k < n; k++) {
            /* the keys are the list's own strings: find them by address */
            int j = 0;
            while (j < sh->res->n_achievements && keys[k] != sh->res->achievement_keys[j]) j++;
            if (j == sh->res->n_achievements) /* a copy: by its text */
                for (j = 0; j < sh->res->n_achievements; j++)
                    if (strcmp(keys[k], sh->res->achievement_keys[j]) == 0) break;
            if (j < sh->res->n_achievements) out->achieved[s] |= (uint64_t)1 << j;
        }
    }
    if (out == &one && !tally_add(&w->tally, out, np, sh->res->n_labels, sh->res->n_achievements)) {
        snprintf(err, errcap, "out of memory for the length histograms");
        return -1;
    }
    return 0;
}

/* A worker plays on one match of its own (the lab's mode: no log, no
 * record text), reset for each game. */
static void *worker_main(void *arg)
{
    sim_worker *w = arg;
    sim_shared *sh = w->sh;
    char err[256];
    cr_match *m = cr_match_new(sh->g->def, &sh->params, sh->specs, 0, err, sizeof err);
    if (!m) {
        sim_fail(sh, err);
        return NULL;
    }
    cr_match_configure(m, CR_MATCH_LEAN | (sh->prof ? 0 : CR_MATCH_NO_EVENTS));
    for (;;) {
        if (atomic_load(&sh->failed)) break;
        long i = atomic_fetch_add(&sh->next, 1);
        if (i >= sh->end) break;
        if (play_one(w, i, m, err, sizeof err) != 0) {
            sim_fail(sh, err);
            break;
        }
        atomic_fetch_add(&sh->done, 1);
    }
    cr_match_free(m);
    return NULL;
}

static void draw_progress(long done, long total, double elapsed, int final)
{
    const int width = 30;
    double frac = total ? (double)done / (double)total : 1;
    int fill = (int)(frac * width);
    char bar[64];
    for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    double rate = elapsed > 0 ? (double)done / elapsed : 0;
    double eta = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "\r[%s] %5.1f%% %ld/%ld games  %.0f games/s  ETA %d:%02d ", bar, 100 * frac,
            done, total, rate, (int)eta / 60, (int)eta % 60);
    if (final) fputc('\n', stderr);
    fflush(stderr);
}

/* Nearest-rank percentile q of the n games of histogram h[0..cap). */
static uint32_t hist_pct(const long *h, uint32_t cap, long n, double q)
{
    long k = (long)ceil(q * (double)n) - 1;
    if (k < 0) k = 0;
    if (k >= n) k = n - 1;
    long seen = 0;
    for (uint32_t v = 0; v < cap; v++) {
        seen += h[v];
        if (seen > k) return v;
    }
    return cap ? cap - 1 : 0;
}

static void dist_of(const long *h, uint32_t cap, long n, cr_sim_dist *d)
{
    memset(d, 0, sizeof *d);
    if (n == 0) return;
    double sum = 0; /* exact: an integer far below 2^53 */
    for (uint32_t v = 0; v < cap; v++) sum += (double)v * (double)h[v];
    d->mean = sum / (double)n;
    d->p10 = hist_pct(h, cap, n, 0.10);
    d->p50 = hist_pct(h, cap, n, 0.50);
    d->p90 = hist_pct(h, cap, n, 0.90);
    d->min = hist_pct(h, cap, n, 0);
    d->max = hist_pct(h, cap, n, 1);
}

static void finish_rate(cr_sim_rate *r, long wins, long games, int64_t score_sum)
{
    r->wins = wins;
    r->games = games;
    r->rate = r->games ? (double)r->wins / (double)r->games : 0;
    cr_sim_wilson(r->wins, r->games, &r->lo, &r->hi);
    r->mean_score = r->games ? (double)score_sum / (double)r->games : 0;
}

/* Every summary figure of r from the tally of its games. */
static void sim_finish(cr_sim_result *r, const sim_tally *t)
{
    int np = r->num_players;
    memset(r->seat, 0, sizeof r->seat);
    memset(r->bot, 0, sizeof r->bot);
    memset(r->bot_spec, 0, sizeof r->bot_spec);
    memset(r->label, 0, sizeof r->label);
    memset(r->ends, 0, sizeof r->ends);
    memset(r->achievement_seat, 0, sizeof r->achievement_seat);
    memset(r->achievement_total, 0, sizeof r->achievement_total);
    memset(r->achievement_games, 0, sizeof r->achievement_games);
    /* distinct bot specs, in seat order */
    long bot_wins[CR_MAX_PLAYERS] = {0}, bot_games[CR_MAX_PLAYERS] = {0};
    int64_t bot_score[CR_MAX_PLAYERS] = {0};
    r->n_bots = 0;
    for (int s = 0; s < np; s++) {
        int k;
        for (k = 0; k < r->n_bots; k++)
            if (strcmp(r->bot_spec[k], r->seat_spec[s]) == 0) break;
        if (k == r->n_bots) { /* a bounded copy (snprintf trips -Wrestrict at -O1) */
            char *dst = r->bot_spec[r->n_bots++];
            size_t len = strnlen(r->seat_spec[s], sizeof r->bot_spec[0] - 1);
            memcpy(dst, r->seat_spec[s], len);
            dst[len] = 0;
        }
        bot_wins[k] += t->seat_wins[s];
        bot_games[k] += t->seat_games[s];
        bot_score[k] += t->seat_score[s];
    }
    for (int s = 0; s < np; s++)
        finish_rate(&r->seat[s], t->seat_wins[s], t->seat_games[s], t->seat_score[s]);
    for (int k = 0; k < r->n_bots; k++)
        finish_rate(&r->bot[k], bot_wins[k], bot_games[k], bot_score[k]);
    for (int l = 0; l < r->n_labels; l++)
        finish_rate(&r->label[l], t->label_wins[l], t->label_games[l], t->label_score[l]);
    r->no_winner = t->no_winner;
    memcpy(r->ends, t->ends, sizeof r->ends);
    for (int k = 0; k < r->n_achievements; k++) {
        for (int s = 0; s < np; s++) r->achievement_seat[k][s] = t->ach_seat[k][s];
        r->achievement_total[k] = t->ach_total[k];
        r->achievement_games[k] = t->ach_games[k];
    }
    dist_of(t->hist[0], t->cap[0], t->games, &r->rounds);
    dist_of(t->hist[1], t->cap[1], t->games, &r->actions);
}

cr_status cr_sim_summarize(cr_sim_result *r)
{
    if (!r->per_game && r->games > 0) return CR_ERR_INVALID; /* streamed: nothing to fold */
    sim_tally t;
    memset(&t, 0, sizeof t);
    for (long i = 0; i < r->games; i++)
        if (!tally_add(&t, &r->per_game[i], r->num_players, r->n_labels, r->n_achievements)) {
            tally_fini(&t);
            return CR_ERR_NOMEM;
        }
    if (!tally_keep(r, &t)) {
        tally_fini(&t);
        return CR_ERR_NOMEM;
    }
    sim_finish(r, r->tally);
    return CR_OK;
}

/* ---- tallies as words (a run in parts that keeps no result per game) ----
 *
 * The words: every integer sum of sim_tally in a fixed order, then the
 * rounds histogram (rounds_cap words), then the actions histogram
 * (actions_cap words).  Added word by word, the parts' words are the whole
 * run's. */
enum {
    TALLY_FIXED = 3 * CR_MAX_PLAYERS + 3 * CR_SIM_MAX_LABELS + 1 + CR_SIM_MAX_ENDS +
                  CR_SIM_MAX_ACHIEVEMENTS * CR_MAX_PLAYERS + 2 * CR_SIM_MAX_ACHIEVEMENTS + 1
};

void cr_sim_tally_caps(const cr_sim_result *r, uint32_t *rounds_cap, uint32_t *actions_cap)
{
    *rounds_cap = r->tally ? r->tally->cap[0] : 0;
    *actions_cap = r->tally ? r->tally->cap[1] : 0;
}

size_t cr_sim_tally_words(uint32_t rounds_cap, uint32_t actions_cap)
{
    return (size_t)TALLY_FIXED + rounds_cap + actions_cap;
}

/* Copies the fixed sums between a tally and words: to words if out. */
static void tally_fixed(sim_tally *t, int64_t *w, int out)
{
    size_t k = 0;
#define TALLY_WORD(x)                                                                              \
    do {                                                                                           \
        if (out)                                                                                   \
            w[k++] = (int64_t)(x);                                                                 \
        else                                                                                       \
            (x) = w[k++];                                                                          \
    } while (0)
    for (int s = 0; s < CR_MAX_PLAYERS; s++) {
        TALLY_WORD(t->seat_wins[s]);
        TALLY_WORD(t->seat_games[s]);
        TALLY_WORD(t->seat_score[s]);
    }
    for (int l = 0; l < CR_SIM_MAX_LABELS; l++) {
        TALLY_WORD(t->label_wins[l]);
        TALLY_WORD(t->label_games[l]);
        TALLY_WORD(t->label_score[l]);
    }
    TALLY_WORD(t->no_winner);
    for (int e = 0; e < CR_SIM_MAX_ENDS; e++) TALLY_WORD(t->ends[e]);
    for (int a = 0; a < CR_SIM_MAX_ACHIEVEMENTS; a++) {
        for (int s = 0; s < CR_MAX_PLAYERS; s++) TALLY_WORD(t->ach_seat[a][s]);
        TALLY_WORD(t->ach_total[a]);
        TALLY_WORD(t->ach_games[a]);
    }
    TALLY_WORD(t->games);
#undef TALLY_WORD
}

cr_status cr_sim_tally_pack(const cr_sim_result *r, uint32_t rounds_cap, uint32_t actions_cap,
                            int64_t *out)
{
    static const sim_tally empty;
    sim_tally *t = r->tally ? r->tally : (sim_tally *)&empty;
    if (rounds_cap < t->cap[0] || actions_cap < t->cap[1]) return CR_ERR_INVALID;
    tally_fixed(t, out, 1);
    int64_t *h = out + TALLY_FIXED;
    uint32_t caps[2] = {rounds_cap, actions_cap};
    for (int k = 0; k < 2; k++) {
        for (uint32_t v = 0; v < caps[k]; v++) h[v] = v < t->cap[k] ? t->hist[k][v] : 0;
        h += caps[k];
    }
    return CR_OK;
}

cr_status cr_sim_tally_unpack(cr_sim_result *r, const int64_t *words, uint32_t rounds_cap,
                              uint32_t actions_cap)
{
    sim_tally t;
    memset(&t, 0, sizeof t);
    uint32_t caps[2] = {rounds_cap, actions_cap};
    for (int k = 0; k < 2; k++)
        if (caps[k] && !tally_room(&t, k, caps[k] - 1)) {
            tally_fini(&t);
            return CR_ERR_NOMEM;
        }
    tally_fixed(&t, (int64_t *)words, 0);
    const int64_t *h = words + TALLY_FIXED;
    for (int k = 0; k < 2; k++) {
        for (uint32_t v = 0; v < caps[k]; v++) t.hist[k][v] = (long)h[v];
        h += caps[k];
    }
    if (!tally_keep(r, &t)) {
        tally_fini(&t);
        return CR_ERR_NOMEM;
    }
    sim_finish(r, r->tally);
    return CR_OK;
}

/* Plays the part sh describes (sh->end > sh->first) on nthreads workers
 * into sh->res: per_game (or, streaming, the workers' tallies added into
 * *total), the counters and the actions, the wall time. */
static cr_status play_part(sim_shared *sh, long nthreads, sim_tally *total, char *err,
                           size_t errcap)
{
    cr_sim_result *out = sh->res;
    long count = sh->end - sh->first;
    if (!sh->cfg->no_per_game) out->per_game = cr_calloc((size_t)count, sizeof *out->per_game);
    sim_worker *workers = cr_calloc((size_t)nthreads, sizeof *workers);
    pthread_t *tid = cr_calloc((size_t)nthreads, sizeof *tid);
    if ((!sh->cfg->no_per_game && !out->per_game) || !workers || !tid) {
        cr_free(workers);
        cr_free(tid);
        return CR_ERR_NOMEM;
    }
    int show = cr_sim_progress_enabled(sh->cfg->progress);
    double t0 = sim_now();
    int started = 0;
    for (long t = 0; t < nthreads; t++) {
        workers[t].sh = sh;
        if (pthread_create(&tid[t], NULL, worker_main, &workers[t]) != 0) break;
        started++;
    }
    if (started == 0) worker_main(&workers[0]);
    if (show) {
        while (atomic_load(&sh->done) < count && !atomic_load(&sh->failed)) {
            long d = atomic_load(&sh->done);
            draw_progress(d, count, sim_now() - t0, 0);
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    out->seconds = sim_now() - t0;
    if (show) draw_progress(atomic_load(&sh->done), count, out->seconds, 1);
    int merged = 1;
    for (long t = 0; t < nthreads; t++) {
        out->total_actions += workers[t].actions;
        for (int k = 0; k < out->n_counters; k++) out->counters[k] += workers[t].counters[k];
        if (merged && !tally_merge(total, &workers[t].tally)) merged = 0;
        tally_fini(&workers[t].tally);
    }
    cr_free(workers);
    cr_free(tid);
    if (atomic_load(&sh->failed)) {
        snprintf(err, errcap, "%s", sh->err);
        return CR_ERR_INVALID;
    }
    return merged ? CR_OK : CR_ERR_NOMEM;
}

cr_status cr_sim_run(const cr_sim_config *cfg, cr_sim_result *out, char *err, size_t errcap)
{
    return cr_sim_run_part(cfg, 0, cfg->games, out, err, errcap);
}

cr_status cr_sim_run_part(const cr_sim_config *cfg, long first, long count, cr_sim_result *out,
                          char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    const cr_game_def *def = cfg->def ? cfg->def : cr_registry_find(cfg->game);
    if (!def) {
        snprintf(err, errcap, "unknown game: %s", cfg->game ? cfg->game : "(none)");
        return CR_ERR_INVALID;
    }
    if (cfg->n_seats < 1 || cfg->n_seats > CR_MAX_PLAYERS) {
        snprintf(err, errcap, "give 1 to %d seat specs", CR_MAX_PLAYERS);
        return CR_ERR_INVALID;
    }
    if (cfg->games < 1) {
        snprintf(err, errcap, "the number of games must be at least 1");
        return CR_ERR_INVALID;
    }
    if (first < 0 || count < 0 || first > cfg->games || count > cfg->games - first) {
        snprintf(err, errcap, "games %ld..%ld are not part of a run of %ld games", first,
                 first + count - 1, cfg->games);
        return CR_ERR_INVALID;
    }
    int np = cfg->num_players ? cfg->num_players : cfg->n_seats;
    if (cfg->n_seats != 1 && cfg->n_seats != np) {
        snprintf(err, errcap, "%d seat specs for %d players (give 1 or %d)", cfg->n_seats, np, np);
        return CR_ERR_INVALID;
    }
    if (cfg->n_seats == 1 && !cfg->num_players) {
        /* one spec and no player count: the variant's largest table */
        const cr_variant *v = &def->variants[0];
        for (int i = 0; cfg->variant && i < def->n_variants; i++)
            if (strcmp(def->variants[i].name, cfg->variant) == 0) v = &def->variants[i];
        np = v->max_players;
    }
    for (int s = 0; s < (cfg->n_seats == 1 ? 1 : np); s++)
        if (!cr_bot_spec_valid(cfg->seats[s], err, errcap)) return CR_ERR_INVALID;
    cr_params params = {.num_players = np, .variant = cfg->variant, .n_options = 0};
    for (int i = 0; i < cfg->n_options; i++)
        if (cr_params_set(&params, cfg->options[i].key, cfg->options[i].value) != CR_OK) {
            snprintf(err, errcap, "too many options");
            return CR_ERR_INVALID;
        }
    char gerr[256];
    cr_game *g = cr_game_new(def, &params, gerr, sizeof gerr);
    if (!g) {
        snprintf(err, errcap, "%s", gerr);
        return CR_ERR_INVALID;
    }
    const cr_lab_profile *prof = cr_parts(g)->lab;
    if (prof && prof->for_table && prof->for_table(g)) prof = prof->for_table(g);

    snprintf(out->game, sizeof out->game, "%s", def->name);
    snprintf(out->variant, sizeof out->variant, "%s", g->variant ? g->variant->name : "");
    out->num_players = np;
    out->games = count;
    out->first_game = first;
    out->seed = cfg->seed;
    long nthreads = cfg->threads > 0 ? cfg->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (nthreads < 1) nthreads = 1;
    if (nthreads > SIM_MAX_THREADS) nthreads = SIM_MAX_THREADS;
    if (nthreads > count) nthreads = count; /* 0 for an empty part: nothing runs */
    out->threads = (int)nthreads;
    sim_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = cfg;
    sh.g = g;
    sh.params = params;
    sh.prof = prof;
    sh.res = out;
    sh.max_actions = cfg->max_actions > 0            ? cfg->max_actions
                     : prof && prof->max_actions > 0 ? prof->max_actions
                                                     : 10000000L;
    sh.first = first;
    sh.end = first + count;
    pthread_mutex_init(&sh.err_lock, NULL);
    atomic_init(&sh.next, first);
    atomic_init(&sh.done, 0);
    atomic_init(&sh.failed, 0);
    for (int s = 0; s < np; s++) {
        sh.specs[s] = cfg->seats[cfg->n_seats == 1 ? 0 : s];
        snprintf(out->seat_spec[s], sizeof out->seat_spec[s], "%s", sh.specs[s]);
    }
    if (prof && prof->observed_seats && count > 0) {
        /* which seats' bots read their observation: asked of one bot of
         * each seat's spec, made and freed here (a bad spec fails later,
         * in the workers, with the match's message) */
        for (int s = 0; s < np; s++) {
            char berr[256];
            cr_bot *b = cr_bot_new(g, sh.specs[s], s, 0, berr, sizeof berr);
            if (!b || cr_bot_wants_obs(b)) sh.observed |= 1u << s;
            cr_bot_free(b);
        }
    }
    if (prof) {
        out->n_counters = prof->n_counters;
        for (int k = 0; k < prof->n_counters; k++) out->counter_names[k] = prof->counter_names[k];
        out->n_ends = prof->n_ends;
        for (int k = 0; k < prof->n_ends; k++) out->end_names[k] = prof->end_names[k];
        out->label_title = prof->label_title;
        out->n_labels = prof->n_labels;
        for (int k = 0; k < prof->n_labels; k++) out->label_names[k] = prof->label_names[k];
    } else {
        out->n_ends = 1;
        out->end_names[0] = "ended";
    }
    out->end_names[out->n_ends++] = "aborted (action cap)";
    const cr_game_parts *parts = cr_parts(g);
    if (parts->achievements && parts->achievement_list) {
        out->n_achievements = parts->n_achievements < CR_SIM_MAX_ACHIEVEMENTS
                                  ? parts->n_achievements
                                  : CR_SIM_MAX_ACHIEVEMENTS;
        for (int k = 0; k < out->n_achievements; k++) {
            out->achievement_keys[k] = parts->achievement_list[k].key;
            out->achievement_titles[k] = parts->achievement_list[k].title;
        }
    }

    sim_tally total;
    memset(&total, 0, sizeof total);
    cr_status rc = count > 0 ? play_part(&sh, nthreads, &total, err, errcap) : CR_OK;
    cr_game_free(g);
    pthread_mutex_destroy(&sh.err_lock);
    if (rc == CR_OK && out->per_game) {
        rc = cr_sim_summarize(out);
    } else if (rc == CR_OK) { /* streamed: the tally is kept, for a run in parts */
        if (tally_keep(out, &total))
            sim_finish(out, out->tally);
        else
            rc = CR_ERR_NOMEM;
    }
    tally_fini(&total);
    if (rc == CR_ERR_NOMEM) snprintf(err, errcap, "out of memory for %ld games", count);
    if (rc != CR_OK) cr_sim_result_fini(out);
    return rc;
}

void cr_sim_result_fini(cr_sim_result *r)
{
    cr_free(r->per_game);
    r->per_game = NULL;
    if (r->tally) tally_fini(r->tally);
    cr_free(r->tally);
    r->tally = NULL;
}
