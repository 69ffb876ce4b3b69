/* test_explain.c — 18Dracula's help (`?`, explain.c) states only numbers
 * the engine agrees with (issue 18.2).  Over seeded random games on the
 * bundled board, at every decision, the help is read back line by line and
 * each number it states is checked against the engine by another way:
 *   - the build step's allowance against the legal list (its first case:
 *     the help once offered "one yellow and one of another colour", which
 *     the engine never did);
 *   - each build's and office's preview against the action applied to a
 *     copy and the router run on it, and its cost against the board;
 *   - paying out and retaining against the PAY and RETAIN actions applied
 *     to a copy (the price after, the seat's money);
 *   - the stock round's cash, certificates, prices and shares against the
 *     state, and the highest par it says the seat can start at against the
 *     legal list and the seat's cash;
 *   - the forced purchase's numbers against the state and the bank.
 * Also: every help fits the line client's 4 KB and names no unknown
 * location. */
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

static const cr_game *G;
static cr_ctx *CX;

typedef struct seen {
    long helps, builds, build_lines, office_lines, dividends, sr, starts, forced;
} seen;

static int par_of(const d18_board *b, int i) { return b->cell[b->par_row[i]][b->par_col[i]].price; }

static int loc_by_id(const d18_board *b, const char *id)
{
    for (int l = 0; l < b->n_locations; l++)
        if (strcmp(b->loc[l].id, id) == 0) return l;
    fail_msg("the help names an unknown location '%s'", id);
    return -1;
}

/* The legal action of `kind` whose o1 is x, or -1. */
static cr_action find(const d18_state *s, int kind, int o1)
{
    cr_action list[D18_MAX_LEGAL];
    int n = G->def->legal_actions(G, s, list, NULL);
    for (int i = 0; i < n; i++) {
        d18_act x;
        if (d18_decode(list[i], &x) && x.kind == kind && x.o1 == o1) return list[i];
    }
    return -1;
}

static int rampage_after(const d18_state *s, cr_action a, int e)
{
    d18_state c = *s;
    G->def->apply(G, &c, a, CX);
    return d18_rampage(G, &c, e, CX);
}

/* The build and office lines: "  NAME-NAME (A-B): colour cube, cost C;
 * rampage R (+d)" and "  NAME (ID): cost C; rampage R (+d)". */
static void check_previews(const d18_state *s, const char *help, int kind, seen *sn)
{
    const d18_board *b = d18_brd(G);
    int e = s->op_ent, now = d18_rampage(G, s, e, CX), said_now = -1;
    const char *r = strstr(help, "Rampage now: ");
    assert_non_null(r);
    assert_int_equal(sscanf(r, "Rampage now: %d.", &said_now), 1);
    assert_int_equal(said_now, now);
    for (const char *line = strchr(r, '\n'); line; line = strchr(line + 1, '\n')) {
        if (strncmp(line, "\n  ", 3) != 0 || strncmp(line, "\n  ...", 6) == 0) continue;
        const char *paren = strchr(line, '(');
        assert_non_null(paren);
        char ida[16] = "", idb[16] = "";
        int cost = -1, rev = -1, delta = 0;
        cr_action a;
        if (kind == D18_K_BUILD) {
            char colour[16];
            assert_int_equal(sscanf(paren, "(%15[^-]-%15[^)]): %15s cube, cost %d; rampage %d (%d)",
                                    ida, idb, colour, &cost, &rev, &delta),
                             6);
            int r2 = d18_board_find_route(b, loc_by_id(b, ida), loc_by_id(b, idb));
            assert_true(r2 >= 0);
            assert_int_equal(cost, b->route[r2].cost);
            a = find(s, D18_K_BUILD, r2);
            sn->build_lines++;
        } else {
            assert_int_equal(
                sscanf(paren, "(%15[^)]): cost %d; rampage %d (%d)", ida, &cost, &rev, &delta), 4);
            assert_int_equal(cost, d18_office_cost(G, s, e));
            a = find(s, D18_K_OFFICE, loc_by_id(b, ida));
            sn->office_lines++;
        }
        assert_true(a >= 0); /* the help offers only legal choices */
        assert_int_equal(rev, rampage_after(s, a, e));
        assert_int_equal(delta, rev - now);
    }
}

