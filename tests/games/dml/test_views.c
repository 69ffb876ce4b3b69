/* test_views.c — the public and omniscient views of DML (CR_SEAT_PUBLIC,
 * CR_SEAT_OMNISCIENT) and observe() with a seat that is not one.
 *
 * Before issue 7, observe(st, -1, ...) indexed pin[-1] (out of bounds) and
 * there was no spectator view at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "croupier/alloc.h"
#include "croupier/game.h"
#include "croupier/rng.h"
#include "games/dml/dml_internal.h"
#include "games/dml/dml_test.h"

/* Plays n random actions from the start. */
static void random_prefix(const cr_game *g, dml_state *s, uint64_t seed, int n)
{
    cr_rng rng;
    cr_rng_seed(&rng, seed, 1);
    g->def->init(g, s);
    cr_action legal[DML_MAX_LEGAL];
    for (int i = 0; i < n && !cr_is_terminal(g, s); i++) {
        cr_action a;
        if (cr_current_player(g, s) == CR_CHANCE) {
            a = cr_sample_chance(g, s, &rng);
        } else {
            int k = g->def->legal_actions(g, s, legal, NULL);
            a = legal[cr_rng_below(&rng, (uint32_t)k)];
        }
        g->def->apply(g, s, a, NULL);
    }
}

/* docs/rulings.md C15: the public view shows exactly what every seat has pinned, nothing of any
 * seat's own memory; the omniscient view is the state. */
static void test_public_is_what_all_seats_know(void **state)
{
    (void)state;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s), *o = cr_alloc(sizeof *o), *seat = cr_alloc(sizeof *seat);
    for (uint64_t seed = 1; seed <= 40; seed++) {
        random_prefix(g, s, seed, (int)(seed * 13));
        g->def->observe(g, s, CR_SEAT_PUBLIC, o);
        assert_int_equal(o->obs_seat, DML_OBS_PUBLIC);
        for (int z = 0; z < DML_NZONES; z++) {
            uint64_t all = DML_ALL_CARDS;
            for (int q = 0; q < 4; q++) all &= s->pin[q][z];
            assert_true(o->zone[z] == (s->zone[z] & all));
            assert_int_equal(o->zone_count[z], s->zone_count[z]); /* counts are public */
            for (int q = 0; q < 4; q++) {
                assert_true(o->pin[q][z] == 0 && o->may[q][z] == 0);
                /* and it shows nothing that a seat's own view hides */
                g->def->observe(g, s, q, seat);
                assert_true((o->zone[z] & ~seat->zone[z]) == 0);
            }
        }
        /* a seat's Hand is not public before it is revealed */
        g->def->observe(g, s, CR_SEAT_OMNISCIENT, o);
        assert_int_equal(o->obs_seat, DML_OBS_ALL);
        assert_memory_equal(o->zone, s->zone, sizeof s->zone);
    }
    cr_free(s);
    cr_free(o);
    cr_free(seat);
    cr_game_free(g);
}

/* A seat that is not one (-1, 4 in a 3-player game, 100) gets the public
 * view: no out-of-bounds read (ASan), nothing private. */
static void test_bad_seat_gets_public_view(void **state)
{
    (void)state;
    cr_game *g = dml_test_game("smackdown", 3);
    dml_state *s = cr_alloc(sizeof *s), *o = cr_alloc(sizeof *o), *pub = cr_alloc(sizeof *pub);
    random_prefix(g, s, 7, 60);
    g->def->observe(g, s, CR_SEAT_PUBLIC, pub);
    const int bad[] = {-1, -2, 3, 4, 100, -100};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        g->def->observe(g, s, bad[i], o);
        assert_memory_equal(o, pub, sizeof *o);
    }
    cr_free(s);
    cr_free(o);
    cr_free(pub);
    cr_game_free(g);
}

/* Rendering the public and omniscient views works and the public one names
 * no card that lies in a Hand unseen. */
static void test_public_view_renders(void **state)
{
    (void)state;
    cr_game *g = dml_test_game("full", 4);
    dml_state *s = cr_alloc(sizeof *s), *o = cr_alloc(sizeof *o);
    random_prefix(g, s, 3, 120);
    g->def->observe(g, s, CR_SEAT_PUBLIC, o);
    static char buf[1 << 16];
    assert_true(g->def->obs_to_json(g, o, buf, sizeof buf) < sizeof buf);
    assert_non_null(strstr(buf, "\"seat\":null"));
    assert_true(g->def->obs_to_text(g, o, buf, sizeof buf) < sizeof buf);
    g->def->observe(g, s, CR_SEAT_OMNISCIENT, o);
    assert_true(g->def->obs_to_json(g, o, buf, sizeof buf) < sizeof buf);
    /* strict JSON: no key twice (the per-seat array once shared "players"
     * with the player count) */
    for (int seat = CR_SEAT_OMNISCIENT; seat < 4; seat++) {
        g->def->observe(g, s, seat, o);
        g->def->obs_to_json(g, o, buf, sizeof buf);
        json_error_t jerr;
        json_t *root = json_loads(buf, JSON_REJECT_DUPLICATES, &jerr);
        if (root == NULL) fail_msg("view %d: %s", seat, jerr.text);
        assert_true(json_is_integer(json_object_get(root, "players")));
        assert_true(json_is_array(json_object_get(root, "seats")));
        json_decref(root);
    }
    cr_free(s);
    cr_free(o);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_is_what_all_seats_know),
        cmocka_unit_test(test_bad_seat_gets_public_view),
        cmocka_unit_test(test_public_view_renders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
