/* test_session.c — the screen's session (src/match/session.c) as the line
 * mode drives it: in hot-seat games every "since your last turn" summary
 * and every echo of a human's own move is checked against the omniscient
 * state at that moment (it never names a card of the other human's Hand
 * that the viewer does not know, nor the card of an event private to the
 * other human); undo never takes back another human's decision.  (The
 * replay cursor, once the stepper here, is tests/match/test_replay.c.) */
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
#include "croupier/session.h"
#include "croupier/rng.h"

static cr_match *new_match(const char *seats_csv, uint64_t seed)
{
    static char buf[256];
    const char *seats[CR_MAX_PLAYERS];
    snprintf(buf, sizeof buf, "%s", seats_csv);
    int n = 0;
    for (char *s = strtok(buf, ","); s != NULL && n < CR_MAX_PLAYERS; s = strtok(NULL, ","))
        seats[n++] = s;
    cr_params p = {0};
    p.num_players = n;
    char err[256];
    cr_match *m = cr_match_new(cr_registry_find("dml"), &p, seats, seed, err, sizeof err);
    assert_non_null(m);
    return m;
}

/* The observation of `view` as a JSON object (caller decrefs). */
static json_t *obs_json(const cr_match *m, int view)
{
    const cr_game *g = cr_match_game(m);
    void *obs = cr_alloc(g->obs_size);
    assert_non_null(obs);
    cr_match_observe(m, view, obs);
    size_t cap = (size_t)1 << 17;
    char *text = malloc(cap);
    assert_non_null(text);
    assert_true(g->def->obs_to_json(g, obs, text, cap) < cap);
    json_t *o = json_loads(text, 0, NULL);
    assert_non_null(o);
    free(text);
    cr_free(obs);
    return o;
}

