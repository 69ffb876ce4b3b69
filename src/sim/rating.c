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
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "croupier/alloc.h"
#include "croupier/rng.h"
#include "croupier/sim.h"
#include "sim/sim_internal.h"

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

/* The rating's games, by seating: bot[r][s] is the bot in seat s of
 * seating r, res[r][i] game i of it (base.games a seating), and idx[r] the
 * games of it there are (in index order, count[r] of them): those played,
 * or read. */
typedef struct rating {
    int n, np, runs;
    long games;
    uint64_t seed; /* the rating's (read: the rows' game seeds follow from it) */
    int (*bot)[CR_MAX_PLAYERS];
    cr_sim_game **res;
    long **idx;
    long *count;
} rating;

static void rating_free(rating *R)
{
    for (int k = 0; k < R->runs; k++) {
        if (R->res) cr_free(R->res[k]);
        if (R->idx) cr_free(R->idx[k]);
    }
    cr_free(R->res);
    cr_free(R->idx);
    cr_free(R->count);
    cr_free(R->bot);
}

static int fail(char *err, size_t errcap, const char *msg)
{
    if (err && errcap) snprintf(err, errcap, "%s", msg);
    return 0;
}

/* The seatings cfg plays, and room for their games: CR_OK, or
 * CR_ERR_INVALID / CR_ERR_NOMEM with err. */
static cr_status rating_init(const cr_rate_config *cfg, rating *R, char *err, size_t errcap)
{
    memset(R, 0, sizeof *R);
    int n = cfg->n_bots, np = cfg->base.num_players;
    if (n < 2 || n > CR_RATE_MAX) {
        if (err && errcap) snprintf(err, errcap, "--rate needs 2 to %d bots", CR_RATE_MAX);
        return CR_ERR_INVALID;
    }
    if (np < 2 || np > CR_MAX_PLAYERS) {
        if (err && errcap)
            snprintf(err, errcap, "rating needs a player count of 2 to %d", CR_MAX_PLAYERS);
        return CR_ERR_INVALID;
    }
    if (cfg->base.games < 1) {
        fail(err, errcap, "rating needs 1 game a seating or more");
        return CR_ERR_INVALID;
    }
    if (cfg->parts < 0 || cfg->part < 0 || (cfg->parts > 0) != (cfg->part > 0) ||
        cfg->part > cfg->parts || cfg->parts > cfg->base.games) {
        fail(err, errcap, "--part K/M needs 1 <= K <= M <= the games a seating");
        return CR_ERR_INVALID;
    }
    R->n = n;
    R->np = np;
    R->seed = cfg->base.seed;
    R->runs = cfg->rotate ? n : n * (n - 1);
    R->games = cfg->base.games;
    R->bot = cr_calloc((size_t)R->runs, sizeof *R->bot);
    R->res = cr_calloc((size_t)R->runs, sizeof *R->res);
    R->idx = cr_calloc((size_t)R->runs, sizeof *R->idx);
    R->count = cr_calloc((size_t)R->runs, sizeof *R->count);
    if (!R->bot || !R->res || !R->idx || !R->count) goto nomem;
    for (int k = 0; k < R->runs; k++) {
        R->res[k] = cr_calloc((size_t)R->games, sizeof **R->res);
        R->idx[k] = cr_calloc((size_t)R->games, sizeof **R->idx);
        if (!R->res[k] || !R->idx[k]) goto nomem;
    }
    int r = 0;
    if (cfg->rotate)
        for (; r < n; r++)
            for (int s = 0; s < np; s++) R->bot[r][s] = (s + r) % n;
    else
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                for (int swap = 0; swap < 2; swap++, r++) /* a first, then b first */
                    for (int s = 0; s < np; s++) R->bot[r][s] = (s % 2 == 0) != swap ? a : b;
    return CR_OK;
nomem:
    rating_free(R);
    fail(err, errcap, "out of memory");
    return CR_ERR_NOMEM;
}

/* Seating k's lab run: its seats and its own seed (from the rating's seed
 * and k, so every game replays with `croupier play`). */
