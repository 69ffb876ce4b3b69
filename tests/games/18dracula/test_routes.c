/* test_routes.c — the routes behind a rampage's revenue in words (events.c,
 * "Routes"): over seeded games of heuristic seats on the bundled board,
 * every D18_E_REVENUE is followed by D18_E_ROUTE events whose numbers add
 * up to the revenue, each route's text is what the router's canonical
 * result says, word for word, and the answer reused from the context's
 * scratch (or its memo of recent totals) is the one a fresh search gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/text.h"
#include "croupier/parts.h"
#include "croupier/rng.h"
#include "games/18dracula/d18_internal.h"
#include "games/18dracula/router.h"

static cr_game *make(int np)
{
    cr_params p = {.num_players = np};
    char err[256];
    cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
    if (!g) fail_msg("%s", err);
    return g;
}

/* The sum written in a route text's value list "(30x2+20+50)": the first
 * parenthesis after the colon that opens with a digit. */
static int values_sum(const char *text)
{
    const char *p = strstr(text, ": ");
    assert_non_null(p);
    for (p = strchr(p, '('); p && !(p[1] >= '0' && p[1] <= '9'); p = strchr(p + 1, '('))
        ;
    assert_non_null(p);
    int sum = 0;
    for (p++; *p && *p != ')';) {
        char *end;
        long v = strtol(p, &end, 10);
        assert_true(end > p);
        if (end[0] == 'x' && end[1] == '2') v *= 2, end += 2;
        sum += (int)v;
        p = *end == '+' ? end + 1 : end;
    }
    assert_int_equal(*p, ')');
    return sum;
}

/* The text a short route (one event) must have, made here from the
 * router's entry and the state the rampage ran in. */
static void expected_route(const cr_game *g, const d18_state *s, int e, int type,
                           const d18_route_entry *x, int fd_here, int fd_loc, char *buf, size_t cap)
{
    const d18_board *b = d18_brd(g);
    const d18_monster *m = &b->monster[type];
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    const char *ent = e < D18_NFRONTS ? b->front[e].id : e == D18_ENT_LL ? "LL" : "BT";
    cr_tb_printf(&t, "%s's %s (%s", ent, m->name, d18_move_name(m->move));
    if (m->move == D18_MOVE_DIT || m->move == D18_MOVE_CITY || m->move == D18_MOVE_MAJOR)
        cr_tb_printf(&t, " %d", m->n);
    cr_tb_printf(&t, "): ");
    for (int i = 0; i < x->n_locs; i++)
        cr_tb_printf(&t, "%s%s", i ? "-" : "", b->loc[x->loc[i]].name);
    cr_tb_printf(&t, " (");
    int sum = 0;
    for (int i = 0; i < x->n_locs; i++) {
        int l = x->loc[i], v, twice = 0;
        if (b->loc[l].kind == D18_CITY) {
            v = b->loc[l].city_val[d18_level(g, s, l)];
            for (int k = 0; k < x->n_linger; k++) twice |= x->linger[k] == l;
        } else if (b->loc[l].kind == D18_OFF) {
            v = b->loc[l].off_rev[s->phase - 1];
            twice = fd_here && l == fd_loc;
        } else {
            v = m->town_rev;
        }
        cr_tb_printf(&t, "%s%d%s", i ? "+" : "", v, twice ? "x2" : "");
        sum += v * (1 + twice);
    }
    assert_int_equal(sum, x->revenue + (fd_here ? b->loc[fd_loc].off_rev[s->phase - 1] : 0));
    cr_tb_printf(&t, ") = %d", sum);
    const char *sep = "; ";
    for (int i = 0; i < x->n_locs; i++) {
        int l = x->loc[i];
        for (int k = 0; k < x->n_linger; k++)
            if (x->linger[k] == l && b->loc[l].kind == D18_CITY) {
                cr_tb_printf(&t, "%s%s lingers (counted twice)", sep, b->loc[l].name);
                sep = ", ";
            }
        if (fd_here && l == fd_loc) {
            cr_tb_printf(&t, "%sthe Flying Dutchman doubles %s", sep, b->loc[l].name);
            sep = ", ";
        }
    }
}

