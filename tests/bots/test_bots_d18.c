/* test_bots_d18.c — the bots of src/bots on 18Dracula, a perfect-information
 * game of thousands of actions: its sampler returns the observation itself
 * (nothing is hidden), so ISMCTS searches the real position.
 *
 * Checked: the random bot and ISMCTS (iters=50, the default profile: full
 * random rollouts, each passing through rampages on the auto-router) pick
 * legal actions at decision points of a random game, the picked actions
 * are played and keep the game's invariants, two ISMCTS bots seeded alike
 * pick the same action, and the heuristic bot too when the game has one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/bot.h"
#include "croupier/game.h"
#include "croupier/parts.h"

static int in_list(const cr_action *legal, int n, cr_action a)
{
    for (int i = 0; i < n; i++)
        if (legal[i] == a) return 1;
    return 0;
}

static void test_bots_play_18dracula_decisions_legally(void **state)
{
    (void)state;
    char err[256];
    cr_params p = {.num_players = 3};
    cr_game *g = cr_game_new(cr_registry_find("18dracula"), &p, err, sizeof err);
    assert_non_null(g);
    cr_ctx *cx = cr_ctx_new(g);
    void *st = cr_alloc(g->state_size), *obs = cr_alloc(g->obs_size),
         *st2 = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    assert_true(cx && st && obs && st2 && legal);
    cr_rng rng;
    cr_rng_seed(&rng, 18, 1);
    /* The sampler of a perfect-information game: the state itself. */
    g->def->init(g, st);
    g->def->observe(g, st, 0, obs);
    assert_int_equal(g->def->sample(g, obs, &rng, st2, cx), CR_OK);
    assert_memory_equal(st, st2, g->state_size);

    const char *specs[] = {"random", "ismcts:iters=50", "heuristic"};
    int has_heuristic = 0;
    {
        cr_bot *h = cr_bot_new(g, "heuristic", 0, 1, err, sizeof err);
        has_heuristic = h != NULL;
        cr_bot_free(h);
    }
    int n_specs = has_heuristic ? 3 : 2;
    int searched = 0, steps = 0;
    /* Decision points spread over the auction, stock rounds and operating
     * rounds: every 400th action of a random game, 3 of them. */
    while (g->def->current_player(g, st) != CR_TERMINAL && searched < 3 && steps < 20000) {
        int seat = g->def->current_player(g, st);
        cr_action a;
        if (seat == CR_CHANCE) {
            a = cr_sample_chance(g, st, &rng);
        } else {
            int n = g->def->legal_actions(g, st, legal, cx);
            assert_true(n >= 1);
            a = legal[cr_rng_below(&rng, (uint32_t)n)];
            if (steps >= 400 * (searched + 1) && n >= 2) {
                g->def->observe(g, st, seat, obs);
                for (int k = 0; k < n_specs; k++) {
                    cr_bot *b = cr_bot_new(g, specs[k], seat, 7 + (uint64_t)steps, err, sizeof err);
                    assert_non_null(b);
                    cr_action pick = cr_bot_act(b, obs, legal, n);
                    assert_true(in_list(legal, n, pick));
                    if (k == 1) {
                        cr_bot_stats bs;
                        cr_bot_last_stats(b, &bs);
                        /* stop=early (the default) may end the search
                         * before its budget, never after it, and only
                         * with the move the whole budget plays. */
                        assert_true(bs.iterations >= 1 && bs.iterations <= 50);
                        cr_bot *full = cr_bot_new(g, "ismcts:iters=50,stop=full", seat,
                                                  7 + (uint64_t)steps, err, sizeof err);
                        assert_non_null(full);
                        assert_int_equal(cr_bot_act(full, obs, legal, n), pick);
                        cr_bot_last_stats(full, &bs);
                        assert_int_equal(bs.iterations, 50);
                        cr_bot_free(full);
                        if (searched == 0) { /* seeded alike: the same pick */
                            cr_bot *b2 =
                                cr_bot_new(g, specs[k], seat, 7 + (uint64_t)steps, err, sizeof err);
                            assert_non_null(b2);
                            assert_int_equal(cr_bot_act(b2, obs, legal, n), pick);
                            cr_bot_free(b2);
                        }
                        a = pick; /* the game goes on with ISMCTS's move */
                    }
                    cr_bot_free(b);
                }
                searched++;
            }
        }
        g->def->apply(g, st, a, cx);
        if (cr_parts(g)->check_invariants &&
            cr_parts(g)->check_invariants(g, st, err, sizeof err) != 0)
            fail_msg("after action %d: %s", steps, err);
        steps++;
    }
    assert_int_equal(searched, 3);
    cr_free(st);
    cr_free(st2);
    cr_free(obs);
    cr_free(legal);
    cr_ctx_free(cx);
    cr_game_free(g);
}

