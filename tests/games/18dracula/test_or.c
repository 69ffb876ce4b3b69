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
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/alloc.h"

#include "games/18dracula/d18_internal.h"

enum { NBC, VCC, SAN, RLI };
enum { NUR, STC, GHL, BAT, WWF, BAN, FAM, REV, GRG, WRA };

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

/* Checks R80 and R111. */
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

/* Checks R82 and R111. */
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

/* Checks R83 and R113. */
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

/* Checks R48 and R118. */
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

/* A copy of type t from the bank to `at` (an entity or the market). */
static void give(d18_state *s, int t, int at)
{
    int c = d18_bank_copy(G, s, t);
    assert_true(c >= 0);
    s->mon_at[c] = (uint8_t)at;
}

/* The technical-bankruptcy position of 8.11.7: P0 presides over NBC, which
 * must buy (b = 80, a Ghoul), and VCC, which owns one Wraith (permanent);
 * NBC 30 + VCC 0 + P0's 10 < 80; P0 can sell nothing (NBC's presidency
 * would pass, VCC's market is full).  P1's SAN owns a Werewolf and a Wraith. */
static void tech_position(d18_state *s)
{
    seated(s);
    front(s, NBC, 0, 2, 0);
    s->held[NBC][1] = 2, s->held[NBC][2] = 2, s->ipo[NBC] = 4;
    front(s, VCC, 0, 2, 1);
    s->pool[VCC] = 5, s->ipo[VCC] = 3;
    front(s, SAN, 1, 6, 2);
    give(s, WRA, D18_AT_ENTITY + VCC);
    give(s, WRA, D18_AT_ENTITY + SAN);
    give(s, WWF, D18_AT_ENTITY + SAN);
    move_money(s, &s->treasury[NBC], 30);
    move_money(s, &s->cash[0], 10 - s->cash[0]);
    buy_step(s, NBC);
    s->phase = 3; /* Wraiths are phase-3 monsters: b = 300, a Wraith */
    s->supply[D18_GREEN] = 10, s->supply[D18_BLUE] = 4; /* as released */
}

