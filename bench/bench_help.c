/* bench_help.c — what the help of a decision costs the server (the `help`
 * of a seat's update, docs/server.md "The help"): games of heuristic seats,
 * and at every decision the seat to act's whole view twice (match/view.h,
 * with the seat made human for the calls, so that the view carries prompt,
 * help and actions: the first view writes the help, the second finds it
 * kept), then its help alone (cr_match_help).
 *
 *   bench_help [GAME [GAMES [PLAYERS [SEED]]]]     (18dracula 3 4 1)
 *
 * Prints the mean and the largest time of each, and the mean and largest
 * over the decisions whose help took longest (the top 1%). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "croupier/match.h"
#include "match/view.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

typedef struct sample {
    double help, first, again;
} sample;

static int by_help_desc(const void *a, const void *b)
{
    double x = ((const sample *)a)->help, y = ((const sample *)b)->help;
    return x < y ? 1 : x > y ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "18dracula";
    int games = argc > 2 ? atoi(argv[2]) : 3;
    int players = argc > 3 ? atoi(argv[3]) : 4;
    unsigned long long seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    const cr_game_def *def = cr_registry_find(name);
    if (def == NULL || games < 1 || players < 1 || players > 8) {
        fprintf(stderr, "usage: bench_help [GAME [GAMES [PLAYERS [SEED]]]]\n");
        return 2;
    }
    const char *seats[8];
    for (int s = 0; s < 8; s++) seats[s] = "heuristic";
    static char buf[1 << 16];
    size_t cap = 1 << 16, n = 0;
    sample *all = malloc(cap * sizeof *all);
    if (all == NULL) return 1;
    for (int gi = 0; gi < games; gi++) {
        char err[256];
        cr_params p = {.num_players = players};
        cr_match *m = cr_match_new(def, &p, seats, seed + (unsigned long long)gi, err, sizeof err);
        if (m == NULL) {
            fprintf(stderr, "bench_help: %s\n", err);
            return 1;
        }
        cr_view v;
        if (!cr_view_init(&v, cr_match_game(m))) return 1;
        cr_text t = CR_TEXT_INIT;
        for (long step = 0; step < 200000 && !cr_match_over(m); step++) {
            int s = cr_match_to_act(m);
            if (s >= 0 && n < cap) {
                sample x;
                if (cr_match_set_seat(m, s, "human", err, sizeof err) != CR_OK) return 1;
                cr_text_reset(&t);
                double t0 = now_ms();
                cr_view_json(&v, m, s, 0xffu, &t);
                double t1 = now_ms();
                cr_text_reset(&t);
                cr_view_json(&v, m, s, 0xffu, &t);
                double t2 = now_ms();
                if (cr_match_set_seat(m, s, "heuristic", err, sizeof err) != CR_OK) return 1;
                cr_match_help(m, s, buf, sizeof buf);
                x.help = now_ms() - t2;
                x.first = t1 - t0;
                x.again = t2 - t1;
                all[n++] = x;
            }
            if (cr_match_step(m) != CR_OK) break;
        }
        cr_text_free(&t);
        cr_view_fini(&v);
        cr_match_free(m);
    }
    if (n == 0) return 1;
    sample mean = {0, 0, 0}, max = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        mean.help += all[i].help / (double)n;
        mean.first += all[i].first / (double)n;
        mean.again += all[i].again / (double)n;
        if (all[i].help > max.help) max.help = all[i].help;
        if (all[i].first > max.first) max.first = all[i].first;
        if (all[i].again > max.again) max.again = all[i].again;
    }
    qsort(all, n, sizeof *all, by_help_desc);
    size_t top = n / 100 ? n / 100 : 1;
    sample tm = {0, 0, 0};
    for (size_t i = 0; i < top; i++) {
        tm.help += all[i].help / (double)top;
        tm.first += all[i].first / (double)top;
        tm.again += all[i].again / (double)top;
    }
    printf("%s, %d games of %d heuristic seats from seed %llu: %zu decisions\n", name, games,
           players, seed, n);
    printf("  help alone:             mean %.3f ms, largest %.3f ms\n", mean.help, max.help);
    printf("  view, help written:     mean %.3f ms, largest %.3f ms\n", mean.first, max.first);
    printf("  view again, help kept:  mean %.3f ms, largest %.3f ms\n", mean.again, max.again);
    printf("  the top 1%% of helps (%zu decisions): help %.3f ms, view written %.3f ms, "
           "view again %.3f ms\n",
           top, tm.help, tm.first, tm.again);
    free(all);
    return 0;
}