/* The build step's allowance in words against the legal list. */
static void check_allowance(const d18_state *s, const char *help)
{
    cr_action list[D18_MAX_LEGAL];
    int n = G->def->legal_actions(G, s, list, NULL), yellow = 0, other = 0;
    for (int i = 0; i < n; i++) {
        d18_act x;
        if (!d18_decode(list[i], &x) || x.kind != D18_K_BUILD) continue;
        if (d18_required_colour(G, s, x.o1) == D18_YELLOW)
            yellow++;
        else
            other++;
    }
    if (strstr(help, "one more yellow cube, or stop")) {
        assert_int_equal(s->build_used, 1);
        assert_int_equal(other, 0); /* after a yellow cube only yellow may follow (8.6.1) */
    } else {
        assert_non_null(strstr(help, "up to two yellow cubes, or one green, blue or red cube"));
        assert_int_equal(s->build_used, 0);
    }
    (void)yellow;
}

/* "Pay out: A a share to the holders (you hold H shares: M), the price
 * goes P -> Q.\nRetain: the treasury gets T, the price goes P -> R." */
static void check_dividend(const d18_state *s, const char *help, int p, seen *sn)
{
    const char *x = strstr(help, "Pay out: ");
    assert_non_null(x);
    int share, held, money, p0, p1, t, q0, q1;
    assert_int_equal(sscanf(x,
                            "Pay out: %d a share to the holders (you hold %d share%*[s]: %d), "
                            "the price goes %d -> %d.",
                            &share, &held, &money, &p0, &p1),
                     5);
    const char *y = strstr(help, "Retain: ");
    assert_non_null(y);
    assert_int_equal(
        sscanf(y, "Retain: the treasury gets %d, the price goes %d -> %d.", &t, &q0, &q1), 3);
    int f = s->op_ent;
    assert_int_equal(held, s->held[f][p]);
    assert_int_equal(p0, d18_price(G, s, f));
    assert_int_equal(q0, p0);
    if (s->or_step != D18_OS_DIVIDEND) return; /* at the rampage: a forecast */
    sn->dividends++;
    cr_action pay = -1, keep = -1;
    cr_action list[D18_MAX_LEGAL];
    int n = G->def->legal_actions(G, s, list, NULL);
    for (int i = 0; i < n; i++) {
        d18_act a;
        if (!d18_decode(list[i], &a)) continue;
        if (a.kind == D18_K_PAY) pay = list[i];
        if (a.kind == D18_K_RETAIN) keep = list[i];
    }
    if (pay >= 0) {
        d18_state c = *s;
        G->def->apply(G, &c, pay, CX);
        assert_int_equal(p1, d18_price(G, &c, f));
        assert_int_equal(money, c.cash[p] - s->cash[p]);
        assert_int_equal(share * 10, s->revenue - s->revenue % 10);
    }
    if (keep >= 0) {
        d18_state c = *s;
        G->def->apply(G, &c, keep, CX);
        assert_int_equal(q1, d18_price(G, &c, f));
        assert_int_equal(t, c.treasury[f] - s->treasury[f]);
    }
}

