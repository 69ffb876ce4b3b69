/* bench.c — the engine's speed, measured through the game interface only:
 * random playouts per second (games and actions, one thread and all
 * threads), nanoseconds per legal_actions / apply / clone call, the state
 * size, and ISMCTS iterations per second on one thread.  An "action" is one
 * apply() call: chance outcomes and one-card steps count.
 *
 * Random playouts choose uniformly among the legal actions, skipping
 * withdraw actions when others exist (as search rollouts do), and pass no
 * event buffer.  The per-call figures replay a pool of positions collected
 * from random games, so the timed loops see realistic states; apply is
 * timed as (clone + apply) - clone over the same pool.  The machine (CPU
 * count and model) and the build (CR_BUILD_TYPE, CR_BUILD_FLAGS: compile
 * definitions set by CMake) are printed with the figures. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "croupier/alloc.h"
#include "croupier/bot.h"
#include "sim/sim_internal.h"

#ifndef CR_BUILD_TYPE
#define CR_BUILD_TYPE "unknown"
#endif
#ifndef CR_BUILD_FLAGS
#define CR_BUILD_FLAGS "unknown"
#endif

typedef struct playout_job {
    const cr_game *g;
    uint64_t seed, stream;
    double deadline;   /* timed: play until then; or */
    atomic_long *next; /* counted: take game indices below `games` */
    long games;
    int search; /* play search states (cr_for_search) */
    uint64_t n_games, n_actions;
    int failed;
} playout_job;

static cr_action pick_random(const cr_game *g, const void *st, const cr_action *legal, int n,
                             cr_rng *rng)
{
    if (n == 1) return legal[0];
    for (int tries = 0; tries < 8; tries++) {
        cr_action a = legal[cr_rng_below(rng, (uint32_t)n)];
        if (!g->def->is_withdraw || !g->def->is_withdraw(g, st, a)) return a;
    }
    return legal[cr_rng_below(rng, (uint32_t)n)];
}

/* Plays one random game to the end; returns the number of apply calls.
 * search: play a search state (cr_for_search), as rollouts do. */
static uint64_t random_game(const cr_game *g, void *st, cr_action *legal, cr_rng *rng, int search)
{
    uint64_t n_act = 0;
    g->def->init(g, st);
    if (search) cr_for_search(g, st);
    for (;;) {
        int p = g->def->current_player(g, st);
        if (p == CR_TERMINAL) break;
        cr_action a;
        if (p == CR_CHANCE) {
            a = cr_sample_chance(g, st, rng);
        } else {
            int n = g->def->legal_actions(g, st, legal);
            a = pick_random(g, st, legal, n, rng);
        }
        g->def->apply(g, st, a, NULL);
        n_act++;
    }
    return n_act;
}

static void *playout_main(void *arg)
{
    playout_job *j = arg;
    const cr_game *g = j->g;
    void *st = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    if (!st || !legal) {
        j->failed = 1;
        goto out;
    }
    cr_rng rng;
    if (j->next) {
        for (;;) {
            long i = atomic_fetch_add(j->next, 1);
            if (i >= j->games) break;
            cr_rng_seed(&rng, j->seed, (uint64_t)i);
            j->n_actions += random_game(g, st, legal, &rng, j->search);
            j->n_games++;
        }
    } else {
        cr_rng_seed(&rng, j->seed, j->stream);
        do {
            for (int k = 0; k < 16; k++) {
                j->n_actions += random_game(g, st, legal, &rng, j->search);
                j->n_games++;
            }
        } while (sim_now() < j->deadline);
    }
out:
    cr_free(st);
    cr_free(legal);
    return NULL;
}

