/* test_events.c — 18Dracula's events (events.c) on the bundled board: the
 * exact text of the seating and of the first associate sale, and over
 * seeded random games the bound g->max_events after every apply, a JSON
 * object for every event, and the numbers of floats, dividends, market
 * moves and phase changes checked against the states before and after. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "croupier/parts.h"
#include "croupier/rng.h"
#include "games/18dracula/d18_internal.h"

static cr_game *make(int np)
{
    cr_params p = {.num_players = np};
    char err[256];
    cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
    if (!g) fail_msg("%s", err);
    return g;
}

typedef struct listener {
    cr_ctx *cx;
    cr_events ev;
    cr_event *buf;
} listener;

static void listen_on(listener *l, const cr_game *g)
{
    l->cx = cr_ctx_new(g);
    assert_non_null(l->cx);
    l->buf = calloc((size_t)g->max_events, sizeof *l->buf);
    assert_non_null(l->buf);
    l->ev = (cr_events){.buf = l->buf, .cap = g->max_events};
    l->cx->ev = &l->ev;
}

static void listen_off(listener *l)
{
    cr_ctx_free(l->cx);
    free(l->buf);
}

static void step(const cr_game *g, d18_state *s, cr_action a, listener *l)
{
    l->ev.len = l->ev.dropped = 0;
    g->def->apply(g, s, a, l->cx);
    assert_int_equal(l->ev.dropped, 0);
    assert_true(l->ev.len >= 1 && l->ev.len <= g->max_events);
}

static const char *text(const cr_game *g, const cr_event *e, char *buf, size_t cap)
{
    size_t n = g->def->event_to_str(g, e, CR_SEAT_PUBLIC, buf, cap);
    assert_true(n > 0 && n < cap);
    return buf;
}

/* The seating and the first purchase of the auction, word for word. */
static void test_seating_and_first_sale(void **unused)
{
    (void)unused;
    cr_game *g = make(3);
    listener l;
    listen_on(&l, g);
    d18_state s;
    g->def->init(g, &s);
    step(g, &s, d18_encode(D18_K_SEAT, 0, 0, 0), &l);
    char buf[256], want[256];
    assert_int_equal(l.ev.len, 1);
    assert_int_equal(l.buf[0].kind, D18_E_SEATING);
    snprintf(want, sizeof want, "Seating, clockwise: P%d P%d P%d", s.seat_at[0], s.seat_at[1],
             s.seat_at[2]);
    assert_string_equal(text(g, &l.buf[0], buf, sizeof buf), want);

    int p = s.actor, cash = s.cash[p];
    step(g, &s, d18_encode(D18_K_AU_BUY, 0, 0, 0), &l);
    assert_int_equal(l.buf[0].kind, D18_E_ACTION);
    snprintf(want, sizeof want, "P%d: buy", p);
    assert_string_equal(text(g, &l.buf[0], buf, sizeof buf), want);
    assert_int_equal(l.buf[1].kind, D18_E_ASSOC_OWNER);
    snprintf(want, sizeof want, "Innsmouth Library passes from the auction to P%d for %d", p,
             cash - s.cash[p]);
    assert_string_equal(text(g, &l.buf[1], buf, sizeof buf), want);
    assert_int_equal(l.ev.len, 2);
    listen_off(&l);
    cr_game_free(g);
}

/* Seeded random games to the end: the bound, the JSON, and the figures of
 * the floats, dividends, market moves and phases against the states. */