/* 1 if `card` appears in `text` as a word of its own. */
static int names_card(const char *text, const char *card)
{
    size_t n = strlen(card);
    for (const char *p = strstr(text, card); p != NULL; p = strstr(p + 1, card)) {
        int before =
            p == text || !((p[-1] >= '0' && p[-1] <= '9') || (p[-1] >= 'A' && p[-1] <= 'Z'));
        char c = p[n];
        int after = !((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
        if (before && after) return 1;
    }
    return 0;
}

/* Checks that `text`, shown to `viewer`, names none of the cards of
 * `other`'s Hand unknown to viewer, and no card of an event in [from, to)
 * that only `other` saw (unless viewer knows that card now).  Returns the
 * number of secret cards checked. */
static int check_private(const cr_match *m, int viewer, int other, const char *text, uint32_t from,
                         uint32_t to)
{
    json_t *omni = obs_json(m, CR_SEAT_OMNISCIENT), *mine = obs_json(m, viewer);
    char *mine_text = json_dumps(mine, JSON_COMPACT);
    assert_non_null(mine_text);
    int checked = 0;
    /* the cards the window's events showed the viewer (a card of a Seize
     * offer or a Siege is revealed to all, and may be in other's Hand by
     * now without the viewer knowing where) */
    char shown[512] = ",";
    const cr_match_event *sev;
    int ns = cr_match_events_since(m, from, &sev);
    for (int k = 0; k < ns && sev[k].seq < to; k++) {
        if (sev[k].ev.card < 0 || !cr_event_visible(cr_match_game(m), &sev[k].ev, viewer)) continue;
        char js[512];
        cr_match_event_json(m, &sev[k], viewer, js, sizeof js);
        json_t *o = json_loads(js, 0, NULL);
        const char *card = o ? json_string_value(json_object_get(o, "card")) : NULL;
        if (card && strlen(shown) + strlen(card) + 2 < sizeof shown) {
            strcat(shown, card);
            strcat(shown, ",");
        }
        json_decref(o);
    }
    json_t *hand = json_object_get(json_array_get(json_object_get(omni, "seats"), (size_t)other),
                                   "hand_known");
    assert_true(json_is_array(hand));
    size_t i;
    json_t *c;
    json_array_foreach(hand, i, c)
    {
        char quoted[16];
        snprintf(quoted, sizeof quoted, "\"%s\"", json_string_value(c));
        if (strstr(mine_text, quoted) != NULL) continue; /* the viewer knows where it is */
        char word[16];
        snprintf(word, sizeof word, ",%s,", json_string_value(c));
        if (strstr(shown, word) != NULL) continue; /* shown to the viewer in this window */
        checked++;
        if (names_card(text, json_string_value(c)))
            fail_msg("P%d was shown P%d's hidden card %s:\n%s", viewer, other, json_string_value(c),
                     text);
    }
    const cr_match_event *ev;
    int n = cr_match_events_since(m, from, &ev);
    const cr_game *g = cr_match_game(m);
    for (int k = 0; k < n && ev[k].seq < to; k++) {
        const cr_event *e = &ev[k].ev;
        if (e->card < 0 || cr_event_visible(g, e, viewer) || !cr_event_visible(g, e, other))
            continue;
        char js[512];
        cr_match_event_json(m, &ev[k], CR_SEAT_OMNISCIENT, js, sizeof js);
        json_t *o = json_loads(js, 0, NULL);
        assert_non_null(o);
        const char *card = json_string_value(json_object_get(o, "card"));
        if (card != NULL) {
            char quoted[16];
            snprintf(quoted, sizeof quoted, "\"%s\"", card);
            checked++;
            char word[16];
            snprintf(word, sizeof word, ",%s,", card);
            if (strstr(mine_text, quoted) == NULL && strstr(shown, word) == NULL &&
                names_card(text, card))
                fail_msg("P%d was shown P%d's private event (%s):\n%s", viewer, other, card, text);
        }
        json_decref(o);
    }
    free(mine_text);
    json_decref(omni);
    json_decref(mine);
    return checked;
}

/* Plays a hot-seat game the way cmd_play's loop does, each human choosing
 * at random; checks every text a human is shown. */
static void hot_seat_game(uint64_t seed)
{
    cr_match *m = new_match("human,random,human,random", seed);
    const cr_game *g = cr_match_game(m);
    cr_session s;
    cr_session_init(&s, m, 0);
    assert_int_equal(s.n_humans, 2);
    assert_int_equal(cr_session_table_view(&s), CR_SEAT_PUBLIC);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    cr_rng rng;
    cr_rng_seed(&rng, seed, 99);
    cr_text out = {0};
    int handovers = 0, checked = 0, decisions = 0;
    for (int step = 0; step < 20000 && !cr_match_over(m); step++) {
        int who = cr_match_to_act(m);
        int index = cr_match_record(m)->n_actions;
        if (who == CR_CHANCE || !cr_match_is_human(m, who)) {
            assert_int_equal(cr_match_step(m), CR_OK);
            assert_int_equal(cr_match_actor(m, index), who);
            continue;
        }
        int other = 2 - who;
        if (cr_session_needs_handover(&s, who)) {
            handovers++;
            cr_session_take_screen(&s, who);
        }
        assert_false(cr_session_needs_handover(&s, who));
        uint32_t from = s.seen[who], now = cr_match_event_count(m);
        cr_text_reset(&out);
        cr_session_catch_up(&s, who, &out);
        assert_int_equal(s.seen[who], now);
        if (out.len > 0) checked += check_private(m, who, other, out.p, from, now);
        int n = cr_match_legal(m, who, legal);
        assert_true(n > 0);
        char err[256];
        assert_int_equal(
            cr_match_submit_action(m, who, legal[cr_rng_below(&rng, (uint32_t)n)], err, sizeof err),
            CR_OK);
        assert_int_equal(cr_match_actor(m, index), who);
        decisions++;
        /* the echo of the decision, to the seat that made it */
        uint32_t after = cr_match_event_count(m);
        cr_text_reset(&out);
        cr_session_summarize(m, s.seen[who], after, who, 0, "", &out);
        if (out.len > 0) checked += check_private(m, who, other, out.p, s.seen[who], after);
        s.seen[who] = after;
    }
    assert_true(cr_match_over(m));
    /* the end, to the whole table: the public view */
    cr_text_reset(&out);
    cr_session_table_lines(&s, &out);
    assert_int_equal(cr_match_actor(m, -1), CR_TERMINAL);
    assert_int_equal(cr_match_actor(m, cr_match_record(m)->n_actions), CR_TERMINAL);
    assert_true(handovers >= 2);
    assert_true(decisions > 10);
    assert_true(checked > 0); /* the check had secrets to look for */
    assert_false(out.oom);
    cr_text_free(&out);
    cr_free(legal);
    cr_match_free(m);
}

static void test_hot_seat_privacy(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) hot_seat_game(seed);
}

/* Undo in a hot-seat game refuses to take back the other human's decision. */
static void test_undo_spares_other_humans(void **state)
{
    (void)state;
    cr_match *m = new_match("human,random,human,random", 3);
    const cr_game *g = cr_match_game(m);
    cr_session s;
    cr_session_init(&s, m, 0);
    cr_action *legal = cr_alloc((size_t)g->max_legal * sizeof *legal);
    char err[256];
    int decided[CR_MAX_PLAYERS] = {0}, last = -1;
    /* play (first legal action) until both humans decided, P2 after P0 */
    for (int step = 0; step < 5000 && !(decided[0] && decided[2] && last == 2); step++) {
        int who = cr_match_run(m, 0);
        assert_true(who >= 0);
        assert_true(cr_match_legal(m, who, legal) > 0);
        assert_int_equal(cr_match_submit_action(m, who, legal[0], err, sizeof err), CR_OK);
        decided[who] = 1;
        last = who;
    }
    assert_int_equal(last, 2);
    cr_match_run(m, 0);
    int before = cr_match_record(m)->n_actions;
    s.seen[0] = s.seen[2] = cr_match_event_count(m);
    assert_int_equal(cr_session_undo(&s, 0, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, "P2 has decided since"));
    assert_int_equal(cr_match_record(m)->n_actions, before); /* nothing changed */
    assert_int_equal(cr_session_undo(&s, 2, err, sizeof err), CR_OK);
    assert_true(cr_match_record(m)->n_actions < before);
    assert_true(s.seen[0] <= cr_match_event_count(m)); /* clamped to the shorter log */
    assert_true(s.seen[2] <= cr_match_event_count(m));
    assert_int_equal(cr_match_actor(m, cr_match_record(m)->n_actions), CR_TERMINAL);
    cr_free(legal);
    cr_match_free(m);
}

/* Summaries are shorter than the log, keep every event with verbose and
 * merge like lines. */
static void test_summary_groups(void **state)
{
    (void)state;
    cr_match *m = new_match("random,random,random,random", 7);
    cr_match_run(m, 60);
    cr_text sum = {0}, all = {0};
    int k1 = cr_session_summarize(m, 0, cr_match_event_count(m), CR_SEAT_OMNISCIENT, 0, "", &sum);
    int k2 = cr_session_summarize(m, 0, cr_match_event_count(m), CR_SEAT_OMNISCIENT, 1, "", &all);
    assert_int_equal(k1, k2);
    assert_true(k1 > 20);
    int lines_sum = 0, lines_all = 0;
    for (size_t i = 0; i < sum.len; i++) lines_sum += sum.p[i] == '\n';
    for (size_t i = 0; i < all.len; i++) lines_all += all.p[i] == '\n';
    /* at least a third shorter (DML's lines in words are long: fewer pack
     * on a line than the engine terms did; 61 of 109 lines at seed 7) */
    assert_true(lines_sum * 3 < lines_all * 2);
    assert_non_null(strstr(sum.p, "Chance:\n"));
    /* an empty range says nothing */
    cr_text none = {0};
    assert_int_equal(cr_session_summarize(m, 5, 5, 0, 0, "", &none), 0);
    assert_int_equal(none.len, 0);
    cr_text_free(&sum);
    cr_text_free(&all);
    cr_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hot_seat_privacy),
        cmocka_unit_test(test_undo_spares_other_humans),
        cmocka_unit_test(test_summary_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
