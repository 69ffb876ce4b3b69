/* bench.c — the engine's speed, measured through the game interface only:
 * random playouts per second (games and actions, one thread and all
 * threads), nanoseconds per legal_actions / apply / clone call, the state
 * size, and ISMCTS iterations per second on one thread.  An "action" is one
 * apply() call: chance outcomes and one-card steps count.
 *
 * Random playouts choose uniformly among the legal actions, skipping
 * withdraw actions when others exist (as search rollouts do), and pass no
 * event buffer.  A game with a hand-written player (cr_game_parts.heuristic)
 * also gets heuristic playouts: that player in every seat, on search
 * states, as guided ISMCTS rolls out.
 *
 * Every figure is measured directly, RUNS times, and printed as the median
 * with the spread (max - min) / median of the runs, so a reader sees at once
 * how far a figure can be trusted.  On a shared machine other processes
 * take the CPU away at random moments, so one-thread figures count the
 * thread's own CPU time (CLOCK_THREAD_CPUTIME_ID), not wall time, and
 * short segments are timed REPEATS times keeping the fastest:
 *   - apply: random games are recorded once (search states, as rollouts
 *     play them); each run replays them on a fresh state, timing only the
 *     apply loop of each game (init is outside the clock);
 *   - legal_actions and clone: the decision states met on that replay are
 *     gathered in small batches that stay in cache (as the state a search
 *     just built is), each state on its own 64-byte line, and each batch is
 *     timed over several passes;
 *   - ISMCTS: a fixed list of searches from decision states of real games
 *     (the same positions every run), counting only calls that searched,
 *     timed in CPU time of the (single) search thread.
 * The all-threads playouts are wall time: they depend on the load.
 * A long game (cr_game_parts.test_cost > 1: a random game costs that many
 * typical games, e.g. 2,500 actions with a route search in some of them)
 * gets measurements sized to it: timed playouts check their
 * deadline after every game instead of every 16, the per-call figures
 * replay 64 / cost recorded games (at least one) and time legal_actions
 * and clone on every cost-th decision state, and ISMCTS runs 2000 /
 * cost iterations a search (at least 10) unless --iters says otherwise.
 * A game without the hint is measured as before.
 * The machine (CPU count and model) and the build (CR_BUILD_TYPE,
 * CR_BUILD_FLAGS: compile definitions set by CMake) are printed with the
 * figures. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
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
    int search;          /* play search states (cr_for_search) */
    cr_policy_fn policy; /* every seat's player; NULL: uniformly random */
    int per_check;       /* timed: games between deadline checks */
    uint64_t n_games, n_actions;
    double cpu; /* CPU seconds the thread used */
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

/* Plays one random game to the end (with `policy` in every seat: its
 * game); returns the number of apply calls.  search: play a search state
 * (cr_for_search), as rollouts do. */
static uint64_t random_game(const cr_game *g, void *st, cr_action *legal, cr_rng *rng, int search,
                            cr_policy_fn policy, cr_ctx *cx)
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
            int n = g->def->legal_actions(g, st, legal, cx);
            a = policy ? policy(g, st, p, legal, n, rng) : pick_random(g, st, legal, n, rng);
        }
        g->def->apply(g, st, a, cx);
        n_act++;
    }
    return n_act;
}

/* CPU time of the calling thread, in seconds (about 1 us per call). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *playout_main(void *arg)
{
    playout_job *j = arg;
    double cpu0 = cpu_now();
    const cr_game *g = j->g;
    void *st = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_ctx *cx = cr_ctx_new(g); /* this thread's context: no events, as rollouts play */
    if (!st || !legal || !cx) {
        j->failed = 1;
        goto out;
    }
    cr_rng rng;
    if (j->next) {
        for (;;) {
            long i = atomic_fetch_add(j->next, 1);
            if (i >= j->games) break;
            cr_rng_seed(&rng, j->seed, (uint64_t)i);
            j->n_actions += random_game(g, st, legal, &rng, j->search, j->policy, cx);
            j->n_games++;
        }
    } else {
        cr_rng_seed(&rng, j->seed, j->stream);
        do {
            for (int k = 0; k < j->per_check; k++) {
                j->n_actions += random_game(g, st, legal, &rng, j->search, j->policy, cx);
                j->n_games++;
            }
        } while (sim_now() < j->deadline);
    }
