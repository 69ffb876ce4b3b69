/* test_auction.c — 18Dracula setup (spec 2) and the associate auction
 * (spec 4): every test names the ruling it checks. */
#include "games/18dracula/d18_test.h"

#define BUY  D18_K_AU_BUY, 0, 0, 0
#define PASS D18_K_AU_PASS, 0, 0, 0

static void test_R5_R14_setup_money(void **unused)
{
    (void)unused;
    for (int np = 2; np <= 6; np++) {
        cr_game g = d18t_game(np);
        d18_state s;
        g.def->init(&g, &s);
        for (int p = 0; p < np; p++) assert_int_equal(s.cash[p], 2400 / np);
        assert_int_equal(s.bank, 11970); /* R14: BT's 30 came from the bank */
        assert_int_equal(s.minor_cash[1], 30);
        assert_int_equal(d18t_money(&s), D18_MONEY_TOTAL);
        assert_int_equal(s.phase, 1);
    }
}

static void test_R6_seating_is_the_only_chance_and_seat_at_0_opens(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    g.def->init(&g, &s);
    cr_action out[720];
    double prob[720];
    int n = g.def->chance_outcomes(&g, &s, out, prob);
    assert_int_equal(n, 24);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += prob[i];
    assert_true(sum > 0.999 && sum < 1.001);
    /* Each outcome is a different permutation; its first seat opens. */
    int seen[24] = {0};
    for (int i = 0; i < n; i++) {
        d18_state t = s;
        g.def->apply(&g, &t, out[i], NULL);
        int code = 0;
        for (int pos = 0; pos < 4; pos++) code = code * 4 + t.seat_at[pos];
        for (int j = 0; j < i; j++) assert_int_not_equal(seen[j], code);
        seen[i] = code;
        assert_int_equal(g.def->current_player(&g, &t), t.seat_at[0]);
        assert_int_equal(t.stage, D18_S_AUCTION);
        assert_int_equal(g.def->chance_outcomes(&g, &t, out + 0, prob), 0);
    }
}

static void test_R9_bids(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(3); /* 800 each */
    d18_state s;
    d18t_seated(&g, &s);
    /* Not on the current associate (IL), multiples of 5 above the price. */
    assert_false(d18t_ok(&g, &s, D18_K_AU_BID, D18_IL, 0, 7));
    assert_false(d18t_ok(&g, &s, D18_K_AU_BID, D18_JH, 0, 10)); /* 50: not above */
    assert_true(d18t_ok(&g, &s, D18_K_AU_BID, D18_JH, 0, 11));  /* 55 */
    assert_true(d18t_ok(&g, &s, D18_K_AU_BID, D18_FD, 0, 160)); /* 800: all the cash */
    assert_false(d18t_ok(&g, &s, D18_K_AU_BID, D18_FD, 0, 161));
    d18t_do(&g, &s, D18_K_AU_BID, D18_FD, 0, 150); /* p0: 750 on FD */
    /* p1 must beat 750; p1 has 800. */
    assert_false(d18t_ok(&g, &s, D18_K_AU_BID, D18_FD, 0, 150));
    d18t_do(&g, &s, D18_K_AU_BID, D18_FD, 0, 155);
    d18t_do(&g, &s, PASS);
    /* p0: cash minus bids on *other* associates covers a bid; the FD bid is
     * committed (750), so a 55 on JH is too much. */
    assert_int_equal(s.actor, 0);
    assert_false(d18t_ok(&g, &s, D18_K_AU_BID, D18_JH, 0, 11));
    assert_true(d18t_ok(&g, &s, BUY)); /* IL: 30 of the 50 uncommitted */
    /* Raising one's own bid replaces it: 790 on FD needs 790, not 1540. */
    assert_true(d18t_ok(&g, &s, D18_K_AU_BID, D18_FD, 0, 158));
    d18t_do(&g, &s, D18_K_AU_BID, D18_FD, 0, 158);
    assert_int_equal(s.bid[D18_FD][0], 790);
}

