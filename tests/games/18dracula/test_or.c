/* test_or.c — 18Dracula's operating rounds on the bundled board: the forced
 * purchase, contributions, emergency sales and bankruptcy, zero revenue,
 * LL as a minor, the castle auction and the game's end.  Each test names
 * the rulings it checks.  Positions are made by hand from a seated game;
 * money is moved only between the bank and an account, so it stays
 * conserved (checked with the game's invariants). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "games/18dracula/d18_internal.h"

enum { NBC, VCC, SAN };
enum { NUR, STC, GHL, BAT };

static cr_game *G;
static cr_ctx *CX;

static int setup(void **state)
{
    (void)state;
    cr_params p = {.num_players = 3};
    char err[200];
    G = cr_game_new(&d18_def, &p, err, sizeof err);
    CX = G ? cr_ctx_new(G) : NULL;
    return G && CX ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    cr_ctx_free(CX);
    cr_game_free(G);
    return 0;
}

static int loc(const char *id) { return d18_board_find_location(d18_brd(G), id); }

static int route(const char *a, const char *b)
{
    return d18_board_find_route(d18_brd(G), loc(a), loc(b));
}

static void move_money(d18_state *s, int32_t *to, int amt) /* bank -> account */
{
    s->bank -= amt;
    *to += amt;
}

static void seated(d18_state *s)
{
    G->def->init(G, s);
    G->def->apply(G, s, d18_encode(D18_K_SEAT, 0, 0, 0), CX);
    s->priority = 0;
}

/* Front f started by p with `shares`, floated, its home office placed. */
static void front(d18_state *s, int f, int p, int shares, int par)
{
    const d18_board *b = d18_brd(G);
    s->pres[f] = (int8_t)p;
    s->held[f][p] = (uint8_t)shares;
    s->ipo[f] = (uint8_t)(D18_SHARES - shares);
    s->par_idx[f] = (int8_t)par;
    s->mrow[f] = (int8_t)b->par_row[par];
    s->mcol[f] = (int8_t)b->par_col[par];
    s->mseq[f] = ++s->seq;
    s->floated |= (uint8_t)(1u << f);
    s->space_occ[b->front[f].home][b->front[f].home_space] = (int8_t)f;
    s->offices_used[f] = 1;
}

/* f's buy step in an operating round. */
static void buy_step(d18_state *s, int f)
{
    s->stage = D18_S_OR;
    s->op_ent = s->op_front = (int8_t)f;
    s->operated = (uint8_t)(1u << f);
    s->or_step = D18_OS_BUY;
    s->ors_in_set = 1;
}

static int ok(const d18_state *s, int kind, int o1, int o2, int amt)
{
    return d18_is_legal(G, s, d18_encode(kind, o1, o2, amt));
}

static void act(d18_state *s, int kind, int o1, int o2, int amt)
{
    char err[200];
    assert_true(ok(s, kind, o1, o2, amt));
    G->def->apply(G, s, d18_encode(kind, o1, o2, amt), CX);
    if (d18_check_invariants(G, s, err, sizeof err)) fail_msg("%s", err);
}

