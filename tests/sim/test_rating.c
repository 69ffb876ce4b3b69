/* test_rating.c — tiers and ratings (issue 19.3): a tier's name stands for
 * its game's spec wherever a spec is taken, an unknown one is refused with
 * the game's tiers named, heuristic:noise is checked and reproducible, and
 * the lab's rating mode (cr_sim_ratings) orders beginner < casual < club on
 * DML with intervals around each rating, the same figures on every run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/bot.h"
#include "croupier/parts.h"
#include "croupier/sim.h"

static cr_game *make(const char *name, int np)
{
    cr_params p = {.num_players = np};
    char err[256];
    cr_game *g = cr_game_new(cr_registry_find(name), &p, err, sizeof err);
    if (!g) fail_msg("%s", err);
    return g;
}

static void test_tiers(void **unused)
{
    (void)unused;
    const cr_game_def *dml = cr_registry_find("dml"), *d18 = cr_registry_find("18dracula");
    assert_string_equal(cr_bot_tier_spec(dml, "club"), "heuristic");
    assert_string_equal(cr_bot_tier_spec(dml, "beginner"), "random");
    assert_non_null(cr_bot_tier_spec(dml, "master"));
    assert_null(cr_bot_tier_spec(d18, "master"));
    assert_null(cr_bot_tier_spec(dml, "heuristic"));
    /* every game names three to five, weakest first, each a valid spec */
    for (int i = 0; i < cr_registry_count(); i++) {
        const cr_game_parts *p = cr_registry_get(i)->parts;
        assert_non_null(p);
        assert_true(p->n_tiers >= 3 && p->n_tiers <= 5);
        for (int t = 0; t < p->n_tiers; t++) {
            char err[256];
            assert_true(cr_bot_spec_valid(p->tiers[t].spec, err, sizeof err));
            assert_true(strlen(p->tiers[t].words) > 10);
        }
    }
    char err[256];
    assert_true(cr_bot_spec_valid("expert", err, sizeof err));
    assert_false(cr_bot_spec_valid("grandmaster", err, sizeof err));

    cr_game *g = make("dml", 4);
    cr_bot *b = cr_bot_new(g, "club", 1, 5, err, sizeof err);
    assert_non_null(b);
    assert_string_equal(cr_bot_kind(b), "heuristic");
    assert_string_equal(cr_bot_spec(b), "club"); /* it keeps the name it was given */
    cr_bot_free(b);
    b = cr_bot_new(g, "expert", 1, 5, err, sizeof err);
    assert_non_null(b);
    assert_string_equal(cr_bot_kind(b), "ismcts");
    cr_bot_free(b);
    cr_game_free(g);

    g = make("18dracula", 3);
    assert_null(cr_bot_new(g, "master", 0, 1, err, sizeof err));
    assert_string_equal(err, "unknown bot (random, heuristic, ismcts; tiers: beginner, casual, "
                             "club, expert): master");
    b = cr_bot_new(g, "expert", 0, 1, err, sizeof err); /* the search tier (docs/bots.md) */
    assert_non_null(b);
    assert_string_equal(cr_bot_kind(b), "ismcts");
    cr_bot_free(b);
    cr_game_free(g);
}

/* noise=0 is the heuristic itself; a bad noise is refused. */
static void test_noise(void **unused)
{
    (void)unused;
    char err[256];
    cr_game *g = make("dml", 4);
    assert_null(cr_bot_new(g, "heuristic:noise=1.5", 0, 1, err, sizeof err));
    assert_string_equal(err, "heuristic: bad parameter noise=1.5 (noise=X, X from 0 to 1)");
    assert_null(cr_bot_new(g, "heuristic:depth=2", 0, 1, err, sizeof err));
    cr_game_free(g);

    cr_sim_config c = {.game = "dml", .n_seats = 1, .games = 200, .threads = 1, .seed = 3};
    cr_sim_result a, b, n;
    c.seats[0] = "heuristic";
    assert_int_equal(cr_sim_run(&c, &a, err, sizeof err), CR_OK);
    c.seats[0] = "heuristic:noise=0";
    assert_int_equal(cr_sim_run(&c, &b, err, sizeof err), CR_OK);
    c.seats[0] = "heuristic:noise=0.5";
    assert_int_equal(cr_sim_run(&c, &n, err, sizeof err), CR_OK);
    assert_memory_equal(a.per_game, b.per_game, (size_t)a.games * sizeof *a.per_game);
    assert_memory_not_equal(a.per_game, n.per_game, (size_t)a.games * sizeof *a.per_game);
    cr_sim_result_fini(&a);
    cr_sim_result_fini(&b);
    cr_sim_result_fini(&n);
}