static void test_R84_R112_technical_bankruptcy_restriction(void **unused)
{
    (void)unused;
    d18_state s;
    tech_position(&s);
    int b = d18_cheapest_offer(G, &s, NBC);
    assert_int_equal(b, 300);
    /* R84: only a permanent monster, only for the whole treasury. */
    assert_true(ok(&s, D18_K_OFFER_MON, VCC, WRA, 30)); /* from X's own front too */
    assert_true(ok(&s, D18_K_OFFER_MON, SAN, WRA, 30));
    assert_false(ok(&s, D18_K_OFFER_MON, VCC, WRA, 1));
    assert_false(ok(&s, D18_K_OFFER_MON, SAN, WRA, 29));
    assert_false(ok(&s, D18_K_OFFER_MON, SAN, WWF, 30)); /* eaten in phase 4: not permanent */
    cr_action out[4096];
    int n = G->def->legal_actions(G, &s, out, CX), offers = 0;
    for (int i = 0; i < n; i++) {
        d18_act x;
        assert_true(d18_decode(out[i], &x));
        if (x.kind != D18_K_OFFER_MON) continue;
        offers++;
        assert_int_equal(x.o2, WRA);
        assert_int_equal(x.amt, 30);
    }
    assert_int_equal(offers, 2);
    /* Both presidents decline: technical bankruptcy, which ends the game as
     * a bankruptcy (R83): P0 ranks last. */
    act(&s, D18_K_OFFER_MON, VCC, WRA, 30);
    act(&s, D18_K_DECLINE, 0, 0, 0);
    assert_int_equal(s.stage, D18_S_OR);
    act(&s, D18_K_OFFER_MON, SAN, WRA, 30);
    act(&s, D18_K_DECLINE, 0, 0, 0);
    assert_int_equal(s.stage, D18_S_OVER);
    assert_int_equal(s.end_reason, D18_END_TECH_BANKRUPTCY);
    assert_int_equal(s.bankrupt, 0);
    cr_result r;
    G->def->result(G, &s, &r);
    assert_int_equal(r.rank[0], 3);
    /* An accepted sale meets the requirement. */
    d18_state t;
    tech_position(&t);
    act(&t, D18_K_OFFER_MON, VCC, WRA, 30);
    act(&t, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(t.treasury[NBC], 0);
    assert_int_equal(t.treasury[VCC], 30);
    assert_true(ok(&t, D18_K_BUY_DONE, 0, 0, 0));
    /* A treasury of 0: no permitted sale at all, technical bankruptcy at once. */
    d18_state z;
    tech_position(&z);
    move_money(&z, &z.treasury[NBC], -30);
    d18_settle(G, &z);
    assert_int_equal(z.end_reason, D18_END_TECH_BANKRUPTCY);
    /* R112: judged without making the sales.  With 4 SAN shares (one sale
     * of 4 at 80: 30 + 10 + 320 >= 300) P0 could raise enough: no
     * restriction, a 1-pt sale is allowed again; with 3 (240) not. */
    d18_state m;
    tech_position(&m);
    m.held[SAN][0] = 3, m.ipo[SAN] = 1;
    assert_false(ok(&m, D18_K_OFFER_MON, VCC, WRA, 1));
    m.held[SAN][0] = 4, m.ipo[SAN] = 0;
    assert_true(ok(&m, D18_K_OFFER_MON, VCC, WRA, 1));
    assert_true(ok(&m, D18_K_OFFER_MON, SAN, WWF, 1));
    /* Not with two permanent monsters among X's fronts. */
    d18_state w;
    tech_position(&w);
    give(&w, WRA, D18_AT_ENTITY + VCC);
    assert_true(ok(&w, D18_K_OFFER_MON, VCC, WRA, 1));
    /* Nor when X presides over one front only. */
    d18_state o;
    tech_position(&o);
    o.pres[VCC] = 1, o.held[VCC][1] = 2, o.held[VCC][0] = 0;
    assert_true(ok(&o, D18_K_OFFER_MON, VCC, WRA, 1));
    /* Nor when X's fronts' treasuries and cash together reach b. */
    d18_state c;
    tech_position(&c);
    move_money(&c, &c.treasury[VCC], b);
    assert_true(ok(&c, D18_K_OFFER_MON, VCC, WRA, 1));
}

/* Checks R128. */
static void test_R128_an_untakeable_market_monster_saves_nobody(void **unused)
{
    (void)unused;
    /* A Nurse (40) in the market that NBC could pay for but may not take:
     * the restriction still applies ... */
    d18_state s;
    tech_position(&s);
    move_money(&s, &s.treasury[NBC], 15); /* 45 */
    give(&s, NUR, D18_AT_MARKET);
    assert_false(ok(&s, D18_K_BUY_MKT, NUR, 0, 0));
    assert_false(ok(&s, D18_K_OFFER_MON, VCC, WRA, 1));
    assert_true(ok(&s, D18_K_OFFER_MON, VCC, WRA, 45));
    /* ... and, with nobody to buy from, P0 is bankrupt. */
    d18_state t;
    seated(&t);
    front(&t, NBC, 0, 2, 0);
    t.held[NBC][1] = 2, t.held[NBC][2] = 2, t.ipo[NBC] = 4;
    move_money(&t, &t.treasury[NBC], 45);
    move_money(&t, &t.cash[0], -t.cash[0]);
    give(&t, NUR, D18_AT_MARKET);
    buy_step(&t, NBC);
    d18_settle(G, &t);
    assert_int_equal(t.end_reason, D18_END_BANKRUPTCY);
    /* A market Ghoul NBC can take and pay for prevents it. */
    d18_state u;
    seated(&u);
    front(&u, NBC, 0, 2, 0);
    u.held[NBC][1] = 2, u.held[NBC][2] = 2, u.ipo[NBC] = 4;
    move_money(&u, &u.treasury[NBC], 180);
    move_money(&u, &u.cash[0], -u.cash[0]);
    give(&u, WWF, D18_AT_MARKET);
    buy_step(&u, NBC);
    u.phase = 3; /* b = 300 */
    u.supply[D18_GREEN] = 10, u.supply[D18_BLUE] = 4;
    d18_settle(G, &u);
    assert_int_equal(u.stage, D18_S_OR);
    assert_true(ok(&u, D18_K_BUY_MKT, WWF, 0, 0));
}

static void test_R129_an_unfloated_front_counts_for_its_president(void **unused)
{
    (void)unused;
    /* P0 presides over NBC (must buy) and RLI, started but not floated:
     * two fronts (R129), but no permanent monster among them, so no
     * restriction: P0 is simply bankrupt, not technically. */
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 2, 0);
    s.held[NBC][1] = 2, s.held[NBC][2] = 2, s.ipo[NBC] = 4;
    s.pres[RLI] = 0, s.held[RLI][0] = 2, s.ipo[RLI] = 8, s.par_idx[RLI] = 1;
    s.mrow[RLI] = (int8_t)d18_brd(G)->par_row[1], s.mcol[RLI] = (int8_t)d18_brd(G)->par_col[1];
    s.mseq[RLI] = ++s.seq;
    move_money(&s, &s.treasury[NBC], 30);
    move_money(&s, &s.cash[0], 10 - s.cash[0]);
    buy_step(&s, NBC);
    d18_settle(G, &s);
    assert_int_equal(s.end_reason, D18_END_BANKRUPTCY);
    /* With VCC's one Wraith as well, the unfloated RLI adds nothing to
     * the treasuries and is never a seller: the restriction applies and
     * every permitted sale is VCC's or SAN's Wraith for 30. */
    d18_state t;
    tech_position(&t);
    t.pres[RLI] = 0, t.held[RLI][0] = 2, t.ipo[RLI] = 8, t.par_idx[RLI] = 1;
    t.mrow[RLI] = (int8_t)d18_brd(G)->par_row[1], t.mcol[RLI] = (int8_t)d18_brd(G)->par_col[1];
    t.mseq[RLI] = ++t.seq;
    assert_false(ok(&t, D18_K_OFFER_MON, VCC, WRA, 1));
    assert_true(ok(&t, D18_K_OFFER_MON, VCC, WRA, 30));
    for (int ty = 0; ty < d18_brd(G)->n_monsters; ty++)
        assert_false(ok(&t, D18_K_OFFER_MON, RLI, ty, 30));
}

