/* test_match.c — the match layer (croupier/match.h): determinism of chance
 * and bots across save/resume and undo, seat-safe submission, the event
 * log, resignations and timeouts, rules versions and game data. */
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
#include "croupier/match.h"

static const char *const BOTS[4] = {"random", "random", "random", "random"};
static const char *const ONE_HUMAN[4] = {"human", "random", "random", "random"};

static cr_match *new_match(const char *const *seats, uint64_t seed)
{
    char err[256];
    cr_params p = {.num_players = 4};
    cr_match *m = cr_match_new(cr_registry_find("dml"), &p, seats, seed, err, sizeof err);
    if (m == NULL) fail_msg("cr_match_new: %s", err);
    return m;
}

/* The record as text (what --save writes). */
static char *save_text(const cr_match *m, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    char err[256];
    if (cr_match_save(m, f, err, sizeof err) != CR_OK) fail_msg("save: %s", err);
    fclose(f);
    if (len) *len = n;
    return buf;
}

static cr_match *reload(const cr_match *m)
{
    size_t len;
    char *text = save_text(m, &len), err[256];
    cr_match *back = cr_match_load(text, len, NULL, 0, err, sizeof err);
    if (back == NULL) fail_msg("load: %s\n%s", err, text);
    free(text);
    return back;
}

static void assert_same_record(const cr_match *a, const cr_match *b)
{
    const cr_record *ra = cr_match_record(a), *rb = cr_match_record(b);
    assert_int_equal(ra->n_actions, rb->n_actions);
    assert_memory_equal(ra->actions, rb->actions, (size_t)ra->n_actions * sizeof(cr_action));
    const cr_game *g = cr_match_game(a);
    assert_memory_equal(cr_match_state(a), cr_match_state(b), g->state_size);
}

/* Save at a chance node, resume: the dice are those of the uninterrupted game. */
static void test_resume_at_chance_keeps_dice(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        cr_match *whole = new_match(BOTS, seed);
        assert_int_equal(cr_match_run(whole, 0), CR_TERMINAL);

        cr_match *part = new_match(BOTS, seed);
        /* stop at the (seed*7)-th chance node or so */
        int chances = 0;
        while (cr_match_to_act(part) != CR_TERMINAL) {
            if (cr_match_to_act(part) == CR_CHANCE && ++chances == (int)(seed * 7)) break;
            assert_int_equal(cr_match_step(part), CR_OK);
        }
        cr_match *resumed = reload(part);
        assert_int_equal(cr_match_to_act(resumed), cr_match_to_act(part));
        cr_match_free(part);
        assert_int_equal(cr_match_run(resumed, 0), CR_TERMINAL);
        assert_same_record(whole, resumed);
        cr_match_free(whole);
        cr_match_free(resumed);
    }
}

/* Undo a human's decision, make it again: the same dice follow. */
static void test_undo_redo_same_dice(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        cr_match *m = new_match(ONE_HUMAN, seed);
        const cr_game *g = cr_match_game(m);
        cr_action legal[256];
        char err[256];
        int decisions = 0;
        while (cr_match_run(m, 0) == 0 && decisions < 30) {
            int n = cr_match_legal(m, 0, legal);
            assert_true(n > 0);
            cr_action a = legal[(seed + (uint64_t)decisions) % (uint64_t)n];
            void *before = cr_alloc(g->state_size);
            memcpy(before, cr_match_state(m), g->state_size);
            int n_before = cr_match_record(m)->n_actions;
            uint32_t ev_before = cr_match_event_count(m);

            assert_int_equal(cr_match_submit_action(m, 0, a, err, sizeof err), CR_OK);
            cr_match_run(m, 0);
            cr_record first = *cr_match_record(m);
            cr_action *acts = malloc((size_t)first.n_actions * sizeof *acts);
            memcpy(acts, first.actions, (size_t)first.n_actions * sizeof *acts);
            int n_first = first.n_actions;

            /* undo: back to exactly the state of the decision */
            assert_int_equal(cr_match_undo(m, 0, err, sizeof err), CR_OK);
            assert_int_equal(cr_match_record(m)->n_actions, n_before);
            assert_int_equal(cr_match_event_count(m), ev_before);
            assert_memory_equal(cr_match_state(m), before, g->state_size);
            assert_int_equal(cr_match_to_act(m), 0);

            /* redo: the same actions, chance and bots included */
            assert_int_equal(cr_match_submit_action(m, 0, a, err, sizeof err), CR_OK);
            cr_match_run(m, 0);
            assert_int_equal(cr_match_record(m)->n_actions, n_first);
            assert_memory_equal(cr_match_record(m)->actions, acts, (size_t)n_first * sizeof *acts);
            free(acts);
            cr_free(before);
            decisions++;
        }
        cr_match_free(m);
    }
}

