/* test_stock.c — 18Dracula stock rounds (spec 5) and scoring (spec 10) on
 * the test market of d18_test.h; every test names the ruling it checks.
 * Prices: price(r, c) = 40 + 10c + 10(5 - r); pars 70, 80, 90, 100 at
 * (4,2), (3,2), (2,2), (1,2). */
#include "games/18dracula/d18_test.h"

#define SELL(f, k) D18_K_SELL, f, (k)-1, 0
#define IPO(f)     D18_K_BUY_IPO, f, 0, 0
#define POOL(f)    D18_K_BUY_POOL, f, 0, 0
#define END        D18_K_END_TURN, 0, 0, 0
#define PASS       D18_K_PASS, 0, 0, 0

/* Front f started by p at (r, c) with p holding `held` shares. */
static void put_front(d18_state *s, int f, int p, int held, int r, int c)
{
    s->pres[f] = (int8_t)p;
    s->held[f][p] = (uint8_t)held;
    s->ipo[f] = (uint8_t)(D18_SHARES - held);
    s->par_idx[f] = 1;
    s->mrow[f] = (int8_t)r;
    s->mcol[f] = (int8_t)c;
    s->mseq[f] = ++s->seq;
}

/* Moves n shares of f from the IPO to q (money is not the point here). */
static void give(d18_state *s, int f, int q, int n)
{
    s->held[f][q] = (uint8_t)(s->held[f][q] + n);
    s->ipo[f] = (uint8_t)(s->ipo[f] - n);
}

static void test_R24_start_front_par_and_stack(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 1, 0);
    assert_false(d18t_ok(&g, &s, D18_K_START, 0, 4, 0)); /* no fifth par */
    d18t_do(&g, &s, D18_K_START, 0, 1, 0);               /* par 80 */
    assert_int_equal(s.cash[0], 600 - 160);
    assert_int_equal(s.pres[0], 0);
    assert_int_equal(s.held[0][0], 2);
    assert_int_equal(s.ipo[0], 8);
    assert_int_equal(d18_price(&g, &s, 0), 80);
    /* One purchase a turn. */
    assert_false(d18t_ok(&g, &s, D18_K_START, 1, 1, 0));
    assert_false(d18t_ok(&g, &s, IPO(0)));
    d18t_do(&g, &s, END);
    d18t_do(&g, &s, D18_K_START, 1, 1, 0); /* p1, same par: below F0 */
    assert_true(d18_op_before(&g, &s, 0, 1));
    assert_false(d18_op_before(&g, &s, 1, 0));
    assert_false(d18t_ok(&g, &s, D18_K_START, 1, 2, 0)); /* already started */
}

static void test_R25_floats_at_six_shares_out(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(3);
    d18_state s;
    d18t_sr(&g, &s, 1, 0);
    d18t_do(&g, &s, D18_K_START, 2, 0, 0); /* par 70 */
    d18t_do(&g, &s, END);
    for (int i = 0; i < 3; i++) {
        d18t_do(&g, &s, IPO(2));
        d18t_do(&g, &s, END);
    }
    assert_int_equal(s.ipo[2], 5);
    assert_false(s.floated >> 2 & 1);
    assert_int_equal(s.treasury[2], 0);
    d18t_do(&g, &s, IPO(2)); /* the 6th share out */
    assert_true(s.floated >> 2 & 1);
    assert_int_equal(s.treasury[2], 700);
}

static void test_R21_presidency_on_strictly_more(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 2, 1);
    put_front(&s, 0, 0, 2, 3, 2);
    give(&s, 0, 1, 1);
    d18t_do(&g, &s, IPO(0)); /* p1: 2 shares, a tie */
    assert_int_equal(s.pres[0], 0);
    s.turn_bought = 0;       /* a later turn */
    d18t_do(&g, &s, IPO(0)); /* p1: 3 > 2 */
    assert_int_equal(s.pres[0], 1);
    assert_int_equal(s.held[0][0], 2); /* the swap keeps share counts */
    assert_int_equal(d18_front_certs(&s, 0, 0), 2);
    assert_int_equal(d18_front_certs(&s, 0, 1), 2);
}

static void test_R29_R32_no_selling_in_sr1_unfloated_later(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 1, 1);
    put_front(&s, 0, 0, 2, 3, 2);
    give(&s, 0, 1, 2);
    assert_false(d18t_ok(&g, &s, SELL(0, 1)));
    s.sr_no = 2; /* R32: an unfloated front may be sold from SR2 on */
    assert_false(s.floated & 1);
    assert_true(d18t_ok(&g, &s, SELL(0, 1)));
}

