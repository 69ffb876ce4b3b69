/* report.c — the lab's reports: the text summary, the sweep table, JSON
 * (every summary figure), CSV (one row per game) and PNG charts drawn by
 * gnuplot run as a subprocess on a script this file writes (docs/lab.md
 * explains how to read them).  The script never contains user-supplied text
 * (see "plots" below). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/sim_internal.h"

#include "croupier/text.h"

static void print_rate(FILE *f, const char *name, const cr_sim_rate *r)
{
    fprintf(f, "  %-34s %6.2f%%  [%6.2f%%, %6.2f%%]  %7ld / %-7ld  mean score %.1f\n", name,
            100 * r->rate, 100 * r->lo, 100 * r->hi, r->wins, r->games, r->mean_score);
}

void cr_sim_print(const cr_sim_result *r, FILE *f)
{
    char name[160];
    fprintf(f,
            "%s (%s), %d players: %ld games, seed %llu, %d threads, %.2f s (%.1f games/s, "
            "%.2fM actions/s)\n",
            r->game, r->variant, r->num_players, r->games, (unsigned long long)r->seed, r->threads,
            r->seconds, r->seconds > 0 ? (double)r->games / r->seconds : 0,
            r->seconds > 0 ? (double)r->total_actions / r->seconds / 1e6 : 0);
    fprintf(f, "\nWin rate by seat (95%% Wilson interval; a fair share is %.1f%%)\n",
            100.0 / r->num_players);
    for (int s = 0; s < r->num_players; s++) {
        snprintf(name, sizeof name, "P%d %s", s, r->seat_spec[s]);
        print_rate(f, name, &r->seat[s]);
    }
    if (r->n_bots < r->num_players) {
        fprintf(f, "\nWin rate by bot (all its seats)\n");
        for (int k = 0; k < r->n_bots; k++) print_rate(f, r->bot_spec[k], &r->bot[k]);
    }
    if (r->label_title) {
        fprintf(f, "\nWin rate by %s (of the seats dealt it)\n", r->label_title);
        for (int l = 0; l < r->n_labels; l++) print_rate(f, r->label_names[l], &r->label[l]);
    }
    fprintf(f, "\nHow games end\n");
    for (int k = 0; k < r->n_ends; k++)
        if (r->ends[k] || k < r->n_ends - 1)
            fprintf(f, "  %-34s %8ld  %6.2f%%\n", r->end_names[k], r->ends[k],
                    100.0 * (double)r->ends[k] / (double)r->games);
    fprintf(f, "  %-34s %8ld  %6.2f%%\n", "no winner (all causes)", r->no_winner,
            100.0 * (double)r->no_winner / (double)r->games);
    fprintf(f, "\nGame length            mean      p10      p50      p90      min      max\n");
    if (r->rounds.max > 0)
        fprintf(f, "  rounds          %9.1f %8.0f %8.0f %8.0f %8u %8u\n", r->rounds.mean,
                r->rounds.p10, r->rounds.p50, r->rounds.p90, r->rounds.min, r->rounds.max);
    fprintf(f, "  actions         %9.1f %8.0f %8.0f %8.0f %8u %8u\n", r->actions.mean,
            r->actions.p10, r->actions.p50, r->actions.p90, r->actions.min, r->actions.max);
    if (r->n_counters) {
        fprintf(f, "\nRule counts                           total   per game\n");
        for (int k = 0; k < r->n_counters; k++)
            fprintf(f, "  %-34s %10llu %10.3f\n", r->counter_names[k],
                    (unsigned long long)r->counters[k], (double)r->counters[k] / (double)r->games);
    }
    if (r->n_achievements) {
        /* earned: by all seats together; games: with at least one earner */
        fprintf(f, "\nAchievements                earned   games   per game");
        for (int s = 0; s < r->num_players; s++) fprintf(f, "      P%d", s);
        fputc('\n', f);
        for (int k = 0; k < r->n_achievements; k++) {
            fprintf(f, "  %-24s %8ld %7ld %9.4f", r->achievement_keys[k], r->achievement_total[k],
                    r->achievement_games[k], (double)r->achievement_games[k] / (double)r->games);
            for (int s = 0; s < r->num_players; s++) fprintf(f, " %7ld", r->achievement_seat[k][s]);
            fputc('\n', f);
        }
    }
}

