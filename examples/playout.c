/* playout.c — croupier from the outside: a random playout of DML through the
 * game interface, then a match of the heuristic bot against three random
 * ones.  Only the installed headers; build it with
 *
 *   cc playout.c $(pkg-config --cflags --libs croupier)
 *
 * Same seed, same output: every die and every bot's choice is drawn from it. */
#include <stdio.h>
#include <stdlib.h>

#include <croupier/alloc.h>
#include <croupier/game.h>
#include <croupier/match.h>

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 42;
    char err[256];
    const cr_game_def *dml = cr_registry_find("dml");
    cr_params params = {0}; /* the default variant, as many players as it seats */
    cr_game *g = dml ? cr_game_new(dml, &params, err, sizeof err) : NULL;
    if (g == NULL) return fprintf(stderr, "playout: %s\n", dml ? err : "no game 'dml'"), 1;

    /* 1. A random playout: the caller owns the state and draws chance itself. */
    void *st = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc(sizeof *legal * (size_t)g->max_legal);
    cr_ctx *cx = cr_ctx_new(g);
    if (st == NULL || legal == NULL || cx == NULL) return fprintf(stderr, "out of memory\n"), 1;
    cr_rng rng;
    cr_rng_seed(&rng, seed, 0);
    g->def->init(g, st);
    long actions = 0;
    for (; !cr_is_terminal(g, st); actions++) {
        cr_action a;
        if (cr_current_player(g, st) == CR_CHANCE) {
            a = cr_sample_chance(g, st, &rng);
        } else {
            int n = g->def->legal_actions(g, st, legal, cx);
            a = legal[cr_rng_below(&rng, (uint32_t)n)];
        }
        g->def->apply(g, st, a, cx);
    }
    cr_result res;
    g->def->result(g, st, &res);
    printf("random playout: %ld actions, scores", actions);
    for (int s = 0; s < g->num_players; s++) printf(" P%d=%d", s, (int)res.score[s]);
    printf(", winners mask %#x\n", (unsigned)res.winners);

    /* 2. A match: the heuristic bot in seat 0 against three random bots. */
    const char *seats[] = {"heuristic", "random", "random", "random"};
    cr_params four = {.num_players = 4};
    cr_match *m = cr_match_new(dml, &four, seats, seed, err, sizeof err);
    if (m == NULL) return fprintf(stderr, "playout: %s\n", err), 1;
    cr_match_run(m, 0); /* no human seat: plays to the end */
    int over = cr_match_over(m);
    cr_match_result(m, &res);
    printf("heuristic vs random: %d actions, scores", cr_match_record(m)->n_actions);
    for (int s = 0; s < 4; s++) printf(" P%d=%d", s, (int)res.score[s]);
    printf(", winners mask %#x\n", (unsigned)res.winners);

    cr_match_free(m);
    cr_ctx_free(cx);
    cr_free(legal);
    cr_free(st);
    cr_game_free(g);
    return over ? 0 : 1;
}