static void test_R80_R111_forced_purchase_and_contribution(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 6, 0);
    move_money(&s, &s.treasury[NBC], 50);
    buy_step(&s, NBC);
    /* RAV's pre-existing space is a legal route (R80); b = 80 (a Ghoul). */
    assert_int_equal(d18_cheapest_offer(G, &s, NBC), 80);
    assert_false(ok(&s, D18_K_BUY_DONE, 0, 0, 0));
    assert_false(ok(&s, D18_K_BUY_BANK, GHL, 0, 0)); /* 50 < 80 */
    assert_true(ok(&s, D18_K_EM_BUY, GHL, 0, 0));    /* 50 + the president's 800 */
    assert_true(ok(&s, D18_K_EM_BUY, BAT, 0, 0));    /* any offered one (R81) */
    assert_false(ok(&s, D18_K_EM_SELL, VCC, 0, 0));  /* not short: no sales */
    int cash = s.cash[0];
    act(&s, D18_K_EM_BUY, BAT, 0, 0);
    assert_int_equal(s.treasury[NBC], 0);   /* the treasury pays all it has */
    assert_int_equal(s.cash[0], cash - 50); /* the president the rest */
    assert_int_equal(d18_owned(G, &s, NBC, 0), 1);
    assert_true(ok(&s, D18_K_BUY_DONE, 0, 0, 0));
    /* With the money in the treasury, the front must buy with it. */
    d18_state t;
    seated(&t);
    front(&t, NBC, 0, 6, 0);
    move_money(&t, &t.treasury[NBC], 90);
    buy_step(&t, NBC);
    assert_false(ok(&t, D18_K_BUY_DONE, 0, 0, 0));
    assert_false(ok(&t, D18_K_EM_BUY, GHL, 0, 0));
    assert_true(ok(&t, D18_K_BUY_BANK, GHL, 0, 0));
}

static void test_R82_R111_emergency_sales_no_larger_than_needed(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 6, 0);
    front(&s, VCC, 1, 3, 5); /* par 100 */
    s.held[VCC][0] = 3, s.ipo[VCC] -= 3;
    move_money(&s, &s.cash[0], -(s.cash[0] - 10)); /* P0 keeps 10 */
    buy_step(&s, NBC);
    assert_true(ok(&s, D18_K_EM_SELL, VCC, 0, 0));  /* 10 + 0 < 80: one is needed */
    assert_false(ok(&s, D18_K_EM_SELL, VCC, 1, 0)); /* 10 + 100 >= 80: two is too many */
    assert_false(ok(&s, D18_K_BUY_DONE, 0, 0, 0));
    assert_false(ok(&s, D18_K_EM_BUY, GHL, 0, 0));
    /* Selling the helped front may not pass its presidency (item 5). */
    s.held[NBC][2] = 4, s.ipo[NBC] = 0;
    assert_false(ok(&s, D18_K_EM_SELL, NBC, 2, 0)); /* 6 - 3 < 4 */
    assert_true(ok(&s, D18_K_EM_SELL, NBC, 0, 0));  /* 6 - 1 >= 4 */
    act(&s, D18_K_EM_SELL, VCC, 0, 0);
    assert_int_equal(s.cash[0], 110);
    assert_int_equal(s.held[VCC][0], 2);
    assert_false(ok(&s, D18_K_EM_SELL, VCC, 0, 0)); /* no longer short */
    assert_true(ok(&s, D18_K_EM_BUY, GHL, 0, 0));
    assert_true(ok(&s, D18_K_EM_BUY, BAT, 0, 0)); /* a dearer one with the money in hand */
}

static void test_R83_R113_bankruptcy_ends_the_game(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 2, 0);
    s.held[NBC][1] = 2, s.held[NBC][2] = 2, s.ipo[NBC] = 4; /* 6 out: floated */
    move_money(&s, &s.cash[0], -s.cash[0]);                 /* P0 has nothing */
    buy_step(&s, NBC);
    d18_settle(G, &s);
    /* Short (0 < 80), no sale that keeps the presidency, no market monster,
     * no other front to buy from: bankrupt. */
    assert_int_equal(s.stage, D18_S_OVER);
    assert_int_equal(s.end_reason, D18_END_BANKRUPTCY);
    assert_int_equal(s.bankrupt, 0);
    assert_int_equal(G->def->current_player(G, &s), CR_TERMINAL);
    cr_result r;
    G->def->result(G, &s, &r);
    assert_int_equal(r.rank[0], 3); /* last whatever the value */
}