void cr_sim_print_sweep(const cr_sim_result *r, int n, const char *vary_key,
                        const char *const *vary_values, int seat, FILE *f)
{
    fprintf(f, "Sweep over %s (%ld games each, seed %llu): win rate of P%d\n", vary_key,
            n ? r[0].games : 0, n ? (unsigned long long)r[0].seed : 0ULL, seat);
    fprintf(f, "  %-32s %8s %19s %9s %9s %9s %10s\n", "value", "win", "95% interval", "no winner",
            "rounds", "actions", "games/s");
    for (int i = 0; i < n; i++) {
        const cr_sim_rate *s = &r[i].seat[seat];
        fprintf(f, "  %-32s %7.2f%% [%6.2f%%,%6.2f%%] %8.2f%% %9.1f %9.1f %10.0f\n", vary_values[i],
                100 * s->rate, 100 * s->lo, 100 * s->hi,
                100.0 * (double)r[i].no_winner / (double)r[i].games, r[i].rounds.mean,
                r[i].actions.mean, r[i].seconds > 0 ? (double)r[i].games / r[i].seconds : 0);
    }
}

/* One table row: a title, then per configuration a rate with its interval. */
static void rule_row(FILE *f, const char *title, const cr_sim_rate *const *rates, int n)
{
    fprintf(f, "  %-34.34s", title);
    for (int i = 0; i < n; i++)
        fprintf(f, " %6.2f [%6.2f,%6.2f]", 100 * rates[i]->rate, 100 * rates[i]->lo,
                100 * rates[i]->hi);
    fputc('\n', f);
}

void cr_sim_print_sweep_rules(const cr_sim_result *r, int n, const char *vary_key,
                              const char *const *vary_values, FILE *f)
{
    if (n < 1) return;
    enum { MAXN = 64 };
    if (n > MAXN) n = MAXN;
    cr_sim_rate cell[MAXN];
    const cr_sim_rate *rates[MAXN];
    for (int i = 0; i < n; i++) rates[i] = &cell[i];
    fprintf(f, "\n%s, side by side: %% [95%% interval]\n  %-34s", vary_key, "");
    for (int i = 0; i < n; i++) fprintf(f, " %-22.22s", vary_values[i]);
    fputc('\n', f);
    fprintf(f, "  wins by seat\n");
    for (int s = 0; s < r[0].num_players; s++) {
        char title[32];
        snprintf(title, sizeof title, "  P%d", s);
        for (int i = 0; i < n; i++) cell[i] = r[i].seat[s];
        rule_row(f, title, rates, n);
    }
    fprintf(f, "  how games end\n");
    for (int e = 0; e < r[0].n_ends; e++) {
        char title[64];
        snprintf(title, sizeof title, "  %s", r[0].end_names[e]);
        for (int i = 0; i < n; i++) {
            memset(&cell[i], 0, sizeof cell[i]);
            cell[i].wins = e < r[i].n_ends ? r[i].ends[e] : 0;
            cell[i].games = r[i].games;
            cell[i].rate = r[i].games ? (double)cell[i].wins / (double)r[i].games : 0;
            cr_sim_wilson(cell[i].wins, cell[i].games, &cell[i].lo, &cell[i].hi);
        }
        rule_row(f, title, rates, n);
    }
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
    cr_text t = CR_TEXT_INIT;
    cr_text_json_str(&t, s ? s : "");
    fputs(cr_text_str(&t), f);
    cr_text_free(&t);
}

static void json_rate(FILE *f, const cr_sim_rate *r)
{
    fprintf(f,
            "\"wins\": %ld, \"games\": %ld, \"rate\": %.6f, \"ci95\": [%.6f, %.6f], "
            "\"mean_score\": %.4f",
            r->wins, r->games, r->rate, r->lo, r->hi, r->mean_score);
}