static void test_R18_sale_price_and_drop(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 2, 1);
    put_front(&s, 0, 0, 2, 2, 3); /* price 100 */
    give(&s, 0, 1, 4);
    d18t_do(&g, &s, SELL(0, 2));
    assert_int_equal(s.cash[1], 600 + 200); /* both at the price before */
    assert_int_equal(s.mrow[0], 4);
    assert_int_equal(d18_price(&g, &s, 0), 80);
    d18t_do(&g, &s, SELL(0, 2)); /* two rows down, but only one exists */
    assert_int_equal(s.cash[1], 800 + 160);
    assert_int_equal(s.mrow[0], 5);
    assert_int_equal(s.pool[0], 4);
}

static void test_R19_market_limit_of_five(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 2, 1);
    put_front(&s, 0, 0, 2, 2, 3);
    give(&s, 0, 1, 4);
    s.pool[0] = 4;
    s.ipo[0] = 0;
    assert_false(d18t_ok(&g, &s, SELL(0, 2)));
    assert_true(d18t_ok(&g, &s, SELL(0, 1)));
}

static void test_R20_presidency_after_a_sale(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    put_front(&s, 0, 0, 3, 2, 3);
    give(&s, 0, 1, 2);
    d18t_do(&g, &s, SELL(0, 1)); /* h = 2 >= m = 2: stays president */
    assert_int_equal(s.pres[0], 0);
    /* p1 down to 1: selling 1 more would leave h = 1, m = 1: illegal. */
    s.held[0][1]--, s.ipo[0]++;
    assert_false(d18t_ok(&g, &s, SELL(0, 1)));
    /* p1 up to 3: now h = 1 < m = 3, and the presidency passes. */
    s.held[0][1] += 2, s.ipo[0] -= 2;
    d18t_do(&g, &s, SELL(0, 1));
    assert_int_equal(s.pres[0], 1);
    assert_int_equal(s.held[0][0], 1);
    /* p1 (3 shares, president) may not sell 2: h = 1, m = 1 < 2. */
    s.actor = 1;
    assert_false(d18t_ok(&g, &s, SELL(0, 2)));
    assert_true(d18t_ok(&g, &s, SELL(0, 1))); /* h = 2 >= m = 1 */
}

static void test_R22_new_president_first_clockwise(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    put_front(&s, 0, 0, 3, 2, 3);
    give(&s, 0, 2, 2);
    give(&s, 0, 3, 2);
    d18_state t = s;
    d18t_do(&g, &s, SELL(0, 2)); /* seating 0 1 2 3: p2 comes first */
    assert_int_equal(s.pres[0], 2);
    /* With the seating 0 3 2 1, p3 comes first clockwise from p0. */
    t.seat_at[1] = 3, t.seat_at[3] = 1;
    for (int pos = 0; pos < 4; pos++) t.pos_of[t.seat_at[pos]] = (int8_t)pos;
    d18t_do(&g, &t, SELL(0, 2));
    assert_int_equal(t.pres[0], 3);
}

static void test_R23_buy_then_sell_yes_sell_then_buy_no(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 2, 1);
    put_front(&s, 0, 0, 2, 2, 3);
    give(&s, 0, 1, 1);
    d18t_do(&g, &s, IPO(0));
    d18t_do(&g, &s, SELL(0, 1)); /* after buying it: allowed */
    d18t_do(&g, &s, END);
    /* In a later turn of the same round, p1 may not buy F0 again. */
    s.actor = 1;
    s.turn_bought = s.turn_acted = 0;
    assert_false(d18t_ok(&g, &s, IPO(0)));
    assert_false(d18t_ok(&g, &s, POOL(0)));
    /* A new round forgets the sale. */
    s.sr_no = 3;
    s.sold_this_sr[1] = 0;
    assert_true(d18t_ok(&g, &s, IPO(0)));
}