static void test_random_games(void **unused)
{
    (void)unused;
    cr_action *legal = NULL;
    int floats = 0, paid = 0, phases = 0, ends = 0, minor_paid = 0;
    for (int np = 2; np <= 5; np += 3) {
        cr_game *g = make(np);
        listener l;
        listen_on(&l, g);
        legal = realloc(legal, (size_t)g->max_legal * sizeof *legal);
        cr_rng rng;
        cr_rng_seed(&rng, 0x18d, (uint64_t)np);
        d18_state s, before;
        g->def->init(g, &s);
        for (long n = 0; n < 200000 && !cr_is_terminal(g, &s); n++) {
            cr_action a;
            if (cr_current_player(g, &s) == CR_CHANCE) {
                a = cr_sample_chance(g, &s, &rng);
            } else {
                int k = g->def->legal_actions(g, &s, legal, l.cx);
                assert_true(k > 0);
                a = legal[cr_rng_below(&rng, (uint32_t)k)];
            }
            before = s;
            step(g, &s, a, &l);
            for (int i = 0; i < l.ev.len; i++) {
                const cr_event *e = &l.buf[i];
                char buf[2048], want[256];
                assert_true(e->kind < D18_NEV);
                assert_int_equal(e->seen_by, CR_SEEN_ALL);
                text(g, e, buf, sizeof buf);
                assert_null(strchr(buf, '?'));
                size_t jn = g->def->event_to_json(g, e, CR_SEAT_PUBLIC, buf, sizeof buf);
                assert_true(jn > 0 && jn < sizeof buf);
                json_error_t jerr;
                json_t *j = json_loads(buf, 0, &jerr);
                if (!j) fail_msg("bad JSON %s: %s", buf, jerr.text);
                assert_true(json_is_string(json_object_get(j, "kind")));
                assert_true(json_is_string(json_object_get(j, "text")));
                json_decref(j);
                switch (e->kind) {
                case D18_E_FLOAT:
                    floats++;
                    assert_int_equal(e->a, s.treasury[e->card]);
                    snprintf(want, sizeof want, "%s floats with %d in its treasury",
                             d18_brd(g)->front[e->card].id, s.treasury[e->card]);
                    assert_string_equal(text(g, e, buf, sizeof buf), want);
                    break;
                case D18_E_DIVIDEND:
                    if (e->other) {
                        paid++;
                        assert_int_equal(e->a, before.revenue);
                        assert_int_equal(e->b, before.revenue / 10); /* R72 */
                        snprintf(want, sizeof want, "%s pays out %d: %d a share",
                                 d18_brd(g)->front[e->card].id, e->a, e->a / 10);
                        assert_string_equal(text(g, e, buf, sizeof buf), want);
                    }
                    break;
                case D18_E_REVENUE: {
                    /* the router's answer on the state the rampage ran in,
                     * for an associate too (whose turn ends at once) */
                    int rev = d18_rampage(g, &before, e->card, l.cx);
                    assert_int_equal(e->a, rev);
                    if (e->card >= D18_NFRONTS && rev > 0) minor_paid++;
                    break;
                }
                case D18_E_MARKET:
                    assert_int_equal(e->a, d18_price(g, &before, e->card));
                    assert_int_equal(e->b, d18_price(g, &s, e->card));
                    break;
                case D18_E_PHASE:
                    phases++;
                    assert_int_equal(e->a, s.phase);
                    assert_int_equal(e->b, before.phase);
                    snprintf(want, sizeof want, "Phase %d begins (was %d)", s.phase, before.phase);
                    assert_string_equal(text(g, e, buf, sizeof buf), want);
                    break;
                case D18_E_END:
                    ends++;
                    assert_int_equal(e->a, s.end_reason);
                    break;
                default: break;
                }
            }
        }
        assert_true(cr_is_terminal(g, &s));
        listen_off(&l);
        cr_game_free(g);
    }
    free(legal);
    assert_int_equal(ends, 2);
    assert_true(floats > 0 && paid > 0 && phases > 0 && minor_paid > 0);
}

/* Without a listener apply writes nothing and plays the same game. */
static void test_same_game_without_listener(void **unused)
{
    (void)unused;
    cr_game *g = make(4);
    listener l;
    listen_on(&l, g);
    cr_ctx *quiet = cr_ctx_new(g);
    cr_action *legal = malloc((size_t)g->max_legal * sizeof *legal);
    cr_rng rng;
    cr_rng_seed(&rng, 7, 0);
    d18_state s, t;
    g->def->init(g, &s);
    g->def->init(g, &t);
    for (int n = 0; n < 3000 && !cr_is_terminal(g, &s); n++) {
        cr_action a;
        if (cr_current_player(g, &s) == CR_CHANCE) {
            a = cr_sample_chance(g, &s, &rng);
        } else {
            int k = g->def->legal_actions(g, &s, legal, l.cx);
            a = legal[cr_rng_below(&rng, (uint32_t)k)];
        }
        step(g, &s, a, &l);
        g->def->apply(g, &t, a, quiet);
        assert_memory_equal(&s, &t, sizeof s);
    }
    free(legal);
    cr_ctx_free(quiet);
    listen_off(&l);
    cr_game_free(g);
}

