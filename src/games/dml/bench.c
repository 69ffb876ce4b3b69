/* bench.c — DML's own benchmarks (cr_game_parts.bench), printed after the
 * generic figures of `croupier bench dml`: what search pays for DML's
 * hidden information.  The determinization sampler (a b-matching of the
 * unplaced cards to zones, then constraint-keeping swaps) runs once per
 * ISMCTS iteration, and the heuristic player once per rollout decision.
 * Each figure is the median of five runs over the same observations, timed
 * on the thread's CPU clock. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "croupier/alloc.h"
#include "croupier/parts.h"
#include "games/dml/dml_internal.h"

enum { DML_BENCH_OBS = 256, DML_BENCH_RUNS = 5 };

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Observations of the seat to act at decision states of random games. */
static int collect(const cr_game *g, uint64_t seed, dml_state *obs, dml_state *views, int max)
{
    dml_state st;
    cr_action legal[DML_MAX_LEGAL];
    int n = 0;
    for (uint64_t game = 0; n < max && game < 10000; game++) {
        cr_rng rng;
        cr_rng_seed(&rng, seed, 100 + game);
        g->def->init(g, &st);
        int step = 0;
        while (!cr_is_terminal(g, &st) && n < max) {
            int who = cr_current_player(g, &st);
            cr_action a;
            if (who == CR_CHANCE) {
                a = cr_sample_chance(g, &st, &rng);
            } else {
                int k = g->def->legal_actions(g, &st, legal, NULL);
                if (++step % 23 == 0) {
                    g->def->observe(g, &st, who, &obs[n]);
                    views[n] = st;
                    n++;
                }
                a = legal[cr_rng_below(&rng, (uint32_t)k)];
            }
            g->def->apply(g, &st, a, NULL);
        }
    }
    return n;
}

void dml_bench(const cr_game *g, FILE *out, double seconds, uint64_t seed)
{
    dml_state *obs = cr_alloc(DML_BENCH_OBS * sizeof *obs);
    dml_state *views = cr_alloc(DML_BENCH_OBS * sizeof *views);
    dml_state *tmp = cr_alloc(sizeof *tmp);
    cr_ctx *cx = cr_ctx_new(g);
    if (!obs || !views || !tmp || !cx) {
        fprintf(out, "  (out of memory)\n");
        goto out;
    }
    int n = collect(g, seed, obs, views, DML_BENCH_OBS);
    if (n == 0) goto out;
    double per_run = seconds / DML_BENCH_RUNS;
    double samp[DML_BENCH_RUNS], heur[DML_BENCH_RUNS];
    cr_action legal[DML_MAX_LEGAL];
    for (int r = 0; r < DML_BENCH_RUNS; r++) {
        cr_rng rng;
        cr_rng_seed(&rng, seed, (uint64_t)r);
        long calls = 0;
        double t0 = cpu_seconds(), t;
        do {
            for (int i = 0; i < n; i++) g->def->sample(g, &obs[i], &rng, tmp, cx);
            calls += n;
            t = cpu_seconds() - t0;
        } while (t < per_run / 2);
        samp[r] = t / (double)calls;
        calls = 0;
        t0 = cpu_seconds();
        do {
            for (int i = 0; i < n; i++) {
                int k = g->def->legal_actions(g, &views[i], legal, cx);
                int who = cr_current_player(g, &views[i]);
                (void)dml_heuristic(g, &obs[i], who, legal, k, &rng);
            }
            calls += n;
            t = cpu_seconds() - t0;
        } while (t < per_run / 2);
        heur[r] = t / (double)calls;
    }
    qsort(samp, DML_BENCH_RUNS, sizeof samp[0], cmp_double);
    qsort(heur, DML_BENCH_RUNS, sizeof heur[0], cmp_double);
    double ms = samp[DML_BENCH_RUNS / 2], mh = heur[DML_BENCH_RUNS / 2];
    fprintf(out,
            "  sample (determinization): %8.2f us/call (%d observations of the seat to act in "
            "random games; median of %d runs, spread %.0f%%)\n",
            ms * 1e6, n, DML_BENCH_RUNS, (samp[DML_BENCH_RUNS - 1] - samp[0]) / ms * 100);
    fprintf(out,
            "  heuristic decision:       %8.2f us/call (legal list + the heuristic player on "
            "the same observations; median of %d runs, spread %.0f%%)\n",
            mh * 1e6, DML_BENCH_RUNS, (heur[DML_BENCH_RUNS - 1] - heur[0]) / mh * 100);
out:
    cr_ctx_free(cx);
    cr_free(obs);
    cr_free(views);
    cr_free(tmp);
}
