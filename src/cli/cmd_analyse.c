/* cmd_analyse.c — `croupier analyse RECORD --as SEAT`: the coach.  Each
 * decision the seat made in the recorded game is evaluated by search from
 * what the seat knew then (croupier/analysis.h): the estimated win chance
 * of the move played and of the best one, a mark for a doubtful move (?)
 * and a blunder (??), and a summary (the error rate, as gnubg reports it:
 * the clear losses per decision in thousandths of a win).  --json prints the
 * same for tools.  A client of the public API only.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "croupier/alloc.h"
#include "croupier/analysis.h"
#include "croupier/match.h"

const char cmd_analyse_usage[] =
    "usage: croupier analyse FILE --as SEAT [--iters N] [--threads T] [--seed S] [--json]\n"
    "\n"
    "Evaluates every decision SEAT made in the game record FILE (one with two or\n"
    "more choices) by ISMCTS search from what that seat knew at the time: the\n"
    "estimated win chance of the move played and of the best move, the loss\n"
    "between them, '?' for a doubtful move (a loss of 4 points of win chance or\n"
    "more) and '?\?' for a blunder (10 or more), a loss counted only when it\n"
    "exceeds twice its standard error.  The summary gives the error rate: those\n"
    "losses per decision, in thousandths of a win.  The same record, seat,\n"
    "options and seed always give the same analysis.\n"
    "\n"
    "options:\n"
    "  --as SEAT       the seat to analyse (0, 1, ... or P0, P1, ...)\n"
    "  --iters N       search iterations per decision (default 1000)\n"
    "  --threads T     search threads (default 1)\n"
    "  --seed S        the analysis's seed (default 1)\n"
    "  --json          one JSON object: the decisions and the summary\n"
    "  --board FILE    the game's board file, when the record's is elsewhere\n";

static const char *mark_text(cr_move_mark m)
{
    return m == CR_MOVE_BLUNDER ? "?\?" : m == CR_MOVE_DOUBTFUL ? "?" : "";
}

static const char *mark_word(cr_move_mark m)
{
    return m == CR_MOVE_BLUNDER ? "blunder" : m == CR_MOVE_DOUBTFUL ? "doubtful" : "fine";
}

typedef struct progress {
    int on, last;
} progress;

static int show_progress(void *ctx, int done, int total)
{
    progress *p = ctx;
    int pct = total ? 100 * done / total : 100;
    if (!p->on || pct == p->last) return 0;
    p->last = pct;
    fprintf(stderr, "\ranalysing: %3d%%", pct);
    if (done == total) fprintf(stderr, "\r               \r");
    return 0;
}

/* The state before each analysed step, replayed once for the notation. */
static int print_report(const cr_game *g, const cr_record *r, int seat, const cr_analysis_entry *e,
                        int n, const cr_analysis_summary *sum, int json, long iters, uint64_t seed)
{
    void *st = cr_alloc(g->state_size);
    cr_ctx *cx = cr_ctx_new(g);
    if (!st || !cx) {
        cr_free(st);
        cr_ctx_free(cx);
        return cli_error("out of memory");
    }
    g->def->init(g, st);
    json_t *root = json ? json_object() : NULL, *list = json ? json_array() : NULL;
    if (!json) {
        printf("P%d in this %s game: %ld iterations a decision, seed %llu\n", seat, g->def->name,
               iters, (unsigned long long)seed);
        printf("%5s %4s  %-26s %6s  %-26s %6s %6s\n", "move", "dec", "played", "win", "best", "win",
               "loss");
    }
    int at = 0;
    for (int i = 0; i < n; i++) {
        while (at < e[i].step) {
            if (cr_apply_checked(g, st, r->actions[at], cx) != CR_OK) break;
            at++;
        }
        char played[128], best[128];
        g->def->action_to_str(g, st, e[i].played, played, sizeof played);
        g->def->action_to_str(g, st, e[i].best, best, sizeof best);
        if (json) {
            json_t *o = json_object();
            json_object_set_new(o, "step", json_integer(e[i].step + 1));
            json_object_set_new(o, "decision", json_integer(e[i].decision + 1));
            json_object_set_new(o, "choices", json_integer(e[i].n_choices));
            json_object_set_new(o, "played", json_string(played));
            json_object_set_new(o, "played_win", json_real(e[i].played_win));
            json_object_set_new(o, "best", json_string(best));
            json_object_set_new(o, "best_win", json_real(e[i].best_win));
            json_object_set_new(o, "loss", json_real(e[i].loss));
            json_object_set_new(o, "stderr", json_real(e[i].stderr_loss));
            json_object_set_new(o, "mark", json_string(mark_word(e[i].mark)));
            json_array_append_new(list, o);
        } else {
            int same = e[i].played == e[i].best;
            printf("%5d %4d  %-26.26s %5.1f%%  %-26.26s %5.1f%% %6.1f %s\n", e[i].step + 1,
                   e[i].decision + 1, played, 100 * e[i].played_win, same ? "=" : best,
                   100 * e[i].best_win, 100 * e[i].loss, mark_text(e[i].mark));
        }
    }
    if (json) {
        json_object_set_new(root, "game", json_string(g->def->name));
        json_object_set_new(root, "variant", json_string(g->variant->name));
        json_object_set_new(root, "seat", json_integer(seat));
        json_object_set_new(root, "iters", json_integer(iters));
        json_object_set_new(root, "seed", json_integer((json_int_t)seed));
        json_object_set_new(root, "decisions", list);
        json_t *s = json_object();
        json_object_set_new(s, "analysed", json_integer(sum->decisions));
        json_object_set_new(s, "doubtful", json_integer(sum->doubtful));
        json_object_set_new(s, "blunders", json_integer(sum->blunders));
        json_object_set_new(s, "total_loss", json_real(sum->total_loss));
        json_object_set_new(s, "error_rate", json_real(sum->error_rate));
        json_object_set_new(root, "summary", s);
        char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(6));
        if (text) printf("%s\n", text);
        free(text);
        json_decref(root);
    } else {
        printf("P%d: %d decisions analysed, %d doubtful (?), %d blunder%s (?\?); error rate %.1f "
               "(clear losses per decision, thousandths of a win)\n",
               seat, sum->decisions, sum->doubtful, sum->blunders, sum->blunders == 1 ? "" : "s",
               sum->error_rate);
    }
    cr_free(st);
    cr_ctx_free(cx);
    return 0;
}