/* R121: two consecutive complete OR sets in which nothing earned anything
 * end the game at the next stock round; one idle set, or a set in which an
 * associate paid, does not. */
static void idle_set_end(d18_state *s, int idle_before)
{
    seated(s);
    front(s, NBC, 0, 6, 0);
    give(s, GHL, D18_AT_ENTITY + NBC); /* buy_done is legal */
    buy_step(s, NBC);
    s->minors_done = 3;
    s->or_sets_begun = 2, s->or_sets_done = 1;
    s->set_earned = 0;
    s->idle_sets = (uint8_t)idle_before;
}

static void test_R121_no_progress_ends_the_game(void **unused)
{
    (void)unused;
    d18_state s;
    idle_set_end(&s, 1);
    act(&s, D18_K_BUY_DONE, 0, 0, 0);
    assert_int_equal(s.stage, D18_S_OVER);
    assert_int_equal(s.end_reason, D18_END_NO_PROGRESS);
    assert_int_equal(s.bankrupt, -1); /* scored as a bank break: nobody ranks last by rule */
    d18_state t;
    idle_set_end(&t, 0); /* the first idle set: the game goes on */
    act(&t, D18_K_BUY_DONE, 0, 0, 0);
    assert_int_equal(t.stage, D18_S_SR);
    assert_int_equal(t.idle_sets, 1);
    d18_state u; /* a rampage earned in this set */
    idle_set_end(&u, 1);
    u.set_earned = 1;
    act(&u, D18_K_BUY_DONE, 0, 0, 0);
    assert_int_equal(u.stage, D18_S_SR);
    assert_int_equal(u.idle_sets, 0);
    d18_state v; /* a second OR in the set, and P1's Innsmouth Library pays in it */
    idle_set_end(&v, 1);
    v.ors_in_set = 2;
    v.assoc_owner[D18_IL] = 1;
    int cash = v.cash[1];
    act(&v, D18_K_BUY_DONE, 0, 0, 0);
    assert_int_equal(v.cash[1], cash + 5);
    assert_int_equal(v.set_earned, 1);
}

/* game.h: a NULL context (or one without scratch) is valid.  A rampage
 * applied that way gets the same revenue and the same state as with the
 * game's context; only it pays an allocation (its own workspace), the
 * game's context none. */
static void test_rampage_without_context_or_scratch(void **unused)
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
    cr_action a = d18_encode(D18_K_RAMPAGE, 0, 0, 0);
    assert_true(d18_is_legal(G, &s, a));
    d18_state with_cx = s, no_cx = s, no_scratch = s;
    uint64_t n0 = cr_alloc_count();
    G->def->apply(G, &with_cx, a, CX);
    assert_int_equal(cr_alloc_count(), n0); /* the hot path allocates nothing */
    G->def->apply(G, &no_cx, a, NULL);
    assert_true(cr_alloc_count() > n0);
    cr_ctx bare = {.ev = NULL, .scratch = NULL, .scratch_size = 0};
    G->def->apply(G, &no_scratch, a, &bare);
    unsigned char small[64];
    cr_ctx tiny = {.ev = NULL, .scratch = small, .scratch_size = sizeof small};
    d18_state too_small = s;
    G->def->apply(G, &too_small, a, &tiny);
    assert_int_equal(with_cx.revenue, 50); /* Balath 20 + Ravenspire 30 */
    assert_memory_equal(&no_cx, &with_cx, sizeof with_cx);
    assert_memory_equal(&no_scratch, &with_cx, sizeof with_cx);
    assert_memory_equal(&too_small, &with_cx, sizeof with_cx);
}

