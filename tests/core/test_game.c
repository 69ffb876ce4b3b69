/* test_game.c — the game lifecycle and the checked helpers of src/core/game.c
 * (cr_game_new, cr_sample_chance, cr_apply_checked, cr_apply_text), through
 * the registered games. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "croupier/alloc.h"
#include "croupier/game.h"

static void test_registry(void **state)
{
    (void)state;
    assert_true(cr_registry_count() >= 1);
    for (int i = 0; i < cr_registry_count(); i++) {
        const cr_game_def *def = cr_registry_get(i);
        assert_non_null(def);
        assert_ptr_equal(cr_registry_find(def->name), def);
        assert_true(def->n_variants >= 1);
    }
    assert_null(cr_registry_get(-1));
    assert_null(cr_registry_get(cr_registry_count()));
    assert_null(cr_registry_find("no-such-game"));
    assert_null(cr_registry_find(NULL));
    assert_non_null(cr_registry_find("dml"));
}

static void test_new_rejects_bad_params(void **state)
{
    (void)state;
    const cr_game_def *def = cr_registry_find("dml");
    char err[256];
    cr_params p = {.num_players = 4, .variant = "no-such-variant"};
    assert_null(cr_game_new(def, &p, err, sizeof err));
    assert_non_null(strstr(err, "no-such-variant"));

    p = (cr_params){.num_players = CR_MAX_PLAYERS + 1};
    assert_null(cr_game_new(def, &p, err, sizeof err));
    assert_non_null(strstr(err, "players"));

    p = (cr_params){.num_players = 4};
    assert_int_equal(cr_params_set(&p, "first-roller", "4"), CR_OK);
    assert_null(cr_game_new(def, &p, err, sizeof err));
    assert_non_null(strstr(err, "first-roller"));
    assert_non_null(strstr(err, "a seat from 0 to 3"));

    p = (cr_params){.num_players = 4};
    assert_int_equal(cr_params_set(&p, "no-such-option", "1"), CR_OK);
    assert_null(cr_game_new(def, &p, err, sizeof err));
    assert_non_null(strstr(err, "no option 'no-such-option'"));
    assert_non_null(strstr(err, "first-roller"));

    p = (cr_params){.num_players = 4};
    assert_int_equal(cr_params_set(&p, "first-roller", "x"), CR_OK);
    assert_null(cr_game_new(def, &p, err, sizeof err));
    assert_non_null(strstr(err, "bad value 'x'"));

    assert_null(cr_game_new(NULL, &p, err, sizeof err));
}

static void test_new_defaults(void **state)
{
    (void)state;
    const cr_game_def *def = cr_registry_find("dml");
    char err[256];
    for (int v = 0; v < def->n_variants; v++) {
        const cr_variant *var = &def->variants[v];
        for (int n = var->min_players; n <= var->max_players; n++) {
            cr_params p = {.num_players = n, .variant = var->name};
            cr_game *g = cr_game_new(def, &p, err, sizeof err);
            if (g == NULL) fail_msg("%s/%d: %s", var->name, n, err);
            assert_int_equal(g->num_players, n);
            assert_ptr_equal(g->variant, var);
            assert_string_equal(g->params.variant, var->name);
            assert_true(g->state_size > 0);
            assert_true(g->max_legal > 0);
            cr_game_free(g);
        }
    }
    cr_game *g = cr_game_new(def, NULL, err, sizeof err); /* all defaults */
    assert_non_null(g);
    assert_int_equal(g->variant_index, 0);
    cr_game_free(g);
    cr_game_free(NULL);
}

static void test_checked_apply(void **state)
{
    (void)state;
    const cr_game_def *def = cr_registry_find("dml");
    char err[256];
    cr_params p = {.num_players = 4};
    cr_game *g = cr_game_new(def, &p, err, sizeof err);
    assert_non_null(g);
    void *st = cr_alloc(g->state_size), *copy = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_rng rng;
    cr_rng_seed(&rng, 11, 0);
    g->def->init(g, st);

    assert_int_equal(cr_apply_text(g, st, "  no such action at all ", NULL, err, sizeof err),
                     CR_ERR_PARSE);
    assert_non_null(strstr(err, "unknown action 'no such action at all'"));
    assert_int_not_equal(cr_apply_text(g, st, "", NULL, err, sizeof err), CR_OK);

    for (int step = 0; step < 300 && !cr_is_terminal(g, st); step++) {
        /* Out-of-range and not-legal ids are refused without touching st. */
        memcpy(copy, st, g->state_size);
        assert_int_equal(cr_apply_checked(g, st, -1, NULL), CR_ERR_ILLEGAL);
        assert_int_equal(cr_apply_checked(g, st, g->num_actions, NULL), CR_ERR_ILLEGAL);
        assert_memory_equal(copy, st, g->state_size);

        cr_action a;
        if (cr_current_player(g, st) == CR_CHANCE) {
            a = cr_sample_chance(g, st, &rng);
        } else {
            int n = g->def->legal_actions(g, st, legal, NULL);
            assert_true(n > 0 && n <= g->max_legal);
            /* Some id outside the legal list must be refused. */
            for (cr_action x = 0; x < g->num_actions; x++) {
                int in = 0;
                for (int i = 0; i < n; i++) in |= legal[i] == x;
                if (!in) {
                    assert_int_equal(cr_apply_checked(g, st, x, NULL), CR_ERR_ILLEGAL);
                    assert_memory_equal(copy, st, g->state_size);
                    break;
                }
            }
            a = legal[cr_rng_below(&rng, (uint32_t)n)];
        }
        /* The text route reaches the same action. */
        char text[256];
        g->def->action_to_str(g, st, a, text, sizeof text);
        memcpy(copy, st, g->state_size);
        assert_int_equal(cr_apply_checked(g, copy, a, NULL), CR_OK);
        if (cr_apply_text(g, st, text, NULL, err, sizeof err) != CR_OK)
            fail_msg("cr_apply_text('%s'): %s", text, err);
        assert_memory_equal(copy, st, g->state_size);
    }

    cr_free(legal);
    cr_free(copy);
    cr_free(st);
    cr_game_free(g);
}