int cmd_analyse(int argc, char **argv)
{
    const char *path = NULL, *as_s = NULL, *iters_s = NULL, *threads_s = NULL, *seed_s = NULL;
    int json = 0;
    cr_params overrides = {0};
    for (int i = 1; i < argc; i++) {
        int m;
        if ((m = cli_table_opt(argc, argv, &i, &overrides)) != 0) {
            if (m < 0) return 2;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if ((m = cli_opt(argc, argv, &i, "--as", &as_s)) != 0 ||
                   (m = cli_opt(argc, argv, &i, "--iters", &iters_s)) != 0 ||
                   (m = cli_opt(argc, argv, &i, "--threads", &threads_s)) != 0 ||
                   (m = cli_opt(argc, argv, &i, "--seed", &seed_s)) != 0) {
            if (m < 0) return 2;
        } else if ((m = cli_positional(argv[0], argv[i], &path)) != 0) {
            return m;
        }
    }
    if (path == NULL) return cli_usage_error(argv[0], "which record file?");
    if (as_s == NULL) return cli_usage_error(argv[0], "which seat? (--as 0, --as P1, ...)");
    long seat, iters = 1000, threads = 1;
    uint64_t seed = 1;
    const char *sp = (as_s[0] == 'P' || as_s[0] == 'p') ? as_s + 1 : as_s;
    if (!cli_parse_int(sp, 0, CR_MAX_PLAYERS - 1, &seat))
        return cli_usage_error(argv[0], "bad --as '%s': expected a seat (0, P1, ...)", as_s);
    if (iters_s && !cli_parse_int(iters_s, 10, 10000000, &iters))
        return cli_usage_error(argv[0], "bad --iters '%s': expected 10 to 10000000", iters_s);
    if (threads_s && !cli_parse_int(threads_s, 1, 64, &threads))
        return cli_usage_error(argv[0], "bad --threads '%s': expected 1 to 64", threads_s);
    if (seed_s && !cli_parse_u64(seed_s, &seed))
        return cli_usage_error(argv[0], "bad --seed '%s': expected a whole number", seed_s);

    char err[512];
    cr_match *m = cli_load_record(path, &overrides);
    if (m == NULL) return 1;
    const cr_game *g = cr_match_game(m);
    const cr_record *r = cr_match_record(m);
    if (seat >= g->num_players) {
        int np = g->num_players;
        cr_match_free(m);
        return cli_usage_error(argv[0], "no seat P%ld in a game of %d players", seat, np);
    }
    cr_analysis_opts o = {.iters = iters, .threads = (int)threads, .seed = seed};
    cr_analysis_entry *e = NULL;
    int n = 0;
    cr_analysis_summary sum;
    progress pr = {.on = isatty(fileno(stderr)), .last = -1};
    cr_status rc =
        cr_analyse_record(g, r, (int)seat, &o, &e, &n, &sum, show_progress, &pr, err, sizeof err);
    int status = rc == CR_OK ? print_report(g, r, (int)seat, e, n, &sum, json, iters, seed)
                             : cli_error("%s: %s", path, err);
    cr_free(e);
    cr_match_free(m);
    return status;
}