static void test_R26_overall_certificate_limit(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(6); /* limit 12 */
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    s.cash[0] = 5000;
    s.bank -= 5000 - 400;
    put_front(&s, 0, 0, 5, 1, 4); /* 4 certs */
    put_front(&s, 1, 0, 5, 1, 5); /* 4 certs */
    put_front(&s, 2, 0, 2, 1, 6); /* 1 cert */
    s.assoc_owner[D18_IL] = 0;
    s.assoc_owner[D18_JH] = 0; /* 2 certs */
    assert_int_equal(d18_certs(&g, &s, 0), 11);
    assert_true(d18t_ok(&g, &s, IPO(2))); /* to 12 */
    give(&s, 2, 0, 1);
    assert_int_equal(d18_certs(&g, &s, 0), 12);
    assert_false(d18t_ok(&g, &s, IPO(2)));
    assert_false(d18t_ok(&g, &s, D18_K_START, 3, 0, 0));
    /* A closed associate does not count. */
    s.assoc_closed = 1u << D18_JH;
    assert_true(d18t_ok(&g, &s, IPO(2)));
}

static void test_R27_R28_per_front_limit_and_zones(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(3);
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    put_front(&s, 0, 0, 6, 2, 3); /* 5 certificates: the per-front limit */
    assert_false(d18t_ok(&g, &s, IPO(0)));
    s.mrow[0] = 5, s.mcol[0] = 3; /* yellow: the per-front limit holds */
    assert_false(d18t_ok(&g, &s, IPO(0)));
    assert_int_equal(d18_certs(&g, &s, 0), 0); /* ... but not the overall one */
    s.mrow[0] = 5, s.mcol[0] = 1;              /* orange: both lifted */
    assert_true(d18t_ok(&g, &s, IPO(0)));
}

/* Checks R104 and R123. */
static void test_R104_R123_over_a_limit_sells_then_may_buy(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(3);
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    put_front(&s, 0, 0, 2, 1, 4);
    give(&s, 0, 0, 5); /* 6 certificates of a white front: over by one */
    put_front(&s, 1, 1, 2, 2, 3);
    give(&s, 1, 0, 1);
    cr_action out[4096];
    int n = d18t_legal(&g, &s, out);
    for (int i = 0; i < n; i++) {
        d18_act x;
        d18_decode(out[i], &x);
        assert_int_equal(x.kind, D18_K_SELL); /* only sales, of any front */
    }
    assert_true(d18t_ok(&g, &s, SELL(1, 1))); /* not relieving, still allowed */
    d18t_do(&g, &s, SELL(0, 1));              /* back within every limit */
    assert_true(d18t_ok(&g, &s, END));
    assert_true(d18t_ok(&g, &s, IPO(1)));  /* R123: may buy in the same turn */
    assert_false(d18t_ok(&g, &s, IPO(0))); /* (but not the front just sold) */
    /* In SR1 nothing may be sold: the over-limit player just passes. */
    d18_state t;
    d18t_sr(&g, &t, 1, 0);
    put_front(&t, 0, 0, 2, 1, 4);
    give(&t, 0, 0, 5);
    n = d18t_legal(&g, &t, out);
    assert_int_equal(n, 1);
    assert_int_equal(out[0], d18_encode(PASS));
}

/* Checks R31 and R106. */
static void test_R31_R106_sold_out_fronts_rise_in_order(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(2);
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    put_front(&s, 0, 0, 5, 3, 3);
    put_front(&s, 1, 1, 5, 3, 3); /* below F0 */
    put_front(&s, 2, 0, 5, 0, 5); /* top row: cannot rise */
    put_front(&s, 3, 1, 5, 3, 4); /* shares left in the market */
    for (int f = 0; f < 4; f++) give(&s, f, f & 1 ? 0 : 1, 5), s.floated |= 1u << f;
    s.held[3][0]--, s.pool[3] = 1;
    uint32_t seq2 = s.mseq[2];
    d18t_do(&g, &s, PASS);
    d18t_do(&g, &s, PASS);
    assert_int_equal(s.stage, D18_S_OR);
    assert_int_equal(s.mrow[0], 2);
    assert_int_equal(s.mrow[1], 2);
    assert_true(d18_op_before(&g, &s, 0, 1)); /* order kept */
    assert_int_equal(s.mrow[2], 0);
    assert_int_equal(s.mseq[2], seq2); /* keeps its place */
    assert_int_equal(s.mrow[3], 3);
}