static void test_ratings(void **unused)
{
    (void)unused;
    cr_rate_config rc = {.base = {.game = "dml",
                                  .num_players = 4,
                                  .games = 100,
                                  .threads = 2,
                                  .seed = 9,
                                  .progress = CR_SIM_PROGRESS_OFF},
                         .bots = {"beginner", "casual", "club"},
                         .n_bots = 3};
    cr_rate_result r, again;
    char err[256];
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_OK);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.games, 3 * 2 * 100);
    print_message("beginner %.0f [%.0f, %.0f], casual %.0f [%.0f, %.0f], club %.0f [%.0f, %.0f]\n",
                  r.e[0].elo, r.e[0].lo, r.e[0].hi, r.e[1].elo, r.e[1].lo, r.e[1].hi, r.e[2].elo,
                  r.e[2].lo, r.e[2].hi);
    assert_true(r.e[0].hi < r.e[1].lo); /* beginner below casual, intervals apart */
    assert_true(r.e[1].hi < r.e[2].lo); /* casual below club */
    double mean = 0;
    for (int i = 0; i < 3; i++) {
        assert_true(r.e[i].lo <= r.e[i].elo && r.e[i].elo <= r.e[i].hi);
        assert_true(r.e[i].pairs > 0);
        mean += r.e[i].elo / 3;
    }
    assert_true(mean > 1499.9 && mean < 1500.1);
    /* the same figures again, whatever the threads */
    rc.base.threads = 1;
    assert_int_equal(cr_sim_ratings(&rc, &again, err, sizeof err), CR_OK);
    for (int i = 0; i < 3; i++) {
        assert_true(again.e[i].elo == r.e[i].elo);
        assert_true(again.e[i].lo == r.e[i].lo && again.e[i].hi == r.e[i].hi);
    }
    assert_int_equal(r.pair_games_min, 2 * 100); /* two seatings a pair */
    /* one bot is not a rating */
    rc.n_bots = 1;
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_ERR_INVALID);
    assert_string_equal(err, "--rate needs 2 to 8 bots");
}

/* --rotate: every bot at one table, one seating per bot.  Four bots at a
 * four-player table meet in every game; five at four leave one out of each
 * seating, and every pair still meets (in three seatings of five).  The
 * order beginner < casual < club holds, and a fifth bot plays its seats. */
static void test_ratings_rotate(void **unused)
{
    (void)unused;
    cr_rate_config rc = {.base = {.game = "dml",
                                  .num_players = 4,
                                  .games = 60,
                                  .threads = 2,
                                  .seed = 4,
                                  .progress = CR_SIM_PROGRESS_OFF},
                         .bots = {"beginner", "casual", "club", "random"},
                         .n_bots = 4,
                         .rotate = 1};
    cr_rate_result r;
    char err[256];
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_OK);
    assert_int_equal(r.games, 4 * 60);
    assert_int_equal(r.pair_games_min, 4 * 60); /* every pair at every table */
    /* each seat of a game is a pair with each other seat: 3 per bot a game */
    for (int i = 0; i < 4; i++) assert_int_equal(r.e[i].pairs, 3 * 4 * 60);
    assert_true(r.e[0].hi < r.e[2].lo);
    assert_true(r.e[1].hi < r.e[2].lo);
    assert_true(r.e[3].hi < r.e[2].lo);
    rc.bots[4] = "heuristic:noise=0.2";
    rc.n_bots = 5;
    assert_int_equal(cr_sim_ratings(&rc, &r, err, sizeof err), CR_OK);
    assert_int_equal(r.games, 5 * 60);
    assert_int_equal(r.pair_games_min, 3 * 60);
    for (int i = 0; i < 5; i++) assert_int_equal(r.e[i].pairs, 4 * 3 * 60); /* 4 seatings */
    assert_true(r.e[0].hi < r.e[2].lo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiers),
        cmocka_unit_test(test_noise),
        cmocka_unit_test(test_ratings),
        cmocka_unit_test(test_ratings_rotate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
