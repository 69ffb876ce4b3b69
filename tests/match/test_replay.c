/* test_replay.c — the replay cursor (src/match/replay.c): it reaches the
 * same state forwards, backwards and by jumps, the state before a move is
 * the one the move was chosen in, each move's log entries are the ones the
 * match logged for it, and the line mode's words for a move
 * (src/cli/replay_text.c, compiled in: src/cli is the program, not the
 * library) number it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/cli_util.c"
#include "cli/replay_text.c"
#include "croupier/alloc.h"
#include "croupier/replay.h"

static cr_match *random_match(int n_actions, uint64_t seed)
{
    const char *seats[4] = {"random", "random", "random", "random"};
    cr_params p = {0};
    p.num_players = 4;
    char err[256];
    cr_match *m = cr_match_new(cr_registry_find("dml"), &p, seats, seed, err, sizeof err);
    assert_non_null(m);
    cr_match_run(m, n_actions);
    return m;
}

/* The cursor reaches the same state forwards and backwards (the test the
 * line stepper had). */
static void test_forwards_and_backwards(void **state)
{
    (void)state;
    cr_match *m = random_match(200, 11);
    const cr_game *g = cr_match_game(m);
    cr_replay *rp = cr_replay_new(m);
    assert_non_null(rp);
    assert_int_equal(cr_replay_steps(rp), 200);
    assert_int_equal(cr_replay_at(rp), 0);
    cr_replay_seek(rp, 200);
    assert_memory_equal(cr_replay_state(rp), cr_match_state(m), g->state_size);
    cr_replay_seek(rp, 37);
    void *at37 = cr_alloc(g->state_size);
    memcpy(at37, cr_replay_state(rp), g->state_size);
    cr_replay_seek(rp, 120);
    cr_replay_seek(rp, 37);
    assert_memory_equal(cr_replay_state(rp), at37, g->state_size);
    cr_text t = {0};
    cli_replay_move(rp, 1, &t);
    assert_non_null(strstr(t.p, "  37. "));
    cr_replay_seek(rp, -5);
    assert_int_equal(cr_replay_at(rp), 0);
    assert_null(cr_replay_state_before(rp));
    cr_replay_seek(rp, 100000);
    assert_int_equal(cr_replay_at(rp), 200);
    cr_text_free(&t);
    cr_free(at37);
    cr_replay_free(rp);
    cr_match_free(m);
}

/* Every step, reached in any order, is the state a plain replay from the
 * start reaches; the state before it is the step before. */
static void test_every_step_any_order(void **state)
{
    (void)state;
    cr_match *m = random_match(300, 5);
    const cr_game *g = cr_match_game(m);
    const cr_record *r = cr_match_record(m);
    int n = r->n_actions;
    size_t sz = g->state_size;
    char *all = cr_alloc(sz * (size_t)(n + 1)); /* all + k * sz: after k actions */
    assert_non_null(all);
    g->def->init(g, all);
    cr_ctx *cx = cr_ctx_new(g);
    for (int k = 0; k < n; k++) {
        memcpy(all + sz * (size_t)(k + 1), all + sz * (size_t)k, sz);
        assert_int_equal(cr_apply_checked(g, all + sz * (size_t)(k + 1), r->actions[k], cx), CR_OK);
    }
    cr_replay *rp = cr_replay_new(m);
    assert_non_null(rp);
    /* backwards from the end, then jumps of a prime stride, then forwards */
    for (int k = n; k >= 0; k--) {
        cr_replay_seek(rp, k);
        assert_memory_equal(cr_replay_state(rp), all + sz * (size_t)k, sz);
    }
    for (int i = 0, k = 0; i <= n; i++, k = (k + 97) % (n + 1)) {
        cr_replay_seek(rp, k);
        assert_memory_equal(cr_replay_state(rp), all + sz * (size_t)k, sz);
        if (k > 0) assert_memory_equal(cr_replay_state_before(rp), all + sz * (size_t)(k - 1), sz);
        assert_memory_equal(cr_replay_state(rp), all + sz * (size_t)k, sz);
    }
    for (int k = 0; k <= n; k++) {
        cr_replay_seek(rp, k);
        if (k > 0) assert_memory_equal(cr_replay_state_before(rp), all + sz * (size_t)(k - 1), sz);
    }
    cr_replay_free(rp);
    cr_ctx_free(cx);
    cr_free(all);
    cr_match_free(m);
}

/* A move's log entries are those the match tagged with its index, and the
 * ranges tile the log. */
static void test_event_ranges(void **state)
{
    (void)state;
    cr_match *m = random_match(150, 3);
    cr_replay *rp = cr_replay_new(m);
    assert_non_null(rp);
    const cr_match_event *ev;
    int ne = cr_match_events_since(m, 0, &ev);
    int n = cr_replay_steps(rp);
    assert_int_equal(cr_replay_event_at(rp, 0), 0);
    assert_int_equal(cr_replay_event_at(rp, n), (uint32_t)ne);
    for (int i = 0; i < n; i++) {
        uint32_t from = cr_replay_event_at(rp, i), to = cr_replay_event_at(rp, i + 1);
        assert_true(from <= to);
        for (uint32_t e = from; e < to; e++) assert_int_equal(ev[e].action_index, i);
    }
    cr_replay_free(rp);
    cr_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forwards_and_backwards),
        cmocka_unit_test(test_every_step_any_order),
        cmocka_unit_test(test_event_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