/* Runs playouts on `threads` threads: timed (games <= 0) or counted. */
static int playouts(const cr_game *g, int threads, double seconds, long games, uint64_t seed,
                    int search, uint64_t *n_games, uint64_t *n_actions, double *elapsed)
{
    playout_job jobs[256];
    pthread_t tid[256];
    int started[256] = {0};
    if (threads > 256) threads = 256;
    atomic_long next;
    atomic_init(&next, 0);
    double t0 = sim_now();
    for (int t = 0; t < threads; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].g = g;
        jobs[t].seed = seed;
        jobs[t].stream = (uint64_t)t;
        jobs[t].deadline = t0 + seconds;
        jobs[t].next = games > 0 ? &next : NULL;
        jobs[t].games = games;
        jobs[t].search = search;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, playout_main, &jobs[t]) == 0;
    playout_main(&jobs[0]);
    for (int t = 1; t < threads; t++)
        if (started[t]) pthread_join(tid[t], NULL);
    *elapsed = sim_now() - t0;
    *n_games = *n_actions = 0;
    int ok = 1;
    for (int t = 0; t < threads; t++) {
        *n_games += jobs[t].n_games;
        *n_actions += jobs[t].n_actions;
        ok &= !jobs[t].failed;
    }
    return ok;
}

static void print_machine(FILE *out)
{
    char model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':');
                if (c) {
                    c++;
                    while (*c == ' ' || *c == '\t') c++;
                    c[strcspn(c, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", c);
                }
                break;
            }
        }
        fclose(f);
    }
    fprintf(out, "machine: %ld CPUs online, %s\n", sysconf(_SC_NPROCESSORS_ONLN), model);
    fprintf(out, "build:   %s, flags: %s\n", CR_BUILD_TYPE, CR_BUILD_FLAGS);
}

enum { POOL = 2048 };

/* Collects up to POOL decision or chance states from random games, each
 * with the action a random player takes there. */
static int collect_pool(const cr_game *g, uint64_t seed, unsigned char *pool, cr_action *acts,
                        int cap, int search)
{
    void *st = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    int n = 0;
    if (!st || !legal) goto out;
    cr_rng rng;
    cr_rng_seed(&rng, seed, 7777);
    while (n < cap) {
        g->def->init(g, st);
        if (search) cr_for_search(g, st); /* per-call costs as search pays them */
        for (;;) {
            int p = g->def->current_player(g, st);
            if (p == CR_TERMINAL) break;
            cr_action a;
            if (p == CR_CHANCE)
                a = cr_sample_chance(g, st, &rng);
            else
                a = pick_random(g, st, legal, g->def->legal_actions(g, st, legal), &rng);
            /* keep about one state in eight, so the pool spans many games */
            if (n < cap && cr_rng_below(&rng, 8) == 0) {
                memcpy(pool + (size_t)n * g->state_size, st, g->state_size);
                acts[n++] = a;
            }
            g->def->apply(g, st, a, NULL);
        }
    }
out:
    cr_free(st);
    cr_free(legal);
    return n;
}

static cr_status bench_ismcts(const cr_game *g, const char *params, const char *what, long iters,
                              int np, uint64_t seed, const unsigned char *pool, int n,
                              cr_action *legal, double secs, FILE *out, char *err, size_t errcap);

