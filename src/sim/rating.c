/* rating.c — the lab's rating mode (croupier sim GAME --rate A,B,...):
 * ratings of bots or tiers from a round-robin of seat mixtures.
 *
 * Schedule.  For every pair of bots (a, b) two runs of cfg->games games:
 * seats alternate a, b, a, b, ... and then b, a, b, a, ... (so neither owns
 * the first seat).  Or, with cfg->rotate, one run per bot k: bot
 * (s + k) mod n in seat s, so every bot sits at one table, in each seat in
 * turn, and one game counts for every pair at its table (with more bots
 * than seats, each seating leaves some out, and every pair still meets).
 * Each run is an ordinary lab run (cr_sim_run_part) with its own seed,
 * derived from the rating's seed and the run's index: every game can be
 * replayed with `croupier play`.
 *
 * Model.  Each game is read as pairwise results between seats of different
 * bots: the seat placed higher (cr_sim_game.rank, the game's own ranking by
 * its result and scores) beats the other, a shared place is half a win each
 * (a multi-player game gives several pairs, and two seats that both lost
 * are still told apart, as a finishing order would).  The
 * Bradley-Terry strengths gamma are fitted by Hunter's MM iteration,
 *   gamma_i <- W_i / sum_j N_ij / (gamma_i + gamma_j),
 * with one virtual draw added to every pair that met (a weak prior that
 * keeps a bot that never won finite), and reported on the Elo scale,
 * 400 log10(gamma), shifted so the ratings average 1500.  The intervals are
 * the 2.5% and 97.5% points of the ratings over bootstrap resamples of the
 * games (each run's games drawn with replacement), which carries the
 * correlation between the pairs of one game.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "croupier/alloc.h"
#include "croupier/rng.h"
#include "croupier/sim.h"

/* The pairwise results of one game, per pair of bots: score[i][j] is i's
 * half-points against j, meet[i][j] the pairs. */
typedef struct tally {
    double score[CR_RATE_MAX][CR_RATE_MAX];
    double meet[CR_RATE_MAX][CR_RATE_MAX];
} tally;

static void add_game(tally *t, const cr_sim_game *gm, const int *bot, int np)
{
    if (gm->rank[0] == 0) return; /* aborted: no result */
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++) {
            int a = bot[i], b = bot[j];
            if (a == b) continue;
            double s = gm->rank[i] < gm->rank[j] ? 1 : gm->rank[i] > gm->rank[j] ? 0 : 0.5;
            t->score[a][b] += s;
            t->score[b][a] += 1 - s;
            t->meet[a][b] += 1;
            t->meet[b][a] += 1;
        }
}