static void json_dist(FILE *f, const char *name, const cr_sim_dist *d)
{
    fprintf(f,
            "    \"%s\": {\"mean\": %.4f, \"p10\": %.0f, \"p50\": %.0f, \"p90\": %.0f, "
            "\"min\": %u, \"max\": %u}",
            name, d->mean, d->p10, d->p50, d->p90, d->min, d->max);
}

static void json_result(FILE *f, const cr_sim_result *r)
{
    fprintf(f, "{\n    \"game\": ");
    json_str(f, r->game);
    fprintf(f, ", \"variant\": ");
    json_str(f, r->variant);
    fprintf(f, ", \"players\": %d, \"games\": %ld, \"seed\": %llu, \"threads\": %d,\n",
            r->num_players, r->games, (unsigned long long)r->seed, r->threads);
    fprintf(f, "    \"seconds\": %.4f, \"actions_total\": %llu,\n", r->seconds,
            (unsigned long long)r->total_actions);
    fprintf(f, "    \"seats\": [\n");
    for (int s = 0; s < r->num_players; s++) {
        fprintf(f, "      {\"seat\": %d, \"bot\": ", s);
        json_str(f, r->seat_spec[s]);
        fprintf(f, ", ");
        json_rate(f, &r->seat[s]);
        fprintf(f, "}%s\n", s + 1 < r->num_players ? "," : "");
    }
    fprintf(f, "    ],\n    \"bots\": [\n");
    for (int k = 0; k < r->n_bots; k++) {
        fprintf(f, "      {\"bot\": ");
        json_str(f, r->bot_spec[k]);
        fprintf(f, ", ");
        json_rate(f, &r->bot[k]);
        fprintf(f, "}%s\n", k + 1 < r->n_bots ? "," : "");
    }
    fprintf(f, "    ],\n    \"labels\": {\"title\": ");
    json_str(f, r->label_title ? r->label_title : "");
    fprintf(f, ", \"rates\": [\n");
    for (int l = 0; l < r->n_labels; l++) {
        fprintf(f, "      {\"label\": ");
        json_str(f, r->label_names[l]);
        fprintf(f, ", ");
        json_rate(f, &r->label[l]);
        fprintf(f, "}%s\n", l + 1 < r->n_labels ? "," : "");
    }
    fprintf(f, "    ]},\n    \"ends\": {");
    for (int k = 0; k < r->n_ends; k++) {
        json_str(f, r->end_names[k]);
        fprintf(f, ": %ld, ", r->ends[k]);
    }
    fprintf(f, "\"no winner\": %ld},\n", r->no_winner);
    json_dist(f, "rounds", &r->rounds);
    fprintf(f, ",\n");
    json_dist(f, "actions", &r->actions);
    fprintf(f, ",\n    \"counts\": {");
    for (int k = 0; k < r->n_counters; k++) {
        json_str(f, r->counter_names[k]);
        fprintf(f, ": %llu%s", (unsigned long long)r->counters[k],
                k + 1 < r->n_counters ? ", " : "");
    }
    fprintf(f, "},\n    \"achievements\": [");
    for (int k = 0; k < r->n_achievements; k++) {
        fprintf(f, "%s\n      {\"key\": ", k ? "," : "");
        json_str(f, r->achievement_keys[k]);
        fprintf(f, ", \"title\": ");
        json_str(f, r->achievement_titles[k]);
        fprintf(f, ", \"earned\": %ld, \"games\": %ld, \"seats\": [", r->achievement_total[k],
                r->achievement_games[k]);
        for (int s = 0; s < r->num_players; s++)
            fprintf(f, "%s%ld", s ? ", " : "", r->achievement_seat[k][s]);
        fprintf(f, "]}");
    }
    fprintf(f, "%s]\n  }", r->n_achievements ? "\n    " : "");
}