cr_status cr_bench_run(const cr_bench_config *cfg, FILE *out, char *err, size_t errcap)
{
    const cr_game_def *def = cr_registry_find(cfg->game);
    if (!def) {
        snprintf(err, errcap, "unknown game: %s", cfg->game);
        return CR_ERR_INVALID;
    }
    int np = cfg->num_players;
    if (np <= 0) {
        const cr_variant *v = &def->variants[0];
        for (int i = 0; cfg->variant && i < def->n_variants; i++)
            if (strcmp(def->variants[i].name, cfg->variant) == 0) v = &def->variants[i];
        np = v->max_players;
    }
    cr_params params = {.num_players = np, .variant = cfg->variant};
    char gerr[256];
    cr_game *g = cr_game_new(def, &params, gerr, sizeof gerr);
    if (!g) {
        snprintf(err, errcap, "%s", gerr);
        return CR_ERR_INVALID;
    }
    double secs = cfg->seconds > 0 ? cfg->seconds : 2;
    int threads = cfg->threads > 0 ? cfg->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    uint64_t seed = cfg->seed ? cfg->seed : 1;

    fprintf(out, "croupier bench %s (%s, %d players)\n", def->name,
            g->variant ? g->variant->name : "?", np);
    print_machine(out);
    fprintf(out, "state:   %zu bytes (observation %zu bytes), max_legal %d\n\n", g->state_size,
            g->obs_size, g->max_legal);

    uint64_t ng, na;
    double el;
    /* Playouts as search plays them (cr_for_search states), which the
     * targets are about; then once with observation memory kept, as a
     * real game (the simulator, the CLI) plays. */
    /* One thread: five runs of secs/5 each, reported as median and best,
     * since a shared machine's speed drifts from second to second. */
    double rate[5], per_game = 0;
    for (int r = 0; r < 5; r++) {
        if (!playouts(g, 1, secs / 5, 0, seed + 10 * (uint64_t)r, 1, &ng, &na, &el)) goto nomem;
        rate[r] = (double)na / el;
        per_game = (double)na / (double)ng;
        for (int k = r; k > 0 && rate[k - 1] > rate[k]; k--) {
            double x = rate[k];
            rate[k] = rate[k - 1];
            rate[k - 1] = x;
        }
    }
    fprintf(out,
            "random playouts, 1 thread:    %10.0f games/s  %8.2fM actions/s  "
            "(median of 5 runs, best %.2fM; %.1f actions/game; target >= 10M actions/s)\n",
            rate[2] / per_game, rate[2] / 1e6, rate[4] / 1e6, per_game);
    if (!playouts(g, threads, secs, 0, seed + 1, 1, &ng, &na, &el)) goto nomem;
    double all_rate = (double)ng / el;
    fprintf(out,
            "random playouts, %d threads:   %10.0f games/s  %8.2fM actions/s  "
            "(1M games in ~%.1f s; target < 30 s)\n",
            threads, all_rate, (double)na / el / 1e6, 1e6 / all_rate);
    if (cfg->games > 0) {
        if (!playouts(g, threads, 0, cfg->games, seed + 2, 1, &ng, &na, &el)) goto nomem;
        fprintf(out, "%ld random games, %d threads: %.2f s (%.2fM actions/s)\n", cfg->games,
                threads, el, (double)na / el / 1e6);
    }
    if (!playouts(g, 1, secs, 0, seed + 3, 0, &ng, &na, &el)) goto nomem;
    fprintf(out,
            "random playouts, 1 thread, observation memory kept: %.0f games/s  %.2fM actions/s\n",
            (double)ng / el, (double)na / el / 1e6);

    /* per-call costs over a pool of real positions */
    unsigned char *pool = cr_alloc((size_t)POOL * g->state_size);
    cr_action *acts = cr_alloc(POOL * sizeof *acts);
    void *tmp = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    if (!pool || !acts || !tmp || !legal) {
        cr_free(pool);
        cr_free(acts);
        cr_free(tmp);
        cr_free(legal);
        goto nomem;
    }
    int n = collect_pool(g, seed, pool, acts, POOL, 1);
    long reps = 0;
    volatile long sink = 0;
    double t0 = sim_now(), t_legal, t_clone, t_both;
    long n_legal_calls = 0;
    do {
        for (int i = 0; i < n; i++) {
            const void *st = pool + (size_t)i * g->state_size;
            if (g->def->current_player(g, st) >= 0) {
                sink += g->def->legal_actions(g, st, legal);
                n_legal_calls++;
            }
        }
        reps++;
    } while (sim_now() - t0 < secs / 4);
    t_legal = (sim_now() - t0) / (double)(n_legal_calls ? n_legal_calls : 1);
    reps = 0;
    t0 = sim_now();
    do {
        for (int i = 0; i < n; i++) {
            memcpy(tmp, pool + (size_t)i * g->state_size, g->state_size);
            sink += ((volatile unsigned char *)tmp)[i % g->state_size];
        }
        reps++;
    } while (sim_now() - t0 < secs / 4);
    t_clone = (sim_now() - t0) / (double)(reps * n);
    reps = 0;
    t0 = sim_now();
    do {
        for (int i = 0; i < n; i++) {
            memcpy(tmp, pool + (size_t)i * g->state_size, g->state_size);
            g->def->apply(g, tmp, acts[i], NULL);
        }
        reps++;
    } while (sim_now() - t0 < secs / 4);
    t_both = (sim_now() - t0) / (double)(reps * n);
    (void)sink;
    fprintf(out, "legal_actions:  %8.1f ns/call (decision states of the pool)\n", t_legal * 1e9);
    fprintf(out, "apply:          %8.1f ns/call ((clone + apply) - clone over %d states)\n",
            (t_both - t_clone) * 1e9, n);
    fprintf(out, "clone (memcpy): %8.1f ns/call\n", t_clone * 1e9);

    /* ISMCTS on one thread, at decision states of the pool: full random
     * rollouts (the target's measure), then the default profile. */
    long iters = cfg->ismcts_iters > 0 ? cfg->ismcts_iters : 2000;
    static const char *const profiles[2][2] = {
        {"rollout=random,opponents=tree,reward=win,cutoff=0", "random rollouts to the end"},
        {"", "the default profile"}};
    /* The searches start from observations of real games: positions that
     * keep the seats' memory (a search state's observation would lack it). */
    n = collect_pool(g, seed + 5, pool, acts, POOL, 0);
    for (int k = 0; k < 2; k++)
        if (bench_ismcts(g, profiles[k][0], profiles[k][1], iters, np, seed, pool, n, legal, secs,
                         out, err, errcap) != CR_OK)
            break;
    cr_free(pool);
    cr_free(acts);
    cr_free(tmp);
    cr_free(legal);
    cr_game_free(g);
    return CR_OK;
nomem:
    cr_game_free(g);
    snprintf(err, errcap, "out of memory");
    return CR_ERR_NOMEM;
}