static void test_routes_in_words(void **unused)
{
    (void)unused;
    int rampages = 0, routes = 0, exact = 0, long_routes = 0, lingers = 0, howls = 0;
    for (int game = 0; game < 2; game++) {
        cr_game *g = make(4);
        cr_ctx *cx = cr_ctx_new(g);
        assert_non_null(cx);
        cr_event *buf = calloc((size_t)g->max_events, sizeof *buf);
        cr_events ev = {.buf = buf, .cap = g->max_events};
        cx->ev = &ev;
        cr_action *legal = malloc((size_t)g->max_legal * sizeof *legal);
        cr_rng rng;
        cr_rng_seed(&rng, 0x18d, (uint64_t)game + 2);
        d18_state s, before;
        g->def->init(g, &s);
        static d18_route_input in, in2;
        static d18_route_result res, res2;
        for (long n = 0; n < 200000 && !cr_is_terminal(g, &s); n++) {
            cr_action a;
            int p = cr_current_player(g, &s);
            if (p == CR_CHANCE) {
                a = cr_sample_chance(g, &s, &rng);
            } else {
                int k = g->def->legal_actions(g, &s, legal, cx);
                a = d18_parts.heuristic(g, &s, p, legal, k, &rng);
            }
            before = s;
            ev.len = ev.dropped = 0;
            g->def->apply(g, &s, a, cx);
            assert_int_equal(ev.dropped, 0);
            for (int i = 0; i < ev.len; i++) {
                if (buf[i].kind != D18_E_REVENUE || buf[i].a <= 0) continue;
                rampages++;
                int e = buf[i].card;
                /* The same rampage again is answered by the memo of the
                 * context's scratch (rampage.c), with the same total. */
                assert_int_equal(d18_rampage(g, &before, e, cx), buf[i].a);
                /* The answer the events used (the scratch's, reused) is
                 * the one a search without the scratch finds, also right
                 * after a memo answer (which leaves no result to reuse). */
                assert_int_equal(d18_rampage_routes(g, &before, e, cx, &in, &res), 0);
                assert_int_equal(d18_rampage_routes(g, &before, e, NULL, &in2, &res2), 0);
                assert_memory_equal(&in, &in2, sizeof in);
                assert_int_equal(d18_route_result_cmp(&res, &res2), 0);
                assert_int_equal(res.total, buf[i].a);
                int sum = 0, part_sum = 0, route_total = -1, j = i + 1, slot = 0;
                char text[2048], want[2048];
                /* The routes in the router's order: types, then slots. */
                for (int t = 0; t < in.n_types; t++) {
                    int end = t + 1 < in.n_types ? res.type_first[t + 1] : res.n_slots;
                    if (in.type[t].move == D18_MOVE_HOWL) {
                        assert_true(j < ev.len && buf[j].kind == D18_E_ROUTE);
                        g->def->event_to_str(g, &buf[j], CR_SEAT_PUBLIC, text, sizeof text);
                        const char *c = strstr(text, "(howl): ");
                        assert_non_null(c);
                        assert_int_equal(atoi(c + 8), res.type_revenue[t]);
                        sum += atoi(c + 8);
                        howls++, j++;
                        continue;
                    }
                    for (slot = res.type_first[t]; slot < end; slot++) {
                        const d18_route_entry *x = &res.slot[slot];
                        if (!x->n_locs) continue;
                        routes++;
                        int fd_here = slot == res.fd_slot;
                        lingers += x->n_linger > 0;
                        /* One event, or a first part with the total and
                         * continuations whose values add up to it. */
                        assert_true(j < ev.len && buf[j].kind == D18_E_ROUTE);
                        assert_int_equal(buf[j].card, in.type[t].roster);
                        g->def->event_to_str(g, &buf[j], CR_SEAT_PUBLIC, text, sizeof text);
                        const char *all = strstr(text, " in all: ");
                        if (!all) {
                            expected_route(g, &before, e, in.type[t].roster, x, fd_here, res.fd_loc,
                                           want, sizeof want);
                            assert_string_equal(text, want);
                            sum += values_sum(text);
                            exact++, j++;
                            continue;
                        }
                        long_routes++;
                        const char *c = all;
                        while (c > text && c[-1] >= '0' && c[-1] <= '9') c--;
                        route_total = atoi(c);
                        part_sum = values_sum(text);
                        for (j++; j < ev.len && buf[j].kind == D18_E_ROUTE; j++) {
                            g->def->event_to_str(g, &buf[j], CR_SEAT_PUBLIC, text, sizeof text);
                            if (!strstr(text, "route continued: -")) break;
                            part_sum += values_sum(text);
                        }
                        assert_int_equal(part_sum, route_total);
                        assert_int_equal(
                            route_total,
                            x->revenue +
                                (fd_here ? d18_brd(g)->loc[res.fd_loc].off_rev[before.phase - 1]
                                         : 0));
                        sum += route_total;
                    }
                }
                assert_int_equal(sum, buf[i].a);
                assert_true(j == ev.len || buf[j].kind != D18_E_ROUTE);
            }
        }
        assert_true(cr_is_terminal(g, &s));
        free(legal);
        free(buf);
        cr_ctx_free(cx);
        cr_game_free(g);
    }
    printf("rampages %d, routes %d (%d word for word, %d long, %d lingering), howls %d\n", rampages,
           routes, exact, long_routes, lingers, howls);
    assert_true(rampages > 20 && exact > 20 && long_routes > 0 && lingers > 0 && howls > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routes_in_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