/* Bradley-Terry by MM, on the Elo scale averaging 1500. */
static void fit(const tally *t, int n, double *elo)
{
    double w[CR_RATE_MAX], m[CR_RATE_MAX][CR_RATE_MAX], g[CR_RATE_MAX];
    for (int i = 0; i < n; i++) {
        w[i] = 0;
        g[i] = 1;
        for (int j = 0; j < n; j++) {
            int met = i != j && t->meet[i][j] > 0;
            m[i][j] = met ? t->meet[i][j] + 1 : 0; /* one virtual draw */
            w[i] += met ? t->score[i][j] + 0.5 : 0;
        }
    }
    for (int it = 0; it < 1000; it++) {
        double change = 0, logsum = 0;
        for (int i = 0; i < n; i++) {
            double d = 0;
            for (int j = 0; j < n; j++)
                if (m[i][j] > 0) d += m[i][j] / (g[i] + g[j]);
            double ng = d > 0 ? w[i] / d : g[i];
            change += fabs(log(ng) - log(g[i]));
            g[i] = ng;
        }
        for (int i = 0; i < n; i++) logsum += log(g[i]);
        for (int i = 0; i < n; i++) g[i] /= exp(logsum / n);
        if (change < 1e-10) break;
    }
    double mean = 0;
    for (int i = 0; i < n; i++) mean += elo[i] = 400 * log10(g[i]);
    mean /= n;
    for (int i = 0; i < n; i++) elo[i] += 1500 - mean;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

cr_status cr_sim_ratings(const cr_rate_config *cfg, cr_rate_result *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    int n = cfg->n_bots;
    if (n < 2 || n > CR_RATE_MAX) {
        if (err && errcap) snprintf(err, errcap, "--rate needs 2 to %d bots", CR_RATE_MAX);
        return CR_ERR_INVALID;
    }
    int np = cfg->base.num_players;
    if (np < 2) {
        if (err && errcap) snprintf(err, errcap, "rating needs a player count of 2 or more");
        return CR_ERR_INVALID;
    }
    int runs = cfg->rotate ? n : n * (n - 1), boots = cfg->bootstrap > 0 ? cfg->bootstrap : 200;
    long games = cfg->base.games;
    /* per run: the bots by seat, and the per-game results */
    int(*bot)[CR_MAX_PLAYERS] = cr_calloc((size_t)runs, sizeof *bot);
    cr_sim_game **res = cr_calloc((size_t)runs, sizeof *res);
    tally *t = cr_alloc(sizeof *t);
    double *samples = cr_alloc((size_t)boots * (size_t)n * sizeof *samples);
    cr_status rc = CR_OK;
    if (!bot || !res || !t || !samples) {
        rc = CR_ERR_NOMEM;
        if (err && errcap) snprintf(err, errcap, "out of memory");
        goto done;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* the seatings: bot[r][s], the bot in seat s of run r */
    int r = 0;
    if (cfg->rotate)
        for (; r < n; r++)
            for (int s = 0; s < np; s++) bot[r][s] = (s + r) % n;
    else
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                for (int swap = 0; swap < 2; swap++, r++) /* a first, then b first */
                    for (int s = 0; s < np; s++) bot[r][s] = (s % 2 == 0) != swap ? a : b;
    for (r = 0; r < runs; r++) {
        cr_sim_config c = cfg->base;
        c.n_seats = np;
        for (int s = 0; s < np; s++) c.seats[s] = cfg->bots[bot[r][s]];
        c.seed = cr_sim_game_seed(cfg->base.seed, r); /* this run's own seed */
        cr_sim_result part;
        rc = cr_sim_run_part(&c, 0, games, &part, err, errcap);
        if (rc != CR_OK) goto done;
        res[r] = part.per_game;
        part.per_game = NULL;
        out->games += part.games;
        cr_sim_result_fini(&part);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    /* the fit on every game */
    memset(t, 0, sizeof *t);
    for (int k = 0; k < runs; k++)
        for (long i = 0; i < games; i++) add_game(t, &res[k][i], bot[k], np);
    double elo[CR_RATE_MAX];
    fit(t, n, elo);
    /* the games each pair met in (with a result) */
    out->pair_games_min = -1;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            long met = 0;
            for (int k = 0; k < runs; k++) {
                int has_a = 0, has_b = 0;
                for (int s = 0; s < np; s++) has_a |= bot[k][s] == a, has_b |= bot[k][s] == b;
                if (!has_a || !has_b) continue;
                for (long i = 0; i < games; i++) met += res[k][i].rank[0] != 0;
            }
            if (out->pair_games_min < 0 || met < out->pair_games_min) out->pair_games_min = met;
        }
    out->n = n;
    for (int i = 0; i < n; i++) {
        cr_rate_entry *e = &out->e[i];
        snprintf(e->spec, sizeof e->spec, "%s", cfg->bots[i]);
        e->elo = elo[i];
        double s = 0, m = 0;
        for (int j = 0; j < n; j++) {
            s += t->score[i][j];
            m += t->meet[i][j];
        }
        e->pairs = (long)m;
        e->score = m > 0 ? s / m : 0;
    }
    /* bootstrap over the games of each run */
    cr_rng rng;
    cr_rng_seed(&rng, cfg->base.seed, 0x4a7e);
    for (int bs = 0; bs < boots; bs++) {
        memset(t, 0, sizeof *t);
        for (int k = 0; k < runs; k++)
            for (long i = 0; i < games; i++)
                add_game(t, &res[k][cr_rng_below(&rng, (uint32_t)games)], bot[k], np);
        fit(t, n, samples + (size_t)bs * (size_t)n);
    }
    double *col = cr_alloc((size_t)boots * sizeof *col);
    if (!col) {
        rc = CR_ERR_NOMEM;
        if (err && errcap) snprintf(err, errcap, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        for (int bs = 0; bs < boots; bs++) col[bs] = samples[(size_t)bs * (size_t)n + (size_t)i];
        qsort(col, (size_t)boots, sizeof *col, cmp_double);
        out->e[i].lo = col[(int)(0.025 * (boots - 1) + 0.5)];
        out->e[i].hi = col[(int)(0.975 * (boots - 1) + 0.5)];
    }
    cr_free(col);
done:
    for (int k = 0; res && k < runs; k++) cr_free(res[k]);
    cr_free(res);
    cr_free(bot);
    cr_free(t);
    cr_free(samples);
    return rc;
}

void cr_sim_print_rating(const cr_rate_config *cfg, const cr_rate_result *r, FILE *f)
{
    fprintf(f,
            "Ratings of %d bots, %s, %d players: %ld games (%ld a seating, %s), seed %llu, "
            "%.1f s; every two bots met in %ld games or more\n",
            r->n, cfg->base.game, cfg->base.num_players, r->games, cfg->base.games,
            cfg->rotate ? "every bot at one table, one seating per bot" : "two seatings per pair",
            (unsigned long long)cfg->base.seed, r->seconds, r->pair_games_min);
    fprintf(f, "Bradley-Terry on the pairwise results within each game, Elo scale (mean 1500), "
               "95%% bootstrap interval over games\n");
    int order[CR_RATE_MAX];
    for (int i = 0; i < r->n; i++) order[i] = i;
    for (int i = 1; i < r->n; i++) /* strongest first */
        for (int j = i; j > 0 && r->e[order[j]].elo > r->e[order[j - 1]].elo; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    fprintf(f, "  %-28s %7s  %-16s %8s  %s\n", "bot", "rating", "interval", "pairs",
            "pairwise score");
    for (int k = 0; k < r->n; k++) {
        const cr_rate_entry *e = &r->e[order[k]];
        char iv[32];
        snprintf(iv, sizeof iv, "[%.0f, %.0f]", e->lo, e->hi);
        fprintf(f, "  %-28s %7.0f  %-16s %8ld  %5.1f%%\n", e->spec, e->elo, iv, e->pairs,
                100 * e->score);
    }
}
