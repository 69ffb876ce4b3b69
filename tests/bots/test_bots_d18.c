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
                        assert_int_equal(bs.iterations, 50);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots_play_18dracula_decisions_legally),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