/* game.h: a fresh context holds the first g->scratch_zeroed bytes of its
 * scratch zeroed (the rampage memo's slot heads and the router input,
 * rampage.c), and the rampage reads nothing else of the scratch before
 * writing it: a context filled by hand, zeroed only there and 0xA5 beyond,
 * gives the same states as the game's own, the second time from the memo.
 * (valgrind memcheck on `croupier sim 18dracula` finds no uninitialised
 * read: docs/18dracula-board.md.) */
static void test_rampage_scratch_zeroed_part_only(void **unused)
{
    (void)unused;
    assert_true(G->scratch_zeroed > 0 && G->scratch_zeroed <= G->scratch_size);
    cr_ctx *fresh = cr_ctx_new(G);
    assert_non_null(fresh);
    const unsigned char *z = fresh->scratch;
    size_t nonzero = 0;
    for (size_t i = 0; i < G->scratch_zeroed; i++) nonzero += z[i] != 0;
    assert_int_equal(nonzero, 0);
    cr_ctx_free(fresh);

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
    cr_action a = d18_encode(D18_K_RAMPAGE, 0, 0, 0);
    unsigned char *mem = malloc(G->scratch_size);
    assert_non_null(mem);
    memset(mem, 0xA5, G->scratch_size);
    memset(mem, 0, G->scratch_zeroed);
    cr_ctx hand = {.ev = NULL, .scratch = mem, .scratch_size = G->scratch_size};
    d18_state want = s;
    G->def->apply(G, &want, a, NULL);         /* a workspace of its own */
    for (int round = 0; round < 2; round++) { /* solved, then from the memo */
        d18_state got = s;
        G->def->apply(G, &got, a, &hand);
        assert_int_equal(got.revenue, 50);
        assert_memory_equal(&got, &want, sizeof got);
    }
    free(mem);
}

/* R95: the turn's "Hire monsters" is its buy step: monsters are bought
 * there, after the dividend, and in no other step. */
static void test_R95_hire_is_the_buy_step(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 6, 0);
    move_money(&s, &s.treasury[NBC], 200);
    buy_step(&s, NBC);
    for (int step = D18_OS_BUILD; step <= D18_OS_DIVIDEND; step++) {
        s.or_step = (uint8_t)step;
        assert_false(ok(&s, D18_K_BUY_BANK, GHL, 0, 0));
    }
    s.or_step = D18_OS_BUY;
    assert_true(ok(&s, D18_K_BUY_BANK, GHL, 0, 0));
    act(&s, D18_K_BUY_BANK, GHL, 0, 0);
    assert_true(ok(&s, D18_K_BUY_BANK, GHL, 0, 0)); /* any number, one at a time (R74) */
}

/* The amounts the legal list offers for f's offer of another front's
 * monster of type t, ascending, in out[]; their count. */
static int offer_amounts(const d18_state *s, int f2, int t, int *out)
{
    cr_action list[4096];
    int n = G->def->legal_actions(G, s, list, CX), m = 0;
    for (int i = 0; i < n; i++) {
        d18_act x;
        assert_true(d18_decode(list[i], &x));
        if (x.kind == D18_K_OFFER_MON && x.o1 == f2 && x.o2 == t) out[m++] = x.amt;
    }
    return m;
}

/* Issue 8, point 4 (docs/18dracula-notation.md, "Amounts"): the menu for a
 * monster offer is 1, half the price, the price and twice the price; the
 * whole treasury only when it is below twice the price.  Any amount up to
 * the treasury stays legal. */