/* cr_sample_chance at the chance node st: 100,000 draws, each outcome's
 * count within a few standard deviations of its probability. */
static void check_sampler(const cr_game *g, const void *st, uint64_t seed)
{
    cr_action *out = cr_alloc((size_t)g->max_chance_outcomes * sizeof *out);
    double *prob = cr_alloc((size_t)g->max_chance_outcomes * sizeof *prob);
    int n = g->def->chance_outcomes(g, st, out, prob);
    assert_true(n > 0);
    int *count = calloc((size_t)g->num_actions, sizeof *count);
    cr_rng rng;
    cr_rng_seed(&rng, seed, 3);
    const int draws = 100000;
    for (int i = 0; i < draws; i++) {
        cr_action a = cr_sample_chance(g, st, &rng);
        assert_true(a >= 0 && a < g->num_actions);
        count[a]++;
    }
    long seen = 0;
    for (int i = 0; i < n; i++) {
        double want = prob[i] * draws, sd = sqrt(want * (1 - prob[i]));
        if (count[out[i]] < want - 6 * sd || count[out[i]] > want + 6 * sd)
            fail_msg("outcome %d: %d draws, %.0f expected", out[i], count[out[i]], want);
        seen += count[out[i]];
    }
    assert_int_equal(seen, draws); /* nothing outside the listed outcomes */
    free(count);
    cr_free(out);
    cr_free(prob);
}

/* The sampler agrees with chance_outcomes at the dice (the opening roll-off)
 * and at card draws of every size met in a random game. */
static void test_sample_chance_follows_probabilities(void **state)
{
    (void)state;
    const cr_game_def *def = cr_registry_find("dml");
    char err[256];
    cr_game *g = cr_game_new(def, NULL, err, sizeof err);
    assert_non_null(g);
    void *st = cr_alloc(g->state_size);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_action *out = cr_alloc((size_t)g->max_chance_outcomes * sizeof *out);
    g->def->init(g, st);
    assert_int_equal(cr_current_player(g, st), CR_CHANCE); /* DML opens with the roll-off */
    uint64_t sizes = 0; /* bit n: a node with n outcomes was checked */
    cr_rng rng;
    cr_rng_seed(&rng, 11, 0);
    int checked = 0;
    while (cr_current_player(g, st) != CR_TERMINAL) {
        cr_action a;
        if (cr_current_player(g, st) == CR_CHANCE) {
            int n = g->def->chance_outcomes(g, st, out, NULL);
            if (n < 64 && !(sizes >> n & 1)) {
                sizes |= (uint64_t)1 << n;
                check_sampler(g, st, (uint64_t)n);
                checked++;
            }
            a = cr_sample_chance(g, st, &rng);
        } else {
            int n = g->def->legal_actions(g, st, legal, NULL);
            a = legal[cr_rng_below(&rng, (uint32_t)n)];
        }
        g->def->apply(g, st, a, NULL);
    }
    assert_true(checked >= 5);
    cr_free(out);
    cr_free(legal);
    cr_free(st);
    cr_game_free(g);
}

/* A game whose create() leaves max_events out of 1..4096 is refused with
 * the value named: every event buffer is sized from it. */
static cr_status (*real_create)(cr_game *g, char *err, size_t errcap);
static int forced_max_events;
static cr_status create_with_max_events(cr_game *g, char *err, size_t errcap)
{
    cr_status s = real_create(g, err, errcap);
    g->max_events = forced_max_events;
    return s;
}

static void test_new_rejects_bad_max_events(void **state)
{
    (void)state;
    const cr_game_def *dml = cr_registry_find("dml");
    cr_game_def def = *dml;
    real_create = dml->create;
    def.create = create_with_max_events;
    cr_params p = {.num_players = 4};
    char err[256];
    static const int bad[] = {0, -1, 4097};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        forced_max_events = bad[i];
        err[0] = 0;
        assert_null(cr_game_new(&def, &p, err, sizeof err));
        char want[64];
        snprintf(want, sizeof want, "max_events = %d", bad[i]);
        assert_non_null(strstr(err, want));
    }
    forced_max_events = 4096; /* the ceiling itself is allowed */
    cr_game *g = cr_game_new(&def, &p, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(g->max_events, 4096);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_new_rejects_bad_params),
        cmocka_unit_test(test_new_defaults),
        cmocka_unit_test(test_new_rejects_bad_max_events),
        cmocka_unit_test(test_checked_apply),
        cmocka_unit_test(test_sample_chance_follows_probabilities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