static void test_R17_priority_left_of_the_last_to_act(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 1, 1);
    d18t_do(&g, &s, PASS);                 /* p1 */
    d18t_do(&g, &s, D18_K_START, 0, 0, 0); /* p2 buys */
    d18t_do(&g, &s, END);
    for (int i = 0; i < 4; i++) d18t_do(&g, &s, PASS);
    /* Nothing operates (no front floated): the next round has begun. */
    assert_int_equal(s.sr_no, 2);
    assert_int_equal(s.priority, 3);
    assert_int_equal(s.actor, 3);
    /* Nobody acts: priority stays. */
    d18t_sr(&g, &s, 2, 2);
    for (int i = 0; i < 4; i++) d18t_do(&g, &s, PASS);
    assert_int_equal(s.priority, 2);
}

static void test_R30_R97_R105_associate_offers(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 1, 0);
    s.assoc_owner[D18_JH] = 1;
    assert_false(d18t_ok(&g, &s, D18_K_OFFER_AS, D18_JH, 0, 40)); /* R29: not in SR1 */
    s.sr_no = 2;
    assert_false(d18t_ok(&g, &s, D18_K_OFFER_AS, D18_JH, 0, 0));
    assert_false(d18t_ok(&g, &s, D18_K_OFFER_AS, D18_JH, 0, 601));
    d18t_do(&g, &s, D18_K_OFFER_AS, D18_JH, 0, 40);
    assert_int_equal(g.def->current_player(&g, &s), 1);
    d18t_do(&g, &s, D18_K_DECLINE, 0, 0, 0);
    assert_int_equal(g.def->current_player(&g, &s), 0);
    assert_false(d18t_ok(&g, &s, D18_K_OFFER_AS, D18_JH, 0, 99)); /* R97 */
    assert_true(d18t_ok(&g, &s, PASS));                 /* R105: a declined offer is a pass */
    assert_true(d18t_ok(&g, &s, D18_K_START, 0, 0, 0)); /* R30: may still buy */
    d18t_do(&g, &s, PASS);                              /* p0 */
    d18t_do(&g, &s, PASS);                              /* p1 */
    /* Accepted: p2 buys it from p1; the buyer has acted. */
    d18t_do(&g, &s, D18_K_OFFER_AS, D18_JH, 0, 75);
    d18t_do(&g, &s, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(s.assoc_owner[D18_JH], 1 + 1);
    assert_int_equal(s.cash[1], 600 + 75);
    assert_int_equal(s.cash[2], 600 - 75);
    assert_int_equal(s.last_actor, 2);
    assert_false(d18t_ok(&g, &s, PASS));
    assert_true(d18t_ok(&g, &s, END));
    assert_false(d18t_ok(&g, &s, D18_K_START, 0, 0, 0)); /* that was the purchase */
}

/* Issue 8, point 4 (docs/18dracula-notation.md, "Amounts"): the list
 * offers an associate of another player for at most twice its printed
 * price, not the whole purse; any amount up to the purse stays legal. */
static void test_associate_offer_menu_is_meaningful(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    s.assoc_owner[D18_IL] = 1;
    int face = d18_rule_assoc_price[D18_IL], top = 0;
    assert_true(2 * face < s.cash[0]);
    for (int v = 1; v <= s.cash[0]; v++)
        if (d18t_listed(&g, &s, d18_encode(D18_K_OFFER_AS, D18_IL, 0, v))) top = v;
    assert_int_equal(top, 2 * face);
    assert_true(d18t_listed(&g, &s, d18_encode(D18_K_OFFER_AS, D18_IL, 0, face)));
    assert_true(d18t_ok(&g, &s, D18_K_OFFER_AS, D18_IL, 0, s.cash[0]));
}

static void test_R107_operating_order(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    put_front(&s, 0, 0, 2, 2, 3); /* 100 */
    put_front(&s, 1, 1, 2, 3, 4); /* 100, further right */
    put_front(&s, 2, 2, 2, 2, 4); /* 110 */
    assert_true(d18_op_before(&g, &s, 2, 1));
    assert_true(d18_op_before(&g, &s, 1, 0));
    assert_false(d18_op_before(&g, &s, 0, 1));
}