static cr_sim_config seating_config(const cr_rate_config *cfg, const rating *R, int k)
{
    cr_sim_config c = cfg->base;
    c.n_seats = R->np;
    for (int s = 0; s < R->np; s++) c.seats[s] = cfg->bots[R->bot[k][s]];
    c.seed = cr_sim_game_seed(cfg->base.seed, k);
    c.no_per_game = 0; /* the fit reads every game's places */
    return c;
}

/* The CSV's config column for seating k: "GAME VARIANT[ (K=V,...)]:
 * SPEC;SPEC;..." (variant: the resolved name, as the run reports it; the
 * table options, and max-actions when set, in the brackets).  1, or 0 if
 * it does not fit in cap bytes (err says so). */
static int seating_text(const cr_rate_config *cfg, const rating *R, int k, const char *variant,
                        char *out, size_t cap, char *err, size_t errcap)
{
    size_t len = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        int w_ = snprintf(out + len, len < cap ? cap - len : 0, __VA_ARGS__);                      \
        if (w_ > 0) len += (size_t)w_;                                                             \
    } while (0)
    PUT("%s %s", cfg->base.game, variant);
    int n_opts = 0;
    for (int i = 0; i < cfg->base.n_options; i++, n_opts++)
        PUT("%s%s=%s", i ? "," : " (", cfg->base.options[i].key, cfg->base.options[i].value);
    if (cfg->base.max_actions > 0)
        PUT("%smax-actions=%ld", n_opts++ ? "," : " (", cfg->base.max_actions);
    if (n_opts) PUT(")");
    PUT(":");
    for (int s = 0; s < R->np; s++) PUT("%s%s", s ? ";" : " ", cfg->bots[R->bot[k][s]]);
#undef PUT
    if (len >= cap)
        return fail(err, errcap, "the bots' specs and options are too long for a rating");
    return 1;
}

/* The Bradley-Terry fit of the games there are, their intervals, and the
 * counts (out->games, pair_games_min, the entries).  With every game of
 * every seating the bootstrap draws exactly what a whole run draws, so a
 * rating put together from parts gives the whole rating's figures. */