/* Plays seat 0 by a fixed rule (its k-th decision takes legal action
 * (seed + k) mod n) against bots to the end or max_decisions; with
 * `detour`, each decision after which `undo` is legal (a card added to a
 * composed choice) is followed by `undo` and the same action again: two
 * more actions in the record, the same state.  Returns the detours made. */
static int play_rule(cr_match *m, uint64_t seed, int detour, int max_decisions)
{
    const cr_game *g = cr_match_game(m);
    cr_ctx *cx = cr_ctx_new(g);
    assert_non_null(cx);
    cr_action legal[256];
    char err[256];
    int decisions = 0, detours = 0;
    while (cr_match_run(m, 0) == 0 && decisions < max_decisions) {
        int n = cr_match_legal(m, 0, legal);
        assert_true(n > 0);
        cr_action a = legal[(seed + (uint64_t)decisions) % (uint64_t)n], undo;
        assert_int_equal(cr_match_submit_action(m, 0, a, err, sizeof err), CR_OK);
        decisions++;
        /* a detour after a card added to a composed choice (not after an
         * `undo` itself, nor after a choice that ends the seat's turn) */
        if (detour && cr_match_to_act(m) == 0 &&
            cr_seat_parse(g, cr_match_state(m), 0, "undo", &undo, cx, err, sizeof err) == CR_OK &&
            undo != a && cr_is_legal(g, cr_match_state(m), undo, cx)) {
            assert_int_equal(cr_match_submit_action(m, 0, undo, err, sizeof err), CR_OK);
            assert_int_equal(cr_match_submit_action(m, 0, a, err, sizeof err), CR_OK);
            detours++;
        }
    }
    cr_ctx_free(cx);
    return detours;
}

/* Taking a card back inside a composed choice and adding it again is two
 * actions more in the record: the dice and cards that follow, and the
 * bots' choices, are those of the game without them (issue 18: the dice
 * were drawn by action index, so a take-back and a re-add re-rolled the
 * next roll). */
static void test_take_back_keeps_dice(void **state)
{
    (void)state;
    int detours = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        cr_match *plain = new_match(ONE_HUMAN, seed);
        cr_match *detoured = new_match(ONE_HUMAN, seed);
        play_rule(plain, seed, 0, 60);
        detours += play_rule(detoured, seed, 1, 60);
        assert_int_equal(cr_match_to_act(plain), cr_match_to_act(detoured));
        /* the chance outcomes, in order, are the same */
        const cr_record *ra = cr_match_record(plain), *rb = cr_match_record(detoured);
        int ia = 0, ib = 0, chances = 0;
        for (;;) {
            while (ia < ra->n_actions && cr_match_actor(plain, ia) != CR_CHANCE) ia++;
            while (ib < rb->n_actions && cr_match_actor(detoured, ib) != CR_CHANCE) ib++;
            if (ia == ra->n_actions || ib == rb->n_actions) break;
            assert_int_equal(ra->actions[ia], rb->actions[ib]);
            ia++, ib++, chances++;
        }
        assert_int_equal(ia, ra->n_actions);
        assert_int_equal(ib, rb->n_actions);
        assert_true(chances > 0);
        cr_match_free(plain);
        cr_match_free(detoured);
    }
    assert_true(detours > 10); /* the games did take cards back */
}

/* Input from a seat that is not to act is refused before it is parsed, and
 * the message is the same whatever the text and whatever is hidden. */