static void test_offer_menu_is_meaningful_amounts(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0, 6, 0);
    front(&s, SAN, 1, 6, 2);
    give(&s, GHL, D18_AT_ENTITY + SAN);
    move_money(&s, &s.treasury[NBC], 2000);
    buy_step(&s, NBC);
    int price = d18_brd(G)->monster[GHL].price, a[8];
    assert_int_equal(offer_amounts(&s, SAN, GHL, a), 4);
    assert_int_equal(a[0], 1);
    assert_int_equal(a[1], price / 2);
    assert_int_equal(a[2], price);
    assert_int_equal(a[3], 2 * price); /* not the whole 2000 */
    assert_true(ok(&s, D18_K_OFFER_MON, SAN, GHL, 2000));
    assert_true(ok(&s, D18_K_OFFER_MON, SAN, GHL, 2 * price + 1));
    assert_false(ok(&s, D18_K_OFFER_MON, SAN, GHL, 2001));
    /* A treasury below twice the price: its whole is the last amount. */
    move_money(&s, &s.treasury[NBC], price + 3 - 2000);
    assert_int_equal(offer_amounts(&s, SAN, GHL, a), 4);
    assert_int_equal(a[3], price + 3);
}

/* The seed's worked examples as fixtures on the bundled board (8.6.3, 8.5,
 * R53, R57): the two cube-colour examples and Overlook's level. */
static void test_R53_seed_examples_on_the_bundled_board(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    s.supply[D18_GREEN] = 10, s.supply[D18_BLUE] = 7; /* colours as if released */
    /* Blackford has one connection (Hollick), Keifercourt two (Morefrite,
     * Badlands): Blackford-Keifercourt needs green. */
    d18_place_cube(G, &s, route("BLK", "HOL"), D18_YELLOW);
    d18_place_cube(G, &s, route("KEI", "MOR"), D18_YELLOW);
    d18_place_cube(G, &s, route("KEI", "BAD"), D18_YELLOW);
    assert_int_equal(d18_demand(&s, loc("BLK")), D18_YELLOW);
    assert_int_equal(d18_demand(&s, loc("KEI")), D18_GREEN);
    assert_int_equal(d18_required_colour(G, &s, route("BLK", "KEI")), D18_GREEN);
    d18_place_cube(G, &s, route("BLK", "KEI"), D18_GREEN);
    assert_int_equal(d18_demand(&s, loc("BLK")), D18_YELLOW); /* its 2nd yellow slot was skipped */
    /* Sadie: a green cube to Blackford placed while Sadie had no
     * connection, then a yellow one to Overlook; Sadie-Balath is yellow. */
    d18_state t;
    seated(&t);
    t.supply[D18_GREEN] = 10;
    d18_place_cube(G, &t, route("SAD", "BLK"), D18_GREEN);
    d18_place_cube(G, &t, route("SAD", "OVL"), D18_YELLOW);
    assert_int_equal(d18_demand(&t, loc("SAD")), D18_YELLOW);
    assert_int_equal(d18_required_colour(G, &t, route("SAD", "BAL")), D18_YELLOW);
    /* Overlook: a blue cube next to a green one puts it at blue, where it
     * pays 50 (it starts at yellow, R57, with its pre-existing space). */
    d18_state u;
    seated(&u);
    assert_int_equal(d18_level(G, &u, loc("OVL")), D18_YELLOW);
    d18_place_cube(G, &u, route("SAD", "OVL"), D18_GREEN);
    assert_int_equal(d18_level(G, &u, loc("OVL")), D18_GREEN);
    int other = -1;
    const d18_board *b = d18_brd(G);
    for (int i = 0; i < b->loc[loc("OVL")].n_adj && other < 0; i++) {
        int r = b->loc[loc("OVL")].adj[i];
        if (u.cube[r] == D18_CUBE_NONE && b->route[r].colour == D18_NO_COLOUR) other = r;
    }
    assert_true(other >= 0);
    d18_place_cube(G, &u, other, D18_BLUE);
    assert_int_equal(d18_level(G, &u, loc("OVL")), D18_BLUE);
    assert_int_equal(d18_city_value(b, loc("OVL"), d18_level(G, &u, loc("OVL"))), 50);
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
        cmocka_unit_test(test_R84_R112_technical_bankruptcy_restriction),
        cmocka_unit_test(test_R121_no_progress_ends_the_game),
        cmocka_unit_test(test_R53_seed_examples_on_the_bundled_board),
        cmocka_unit_test(test_R95_hire_is_the_buy_step),
        cmocka_unit_test(test_rampage_without_context_or_scratch),
        cmocka_unit_test(test_rampage_scratch_zeroed_part_only),
        cmocka_unit_test(test_offer_menu_is_meaningful_amounts),
        cmocka_unit_test(test_R128_an_untakeable_market_monster_saves_nobody),
        cmocka_unit_test(test_R129_an_unfloated_front_counts_for_its_president),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