static void test_R71_zero_revenue_retains(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 6, 0);
    buy_step(&s, NBC);
    s.or_step = D18_OS_RAMPAGE;
    int col = s.mcol[NBC];
    act(&s, D18_K_RAMPAGE, 0, 0, 0);
    assert_int_equal(s.revenue, 0);
    assert_int_equal(s.mcol[NBC], col - 1);
    assert_int_equal(s.or_step, D18_OS_BUY);
}

static void test_R48_R118_ll_half_to_its_owner(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    s.assoc_owner[D18_LL] = 1;
    d18_place_cube(G, &s, route("HOL", "BAL"), D18_YELLOW);
    d18_place_cube(G, &s, route("RAV", "HOL"), D18_YELLOW);
    s.stage = D18_S_OR;
    s.op_ent = D18_ENT_LL;
    s.or_step = D18_OS_RAMPAGE;
    s.minors_done = 1;
    s.ors_in_set = 1;
    int cash = s.cash[1];
    act(&s, D18_K_RAMPAGE, 0, 0, 0);
    /* Steelclaw (city 2): Balath 20 + Ravenspire 30 through Hollick. */
    assert_int_equal(s.cash[1], cash + 25);
    assert_int_equal(s.minor_cash[0], 25);
    assert_true(s.op_ent != D18_ENT_LL);                      /* LL's turn ends with its revenue */
    assert_int_equal(d18_office_cost(G, &s, D18_ENT_LL), -1); /* LL places no office */
}

static void test_R34_R35_R36_castle_auction(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    s.phase = 3;
    s.supply[D18_GREEN] = 10, s.supply[D18_BLUE] = 4; /* as released */
    s.stage = D18_S_SR;
    s.sr_no = 3;
    d18_after_sr(G, &s);
    assert_int_equal(s.stage, D18_S_CASTLE);
    assert_int_equal(s.actor, 0);
    act(&s, D18_K_CASTLE_BID, 0, 0, 10);
    assert_false(ok(&s, D18_K_CASTLE_BID, 0, 0, 10)); /* strictly above */
    act(&s, D18_K_CASTLE_PASS, 0, 0, 0);              /* P1: out for good */
    act(&s, D18_K_CASTLE_BID, 0, 0, 20);              /* P2 */
    assert_int_equal(s.actor, 0);                     /* P1 is skipped */
    int cash = s.cash[2];
    act(&s, D18_K_CASTLE_PASS, 0, 0, 0); /* P0: only P2 is left */
    assert_int_equal(s.stage, D18_S_CASTLE_PLACE);
    assert_int_equal(s.cash[2], cash - 20);
    assert_int_equal(G->def->current_player(G, &s), 2);
    int frg = route("FRG", "RAV");
    assert_false(ok(&s, D18_K_CASTLE_PLACE, route("RAV", "HOL"), 0, 0)); /* not completed */
    act(&s, D18_K_CASTLE_PLACE, frg, 0, 0);
    assert_int_equal(s.castle, frg);
    /* Nobody bids: the castle stays. */
    d18_state t;
    seated(&t);
    t.phase = 3;
    t.supply[D18_GREEN] = 10, t.supply[D18_BLUE] = 4;
    t.stage = D18_S_SR;
    d18_after_sr(G, &t);
    int at = t.castle;
    for (int i = 0; i < 3; i++) act(&t, D18_K_CASTLE_PASS, 0, 0, 0);
    assert_int_equal(t.castle, at);
    assert_true(t.stage != D18_S_CASTLE && t.stage != D18_S_CASTLE_PLACE);
}