static void test_R10_chain_continues_left_of_the_purchaser(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_seated(&g, &s);
    d18t_do(&g, &s, D18_K_AU_BID, D18_JH, 0, 12); /* p0: 60 on JH */
    d18t_do(&g, &s, PASS);                        /* p1 */
    d18t_do(&g, &s, BUY);                         /* p2 buys IL */
    assert_int_equal(s.assoc_owner[D18_IL], 2);
    assert_int_equal(s.assoc_owner[D18_JH], 0); /* the single bidder buys */
    assert_int_equal(s.cash[0], 600 - 60);
    assert_int_equal(s.bid[D18_JH][0], 0);
    assert_int_equal(s.stage, D18_S_AUCTION);
    assert_int_equal(s.actor, 3); /* left of p2, not of p0 */
}

static void test_R11_contest(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_seated(&g, &s);
    d18t_do(&g, &s, D18_K_AU_BID, D18_CV, 0, 13); /* p0: 65 */
    d18t_do(&g, &s, D18_K_AU_BID, D18_CV, 0, 14); /* p1: 70 */
    d18t_do(&g, &s, D18_K_AU_BID, D18_CV, 0, 15); /* p2: 75 */
    d18t_do(&g, &s, D18_K_AU_BID, D18_JH, 0, 11); /* p3: 55 on JH */
    d18t_do(&g, &s, BUY);                         /* p0 buys IL; JH to p3; CV contested */
    assert_int_equal(s.assoc_owner[D18_JH], 3);
    assert_int_equal(s.stage, D18_S_CONTEST);
    assert_int_equal(s.ct_assoc, D18_CV);
    assert_int_equal(s.actor, 0); /* the first participant left of the top bidder p2 */
    assert_false(d18t_ok(&g, &s, D18_K_CT_RAISE, 0, 0, 15)); /* not above 75 */
    d18t_do(&g, &s, D18_K_CT_RAISE, 0, 0, 16);               /* p0: 80 */
    assert_int_equal(s.actor, 1);
    d18t_do(&g, &s, D18_K_CT_DROP, 0, 0, 0); /* p1 out for good, bid freed */
    assert_int_equal(s.bid[D18_CV][1], 0);
    assert_int_equal(s.actor, 2);
    d18t_do(&g, &s, D18_K_CT_RAISE, 0, 0, 17); /* p2: 85 */
    assert_int_equal(s.actor, 0);              /* p1 dropped: skipped */
    d18t_do(&g, &s, D18_K_CT_DROP, 0, 0, 0);
    assert_int_equal(s.assoc_owner[D18_CV], 2);
    assert_int_equal(s.cash[2], 600 - 85);
    assert_int_equal(s.cash[1], 600);
    /* The chain goes on: LL has no bids, so the turn passes left of p0. */
    assert_int_equal(s.stage, D18_S_AUCTION);
    assert_int_equal(s.actor, 1);
}

static void test_R12_all_pass_drops_price_and_pays_revenue(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(3);
    d18_state s;
    d18t_seated(&g, &s);
    d18t_do(&g, &s, BUY); /* p0: IL for 30 */
    assert_int_equal(s.actor, 1);
    d18t_do(&g, &s, PASS);
    d18t_do(&g, &s, PASS);
    assert_int_equal(s.assoc_price_now[D18_JH], 50);
    d18t_do(&g, &s, PASS); /* p0: the third pass in succession */
    assert_int_equal(s.assoc_price_now[D18_JH], 45);
    assert_int_equal(s.cash[0], 800 - 30 + 5); /* IL's revenue */
    assert_int_equal(s.au_passes, 0);
    assert_int_equal(s.actor, 1);
    /* A bid between passes restarts the count. */
    d18t_do(&g, &s, PASS);
    d18t_do(&g, &s, D18_K_AU_BID, D18_FD, 0, 37);
    d18t_do(&g, &s, PASS);
    d18t_do(&g, &s, PASS);
    assert_int_equal(s.assoc_price_now[D18_JH], 45);
}