cr_status cr_sim_write_json(const cr_sim_result *r, int n, const char *vary_key,
                            const char *const *vary_values, const char *path, char *err,
                            size_t errcap)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return CR_ERR_IO;
    }
    if (!vary_key && n == 1) {
        fprintf(f, "{\"result\": ");
        json_result(f, &r[0]);
        fprintf(f, "}\n");
    } else {
        fprintf(f, "{\"vary\": ");
        json_str(f, vary_key ? vary_key : "");
        fprintf(f, ", \"configs\": [\n");
        for (int i = 0; i < n; i++) {
            fprintf(f, "  {\"value\": ");
            json_str(f, vary_values ? vary_values[i] : "");
            fprintf(f, ", \"result\": ");
            json_result(f, &r[i]);
            fprintf(f, "}%s\n", i + 1 < n ? "," : "");
        }
        fprintf(f, "]}\n");
    }
    if (fclose(f) != 0) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return CR_ERR_IO;
    }
    return CR_OK;
}

/* ---- CSV ------------------------------------------------------------------ */

void cr_sim_csv_header(const cr_sim_result *r, FILE *f)
{
    int np = r ? r->num_players : 0;
    fprintf(f, "config,game,game_seed,winner,end,rounds,actions");
    for (int s = 0; s < np; s++) fprintf(f, ",return%d,score%d,rank%d,label%d", s, s, s, s);
    /* the keys a seat earned, separated by spaces */
    for (int s = 0; s < np; s++) fprintf(f, ",achievements%d", s);
    fprintf(f, "\n");
}

void cr_sim_csv_rows(const cr_sim_result *r, const char *config, const cr_sim_game *games,
                     long first_game, long n, FILE *f)
{
    for (long k = 0; k < n; k++) {
        const cr_sim_game *gm = &games[k];
        /* game_seed: `croupier play --seed` with it and the same seats
         * plays this game again, move for move */
        long game = first_game + k; /* its index in the whole run */
        fputc('"', f);              /* quoted, a quote in it doubled */
        for (const char *c = config; *c; c++) {
            if (*c == '"') fputc('"', f);
            fputc(*c, f);
        }
        fprintf(f, "\",%ld,%llu,%d,\"%s\",%u,%u", game,
                (unsigned long long)cr_sim_game_seed(r->seed, game), gm->winner,
                r->end_names[gm->end], gm->rounds, gm->actions);
        for (int s = 0; s < r->num_players; s++)
            fprintf(f, ",%g,%d,%d,%s", (double)gm->returns[s], gm->score[s], gm->rank[s],
                    gm->label[s] >= 0 && gm->label[s] < r->n_labels ? r->label_names[gm->label[s]]
                                                                    : "");
        for (int s = 0; s < r->num_players; s++) {
            fputc(',', f);
            for (int a = 0, first = 1; a < r->n_achievements; a++)
                if (gm->achieved[s] >> a & 1) {
                    fprintf(f, "%s%s", first ? "" : " ", r->achievement_keys[a]);
                    first = 0;
                }
        }
        fprintf(f, "\n");
    }
}

cr_status cr_sim_write_csv(const cr_sim_result *r, int n, const char *const *vary_values,
                           const char *path, char *err, size_t errcap)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return CR_ERR_IO;
    }
    cr_sim_csv_header(n ? &r[0] : NULL, f);
    for (int i = 0; i < n; i++) {
        if (!r[i].per_game && r[i].games > 0) {
            fclose(f);
            snprintf(err, errcap, "%s: the run kept no result per game", path);
            return CR_ERR_INVALID;
        }
        cr_sim_csv_rows(&r[i], vary_values ? vary_values[i] : "default", r[i].per_game,
                        r[i].first_game, r[i].games, f);
    }
    if (fclose(f) != 0) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return CR_ERR_IO;
    }
    return CR_OK;
}