out:
    cr_free(st);
    cr_free(legal);
    cr_ctx_free(cx);
    j->cpu = cpu_now() - cpu0;
    return NULL;
}

/* How many typical games one random game of g costs (the game's hint,
 * cr_game_parts.test_cost); 1 without a hint.  The hint also carries the
 * suites' caution about rare slow positions (a hint of 1000, say),
 * which a measurement of typical costs must not follow: capped at 100. */
static int game_cost(const cr_game *g)
{
    int c = cr_parts(g)->test_cost;
    return c > 100 ? 100 : c > 1 ? c : 1;
}

/* Runs playouts on `threads` threads: timed (games <= 0) or counted. */
static int playouts(const cr_game *g, int threads, double seconds, long games, uint64_t seed,
                    int search, cr_policy_fn policy, uint64_t *n_games, uint64_t *n_actions,
                    double *elapsed, double *cpu0)
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
        jobs[t].policy = policy;
        jobs[t].per_check = game_cost(g) > 1 ? 1 : 16;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, playout_main, &jobs[t]) == 0;
    playout_main(&jobs[0]);
    for (int t = 1; t < threads; t++)
        if (started[t]) pthread_join(tid[t], NULL);
    *elapsed = sim_now() - t0;
    if (cpu0) *cpu0 = jobs[0].cpu;
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

enum { POOL = 2048, RUNS = 5, ISMCTS_SEARCHES = 12 };

/* Sorts v[n] and returns its median; *spread = (max - min) / median. */
static double median_spread(double *v, int n, double *spread)
{
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
            double x = v[k];
            v[k] = v[k - 1];
            v[k - 1] = x;
        }
    double m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    *spread = m > 0 ? (v[n - 1] - v[0]) / m : 0;
    return m;
}

/* Random games recorded once (search states, as rollouts play them) and
 * replayed by the per-call measurements. */
enum { PERCALL_GAMES = 64, PERCALL_BATCH = 16, PERCALL_PASSES = 16, REPEATS = 3 };

typedef struct percall_set {
    cr_action *acts;               /* every game's actions, one after the other */
    long start[PERCALL_GAMES + 1]; /* game k is acts[start[k] .. start[k + 1]) */
    int n_games;                   /* recorded: PERCALL_GAMES / game_cost, at least 1 */
    long n_acts, n_decisions;
    long n_timed;               /* decision states legal_actions and clone are timed on */
    void *st;                   /* the replayed state */
    unsigned char *batch;       /* PERCALL_BATCH decision states, each on a cache line (stride) */
    void *copy;                 /* clone's destination, on a cache line */
    void *raw_batch, *raw_copy; /* what was allocated */
    cr_ctx *cx;                 /* the context of the timed calls */
} percall_set;

/* The distance between two timed states: the state's size rounded up to a
 * whole number of 64-byte lines. */
static size_t state_stride(const cr_game *g) { return (g->state_size + 63) & ~(size_t)63; }

static unsigned char *line_up(void *p)
{
    return p ? (unsigned char *)(((uintptr_t)p + 63) & ~(uintptr_t)63) : NULL;
}

static void percall_free(percall_set *pc)
{
    cr_free(pc->acts);
    cr_free(pc->st);
    cr_free(pc->raw_batch);
    cr_free(pc->raw_copy);
    cr_ctx_free(pc->cx);
    memset(pc, 0, sizeof *pc);
}