/* Checks R13 and R102. */
static void test_R13_R102_price_zero_only_buy(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(2);
    d18_state s;
    d18t_seated(&g, &s);
    for (int i = 0; i < 12; i++) d18t_do(&g, &s, PASS); /* six cycles: IL 30 -> 0 */
    assert_int_equal(s.assoc_price_now[D18_IL], 0);
    cr_action out[64];
    int n = d18t_legal(&g, &s, out);
    assert_int_equal(n, 1);
    assert_int_equal(out[0], d18_encode(BUY));
    assert_false(d18t_ok(&g, &s, D18_K_AU_BID, D18_FD, 0, 40));
    int who = s.actor;
    d18t_do(&g, &s, BUY);
    assert_int_equal(s.assoc_owner[D18_IL], who);
    assert_int_equal(s.cash[who], 1200);
}

static void test_R15_innsmouth_owner_has_priority_in_sr1(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(3);
    d18_state s;
    d18t_seated(&g, &s);
    d18t_do(&g, &s, PASS);
    d18t_do(&g, &s, BUY); /* p1: IL */
    /* Buy the rest in turn: p2 JH, p0 CV, p1 LL, p2 BT, p0 MI, p1 FD. */
    for (int i = 0; i < 6; i++) d18t_do(&g, &s, BUY);
    assert_int_equal(s.stage, D18_S_SR);
    assert_int_equal(s.sr_no, 1);
    assert_int_equal(s.actor, 1);
    assert_int_equal(s.priority, 1);
    assert_int_equal(s.assoc_owner[D18_FD], 1);
}

static void test_amounts_menu_and_full_range(void **unused)
{
    (void)unused;
    cr_game g = d18t_game(4);
    d18_state s;
    d18t_seated(&g, &s);
    /* The menu for FD: 185, 190, 195, 205 and all the cash (600). */
    assert_true(d18t_listed(&g, &s, d18_encode(D18_K_AU_BID, D18_FD, 0, 37)));
    assert_true(d18t_listed(&g, &s, d18_encode(D18_K_AU_BID, D18_FD, 0, 120)));
    assert_false(d18t_listed(&g, &s, d18_encode(D18_K_AU_BID, D18_FD, 0, 77)));
    /* ... while any legal amount is accepted. */
    assert_true(d18t_ok(&g, &s, D18_K_AU_BID, D18_FD, 0, 77));
    cr_action out[4096];
    int n = d18t_legal(&g, &s, out);
    assert_true(n <= 40);
}

/* R96: the associates carry the names of spec 9 (the seed's typos, such as
 * "Blundells" or "Blundell's", have no meaning), in price order (R8). */
static void test_R96_associate_names(void **unused)
{
    (void)unused;
    static const char *const names[D18_NASSOC] = {
        "Innsmouth Library", "Jekyl & Hyde",          "Church of the endless void",
        "Lupin's Lipids",    "Blundell Transfusions", "Molemen Inc.",
        "Flying Dutchman"};
    static const int price[D18_NASSOC] = {30, 50, 60, 80, 100, 115, 180};
    for (int a = 0; a < D18_NASSOC; a++) {
        assert_string_equal(d18_assoc_name[a], names[a]);
        assert_int_equal(d18_rule_assoc_price[a], price[a]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R96_associate_names),
        cmocka_unit_test(test_R5_R14_setup_money),
        cmocka_unit_test(test_R6_seating_is_the_only_chance_and_seat_at_0_opens),
        cmocka_unit_test(test_R9_bids),
        cmocka_unit_test(test_R10_chain_continues_left_of_the_purchaser),
        cmocka_unit_test(test_R11_contest),
        cmocka_unit_test(test_R12_all_pass_drops_price_and_pays_revenue),
        cmocka_unit_test(test_R13_R102_price_zero_only_buy),
        cmocka_unit_test(test_R15_innsmouth_owner_has_priority_in_sr1),
        cmocka_unit_test(test_amounts_menu_and_full_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