/* ---- plots -----------------------------------------------------------------
 *
 * No user-supplied text is ever pasted into the gnuplot script: the script,
 * its data and its PNGs have fixed names inside DIR, gnuplot runs as a child
 * (fork + execv, no shell) whose working directory is DIR, and the one title
 * that quotes user text (the bot or value of the length chart) reaches it as
 * a command-line argument (`gnuplot -c plots.gp TITLE`, read as ARG1).  Labels
 * in the data files have their quotes and control characters replaced. */

/* The gnuplot executable on PATH, into buf; 0 if there is none. */
static int find_gnuplot(char *buf, size_t cap)
{
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        int n = snprintf(buf, cap, "%.*s/gnuplot", (int)len, path);
        if (len > 0 && path[0] == '/' && n > 0 && (size_t)n < cap && access(buf, X_OK) == 0)
            return 1;
        path += len;
        if (*path == ':') path++;
    }
    return 0;
}

cr_status cr_sim_plot_prepare(const char *dir, int *created, char *err, size_t errcap)
{
    char exe[1024];
    *created = 0;
    if (!find_gnuplot(exe, sizeof exe)) {
        snprintf(err, errcap, "gnuplot not found: no plots drawn (apt-get install gnuplot-nox)");
        return CR_ERR_UNSUPPORTED;
    }
    if (dir[0] == '\0') {
        snprintf(err, errcap, "--plots: empty directory name");
        return CR_ERR_IO;
    }
    if (mkdir(dir, 0777) == 0) {
        *created = 1;
    } else if (errno != EEXIST) {
        snprintf(err, errcap, "cannot create the plot directory %s: %s", dir, strerror(errno));
        return CR_ERR_IO;
    }
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(err, errcap, "the plot directory %s is not a directory", dir);
        return CR_ERR_IO;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, errcap, "cannot write into the plot directory %s: %s", dir, strerror(errno));
        return CR_ERR_IO;
    }
    return CR_OK;
}

static cr_status run_gnuplot(const char *exe, const char *dir, const char *title, char *err,
                             size_t errcap)
{
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errcap, "fork: %s", strerror(errno));
        return CR_ERR_IO;
    }
    if (pid == 0) {
        if (chdir(dir) != 0) _exit(126);
        char *const argv[] = {"gnuplot", "-c", "plots.gp", (char *)title, NULL};
        execv(exe, argv);
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, errcap, "gnuplot failed on plots.gp in %s", dir);
        return CR_ERR_IO;
    }
    return CR_OK;
}

static FILE *open_in(const char *dir, const char *name)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path) return NULL;
    return fopen(path, "w");
}

/* A label for a data file: inside double quotes, so no '"', and no line
 * breaks or other control characters. */
static void dat_label(FILE *f, const char *prefix, const char *text)
{
    fputc('"', f);
    fputs(prefix, f);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        fputc(*p == '"' || *p < 0x20 || *p == 0x7F ? '?' : *p, f);
    fputc('"', f);
}

