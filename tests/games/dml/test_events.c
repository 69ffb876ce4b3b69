/* test_events.c — DML's bound on the events of one apply (DML_MAX_EVENTS,
 * dml_internal.h): the game reports it as max_events, and a long cascade
 * built from a position fixture stays within it.
 *
 * The cascade (tests/fixtures/dml-positions/events_vp_end.json): the last
 * Active Player of a Round ends the Market; nobody can play in the Power
 * Phase (four forced passes); the next Round's Event Phase discards the
 * Event and finds the Deck empty, so the VP end reveals every Hand and
 * every King, scores each seat and ends the game: every kind of event the
 * end brings, in one apply. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "croupier/game.h"
#include "games/dml/dml_internal.h"
#include "games/dml/dml_test.h"

#ifndef CR_TEST_FIXTURES_DIR
#define CR_TEST_FIXTURES_DIR "tests/fixtures"
#endif

static void test_game_reports_the_bound(void **state)
{
    (void)state;
    cr_game *g = dml_test_game("full", 4);
    assert_int_equal(g->max_events, DML_MAX_EVENTS);
    cr_game_free(g);
}

static void test_end_cascade_within_the_bound(void **state)
{
    (void)state;
    cr_game *g = dml_test_game("full", 4);
    static dml_state s;
    dml_test_load(g, &s, "events_vp_end.json");
    assert_int_equal(s.need, DML_NEED_DECISION);
    assert_int_equal(s.actor, 3);
    assert_int_equal(s.zone_count[DML_Z_DECK], 0);

    /* what the end must show, read from the position before the apply */
    int hand_cards = 0, kings = 0, suits = 0;
    for (int p = 0; p < 4; p++) {
        hand_cards += s.zone_count[DML_Z_HAND + p];
        kings += s.zone_count[DML_Z_KING + p];
        /* one VP_SUIT per suit of which p holds a Commodity in Hand or Front */
        uint64_t all = s.zone[DML_Z_HAND + p] | s.zone[DML_Z_FRONT + p];
        for (int su = 0; su < 4; su++)
            for (int r = 2; r <= 10; r++)
                if (all & dml_bit(dml_card(su, r))) {
                    suits++;
                    break;
                }
    }

    /* a buffer larger than the bound, so anything beyond it would show */
    static cr_event buf[2 * DML_MAX_EVENTS];
    cr_events ev = {buf, 2 * DML_MAX_EVENTS, 0, 0};
    char err[256];
    if (cr_apply_text(g, &s, "end", &(cr_ctx){.ev = &ev}, err, sizeof err) != CR_OK)
        fail_msg("end: %s", err);
    assert_int_equal(ev.dropped, 0);
    assert_true(ev.len <= g->max_events);
    assert_true(s.over);
    assert_int_equal(s.end_reason, DML_END_VP);

    int n[32] = {0};
    for (int i = 0; i < ev.len; i++) {
        assert_true(buf[i].kind < 32);
        n[buf[i].kind]++;
    }
    assert_int_equal(n[DML_E_REVEAL], hand_cards + kings);
    assert_int_equal(n[DML_E_VP], 4);
    assert_true(suits > 0);
    assert_int_equal(n[DML_E_VP_SUIT], suits);
    assert_int_equal(n[DML_E_END], 1);
    assert_int_equal(n[DML_E_ROUND], 1);
    assert_int_equal(n[DML_E_POWER_PHASE], 1);
    assert_int_equal(n[DML_E_MOVE], 1);     /* the old Event to the Discard Pile */
    assert_int_equal(n[DML_E_DECISION], 5); /* End, then four forced passes */
    /* and nothing else */
    assert_int_equal(ev.len, hand_cards + kings + 4 + suits + 1 + 1 + 1 + 1 + 5);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_reports_the_bound),
        cmocka_unit_test(test_end_cascade_within_the_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