/* Checks R94 and R83. */
static void test_R94_R83_scoring(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(3);
    d18_state s;
    d18t_sr(&g, &s, 2, 0);
    put_front(&s, 0, 0, 2, 2, 3); /* 100 */
    give(&s, 0, 1, 2);
    s.cash[0] = 500, s.cash[1] = 500, s.cash[2] = 700;
    s.minor_cash[0] = 999; /* a minor's cash is worth nothing */
    s.stage = D18_S_OVER;
    cr_result r;
    g.def->result(&g, &s, &r);
    assert_int_equal(r.score[0], 700);
    assert_int_equal(r.score[1], 700);
    assert_int_equal(r.rank[0], 1);
    assert_int_equal(r.rank[1], 1);
    assert_int_equal(r.rank[2], 1);
    assert_int_equal(r.winners, 7u); /* shared */
    s.bankrupt = 2;
    g.def->result(&g, &s, &r);
    assert_int_equal(r.rank[2], 3);
    assert_int_equal(r.winners, 3u);
    double ret[3];
    g.def->returns(&g, &s, ret);
    assert_true(ret[0] == 0.5 && ret[1] == 0.5 && ret[2] == 0.0);
}

/* Checks R93 and R103. */
static void test_R93_R103_bank_breaks_in_the_auction(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(2);
    d18_state s;
    d18t_seated(&g, &s);
    d18t_do(&g, &s, D18_K_AU_BUY, 0, 0, 0);                /* p0: IL */
    s.bank -= 11970 + 30 - 5, s.cash[1] += 11970 + 30 - 5; /* 5 left */
    d18t_do(&g, &s, D18_K_AU_PASS, 0, 0, 0);
    assert_int_equal(s.broke_when, D18_BRK_NONE);
    d18t_do(&g, &s, D18_K_AU_PASS, 0, 0, 0); /* IL pays 5: the bank is at 0 */
    assert_int_equal(s.bank, 0);
    assert_int_equal(s.broke_when, D18_BRK_IN_AUCTION);
}

/* R108: buying never moves a stock marker (IPO or market), and nothing in
 * a stock round takes a started front's president away. */
static void test_R108_buying_never_moves_a_price(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(3);
    d18_state s;
    d18t_sr(&g, &s, 2, 1);
    put_front(&s, 0, 0, 2, 2, 4);
    put_front(&s, 1, 2, 2, 3, 4); /* the same cell, below front 0 in the stack */
    s.ipo[0] = 6, s.pool[0] = 2;
    int row = s.mrow[0], col = s.mcol[0];
    uint32_t seq0 = s.mseq[0], seq1 = s.mseq[1];
    d18t_do(&g, &s, IPO(0));
    assert_int_equal(s.mrow[0], row);
    assert_int_equal(s.mcol[0], col);
    assert_true(s.mseq[0] == seq0 && s.mseq[1] == seq1);
    d18t_do(&g, &s, END);
    d18t_do(&g, &s, POOL(0)); /* seat 2 from the market */
    assert_int_equal(s.mrow[0], row);
    assert_int_equal(s.mcol[0], col);
    assert_true(s.mseq[0] == seq0 && s.mseq[1] == seq1);
    assert_int_equal(s.pres[0], 0);
    /* The president may not sell the President's certificate away while
     * nobody else could take it: front 1's only holder keeps it. */
    d18t_do(&g, &s, END);
    assert_false(d18t_ok(&g, &s, SELL(1, 1)));
    assert_int_equal(s.pres[1], 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R108_buying_never_moves_a_price),
        cmocka_unit_test(test_R24_start_front_par_and_stack),
        cmocka_unit_test(test_R25_floats_at_six_shares_out),
        cmocka_unit_test(test_R21_presidency_on_strictly_more),
        cmocka_unit_test(test_R29_R32_no_selling_in_sr1_unfloated_later),
        cmocka_unit_test(test_R18_sale_price_and_drop),
        cmocka_unit_test(test_R19_market_limit_of_five),
        cmocka_unit_test(test_R20_presidency_after_a_sale),
        cmocka_unit_test(test_R22_new_president_first_clockwise),
        cmocka_unit_test(test_R23_buy_then_sell_yes_sell_then_buy_no),
        cmocka_unit_test(test_R26_overall_certificate_limit),
        cmocka_unit_test(test_R27_R28_per_front_limit_and_zones),
        cmocka_unit_test(test_R104_R123_over_a_limit_sells_then_may_buy),
        cmocka_unit_test(test_R31_R106_sold_out_fronts_rise_in_order),
        cmocka_unit_test(test_R17_priority_left_of_the_last_to_act),
        cmocka_unit_test(test_R30_R97_R105_associate_offers),
        cmocka_unit_test(test_associate_offer_menu_is_meaningful),
        cmocka_unit_test(test_R107_operating_order),
        cmocka_unit_test(test_R94_R83_scoring),
        cmocka_unit_test(test_R93_R103_bank_breaks_in_the_auction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