static void test_R93_bank_broken_in_an_or_ends_at_the_next_sr(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 6, 0);
    move_money(&s, &s.treasury[NBC], 100);
    buy_step(&s, NBC);
    s.or_sets_begun = 1;
    move_money(&s, &s.cash[1], s.bank - 5); /* 5 left in the bank */
    d18_bank_pay(&s, &s.treasury[NBC], 10); /* it cannot pay in full: broken */
    assert_int_equal(s.broke_when, D18_BRK_IN_OR);
    assert_int_equal(s.end_after_set, 1); /* this set is played to its end */
    act(&s, D18_K_BUY_BANK, GHL, 0, 0);
    act(&s, D18_K_BUY_DONE, 0, 0, 0);
    assert_int_equal(s.stage, D18_S_OVER); /* at the start of the next SR */
    assert_int_equal(s.end_reason, D18_END_BANK);
    /* Broken outside an OR set: the next complete set is played first. */
    d18_state t;
    seated(&t);
    t.stage = D18_S_SR;
    t.or_sets_begun = 1;
    move_money(&t, &t.cash[1], t.bank);
    d18_bank_pay(&t, &t.cash[0], 1);
    assert_int_equal(t.broke_when, D18_BRK_OUTSIDE_OR);
    assert_int_equal(t.end_after_set, 2);
}

static void test_R49_R70_R77_R85_R101_front_buys_ll(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 6, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_LL] = 1;
    move_money(&s, &s.minor_cash[0], 45);
    buy_step(&s, NBC);
    s.or_step = D18_OS_BUILD;
    assert_false(ok(&s, D18_K_OFFER_AF, D18_LL, 0, 80)); /* R85: from phase 2 */
    s.phase = 2;
    s.supply[D18_GREEN] = 6;
    assert_true(ok(&s, D18_K_OFFER_AF, D18_LL, 0, 160)); /* up to twice its price */
    assert_false(ok(&s, D18_K_OFFER_AF, D18_LL, 0, 161));
    assert_false(ok(&s, D18_K_OFFER_AF, D18_LL, 0, 0));
    /* R77: a front with a fang may not take LL's Steelclaw (a claw). */
    d18_state t = s;
    t.mon_at[d18_brd(G)->monster[7].first_copy] = D18_AT_ENTITY + NBC; /* a Revenant: fang */
    assert_false(ok(&t, D18_K_OFFER_AF, D18_LL, 0, 100));
    int cash1 = s.cash[1];
    act(&s, D18_K_OFFER_AF, D18_LL, 0, 100);
    assert_int_equal(G->def->current_player(G, &s), 1); /* the owner answers */
    act(&s, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(s.cash[1], cash1 + 100);
    assert_int_equal(s.treasury[NBC], 300 - 100 + 45); /* R49: LL's treasury passes */
    assert_int_equal(s.minor_cash[0], 0);
    int stc = d18_brd(G)->monster[STC].first_copy;
    assert_int_equal(s.mon_at[stc], D18_AT_ENTITY + NBC);
    assert_true(s.mon_fresh[stc >> 3] >> (stc & 7) & 1); /* R70: does not run this OR */
    assert_true(s.assoc_closed >> D18_LL & 1);
    /* The office in Balath: keep it as NBC's next office, free. */
    assert_int_equal(s.stage, D18_S_MERGE);
    assert_int_equal(G->def->current_player(G, &s), 0);
    act(&s, D18_K_MERGE_KEEP, 0, 0, 0);
    assert_int_equal(s.space_occ[loc("BAL")][d18_brd(G)->ll.space], NBC);
    assert_int_equal(s.offices_used[NBC], 2);
    assert_int_equal(s.treasury[NBC], 245);
    assert_int_equal(s.stage, D18_S_OR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R80_R111_forced_purchase_and_contribution),
        cmocka_unit_test(test_R82_R111_emergency_sales_no_larger_than_needed),
        cmocka_unit_test(test_R83_R113_bankruptcy_ends_the_game),
        cmocka_unit_test(test_R71_zero_revenue_retains),
        cmocka_unit_test(test_R48_R118_ll_half_to_its_owner),
        cmocka_unit_test(test_R34_R35_R36_castle_auction),
        cmocka_unit_test(test_R93_bank_broken_in_an_or_ends_at_the_next_sr),
        cmocka_unit_test(test_R49_R70_R77_R85_R101_front_buys_ll),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