static int percall_record(const cr_game *g, uint64_t seed, percall_set *pc)
{
    memset(pc, 0, sizeof *pc);
    long cap = 4096;
    pc->acts = cr_alloc((size_t)cap * sizeof *pc->acts);
    pc->st = cr_alloc(g->state_size);
    /* Every timed state and the copy start on a 64-byte line, whatever the
     * state's size: clone's figure then measures the bytes copied, not
     * where malloc happened to put the buffers (a stride that is a multiple
     * of 64 would otherwise keep every source misaligned alike). */
    pc->raw_batch = cr_alloc((size_t)PERCALL_BATCH * state_stride(g) + 64);
    pc->raw_copy = cr_alloc(g->state_size + 64);
    pc->batch = line_up(pc->raw_batch);
    pc->copy = line_up(pc->raw_copy);
    pc->cx = cr_ctx_new(g);
    cr_ctx *cx = pc->cx;
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    int ok = pc->acts && pc->st && pc->batch && pc->copy && pc->cx && legal;
    cr_rng rng;
    cr_rng_seed(&rng, seed, 4242);
    int games = PERCALL_GAMES / game_cost(g);
    if (games < 1) games = 1;
    for (int k = 0; ok && k < games; k++) {
        long seen = 0; /* this game's decision states (the timed ones: percall_legal_clone) */
        g->def->init(g, pc->st);
        cr_for_search(g, pc->st);
        for (;;) {
            int p = g->def->current_player(g, pc->st);
            if (p == CR_TERMINAL) break;
            cr_action a;
            if (p == CR_CHANCE) {
                a = cr_sample_chance(g, pc->st, &rng);
            } else {
                a = pick_random(g, pc->st, legal, g->def->legal_actions(g, pc->st, legal, cx),
                                &rng);
                pc->n_decisions++;
                if (seen++ % game_cost(g) == 0) pc->n_timed++;
            }
            if (pc->n_acts == cap) {
                cr_action *more = cr_realloc(pc->acts, (size_t)cap * 2 * sizeof *more);
                if (!more) {
                    ok = 0;
                    break;
                }
                pc->acts = more;
                cap *= 2;
            }
            pc->acts[pc->n_acts++] = a;
            g->def->apply(g, pc->st, a, cx);
        }
        pc->start[k + 1] = pc->n_acts;
        pc->n_games = k + 1;
    }
    cr_free(legal);
    return ok;
}

/* Seconds per apply: replays every recorded game on a fresh state, the
 * clock around the apply loop only, each game REPEATS times keeping the
 * fastest (a replay the scheduler interrupted is slower, never faster);
 * again until `budget` seconds have passed. */
static double percall_apply(const cr_game *g, percall_set *pc, double budget)
{
    cr_ctx *cx = pc->cx;
    double timed = 0, begin = sim_now();
    long calls = 0;
    do {
        for (int k = 0; k < pc->n_games; k++) {
            double best = 1e30;
            for (int rep = 0; rep < REPEATS; rep++) {
                g->def->init(g, pc->st);
                cr_for_search(g, pc->st);
                const cr_action *a = pc->acts + pc->start[k], *end = pc->acts + pc->start[k + 1];
                double t0 = sim_now();
                for (; a < end; a++) g->def->apply(g, pc->st, *a, cx);
                double t = sim_now() - t0;
                if (t < best) best = t;
            }
            timed += best;
            calls += pc->start[k + 1] - pc->start[k];
        }
    } while (sim_now() - begin < budget);
    return timed / (double)calls;
}

/* Times legal_actions and clone over one batch of n decision states:
 * PERCALL_PASSES passes each, after one untimed pass that brings the batch
 * into cache; each timing REPEATS times, keeping the fastest. */
static void percall_batch(const cr_game *g, percall_set *pc, int n, cr_action *legal,
                          double *t_legal, double *t_clone, volatile long *sink)
{
    cr_ctx *cx = pc->cx;
    size_t sz = g->state_size;
    for (int i = 0; i < n; i++)
        *sink += g->def->legal_actions(g, pc->batch + (size_t)i * state_stride(g), legal, cx);
    double best_legal = 1e30, best_clone = 1e30;
    for (int rep = 0; rep < REPEATS; rep++) {
        double t0 = sim_now();
        for (int pass = 0; pass < PERCALL_PASSES; pass++)
            for (int i = 0; i < n; i++)
                *sink +=
                    g->def->legal_actions(g, pc->batch + (size_t)i * state_stride(g), legal, cx);
        double t1 = sim_now();
        for (int pass = 0; pass < PERCALL_PASSES; pass++)
            for (int i = 0; i < n; i++) {
                memcpy(pc->copy, pc->batch + (size_t)i * state_stride(g), sz);
                *sink += ((volatile unsigned char *)pc->copy)[(size_t)i % sz];
            }
        double t2 = sim_now();
        if (t1 - t0 < best_legal) best_legal = t1 - t0;
        if (t2 - t1 < best_clone) best_clone = t2 - t1;
    }
    *t_legal += best_legal;
    *t_clone += best_clone;
}

/* Seconds per legal_actions and per clone over the decision states of the
 * recorded games (replayed, untimed, to reach them), until `budget`. */