/* ISMCTS iterations per second on one thread with the given parameters. */
static cr_status bench_ismcts(const cr_game *g, const char *params, const char *what, long iters,
                              int np, uint64_t seed, const unsigned char *pool, int n,
                              cr_action *legal, double secs, FILE *out, char *err, size_t errcap)
{
    char spec[160];
    snprintf(spec, sizeof spec, "ismcts:iters=%ld,threads=1%s%s", iters, *params ? "," : "",
             params);
    double t0;
    void *obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    uint64_t it_total = 0;
    double it_secs = 0;
    int searches = 0;
    cr_bot *bots[CR_MAX_PLAYERS] = {0};
    for (int s = 0; s < np; s++) {
        bots[s] = cr_bot_new(g, spec, s, seed, err, errcap);
        if (!bots[s]) break;
    }
    t0 = sim_now();
    for (int i = 0; obs && bots[np - 1] && i < n && sim_now() - t0 < secs; i += 37) {
        const void *st = pool + (size_t)i * g->state_size;
        int p = g->def->current_player(g, st);
        if (p < 0) continue;
        int k = g->def->legal_actions(g, st, legal);
        if (k < 2) continue;
        g->def->observe(g, st, p, obs);
        (void)cr_bot_act(bots[p], obs, legal, k);
        cr_bot_stats bs;
        cr_bot_last_stats(bots[p], &bs);
        it_total += bs.iterations;
        it_secs += bs.seconds;
        searches++;
    }
    if (searches)
        fprintf(
            out, "ISMCTS, 1 thread: %10.0f iterations/s (%d searches of %ld iterations, %s%s)\n",
            (double)it_total / it_secs, searches, iters, what, *params ? "; target >= 20k/s" : "");
    else
        fprintf(out, "ISMCTS: not measured (%s)\n", bots[np - 1] ? "no decision state" : err);
    cr_status rc = bots[np - 1] ? CR_OK : CR_ERR_INVALID;
    for (int s = 0; s < np; s++) cr_bot_free(bots[s]);
    cr_free(obs);
    return rc;
}