static void check_sr(const d18_state *s, const char *help, int p, seen *sn)
{
    const d18_board *b = d18_brd(G);
    int sr, seat, cash, certs, limit;
    assert_int_equal(sscanf(help, "Stock round %d. P%d has %d and %d of %d certificates", &sr,
                            &seat, &cash, &certs, &limit),
                     5);
    assert_int_equal(seat, p);
    assert_int_equal(cash, s->cash[p]);
    assert_int_equal(certs, d18_certs(G, s, p));
    assert_int_equal(limit, d18_cert_limit(s->np));
    sn->sr++;
    /* the highest par the seat can start at, against the legal list */
    cr_action list[D18_MAX_LEGAL];
    int n = G->def->legal_actions(G, s, list, NULL), hi = 0;
    for (int i = 0; i < n; i++) {
        d18_act x;
        if (d18_decode(list[i], &x) && x.kind == D18_K_START && par_of(b, x.o2) > hi)
            hi = par_of(b, x.o2);
    }
    const char *st = strstr(help, "You can start one now at a par up to ");
    if (st) {
        int par, twice, alone;
        assert_int_equal(sscanf(st,
                                "You can start one now at a par up to %d (%d); floating it "
                                "alone would take %d",
                                &par, &twice, &alone),
                         3);
        assert_int_equal(par, hi);
        assert_int_equal(twice, 2 * par);
        assert_int_equal(alone, 6 * par);
        assert_true(2 * par <= s->cash[p]);
        sn->starts++;
    } else {
        assert_int_equal(hi, 0);
    }
    /* each started front's line */
    for (int f = 0; f < D18_NFRONTS; f++) {
        char key[64];
        snprintf(key, sizeof key, "\n%s (", b->front[f].id);
        const char *l = strstr(help, key);
        assert_int_equal(l != NULL, s->pres[f] >= 0);
        if (!l) continue;
        const char *r = strstr(l, "): price ");
        assert_non_null(r);
        int price, par, ipo, pool, held;
        char zone[16];
        assert_int_equal(sscanf(r,
                                "): price %d (%15s zone), par %d; IPO %d, market %d; you hold %d",
                                &price, zone, &par, &ipo, &pool, &held),
                         6);
        assert_int_equal(price, d18_price(G, s, f));
        assert_int_equal(par, par_of(b, s->par_idx[f]));
        assert_int_equal(ipo, s->ipo[f]);
        assert_int_equal(pool, s->pool[f]);
        assert_int_equal(held, s->held[f][p]);
        const char *nf = strstr(r, "not floated: ");
        const char *eol = strchr(r, '\n');
        if (nf && (!eol || nf < eol)) {
            int more, at;
            assert_true(sscanf(nf, "not floated: %d more share%*[^(](%d at par)", &more, &at) == 2);
            assert_int_equal(more, 6 - (D18_SHARES - s->ipo[f]));
            assert_int_equal(at, more * par);
            assert_false(s->floated >> f & 1);
        } else {
            assert_true(s->floated >> f & 1);
        }
    }
}

static void check_buy(const d18_state *s, const char *help, int p, seen *sn)
{
    const d18_board *b = d18_brd(G);
    int e = s->op_ent, owned, counted, limit, phase;
    const char *x = strstr(help, "Buy monsters: ");
    assert_non_null(x);
    assert_int_equal(
        sscanf(x, "Buy monsters: %d owned, %d counted against the limit of %d in phase %d", &owned,
               &counted, &limit, &phase),
        4);
    assert_int_equal(owned, d18_owned(G, s, e, 0));
    assert_int_equal(counted, d18_owned(G, s, e, 1));
    assert_int_equal(limit, b->limit[s->phase - 1]);
    assert_int_equal(phase, s->phase);
    int cheap = d18_cheapest_offer(G, s, e), said = -1;
    const char *c = strstr(help, "The cheapest in the bank costs ");
    if (c) assert_int_equal(sscanf(c, "The cheapest in the bank costs %d", &said), 1);
    assert_int_equal(said, cheap);
    const char *fp = strstr(help, "Forced purchase");
    assert_int_equal(fp != NULL, e < D18_NFRONTS && d18_must_buy(G, s, e));
    const char *tr = strstr(help, "The treasury (");
    if (tr) {
        int t, bb, rest, seat, pc;
        assert_int_equal(sscanf(tr,
                                "The treasury (%d) cannot pay %d: the President pays the rest "
                                "(%d of P%d's %d)",
                                &t, &bb, &rest, &seat, &pc),
                         5);
        assert_int_equal(t, d18_ent_cash_of(s, e));
        assert_int_equal(bb, cheap);
        assert_int_equal(rest, cheap - t);
        assert_int_equal(seat, p);
        assert_int_equal(pc, s->cash[p]);
        sn->forced++;
    }
}