static void percall_legal_clone(const cr_game *g, percall_set *pc, cr_action *legal, double budget,
                                double *legal_out, double *clone_out)
{
    cr_ctx *cx = pc->cx;
    volatile long sink = 0;
    double t_legal = 0, t_clone = 0, begin = sim_now();
    long calls = 0;
    size_t sz = g->state_size;
    /* A long game: every cost-th decision state (a game's legal_actions
     * can cost far more than a typical game's; the sample is spread over the game). */
    long stride = game_cost(g);
    do {
        for (int k = 0; k < pc->n_games; k++) {
            g->def->init(g, pc->st);
            cr_for_search(g, pc->st);
            int n = 0;
            long seen = 0;
            for (long i = pc->start[k]; i < pc->start[k + 1]; i++) {
                if (g->def->current_player(g, pc->st) >= 0 && seen++ % stride == 0) {
                    memcpy(pc->batch + (size_t)n * state_stride(g), pc->st, sz);
                    if (++n == PERCALL_BATCH) {
                        percall_batch(g, pc, n, legal, &t_legal, &t_clone, &sink);
                        calls += (long)n * PERCALL_PASSES;
                        n = 0;
                    }
                }
                g->def->apply(g, pc->st, pc->acts[i], cx);
            }
            if (n) {
                percall_batch(g, pc, n, legal, &t_legal, &t_clone, &sink);
                calls += (long)n * PERCALL_PASSES;
            }
        }
    } while (sim_now() - begin < budget);
    *legal_out = t_legal / (double)calls;
    *clone_out = t_clone / (double)calls;
}

/* Collects up to POOL decision or chance states from games of random
 * players (or of `policy` in every seat), each with the action taken there. */
static int collect_pool(const cr_game *g, uint64_t seed, unsigned char *pool, cr_action *acts,
                        int cap, int search, cr_policy_fn policy)
{
    void *st = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_ctx *cx = cr_ctx_new(g);
    int n = 0;
    if (!st || !legal || !cx) goto out;
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
            else if (policy) /* on the state, as guided rollouts call it */
                a = policy(g, st, p, legal, g->def->legal_actions(g, st, legal, cx), &rng);
            else
                a = pick_random(g, st, legal, g->def->legal_actions(g, st, legal, cx), &rng);
            /* keep about one state in eight, so the pool spans many games */
            if (n < cap && cr_rng_below(&rng, 8) == 0) {
                memcpy(pool + (size_t)n * g->state_size, st, g->state_size);
                acts[n++] = a;
            }
            g->def->apply(g, st, a, cx);
        }
    }
out:
    cr_free(st);
    cr_free(legal);
    cr_ctx_free(cx);
    return n;
}

static cr_status bench_ismcts(const cr_game *g, const char *params, const char *what, long iters,
                              int np, uint64_t seed, const unsigned char *pool, int n,
                              cr_action *legal, double secs, FILE *out, char *err, size_t errcap);

/* RUNS timed playout runs of secs/RUNS each: the median rate in actions/s
 * (one thread: its CPU time, since a shared machine's speed drifts; several:
 * wall time), its spread and the actions per game.  0 when out of memory. */