static void test_submit_out_of_turn(void **state)
{
    (void)state;
    cr_match *m = new_match((const char *const[]){"human", "human", "human", "human"}, 5);
    const cr_game *g = cr_match_game(m);
    int who = cr_match_run(m, 0);
    assert_true(who >= 0);
    int other = (who + 1) % 4;
    void *before = cr_alloc(g->state_size);
    memcpy(before, cr_match_state(m), g->state_size);
    char e1[256], e2[256];
    assert_int_equal(cr_match_submit(m, other, "roll 1 1", e1, sizeof e1), CR_ERR_ILLEGAL);
    assert_int_equal(cr_match_submit(m, other, "2C", e2, sizeof e2), CR_ERR_ILLEGAL);
    assert_string_equal(e1, e2);
    char want[64];
    snprintf(want, sizeof want, "not your turn: P%d is to act", who);
    assert_string_equal(e1, want);
    assert_int_equal(cr_match_submit(m, 9, "x", e1, sizeof e1), CR_ERR_ILLEGAL);
    assert_string_equal(e1, "no seat 9");
    assert_memory_equal(cr_match_state(m), before, g->state_size);
    assert_int_equal(cr_match_record(m)->n_actions, 0 + cr_match_record(m)->n_actions);
    /* the acting seat gets its own decision explained */
    assert_int_equal(cr_match_submit(m, who, "no such move", e1, sizeof e1), CR_ERR_PARSE);
    assert_non_null(strstr(e1, "unknown action 'no such move'"));
    assert_memory_equal(cr_match_state(m), before, g->state_size);
    cr_free(before);
    cr_match_free(m);
}

/* The event log is rebuilt exactly when a record is loaded. */
static void test_log_rebuilt_on_load(void **state)
{
    (void)state;
    cr_match *m = new_match(BOTS, 77);
    cr_match_run(m, 500);
    cr_match *back = reload(m);
    assert_int_equal(cr_match_event_count(back), cr_match_event_count(m));
    const cr_match_event *a, *b;
    int n = cr_match_events_since(m, 0, &a);
    assert_int_equal(cr_match_events_since(back, 0, &b), n);
    assert_true(n > 100);
    for (int i = 0; i < n; i++) {
        assert_int_equal(a[i].seq, (uint32_t)i);
        assert_int_equal(b[i].seq, a[i].seq);
        assert_int_equal(b[i].action_index, a[i].action_index);
        const cr_event *x = &a[i].ev, *y = &b[i].ev; /* fields: padding is not compared */
        assert_true(x->kind == y->kind && x->seat == y->seat && x->other == y->other &&
                    x->card == y->card && x->from == y->from && x->to == y->to && x->a == y->a &&
                    x->b == y->b && x->seen_by == y->seen_by);
    }
    /* since N: the tail */
    assert_int_equal(cr_match_events_since(m, (uint32_t)n - 3, &a), 3);
    assert_int_equal(a[0].seq, (uint32_t)n - 3);
    assert_int_equal(cr_match_events_since(m, (uint32_t)n + 5, &a), 0);
    cr_match_free(m);
    cr_match_free(back);
}

/* Seats are recorded; a resumed game plays on with the same bots. */
static void test_seats_and_seed_in_record(void **state)
{
    (void)state;
    const char *seats[4] = {"human", "heuristic", "random", "ismcts:iters=20"};
    cr_match *m = new_match(seats, 123);
    uint64_t seed = 0;
    assert_int_equal(cr_match_seed(m, &seed), 0); /* secret while the game runs */
    cr_match_run(m, 0);
    size_t len;
    char *text = save_text(m, &len);
    assert_non_null(strstr(text, "seat 1 heuristic\n"));
    assert_non_null(strstr(text, "seat 3 ismcts:iters=20\n"));
    assert_non_null(strstr(text, "seed 123\n"));
    assert_non_null(strstr(text, "rules 1\n"));
    char err[256];
    cr_match *back = cr_match_load(text, len, NULL, 0, err, sizeof err);
    assert_non_null(back);
    for (int s = 0; s < 4; s++) assert_string_equal(cr_match_seat_spec(back, s), seats[s]);
    free(text);
    cr_match_free(back);
    cr_match_free(m);
}

/* Resignation: a bot takes over (recorded), or the match ends with the
 * result marked; both survive save and load. */