static int rating_fit(const cr_rate_config *cfg, const rating *R, cr_rate_result *out, char *err,
                      size_t errcap)
{
    int n = R->n, np = R->np, boots = cfg->bootstrap > 0 ? cfg->bootstrap : 200;
    tally *t = cr_alloc(sizeof *t);
    double *samples = cr_alloc((size_t)boots * (size_t)n * sizeof *samples);
    double *col = cr_alloc((size_t)boots * sizeof *col);
    if (!t || !samples || !col) {
        cr_free(t);
        cr_free(samples);
        cr_free(col);
        return fail(err, errcap, "out of memory");
    }
    out->games = 0;
    out->games_planned = (long)R->runs * R->games;
    memset(t, 0, sizeof *t);
    for (int k = 0; k < R->runs; k++) {
        out->games += R->count[k];
        for (long i = 0; i < R->count[k]; i++) add_game(t, &R->res[k][R->idx[k][i]], R->bot[k], np);
    }
    double elo[CR_RATE_MAX];
    fit(t, n, elo);
    /* the games each pair met in (with a result) */
    out->pair_games_min = -1;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            long met = 0;
            for (int k = 0; k < R->runs; k++) {
                int has_a = 0, has_b = 0;
                for (int s = 0; s < np; s++) has_a |= R->bot[k][s] == a, has_b |= R->bot[k][s] == b;
                if (!has_a || !has_b) continue;
                for (long i = 0; i < R->count[k]; i++) met += R->res[k][R->idx[k][i]].rank[0] != 0;
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
    /* bootstrap over the games of each seating */
    cr_rng rng;
    cr_rng_seed(&rng, cfg->base.seed, 0x4a7e);
    for (int bs = 0; bs < boots; bs++) {
        memset(t, 0, sizeof *t);
        for (int k = 0; k < R->runs; k++)
            for (long i = 0; i < R->count[k]; i++) {
                long g = R->idx[k][cr_rng_below(&rng, (uint32_t)R->count[k])];
                add_game(t, &R->res[k][g], R->bot[k], np);
            }
        fit(t, n, samples + (size_t)bs * (size_t)n);
    }
    for (int i = 0; i < n; i++) {
        for (int bs = 0; bs < boots; bs++) col[bs] = samples[(size_t)bs * (size_t)n + (size_t)i];
        qsort(col, (size_t)boots, sizeof *col, cmp_double);
        out->e[i].lo = col[(int)(0.025 * (boots - 1) + 0.5)];
        out->e[i].hi = col[(int)(0.975 * (boots - 1) + 0.5)];
    }
    cr_free(col);
    cr_free(t);
    cr_free(samples);
    return 1;
}

cr_status cr_sim_ratings(const cr_rate_config *cfg, cr_rate_result *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    rating R;
    cr_status rc = rating_init(cfg, &R, err, errcap);
    if (rc != CR_OK) return rc;
    long first = 0, count = R.games;
    if (cfg->parts > 0) {
        first = (long)((long long)(cfg->part - 1) * R.games / cfg->parts);
        count = (long)((long long)cfg->part * R.games / cfg->parts) - first;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (cfg->csv) cr_sim_csv_header(&(cr_sim_result){.num_players = R.np}, cfg->csv);
    for (int k = 0; k < R.runs; k++) {
        cr_sim_config c = seating_config(cfg, &R, k);
        cr_sim_result part;
        rc = cr_sim_run_part(&c, first, count, &part, err, errcap);
        if (rc != CR_OK) goto done;
        memcpy(R.res[k] + first, part.per_game, (size_t)count * sizeof *part.per_game);
        for (long i = 0; i < count; i++) R.idx[k][i] = first + i;
        R.count[k] = count;
        if (cfg->csv) {
            char text[1536];
            if (!seating_text(cfg, &R, k, part.variant, text, sizeof text, err, errcap)) {
                cr_sim_result_fini(&part);
                rc = CR_ERR_INVALID;
                goto done;
            }
            cr_sim_csv_rows(&part, text, part.per_game, first, count, cfg->csv);
            /* a failed write (a full disk) must not leave a short part
             * that looks whole */
            if (fflush(cfg->csv) != 0 || ferror(cfg->csv)) {
                if (err && errcap) snprintf(err, errcap, "writing the CSV: %s", strerror(errno));
                cr_sim_result_fini(&part);
                rc = CR_ERR_IO;
                goto done;
            }
        }
        cr_sim_result_fini(&part);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (!rating_fit(cfg, &R, out, err, errcap)) rc = CR_ERR_NOMEM;
done:
    rating_free(&R);
    return rc;
}

/* ---- reading the CSV back ------------------------------------------------ */

/* The next field of a CSV line at *p (quoted with "" for a quote, or
 * bare), into out: 2 if a comma follows it (another field comes, empty
 * perhaps), 1 if the line ends, 0 if it does not fit or a quote is not
 * closed.  *p is left after the field's comma, or at the line's end. */
static int csv_field(const char **p, char *out, size_t cap)
{
    const char *s = *p;
    size_t len = 0;
    if (*s == '"') {
        for (s++;; s++) {
            if (*s == '\0' || *s == '\n' || *s == '\r') return 0;
            if (*s == '"') {
                if (s[1] != '"') break;
                s++;
            }
            if (len + 1 >= cap) return 0;
            out[len++] = *s;
        }
        s++;
        if (*s && *s != ',' && *s != '\n' && *s != '\r') return 0;
    } else {
        for (; *s && *s != ',' && *s != '\n' && *s != '\r'; s++) {
            if (len + 1 >= cap) return 0;
            out[len++] = *s;
        }
    }
    out[len] = '\0';
    *p = *s == ',' ? s + 1 : s;
    return *s == ',' ? 2 : 1;
}

/* An unsigned decimal number of digits alone, below 2^64 (1), or 0. */
static int csv_u64(const char *s, uint64_t *v)
{
    if (!*s || strlen(s) > 20) return 0;
    uint64_t x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        uint64_t d = (uint64_t)(*s - '0');
        if (x > (UINT64_MAX - d) / 10) return 0;
        x = x * 10 + d;
    }
    *v = x;
    return 1;
}

/* One file's rows into R (1), or 0 with err "PATH:LINE: reason" (path:
 * the file's name).  text[k] is seating k's config column, seen[k][i]
 * whether game i of it was read already (from this file or an earlier
 * one). */
static int read_file(FILE *f, const char *path, rating *R, char (*text)[1536], uint8_t **seen,
                     char *err, size_t errcap)
{
    char *line = NULL, field[1536];
    size_t linecap = 0;
    long lineno = 0;
    int ok = 0, col_config = -1, col_game = -1, col_seed = -1, col_rank[CR_MAX_PLAYERS];
    int ncols = 0;
    const char *why = NULL;
#define BAD(msg)                                                                                   \
    do {                                                                                           \
        why = (msg);                                                                               \
        goto out;                                                                                  \
    } while (0)
    for (int s = 0; s < CR_MAX_PLAYERS; s++) col_rank[s] = -1;
    while (getline(&line, &linecap, f) >= 0) {
        lineno++;
        const char *p = line;
        if (lineno == 1) { /* the header: where the columns are */
            for (int c = 0, more = 2; more == 2; c++, ncols++) {
                if (!(more = csv_field(&p, field, sizeof field)))
                    BAD("not a CSV header (a field does not end, or is too long)");
                int *col = NULL;
                uint64_t u;
                if (strncmp(field, "rank", 4) == 0 && csv_u64(field + 4, &u)) {
                    if (u >= (uint64_t)R->np)
                        BAD("the games have more seats than the rating's player count");
                    col = &col_rank[u];
                } else if (strcmp(field, "config") == 0) {
                    col = &col_config;
                } else if (strcmp(field, "game") == 0) {
                    col = &col_game;
                } else if (strcmp(field, "game_seed") == 0) {
                    col = &col_seed;
                }
                if (col && *col >= 0) BAD("a column comes twice in the header");
                if (col) *col = c;
            }
            if (col_config < 0 || col_game < 0 || col_seed < 0)
                BAD("not a CSV of the lab's games (no config, game or game_seed column)");
            for (int s = 0; s < R->np; s++)
                if (col_rank[s] < 0)
                    BAD("the games have fewer seats than the rating's player count");
            continue;
        }
        if (*p == '\n' || *p == '\r' || !*p) continue; /* an empty line */
        int k = -1;
        long game = -1;
        uint64_t seed = 0;
        int8_t rank[CR_MAX_PLAYERS] = {0};
        int c = 0, more = 2;
        for (; more == 2; c++) {
            if (c == ncols) BAD("a row has more columns than the header");
            if (!(more = csv_field(&p, field, sizeof field)))
                BAD("a field does not end, or is too long");
            uint64_t u;
            if (c == col_config) {
                for (k = 0; k < R->runs && strcmp(field, text[k]) != 0; k++) {
                }
                if (k == R->runs) BAD("its table is none of this rating's seatings");
            } else if (c == col_game) {
                if (!csv_u64(field, &u) || u >= (uint64_t)R->games)
                    BAD("its game number is not one of the rating's games a seating");
                game = (long)u;
            } else if (c == col_seed) {
                if (!csv_u64(field, &seed)) BAD("its game seed is not a number");
            } else {
                for (int s = 0; s < R->np; s++)
                    if (c == col_rank[s]) {
                        if (!csv_u64(field, &u) || u > (uint64_t)R->np)
                            BAD("a rank is not a place");
                        rank[s] = (int8_t)u;
                    }
            }
        }
        if (c < ncols) BAD("a row has fewer columns than the header");
        if (seed != cr_sim_game_seed(cr_sim_game_seed(R->seed, k), game))
            BAD("its game seed is not that game's under the rating's seed");
        int aborted = 0;
        for (int s = 0; s < R->np; s++) aborted += rank[s] == 0;
        if (aborted && aborted != R->np) BAD("a rank is 0 (an aborted game's) beside real places");
        if (seen[k][game]) BAD("the game comes twice");
        seen[k][game] = 1;
        memcpy(R->res[k][game].rank, rank, sizeof rank);
    }
    if (ferror(f)) {
        if (err && errcap) snprintf(err, errcap, "%s: %s", path, strerror(errno));
        goto close;
    }
    if (lineno == 0) BAD("empty, not a CSV of the lab's games");
    ok = 1;
out:
    if (why && err && errcap) snprintf(err, errcap, "%s:%ld: %s", path, lineno, why);
close:
#undef BAD
    free(line);
    return ok;
}

cr_status cr_sim_ratings_read(const cr_rate_config *cfg, const char *const *paths, int n_paths,
                              cr_rate_result *out, char *err, size_t errcap)
{
    return sim_ratings_read_streams(cfg, NULL, paths, n_paths, out, err, errcap);
}

cr_status sim_ratings_read_streams(const cr_rate_config *cfg, FILE *const *files,
                                   const char *const *names, int n_paths, cr_rate_result *out,
                                   char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (n_paths < 1) {
        fail(err, errcap, "give the CSV files of the rating's runs");
        return CR_ERR_INVALID;
    }
    rating R;
    cr_status rc = rating_init(cfg, &R, err, errcap);
    if (rc != CR_OK) return rc;
    rc = CR_ERR_INVALID;
    char(*text)[1536] = cr_calloc((size_t)R.runs, sizeof *text);
    uint8_t **seen = cr_calloc((size_t)R.runs, sizeof *seen);
    if (!text || !seen) goto nomem;
    for (int k = 0; k < R.runs; k++) {
        /* the seating as a lab run sees it: its bots checked, the variant named */
        cr_sim_config c = seating_config(cfg, &R, k);
        cr_sim_result none;
        if (cr_sim_run_part(&c, 0, 0, &none, err, errcap) != CR_OK) goto done;
        int fits = seating_text(cfg, &R, k, none.variant, text[k], sizeof *text, err, errcap);
        cr_sim_result_fini(&none);
        if (!fits) goto done;
        if (!(seen[k] = cr_calloc((size_t)R.games, 1))) goto nomem;
    }
    for (int i = 0; i < n_paths; i++) { /* one file open at a time */
        FILE *f = files ? files[i] : fopen(names[i], "r");
        if (!f) {
            if (err && errcap) snprintf(err, errcap, "%s: %s", names[i], strerror(errno));
            goto done;
        }
        int ok = read_file(f, names[i], &R, text, seen, err, errcap);
        if (!files) fclose(f);
        if (!ok) goto done;
    }
    for (int k = 0; k < R.runs; k++)
        for (long g = 0; g < R.games; g++)
            if (seen[k][g]) R.idx[k][R.count[k]++] = g;
    rc = rating_fit(cfg, &R, out, err, errcap) ? CR_OK : CR_ERR_NOMEM;
    out->files = n_paths;
    goto done;
nomem:
    fail(err, errcap, "out of memory");
    rc = CR_ERR_NOMEM;
done:
    for (int k = 0; seen && k < R.runs; k++) cr_free(seen[k]);
    cr_free(seen);
    cr_free(text);
    rating_free(&R);
    return rc;
}

void cr_sim_print_rating(const cr_rate_config *cfg, const cr_rate_result *r, FILE *f)
{
    fprintf(f, "Ratings of %d bots, %s, %d players: %ld games", r->n, cfg->base.game,
            cfg->base.num_players, r->games);
    if (r->games != r->games_planned) fprintf(f, " of the rating's %ld", r->games_planned);
    fprintf(f, " (%ld a seating, %s)", cfg->base.games,
            cfg->rotate ? "every bot at one table, one seating per bot" : "two seatings per pair");
    if (r->files)
        fprintf(f, ", read from %d file%s", r->files, r->files == 1 ? "" : "s");
    else if (cfg->parts > 0)
        fprintf(f, ", part %d of %d", cfg->part, cfg->parts);
    fprintf(f, ", seed %llu", (unsigned long long)cfg->base.seed);
    if (!r->files) fprintf(f, ", %.1f s", r->seconds);
    fprintf(f, "; every two bots met in %ld games or more\n", r->pair_games_min);
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
