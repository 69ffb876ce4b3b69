/* test_help.c — the help a seat is shown for its decision (the terminal's
 * `?`, the browser's `?`, the `help` of the server's update):
 *   - it is written from the seat's observation only: for every registered
 *     game, at decisions of random games, the help of the true state is
 *     the help of a state with everything the seat does not see dealt
 *     again (the game's sampler, from the seat's observation);
 *   - the view (match/view.h, the server's update) carries exactly the
 *     match's help for the seat to act and none for the others, the same
 *     bytes each time it is asked while nothing changes, and the new
 *     decision's help once something has (its help is kept between calls
 *     while the seat's observation stays the same). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "croupier/alloc.h"
#include "croupier/match.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "match/view.h"

enum { HELP_CAP = 1 << 16 };

static cr_match *new_match(const cr_game_def *def, int players, const char *const *seats,
                           uint64_t seed)
{
    char err[256];
    cr_params p = {.num_players = players};
    cr_match *m = cr_match_new(def, &p, seats, seed, err, sizeof err);
    if (m == NULL) fail_msg("cr_match_new %s: %s", def->name, err);
    return m;
}

/* The players of a table of def: 4 when it may have 4, else its fewest. */
static int players_of(const cr_game_def *def)
{
    char err[256];
    cr_params p = {.num_players = 4};
    cr_game *g = cr_game_new(def, &p, err, sizeof err);
    if (g != NULL) {
        cr_game_free(g);
        return 4;
    }
    for (int n = 1; n <= 8; n++) {
        p.num_players = n;
        g = cr_game_new(def, &p, err, sizeof err);
        if (g != NULL) {
            cr_game_free(g);
            return n;
        }
    }
    fail_msg("%s: no table of 1 to 8 players", def->name);
    return 0;
}

static void test_help_is_blind_to_hidden_information(void **unused)
{
    (void)unused;
    char *a = cr_alloc(HELP_CAP), *b = cr_alloc(HELP_CAP);
    for (int gi = 0; gi < cr_registry_count(); gi++) {
        const cr_game_def *def = cr_registry_get(gi);
        int players = players_of(def);
        const char *seats[8];
        for (int s = 0; s < 8; s++) seats[s] = "random";
        int compared = 0, differ = 0, helped = 0;
        for (uint64_t seed = 1; seed <= 4 && compared < 150; seed++) {
            cr_match *m = new_match(def, players, seats, seed);
            const cr_game *g = cr_match_game(m);
            const cr_game_parts *parts = cr_parts(g);
            if (parts->help == NULL || def->sample == NULL) {
                cr_match_free(m);
                break;
            }
            void *other = cr_alloc(g->state_size);
            void *obs = cr_alloc(g->obs_size), *obs2 = cr_alloc(g->obs_size);
            cr_ctx *cx = cr_ctx_new(g);
            cr_rng rng;
            cr_rng_seed(&rng, seed * 7919, 3);
            for (long step = 0; step < 4000 && !cr_match_over(m) && compared < 150; step++) {
                int s = cr_match_to_act(m);
                if (s >= 0 && step % 3 == 0) {
                    size_t na = cr_match_help(m, s, a, HELP_CAP);
                    assert_true(na < HELP_CAP);
                    /* what the seat does not see, dealt again */
                    cr_match_observe(m, s, obs);
                    assert_int_equal(def->sample(g, obs, &rng, other, cx), CR_OK);
                    def->observe(g, other, s, obs2);
                    assert_memory_equal(obs, obs2, g->obs_size);
                    differ += memcmp(cr_match_state(m), other, g->state_size) != 0;
                    size_t nb = parts->help(g, obs2, b, HELP_CAP);
                    assert_int_equal(na, nb);
                    assert_string_equal(a, b);
                    helped += na > 0;
                    compared++;
                }
                assert_int_equal(cr_match_step(m), CR_OK);
            }
            cr_ctx_free(cx);
            cr_free(other);
            cr_free(obs);
            cr_free(obs2);
            cr_match_free(m);
        }
        print_message("%s: %d decisions' help compared, %d on a state dealt differently, %d with "
                      "help\n",
                      def->name, compared, differ, helped);
        if (compared > 0) {
            assert_true(helped > compared / 2);
            /* DML hides cards: the states compared did differ */
            if (strcmp(def->name, "dml") == 0) assert_true(differ > compared / 2);
        }
    }
    cr_free(a);
    cr_free(b);
}

/* The "help" member of seat's view, freshly parsed (a strdup'ed string). */
static char *view_help(cr_view *v, const cr_match *m, int seat)
{
    cr_text t = CR_TEXT_INIT;
    cr_text_puts(&t, "{");
    cr_view_json(v, m, seat, 0xffu, &t);
    cr_text_puts(&t, "}");
    assert_false(t.oom);
    json_error_t jerr;
    json_t *o = json_loads(cr_text_str(&t), 0, &jerr);
    if (o == NULL) fail_msg("view JSON: %s", jerr.text);
    const char *h = json_string_value(json_object_get(o, "help"));
    assert_non_null(h);
    char *out = strdup(h);
    json_decref(o);
    cr_text_free(&t);
    return out;
}

static void test_view_carries_the_seats_help(void **unused)
{
    (void)unused;
    const char *names[] = {"dml", "18dracula"};
    char *want = cr_alloc(HELP_CAP);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const cr_game_def *def = cr_registry_find(names[k]);
        if (def == NULL) continue;
        const char *seats[4] = {"human", "human", "human", "human"};
        int players = players_of(def);
        if (players > 4) players = 4;
        cr_match *m = new_match(def, players, seats, 42 + k);
        const cr_game *g = cr_match_game(m);
        cr_view v;
        assert_int_equal(cr_view_init(&v, g), 1);
        cr_action *legal = cr_alloc(sizeof(cr_action) * (size_t)g->max_legal);
        cr_rng rng;
        cr_rng_seed(&rng, 5, 1);
        int decisions = 0, changed = 0;
        char *last = strdup("");
        for (long step = 0; step < 3000 && !cr_match_over(m) && decisions < 200; step++) {
            int s = cr_match_to_act(m);
            if (s < 0) {
                assert_int_equal(cr_match_step(m), CR_OK);
                continue;
            }
            cr_match_help(m, s, want, HELP_CAP);
            char *h1 = view_help(&v, m, s);
            assert_string_equal(h1, want);
            /* another seat's view carries no help, and does not disturb
             * what the seat to act is shown next */
            int o = (s + 1) % players;
            if (o != s) {
                char *ho = view_help(&v, m, o);
                assert_string_equal(ho, "");
                free(ho);
            }
            char *h2 = view_help(&v, m, s);
            assert_string_equal(h2, h1);
            changed += strcmp(h1, last) != 0;
            free(last);
            last = h1;
            free(h2);
            decisions++;
            int n = cr_match_legal(m, s, legal);
            assert_true(n > 0);
            char err[256];
            assert_int_equal(cr_match_submit_action(m, s, legal[cr_rng_below(&rng, (uint32_t)n)],
                                                    err, sizeof err),
                             CR_OK);
        }
        free(last);
        print_message("%s: %d decisions' views, the help changed %d times\n", names[k], decisions,
                      changed);
        assert_true(decisions >= 50);
        assert_true(changed > decisions / 4);
        cr_free(legal);
        cr_view_fini(&v);
        cr_match_free(m);
    }
    cr_free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_is_blind_to_hidden_information),
        cmocka_unit_test(test_view_carries_the_seats_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