/* Every legal action as JSON, at decisions of a random game: valid JSON
 * with the id, the notation, a label, a group, objects, and for the
 * amount actions a range holding the amount whose ends is_legal accepts. */
static void test_action_json(void **unused)
{
    (void)unused;
    cr_game *g = make(4);
    cr_action *legal = malloc((size_t)g->max_legal * sizeof *legal);
    cr_rng rng;
    cr_rng_seed(&rng, 11, 0);
    d18_state s;
    g->def->init(g, &s);
    cr_ctx *cx = cr_ctx_new(g); /* the rampage's scratch, no listener */
    int amounts = 0, checked = 0, helps = 0;
    char buf[2048], text[128];
    for (int n = 0; n < 200000 && !cr_is_terminal(g, &s); n++) {
        cr_action a;
        if (cr_current_player(g, &s) == CR_CHANCE) {
            a = cr_sample_chance(g, &s, &rng);
        } else {
            int k = g->def->legal_actions(g, &s, legal, NULL);
            if (n % 7 == 0 || s.stage == D18_S_AUCTION || s.stage == D18_S_CASTLE) {
                for (int i = 0; i < k; i++) {
                    size_t len = g->def->action_to_json(g, &s, legal[i], buf, sizeof buf);
                    assert_true(len > 0 && len < sizeof buf);
                    json_error_t jerr;
                    json_t *j = json_loads(buf, 0, &jerr);
                    if (!j) fail_msg("bad JSON %s: %s", buf, jerr.text);
                    assert_int_equal(json_integer_value(json_object_get(j, "id")), legal[i]);
                    g->def->action_to_str(g, &s, legal[i], text, sizeof text);
                    assert_string_equal(json_string_value(json_object_get(j, "text")), text);
                    const char *label = json_string_value(json_object_get(j, "label"));
                    assert_true(label && label[0]);
                    const char *group = json_string_value(json_object_get(j, "group"));
                    assert_true(group && strcmp(group, "other") != 0);
                    assert_true(json_is_array(json_object_get(j, "objects")));
                    d18_act x;
                    assert_true(d18_decode(legal[i], &x));
                    json_t *am = json_object_get(j, "amount");
                    int is_amount = x.kind == D18_K_AU_BID || x.kind == D18_K_CT_RAISE ||
                                    x.kind == D18_K_OFFER_AS || x.kind == D18_K_CASTLE_BID ||
                                    x.kind == D18_K_OFFER_MON || x.kind == D18_K_OFFER_AF;
                    assert_int_equal(am != NULL, is_amount);
                    if (am) {
                        int unit = x.kind == D18_K_AU_BID || x.kind == D18_K_CT_RAISE ? 5 : 1;
                        int lo = (int)json_integer_value(json_object_get(am, "min"));
                        int hi = (int)json_integer_value(json_object_get(am, "max"));
                        assert_true(lo <= x.amt * unit && x.amt * unit <= hi);
                        assert_true(d18_is_legal(g, &s, d18_encode(x.kind, x.o1, x.o2, lo / unit)));
                        assert_true(d18_is_legal(g, &s, d18_encode(x.kind, x.o1, x.o2, hi / unit)));
                        amounts++;
                    }
                    json_decref(j);
                    checked++;
                }
            }
            /* The help explains the decision with its numbers. */
            size_t hn = cr_parts(g)->help(g, &s, buf, sizeof buf);
            assert_true(hn > 0 && hn < sizeof buf);
            if (s.stage == D18_S_OR && s.or_step == D18_OS_DIVIDEND) {
                snprintf(text, sizeof text, "Revenue %d.\nPay out: %d a share", s.revenue,
                         s.revenue / 10);
                assert_non_null(strstr(buf, text));
                helps++;
            }
            a = legal[cr_rng_below(&rng, (uint32_t)k)];
        }
        g->def->apply(g, &s, a, cx);
    }
    assert_true(amounts > 0 && checked > 1000 && helps > 0);
    cr_ctx_free(cx);
    free(legal);
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seating_and_first_sale),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_same_game_without_listener),
        cmocka_unit_test(test_action_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