static void check_help(const d18_state *s, seen *sn)
{
    int p = G->def->current_player(G, s);
    if (p < 0) return;
    char help[8192];
    size_t n = d18_help(G, s, help, sizeof help);
    assert_true(n > 0);
    assert_true(n < 4096); /* the line client's buffer */
    sn->helps++;
    if (s->stage == D18_S_SR) check_sr(s, help, p, sn);
    if (s->stage != D18_S_OR || s->op_ent < 0) return;
    switch (s->or_step) {
    case D18_OS_BUILD:
        sn->builds++;
        check_allowance(s, help);
        check_previews(s, help, D18_K_BUILD, sn);
        break;
    case D18_OS_OFFICE: check_previews(s, help, D18_K_OFFICE, sn); break;
    case D18_OS_RAMPAGE:
        if (s->op_ent < D18_NFRONTS && d18_rampage(G, s, s->op_ent, CX) > 0)
            check_dividend(s, help, p, sn);
        break;
    case D18_OS_DIVIDEND: check_dividend(s, help, p, sn); break;
    case D18_OS_BUY: check_buy(s, help, p, sn); break;
    default: break;
    }
}

static void test_help_numbers_match_the_engine(void **unused)
{
    (void)unused;
    seen sn = {0};
    cr_action *legal = NULL;
    for (int np = 3; np <= 4; np++) {
        cr_params par = {.num_players = np};
        char err[256];
        cr_game *g = cr_game_new(&d18_def, &par, err, sizeof err);
        if (!g) fail_msg("%s", err);
        G = g;
        CX = cr_ctx_new(g);
        assert_non_null(CX);
        legal = realloc(legal, (size_t)g->max_legal * sizeof *legal);
        cr_rng rng;
        cr_rng_seed(&rng, 0xe1, (uint64_t)np);
        d18_state s;
        g->def->init(g, &s);
        for (long k = 0; k < 200000 && !cr_is_terminal(g, &s); k++) {
            cr_action a;
            if (cr_current_player(g, &s) == CR_CHANCE) {
                a = cr_sample_chance(g, &s, &rng);
            } else {
                check_help(&s, &sn);
                int n = g->def->legal_actions(g, &s, legal, CX);
                assert_true(n > 0);
                a = cr_policy_random(g, &s, cr_current_player(g, &s), legal, n, &rng);
            }
            g->def->apply(g, &s, a, CX);
        }
        cr_ctx_free(CX);
        cr_game_free(g);
    }
    free(legal);
    print_message("helps %ld, builds %ld (%ld lines), office lines %ld, dividends %ld, stock "
                  "rounds %ld (starts %ld), forced purchases %ld\n",
                  sn.helps, sn.builds, sn.build_lines, sn.office_lines, sn.dividends, sn.sr,
                  sn.starts, sn.forced);
    assert_true(sn.builds > 0 && sn.build_lines > 0 && sn.dividends > 0 && sn.sr > 0 &&
                sn.starts > 0);
}

/* A monster's card names every power the board file gives it. */
static void test_monster_cards(void **unused)
{
    (void)unused;
    cr_params par = {.num_players = 4};
    char err[256];
    cr_game *g = cr_game_new(&d18_def, &par, err, sizeof err);
    assert_non_null(g);
    const d18_board *b = d18_brd(g);
    for (int m = 0; m < b->n_monsters; m++) {
        char buf[1024];
        cr_tbuf t;
        cr_tb_init(&t, buf, sizeof buf);
        d18_monster_card(g, m, &t);
        assert_true(t.len < sizeof buf);
        const d18_monster *x = &b->monster[m];
        char want[64];
        snprintf(want, sizeof want, "price %d", x->price);
        assert_non_null(strstr(buf, want));
        assert_non_null(strstr(buf, x->name));
        assert_int_equal(strstr(buf, "Export") != NULL, x->exports != 0);
        assert_int_equal(strstr(buf, "Claw:") != NULL, x->cf == D18_CF_CLAW);
        assert_int_equal(strstr(buf, "Fang:") != NULL, x->cf == D18_CF_FANG);
        assert_int_equal(strstr(buf, "Linger") != NULL, x->linger != 0);
        if (x->eaten) {
            snprintf(want, sizeof want, "when phase %d begins", x->eaten);
            assert_non_null(strstr(buf, want));
        } else {
            assert_non_null(strstr(buf, "never eaten"));
        }
        if (x->move == D18_MOVE_DIT || x->move == D18_MOVE_CITY || x->move == D18_MOVE_MAJOR) {
            snprintf(want, sizeof want, "up to %d ", x->n);
            assert_non_null(strstr(buf, want));
        }
    }
    cr_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_monster_cards),
        cmocka_unit_test(test_help_numbers_match_the_engine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