cr_status cr_sim_plot(const cr_sim_result *r, int n, const char *vary_key,
                      const char *const *vary_values, const char *dir, char *err, size_t errcap)
{
    int created;
    cr_status ps = cr_sim_plot_prepare(dir, &created, err, errcap);
    if (ps != CR_OK) return ps;
    char exe[1024];
    if (!find_gnuplot(exe, sizeof exe)) {
        snprintf(err, errcap, "gnuplot not found: no plots drawn (apt-get install gnuplot-nox)");
        return CR_ERR_UNSUPPORTED;
    }
    FILE *fr = open_in(dir, "winrates.dat");
    FILE *fl = open_in(dir, "length.dat");
    FILE *fs = open_in(dir, "plots.gp");
    if (!fr || !fl || !fs) {
        if (fr) fclose(fr);
        if (fl) fclose(fl);
        if (fs) fclose(fs);
        snprintf(err, errcap, "%s: cannot write the plot files", dir);
        return CR_ERR_IO;
    }
    int sweep = vary_key != NULL && n > 1;
    /* win rates: "index label rate lo hi" */
    if (sweep) {
        int seat = 0;
        if (strncmp(vary_key, "seat", 4) == 0) seat = atoi(vary_key + 4);
        for (int i = 0; i < n; i++) {
            fprintf(fr, "%d ", i);
            dat_label(fr, "", vary_values[i]);
            fprintf(fr, " %.6f %.6f %.6f\n", 100 * r[i].seat[seat].rate, 100 * r[i].seat[seat].lo,
                    100 * r[i].seat[seat].hi);
        }
    } else {
        int k = 0;
        for (int s = 0; s < r[0].num_players; s++, k++) {
            char prefix[16];
            snprintf(prefix, sizeof prefix, "P%d ", s);
            fprintf(fr, "%d ", k);
            dat_label(fr, prefix, r[0].seat_spec[s]);
            fprintf(fr, " %.6f %.6f %.6f\n", 100 * r[0].seat[s].rate, 100 * r[0].seat[s].lo,
                    100 * r[0].seat[s].hi);
        }
        for (int l = 0; l < r[0].n_labels; l++, k++) {
            fprintf(fr, "%d ", k);
            dat_label(fr, "", r[0].label_names[l]);
            fprintf(fr, " %.6f %.6f %.6f\n", 100 * r[0].label[l].rate, 100 * r[0].label[l].lo,
                    100 * r[0].label[l].hi);
        }
    }
    /* length histogram of the first configuration: rounds if known, else actions */
    int by_rounds = r[0].rounds.max > 0;
    uint32_t maxv = by_rounds ? r[0].rounds.max : r[0].actions.max;
    uint32_t width = by_rounds ? 1 : (maxv / 60 + 1);
    long *hist = calloc(maxv / width + 2, sizeof *hist);
    if (hist) { /* from the tally's histogram: every run keeps it */
        const sim_tally *t = r[0].tally;
        int k = by_rounds ? 0 : 1;
        for (uint32_t v = 0; t && v < t->cap[k] && v <= maxv; v++) hist[v / width] += t->hist[k][v];
        for (uint32_t b = 0; b <= maxv / width; b++) fprintf(fl, "%u %ld\n", b * width, hist[b]);
        free(hist);
    }
    int data_ok = !ferror(fr) && !ferror(fl);
    data_ok &= fclose(fr) == 0;
    data_ok &= fclose(fl) == 0;
    /* Everything below is our own text; the only user text is ARG1. */
    fprintf(fs,
            "set terminal pngcairo size 1000,600 noenhanced\n"
            "set datafile separator whitespace\n"
            "set grid ytics\n"
            "set output 'winrates.png'\n"
            "set title '%s'\n"
            "set ylabel 'win rate (%%), 95%% Wilson interval'\n"
            "set xtics rotate by -30\n"
            "set yrange [0:*]\n"
            "set boxwidth 0.6\n"
            "set style fill solid 0.5\n"
            "plot 'winrates.dat' using 1:3:xtic(2) with boxes notitle, "
            "'' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 7 notitle, "
            "%.4f with lines dt 2 lc rgb 'red' title 'fair share'\n",
            sweep ? "Win rate of the varied seat per configuration"
                  : "Win rate by seat and by Merchant King",
            100.0 / r[0].num_players);
    fprintf(fs,
            "set output 'length.png'\n"
            "set title ARG1\n"
            "set xlabel '%s'\n"
            "set ylabel 'games'\n"
            "set xtics norotate\n"
            "set xrange [0:*]\n"
            "set yrange [0:*]\n"
            "set boxwidth %u\n"
            "plot 'length.dat' using 1:2 with boxes notitle\n",
            by_rounds ? "rounds" : "actions", width);
    data_ok &= !ferror(fs);
    data_ok &= fclose(fs) == 0;
    if (!data_ok) {
        snprintf(err, errcap, "%s: cannot write the plot files", dir);
        return CR_ERR_IO;
    }
    char title[512];
    snprintf(title, sizeof title, "Game length (%s%s, %ld games)",
             sweep ? "first configuration: " : "P0 ", sweep ? vary_values[0] : r[0].seat_spec[0],
             r[0].games);
    return run_gnuplot(exe, dir, title, err, errcap);
}