static void test_resign_and_timeout(void **state)
{
    (void)state;
    char err[256];
    cr_match *m = new_match(ONE_HUMAN, 9);
    assert_int_equal(cr_match_run(m, 0), 0);
    assert_int_equal(cr_match_resign(m, 0, "nosuchbot", err, sizeof err), CR_ERR_INVALID);
    assert_int_equal(cr_match_record(m)->n_marks, 0); /* nothing recorded on a bad spec */
    assert_int_equal(cr_match_timeout(m, 0, "random", err, sizeof err), CR_OK);
    assert_false(cr_match_is_human(m, 0));
    assert_int_equal(cr_match_left(m, 0), CR_MARK_TIMEOUT);
    assert_int_equal(cr_match_run(m, 0), CR_TERMINAL); /* bots play it out */
    cr_match *back = reload(m);
    assert_string_equal(cr_match_seat_spec(back, 0), "random");
    assert_int_equal(cr_match_left(back, 0), CR_MARK_TIMEOUT);
    assert_same_record(m, back);
    cr_match_free(back);
    cr_match_free(m);

    m = new_match((const char *const[]){"human", "human", "random", "random"}, 4);
    int who = cr_match_run(m, 0);
    assert_true(who == 0 || who == 1);
    assert_int_equal(cr_match_resign(m, 1, NULL, err, sizeof err), CR_OK);
    assert_int_equal(cr_match_to_act(m), CR_TERMINAL);
    assert_true(cr_match_over(m));
    cr_result res;
    cr_match_result(m, &res);
    assert_int_equal(res.rank[1], 4);
    assert_int_equal(res.rank[0], 1);
    assert_int_equal(res.winners, 0xdu); /* the three others share the win */
    char text_err[256];
    assert_int_equal(cr_match_submit(m, who, "pass", text_err, sizeof text_err), CR_ERR_ILLEGAL);
    assert_string_equal(text_err, "the game is over");
    uint64_t seed;
    assert_int_equal(cr_match_seed(m, &seed), 1);
    assert_int_equal(seed, 4);
    size_t len;
    char *text = save_text(m, &len);
    assert_non_null(strstr(text, "! resign 1\n! end\n"));
    back = cr_match_load(text, len, NULL, 0, err, sizeof err);
    assert_non_null(back);
    assert_int_equal(cr_match_to_act(back), CR_TERMINAL);
    cr_match_result(back, &res);
    assert_int_equal(res.winners, 0xdu);
    free(text);
    cr_match_free(back);
    cr_match_free(m);
}

/* The record since a cursor gives every action (with its chooser) and mark
 * once, in record order; decision numbers count a seat's decisions, plus
 * the one it faces. */
static void test_record_since_cursor_and_decisions(void **state)
{
    (void)state;
    char err[256];
    cr_match *m = new_match(ONE_HUMAN, 9);
    assert_int_equal(cr_match_run(m, 0), 0);
    assert_int_equal(cr_match_decision(m, 0), 1); /* it faces its first decision */
    cr_match_cursor cur = {0, 0};
    cr_match_entry e;
    int n = 0;
    while (cr_match_record_next(m, &cur, &e)) {
        assert_null(e.mark);
        assert_int_equal(e.action, cr_match_record(m)->actions[n]);
        assert_int_equal(e.actor, cr_match_actor(m, n));
        n++;
    }
    assert_int_equal(n, cr_match_record(m)->n_actions);
    assert_int_equal(cur.actions, n);
    for (int s = 1; s < 4; s++) {
        int decided = 0;
        for (int i = 0; i < n; i++) decided += cr_match_actor(m, i) == s;
        assert_int_equal(cr_match_decision(m, s), decided);
    }
    assert_int_equal(cr_match_resign(m, 0, "random", err, sizeof err), CR_OK);
    assert_int_equal(cr_match_record_next(m, &cur, &e), 1); /* ! resign 0 */
    assert_non_null(e.mark);
    assert_int_equal(e.mark->kind, CR_MARK_RESIGN);
    assert_int_equal(e.actor, 0);
    assert_int_equal(cr_match_record_next(m, &cur, &e), 1); /* ! seat 0 random */
    assert_int_equal(e.mark->kind, CR_MARK_SEAT);
    assert_int_equal(cr_match_record_next(m, &cur, &e), 0);
    assert_int_equal(cr_match_decision(m, 0), 1); /* a bot now: made none yet, faces one */
    assert_int_equal(cr_match_decision(m, -1), 0);
    cr_match_free(m);
}

/* A bot made by cr_match_bot_new on the caller's own game and reseeded with
 * cr_match_bot_seed chooses what the match's own bot chooses (what a
 * server's worker relies on). */
static void test_bot_new_chooses_as_the_match(void **state)
{
    (void)state;
    char err[256];
    cr_match *m = new_match(BOTS, 21);
    cr_params p = {.num_players = 4};
    cr_game *g = cr_game_new(cr_registry_find("dml"), &p, err, sizeof err);
    assert_non_null(g);
    cr_action *legal = malloc(sizeof *legal * (size_t)g->max_legal);
    void *obs = malloc(g->obs_size);
    int checked = 0;
    for (int k = 0; k < 400 && !cr_match_over(m); k++) {
        int who = cr_match_to_act(m);
        if (who < 0) {
            assert_int_equal(cr_match_step(m), CR_OK);
            continue;
        }
        cr_bot *b = cr_match_bot_new(m, g, "random", who, err, sizeof err);
        assert_non_null(b);
        cr_bot_reseed(b, cr_match_bot_seed(m, who));
        int n = cr_match_legal(m, who, legal);
        cr_match_observe(m, who, obs);
        cr_action mine =
            n == 1 ? legal[0] : cr_bot_act(b, cr_bot_wants_obs(b) ? obs : NULL, legal, n);
        cr_bot_free(b);
        assert_true(cr_match_substitute_seed(m, who) != cr_match_bot_seed(m, who) || who == 0);
        assert_int_equal(cr_match_step(m), CR_OK);
        const cr_record *r = cr_match_record(m);
        assert_int_equal(r->actions[r->n_actions - 1], mine);
        checked++;
    }
    assert_true(checked > 10);
    free(legal);
    free(obs);
    cr_game_free(g);
    cr_match_free(m);
}

