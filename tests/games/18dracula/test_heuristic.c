/* test_heuristic.c — 18Dracula's hand-written player (heuristic.c) through
 * the game interface on the bundled board: games of heuristic seats, and of
 * heuristic seats against random ones, played to the end; every move it
 * chooses is in the legal list and passes is_legal; the invariants hold after
 * every step; the same rng gives the same game; the player allocates
 * nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "games/18dracula/d18_internal.h"

enum { CAP = 200000 };

static cr_game *make(int np)
{
    cr_params p = {.num_players = np};
    char err[256];
    cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
    if (!g) fail_msg("%s", err);
    return g;
}

typedef struct result {
    int end_reason;
    uint16_t ors;
    long steps;
    uint64_t hash; /* of the action sequence */
} result;

/* One game; seats whose bit is set in `heur` play the heuristic. */
static result play(cr_game *g, cr_ctx *cx, cr_action *legal, uint64_t seed, unsigned heur)
{
    const cr_policy_fn h = d18_parts.heuristic;
    double prob[720];
    char err[256];
    cr_rng rng;
    cr_rng_seed(&rng, seed, 5);
    d18_state s;
    g->def->init(g, &s);
    result r = {0, 0, 0, 1469598103934665603ull};
    for (; r.steps < CAP; r.steps++) {
        int who = g->def->current_player(g, &s);
        if (who == CR_TERMINAL) break;
        cr_action a;
        if (who == CR_CHANCE) {
            int n = g->def->chance_outcomes(g, &s, legal, prob);
            a = legal[cr_rng_below(&rng, (uint32_t)n)];
        } else {
            int n = g->def->legal_actions(g, &s, legal, cx);
            if (n < 1) fail_msg("no legal action: stage %d, step %ld", s.stage, r.steps);
            if (heur >> who & 1) {
                uint64_t a0 = cr_alloc_count();
                a = h(g, &s, who, legal, n, &rng);
                assert_int_equal(cr_alloc_count(), a0);
                int i = 0;
                while (i < n && legal[i] != a) i++;
                if (i == n)
                    fail_msg("step %ld: the heuristic chose an action not in the list", r.steps);
                assert_true(g->def->is_legal(g, &s, a));
            } else {
                a = legal[cr_rng_below(&rng, (uint32_t)n)];
            }
        }
        r.hash = (r.hash ^ (uint64_t)a) * 1099511628211ull;
        g->def->apply(g, &s, a, cx);
        if (d18_check_invariants(g, &s, err, sizeof err))
            fail_msg("seed %llu, step %ld: %s", (unsigned long long)seed, r.steps, err);
    }
    if (r.steps >= CAP) fail_msg("seed %llu: stalled", (unsigned long long)seed);
    r.end_reason = s.end_reason;
    r.ors = s.ors_played;
    assert_true(s.end_reason != D18_END_NONE);
    return r;
}

static void test_heuristic_is_the_games_policy(void **unused)
{
    (void)unused;
    assert_non_null(d18_parts.heuristic);
}

/* Heuristic seats only, 3 to 5 players: every game ends; most by the bank
 * breaking (spec 14.2), and none by a stall. */
static void test_heuristic_games_end(void **unused)
{
    (void)unused;
    cr_action *legal = malloc(sizeof *legal * 4096);
    int ends[D18_END_TECH_BANKRUPTCY + 1] = {0}, games = 0;
    for (int np = 3; np <= 5; np++) {
        cr_game *g = make(np);
        cr_ctx *cx = cr_ctx_new(g);
        assert_non_null(cx);
        for (int game = 0; game < 3; game++) {
            result r = play(g, cx, legal, (uint64_t)(np * 101 + game), (1u << np) - 1);
            ends[r.end_reason]++, games++;
        }
        cr_ctx_free(cx);
        cr_game_free(g);
    }
    print_message("heuristic ends: bank %d, no progress %d, bankruptcy %d, technical %d\n",
                  ends[D18_END_BANK], ends[D18_END_NO_PROGRESS], ends[D18_END_BANKRUPTCY],
                  ends[D18_END_TECH_BANKRUPTCY]);
    assert_true(2 * ends[D18_END_BANK] > games);
    free(legal);
}

/* Two heuristic seats against two random ones: its moves stay legal in the
 * positions random play makes, and the games end. */
static void test_heuristic_against_random(void **unused)
{
    (void)unused;
    cr_action *legal = malloc(sizeof *legal * 4096);
    cr_game *g = make(4);
    cr_ctx *cx = cr_ctx_new(g);
    assert_non_null(cx);
    for (int game = 0; game < 3; game++) play(g, cx, legal, (uint64_t)(900 + game), 0x5);
    cr_ctx_free(cx);
    cr_game_free(g);
    free(legal);
}

/* The player is a function of the state and the rng: the same seed plays
 * the same game. */
static void test_heuristic_is_deterministic(void **unused)
{
    (void)unused;
    cr_action *legal = malloc(sizeof *legal * 4096);
    cr_game *g = make(4);
    cr_ctx *cx = cr_ctx_new(g);
    assert_non_null(cx);
    result a = play(g, cx, legal, 4242, 0xf), b = play(g, cx, legal, 4242, 0xf);
    assert_int_equal(a.steps, b.steps);
    assert_true(a.hash == b.hash);
    assert_int_equal(a.end_reason, b.end_reason);
    cr_ctx_free(cx);
    cr_game_free(g);
    free(legal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heuristic_is_the_games_policy),
        cmocka_unit_test(test_heuristic_games_end),
        cmocka_unit_test(test_heuristic_against_random),
        cmocka_unit_test(test_heuristic_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