/* ismcts prior=N (docs/bots.md): the move played is the root action with
 * the most visits, the rollout policy's own choice counted with N more.
 * With a prior larger than the iterations the search plays the policy's
 * move, wherever the heuristic (drawn with five different seeds) has one
 * best move; without it, the search departs from the heuristic somewhere
 * in the same positions, so the prior is what made them agree.  A prior
 * without a policy to favour is refused. */
static void test_ismcts_prior_favours_the_policy(void **state)
{
    (void)state;
    char err[256];
    cr_params p = {.num_players = 4};
    cr_game *g = cr_game_new(cr_registry_find("18dracula"), &p, err, sizeof err);
    assert_non_null(g);
    assert_null(cr_bot_new(g, "ismcts:iters=20,rollout=random,prior=5", 0, 1, err, sizeof err));
    assert_non_null(strstr(err, "prior"));
    assert_null(cr_bot_new(g, "ismcts:iters=20,prior=-1", 0, 1, err, sizeof err));
    cr_ctx *cx = cr_ctx_new(g);
    void *st = cr_alloc(g->state_size), *obs = cr_alloc(g->obs_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    assert_true(cx && st && obs && legal);
    cr_rng rng;
    cr_rng_seed(&rng, 19, 2);
    g->def->init(g, st);
    cr_bot *h[4] = {0};
    for (int s = 0; s < 4; s++) h[s] = cr_bot_new(g, "heuristic", s, 1, err, sizeof err);
    int checked = 0, departed = 0, steps = 0;
    /* A game of heuristic players; every 25th decision with a choice, up
     * to 8, is searched. */
    while (g->def->current_player(g, st) != CR_TERMINAL && checked < 8 && steps < 20000) {
        int seat = g->def->current_player(g, st);
        cr_action a;
        if (seat == CR_CHANCE) {
            a = cr_sample_chance(g, st, &rng);
        } else {
            int n = g->def->legal_actions(g, st, legal, cx);
            g->def->observe(g, st, seat, obs);
            a = cr_bot_act(h[seat], obs, legal, n);
            if (n >= 2 && steps % 25 == 0) {
                int unique = 1;
                for (uint64_t k = 2; k <= 6 && unique; k++) {
                    cr_bot *hk = cr_bot_new(g, "heuristic", seat, k, err, sizeof err);
                    unique = cr_bot_act(hk, obs, legal, n) == a;
                    cr_bot_free(hk);
                }
                if (unique) {
                    cr_bot *b =
                        cr_bot_new(g, "ismcts:iters=20,prior=1000", seat, 3, err, sizeof err);
                    cr_bot *b0 = cr_bot_new(g, "ismcts:iters=20", seat, 3, err, sizeof err);
                    assert_true(b && b0);
                    assert_int_equal(cr_bot_act(b, obs, legal, n), a);
                    departed += cr_bot_act(b0, obs, legal, n) != a;
                    cr_bot_free(b);
                    cr_bot_free(b0);
                    checked++;
                }
            }
        }
        g->def->apply(g, st, a, cx);
        steps++;
    }
    printf("# prior: %d decisions checked, the search without prior departed at %d\n", checked,
           departed);
    assert_int_equal(checked, 8);
    assert_true(departed > 0);
    for (int s = 0; s < 4; s++) cr_bot_free(h[s]);
    cr_free(st);
    cr_free(obs);
    cr_free(legal);
    cr_ctx_free(cx);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots_play_18dracula_decisions_legally),
        cmocka_unit_test(test_ismcts_prior_favours_the_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