/* The undo rule: a seat may take back its own moves only, not another
 * human's decision made since. */
static void test_undo_blocker(void **state)
{
    (void)state;
    char err[256];
    cr_match *m = new_match((const char *const[]){"human", "human", "random", "random"}, 4);
    int guard = 0, first = -1, blocked = 0;
    while (guard++ < 10000) {
        int who = cr_match_run(m, 0);
        if (who == CR_TERMINAL) break;
        if (first < 0) {
            first = who;
            assert_int_equal(cr_match_undo_blocker(m, who), -1); /* nothing to take back */
        }
        int other = 1 - who;
        if (cr_match_decision(m, other) > 0 && cr_match_decision(m, who) > 1) {
            /* `who` decided before; if `other` decided after that, it blocks */
            const cr_record *r = cr_match_record(m);
            int k = r->n_actions - 1, expect = -1;
            while (k >= 0 && cr_match_actor(m, k) != who) k--;
            for (int j = k + 1; j < r->n_actions && expect < 0; j++)
                if (cr_match_actor(m, j) == other) expect = other;
            assert_int_equal(cr_match_undo_blocker(m, who), expect);
            if (expect == other) {
                blocked = 1;
                assert_int_equal(cr_match_undo_blocker(m, other),
                                 -1); /* its own turn back is free */
                break;
            }
        }
        cr_action legal[4096];
        int n = cr_match_legal(m, who, legal);
        assert_true(n > 0);
        assert_int_equal(cr_match_submit_action(m, who, legal[0], err, sizeof err), CR_OK);
    }
    assert_true(blocked); /* the game reached a take-back another human's move blocks */
    cr_match_free(m);
}

static cr_match *load_text(const char *text, char *err, size_t cap)
{
    return cr_match_load(text, strlen(text), NULL, 0, err, cap);
}

/* Records name their rules version; a mismatch is an error naming both. */
static void test_rules_version(void **state)
{
    (void)state;
    char err[512];
    cr_match *m = load_text("game dml\nrules 99\nplayers 4\nactions\n", err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "rules version 99"));
    assert_non_null(strstr(err, "plays version 1"));
    /* an old record: no rules line, the old first-roller key */
    m = load_text("game dml\nvariant full\nplayers 4\nfirst-roller 2\nseed 5\nactions\n", err,
                  sizeof err);
    if (m == NULL) fail_msg("old record: %s", err);
    assert_int_equal(cr_match_game(m)->opt[0], 2);
    cr_match_free(m);
    m = load_text("game dml\nplayers 4\noption first-roller 5\nactions\n", err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "first-roller"));
    m = load_text("game dml\nplayers 4\noption colour red\nactions\n", err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "no option 'colour'"));
    m = load_text("game dml\nplayers 4\nactions\n! resign 7\n", err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "line 4"));
    m = load_text("game dml\nplayers 4\nactions\n! end\nroll 1 2\n", err, sizeof err);
    assert_null(m);
    m = load_text("game dml\nplayers 4\ndata-hash 0123456789abcdef\nactions\n", err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "game data"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume_at_chance_keeps_dice),
        cmocka_unit_test(test_undo_redo_same_dice),
        cmocka_unit_test(test_take_back_keeps_dice),
        cmocka_unit_test(test_submit_out_of_turn),
        cmocka_unit_test(test_log_rebuilt_on_load),
        cmocka_unit_test(test_seats_and_seed_in_record),
        cmocka_unit_test(test_resign_and_timeout),
        cmocka_unit_test(test_record_since_cursor_and_decisions),
        cmocka_unit_test(test_undo_blocker),
        cmocka_unit_test(test_bot_new_chooses_as_the_match),
        cmocka_unit_test(test_rules_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