static int playout_runs(const cr_game *g, int threads, double secs, uint64_t seed, int search,
                        cr_policy_fn policy, double *median, double *spread, double *per_game)
{
    double rate[RUNS], n_games = 0, n_acts = 0;
    for (int r = 0; r < RUNS; r++) {
        uint64_t ng, na;
        double el, cpu;
        if (!playouts(g, threads, secs / RUNS, 0, seed + 10 * (uint64_t)r, search, policy, &ng, &na,
                      &el, threads == 1 ? &cpu : NULL))
            return 0;
        rate[r] = (double)na / (threads == 1 ? cpu : el);
        n_games += (double)ng;
        n_acts += (double)na;
    }
    *per_game = n_acts / n_games;
    *median = median_spread(rate, RUNS, spread);
    return 1;
}

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
     * real game (the lab, the CLI) plays. */
    /* One thread: five runs of secs/5 each, reported as median and best,
     * since a shared machine's speed drifts from second to second. */
    double per_game, spread, med;
    if (!playout_runs(g, 1, secs, seed, 1, NULL, &med, &spread, &per_game)) goto nomem;
    fprintf(out,
            "random playouts, 1 thread:    %10.0f games/s  %8.2fM actions/s  "
            "(CPU time; median of %d runs, spread %.0f%%; %.1f actions/game; target >= 10M "
            "actions/s)\n",
            med / per_game, med / 1e6, RUNS, spread * 100, per_game);
    double all_per_game, all_spread, all_med;
    if (!playout_runs(g, threads, secs, seed + 1, 1, NULL, &all_med, &all_spread, &all_per_game))
        goto nomem;
    fprintf(out,
            "random playouts, %d threads:   %10.0f games/s  %8.2fM actions/s  "
            "(wall time; median of %d runs, spread %.0f%%; 1M games in ~%.1f s; target < 30 s)\n",
            threads, all_med / all_per_game, all_med / 1e6, RUNS, all_spread * 100,
            1e6 * all_per_game / all_med);
    if (cfg->games > 0) {
        if (!playouts(g, threads, 0, cfg->games, seed + 2, 1, NULL, &ng, &na, &el, NULL))
            goto nomem;
        fprintf(out, "%ld random games, %d threads: %.2f s (%.2fM actions/s)\n", cfg->games,
                threads, el, (double)na / el / 1e6);
    }
    if (!playout_runs(g, 1, secs, seed + 3, 0, NULL, &med, &spread, &per_game)) goto nomem;
    fprintf(out,
            "random playouts, 1 thread, observation memory kept: %.0f games/s  %.2fM actions/s  "
            "(CPU time; median of %d runs, spread %.0f%%)\n",
            med / per_game, med / 1e6, RUNS, spread * 100);
    /* The game's hand-written player in every seat, as guided ISMCTS
     * rolls out (search states). */
    if (cr_parts(g)->heuristic) {
        if (!playout_runs(g, 1, secs, seed + 4, 1, cr_parts(g)->heuristic, &med, &spread,
                          &per_game))
            goto nomem;
        fprintf(out,
                "heuristic playouts, 1 thread: %8.0f games/s  %8.2fM actions/s  (CPU time; median "
                "of %d runs, spread %.0f%%; %.1f actions/game; the heuristic in every seat)\n",
                med / per_game, med / 1e6, RUNS, spread * 100, per_game);
    }

    /* per-call costs, measured directly on recorded random games */
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    percall_set pc = {0};
    if (!legal || !percall_record(g, seed, &pc)) {
        cr_free(legal);
        percall_free(&pc);
        goto nomem;
    }
    double t_apply[RUNS], t_legal[RUNS], t_clone[RUNS], sp_apply, sp_legal, sp_clone;
    for (int r = 0; r < RUNS; r++) {
        t_apply[r] = percall_apply(g, &pc, secs / (2 * RUNS));
        percall_legal_clone(g, &pc, legal, secs / (2 * RUNS), &t_legal[r], &t_clone[r]);
    }
    double m_apply = median_spread(t_apply, RUNS, &sp_apply);
    double m_legal = median_spread(t_legal, RUNS, &sp_legal);
    double m_clone = median_spread(t_clone, RUNS, &sp_clone);
    fprintf(out,
            "apply:          %8.1f ns/call (replaying %ld recorded actions of %d random games "
            "on a fresh state; median of %d runs, spread %.0f%%)\n",
            m_apply * 1e9, pc.n_acts, pc.n_games, RUNS, sp_apply * 100);
    fprintf(
        out,
        "legal_actions:  %8.1f ns/call (%ld of the %ld decision states of those games, in cache; "
        "median of %d runs, spread %.0f%%)\n",
        m_legal * 1e9, pc.n_timed, pc.n_decisions, RUNS, sp_legal * 100);
    fprintf(out,
            "clone (memcpy): %8.1f ns/call (%zu bytes, source and copy in cache; median of %d "
            "runs, spread %.0f%%)\n",
            m_clone * 1e9, g->state_size, RUNS, sp_clone * 100);
    percall_free(&pc);

    unsigned char *pool = cr_alloc((size_t)POOL * g->state_size);
    cr_action *acts = cr_alloc(POOL * sizeof *acts);
    if (!pool || !acts) {
        cr_free(pool);
        cr_free(acts);
        cr_free(legal);
        goto nomem;
    }
    /* ISMCTS on one thread, at decision states of the pool: full random
     * rollouts (the target's measure), then the default profile. */
    long iters = cfg->ismcts_iters;
    if (iters <= 0) {
        iters = 2000 / game_cost(g); /* a rollout of a long game costs that much more */
        if (iters < 10) iters = 10;
    }
    /* Iterations per second with the whole budget spent (stop=full); then
     * the default as bots play it, stopping once the move is settled
     * (docs/bots.md): its time a decision is what a player waits. */
    static const char *const profiles[3][2] = {
        {"rollout=random,opponents=tree,reward=win,cutoff=0,stop=full",
         "random rollouts to the end"},
        {"stop=full", "the default profile"},
        {"", "the default profile, as bots play it (stop=early)"}};
    /* The searches start from observations of real games: positions that
     * keep the seats' memory (a search state's observation would lack it). */
    int n = collect_pool(g, seed + 5, pool, acts, POOL, 0, NULL);
    cr_status ism = CR_OK;
    for (int k = 0; k < 3 && ism == CR_OK; k++)
        ism = bench_ismcts(g, profiles[k][0], profiles[k][1], iters, np, seed, pool, n, legal, secs,
                           out, err, errcap);
    /* Random games can reach positions players never make (18Dracula: a map
     * built up everywhere, whose rampages cost the router far more): the
     * same search from positions of games between the game's own players. */
    if (ism == CR_OK && cr_parts(g)->heuristic) {
        n = collect_pool(g, seed + 5, pool, acts, POOL, 0, cr_parts(g)->heuristic);
        bench_ismcts(g, "",
                     "the default profile as bots play it, from games between heuristic players",
                     iters, np, seed, pool, n, legal, secs, out, err, errcap);
    }
    cr_free(pool);
    cr_free(acts);
    cr_free(legal);
    /* The game's own benchmarks (cr_game_parts.bench). */
    if (cr_parts(g)->bench) {
        fprintf(out, "\n%s's own figures:\n", def->name);
        cr_parts(g)->bench(g, out, secs, seed);
    }
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
    void *obs = cr_alloc(g->obs_size ? g->obs_size : 1);
    cr_ctx *cx = cr_ctx_new(g);
    uint64_t it_total = 0;
    double it_secs = 0, worst = 0;
    int searches = 0;
    cr_bot *bots[CR_MAX_PLAYERS] = {0};
    for (int s = 0; s < np; s++) {
        bots[s] = cr_bot_new(g, spec, s, seed, err, errcap);
        if (!bots[s]) break;
    }
    (void)secs;
    /* The same positions every run (the pool and the bots are seeded), so
     * the figure moves only with the machine. */
    for (int i = 0; obs && bots[np - 1] && i < n && searches < ISMCTS_SEARCHES; i += 37) {
        const void *st = pool + (size_t)i * g->state_size;
        int p = g->def->current_player(g, st);
        if (p < 0) continue;
        int k = g->def->legal_actions(g, st, legal, cx);
        if (k < 2) continue;
        g->def->observe(g, st, p, obs);
        double c0 = cpu_now(); /* threads=1: the search runs on this thread */
        (void)cr_bot_act(bots[p], obs, legal, k);
        double c1 = cpu_now();
        cr_bot_stats bs;
        cr_bot_last_stats(bots[p], &bs);
        if (bs.iterations == 0) continue; /* one option left: no search was run */
        it_total += bs.iterations;
        it_secs += c1 - c0;
        if (c1 - c0 > worst) worst = c1 - c0;
        searches++;
    }
    if (searches)
        fprintf(out,
                "ISMCTS, 1 thread: %10.0f iterations/s, %.3f s a decision (worst %.3f s) (%d "
                "searches of %ld iterations from the same positions every run, CPU time; %s%s)\n",
                (double)it_total / it_secs, it_secs / searches, worst, searches, iters, what,
                strstr(params, "rollout=random") ? "; target >= 20k/s" : "");
    else
        fprintf(out, "ISMCTS: not measured (%s)\n", bots[np - 1] ? "no decision state" : err);
    cr_status rc = bots[np - 1] ? CR_OK : CR_ERR_INVALID;
    for (int s = 0; s < np; s++) cr_bot_free(bots[s]);
    cr_free(obs);
    cr_ctx_free(cx);
    return rc;
}
