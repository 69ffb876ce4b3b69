/* test_monsters.c — 18Dracula's monsters, phases and dividends on the test
 * market with a hand-built roster; every test names its rulings.
 *
 * Roster (type: phase, price, eaten on, movement, flags, copies):
 *   0 NUR: 0, 10, 4, home, nurse, 4      1 STL: 1, 100, 4, city 3, claw, 2
 *   2 GHO: 1, 80, 3, dit 2, -, 4         3 BAT: 2, 180, 4, major 3, fang, 3
 *   4 WLF: 3, 300, 5, dit 4, exempt, 2   5 DRC: 4, 500, -, major 5, -, 2
 *   6 LRD: 5, 700, -, inf, -, 2          7 IMP: 1, 40, 3, dit 2, killed_by_claw, 2
 * S(P) = 2 for phases 1-4; limits 3, 2, 2, 2, 2; releases: phase 2: 6
 * green; 3: 4 green 4 blue; 4: 3 blue 3 red; 5: 2 red. */
#include "games/18dracula/d18_test.h"

enum { NUR, STL, GHO, BAT, WLF, DRC, LRD, IMP, NT };

static void type(d18_board *b, int t, const char *id, int phase, int price, int eaten, int move,
                 int n, int cf, int flags, int copies)
{
    d18_monster *m = &b->monster[t];
    snprintf(m->id, sizeof m->id, "%s", id);
    m->phase = (uint8_t)phase;
    m->price = (int16_t)price;
    m->eaten = (uint8_t)eaten;
    m->move = (uint8_t)move;
    m->n = (uint8_t)n;
    m->cf = (uint8_t)cf;
    m->flags = (uint16_t)flags;
    m->copies = (uint8_t)copies;
    m->first_copy = b->n_copies;
    for (int i = 0; i < copies; i++) b->copy_type[b->n_copies + i] = (uint8_t)t;
    b->n_copies = (uint8_t)(b->n_copies + copies);
}

static cr_game roster_game(int np)
{
    cr_game g = d18t_game(np);
    d18_board *b = &d18t_board;
    type(b, NUR, "NUR", 0, 10, 4, D18_MOVE_HOME, 0, 0, D18_F_NURSE, 4);
    type(b, STL, "STL", 1, 100, 4, D18_MOVE_CITY, 3, D18_CF_CLAW, 0, 2);
    type(b, GHO, "GHO", 1, 80, 3, D18_MOVE_DIT, 2, 0, 0, 4);
    type(b, BAT, "BAT", 2, 180, 4, D18_MOVE_MAJOR, 3, D18_CF_FANG, 0, 3);
    type(b, WLF, "WLF", 3, 300, 5, D18_MOVE_DIT, 4, 0, D18_F_LIMIT_EXEMPT, 2);
    type(b, DRC, "DRC", 4, 500, 0, D18_MOVE_MAJOR, 5, 0, 0, 2);
    type(b, LRD, "LRD", 5, 700, 0, D18_MOVE_INF, 0, 0, 0, 2);
    type(b, IMP, "IMP", 1, 40, 3, D18_MOVE_DIT, 2, 0, D18_F_KILLED_BY_CLAW, 2);
    b->n_monsters = NT;
    b->ll.monster = STL;
    b->bt.monster = NUR;
    for (int p = 0; p < 4; p++) b->sales[p] = 2;
    static const uint8_t lim[5] = {3, 2, 2, 2, 2};
    for (int p = 0; p < 5; p++) b->limit[p] = lim[p], b->ors[p] = 1;
    b->release[1][D18_GREEN] = 6;
    b->release[2][D18_GREEN] = 4, b->release[2][D18_BLUE] = 4;
    b->release[3][D18_BLUE] = 3, b->release[3][D18_RED] = 3;
    b->release[4][D18_RED] = 2;
    return g;
}

/* A game in an operating round with front f floated and rich. */
static d18_state with_front(const cr_game *g, int f)
{
    d18_state s;
    d18t_sr(g, &s, 2, 0);
    s.stage = D18_S_OR;
    s.pres[f] = 0;
    s.held[f][0] = 6;
    s.ipo[f] = 4;
    s.par_idx[f] = 1;
    s.mrow[f] = 2, s.mcol[f] = 3;
    s.mseq[f] = ++s.seq;
    s.floated |= (uint8_t)(1u << f);
    s.treasury[f] = 3000;
    s.bank -= 3000;
    return s;
}

static int at(const d18_state *s, int copy) { return s->mon_at[copy]; }

static void test_R114_setup_and_nurses_for_bt_only(void **unused)
{
    (void)unused;
    cr_game g = roster_game(3);
    d18_state s = with_front(&g, 0);
    const d18_board *b = &d18t_board;
    assert_int_equal(at(&s, b->monster[STL].first_copy), D18_AT_ENTITY + D18_ENT_LL);
    assert_int_equal(at(&s, b->monster[NUR].first_copy), D18_AT_ENTITY + D18_ENT_BT);
    assert_int_equal(at(&s, b->monster[STL].first_copy + 1), D18_AT_BANK);
    assert_false(d18_bank_offers(&g, &s, 0, NUR));
    assert_true(d18_bank_offers(&g, &s, D18_ENT_BT, NUR));
    assert_false(d18_bank_offers(&g, &s, D18_ENT_BT, GHO));
    assert_false(d18_bank_offers(&g, &s, D18_ENT_LL, GHO));
    assert_true(d18_bank_offers(&g, &s, 0, GHO));
    /* BT's Nurse purchase never moves the tracker (R38). */
    s.minor_cash[1] = 30;
    d18_buy_bank(&g, &s, D18_ENT_BT, NUR);
    assert_int_equal(s.tracker, 0);
    assert_int_equal(s.minor_cash[1], 20);
    assert_int_equal(d18t_money(&s), D18_MONEY_TOTAL);
}

static void test_R37_R38_R39_tracker_and_availability(void **unused)
{
    (void)unused;
    cr_game g = roster_game(3);
    d18_state s = with_front(&g, 0);
    assert_int_equal(d18_offered_phase(&g, &s), 1);
    assert_false(d18_bank_offers(&g, &s, 0, BAT));
    d18_buy_bank(&g, &s, 0, GHO);
    assert_int_equal(s.tracker, 1);
    d18_buy_bank(&g, &s, 0, IMP);
    assert_int_equal(s.tracker, 2); /* the last space of phase 1 */
    assert_int_equal(d18_offered_phase(&g, &s), 2);
    assert_false(d18_bank_offers(&g, &s, 0, GHO)); /* R39: leftovers never again */
    assert_int_equal(d18_cheapest_offer(&g, &s, 0), 180);
    d18_buy_bank(&g, &s, 0, BAT); /* starts phase 2; not counted (R37) */
    assert_int_equal(s.phase, 2);
    assert_int_equal(s.tracker, 0);
    assert_int_equal(s.supply[D18_GREEN], 6); /* R43 */
    /* R39: a phase whose monsters ran out early offers the next at once. */
    d18_state t = with_front(&g, 1);
    for (int c = 0; c < d18t_board.n_copies; c++) {
        int ty = 0;
        for (int k = 0; k < NT; k++)
            if (c >= d18t_board.monster[k].first_copy) ty = k;
        if (d18t_board.monster[ty].phase == 1 && t.mon_at[c] == D18_AT_BANK)
            t.mon_at[c] = D18_AT_GONE;
    }
    assert_int_equal(d18_offered_phase(&g, &t), 2);
}

static void test_R41_R42_R43_R50_phase_change(void **unused)
{
    (void)unused;
    cr_game g = roster_game(3);
    d18_state s = with_front(&g, 0);
    const d18_board *b = &d18t_board;
    s.assoc_owner[D18_LL] = 1, s.assoc_owner[D18_BT] = 2, s.assoc_owner[D18_FD] = 1;
    s.assoc_owner[D18_IL] = 0;
    int gho0 = b->monster[GHO].first_copy;
    s.mon_at[gho0] = D18_AT_ENTITY + 0;
    s.mon_at[gho0 + 1] = D18_AT_MARKET;
    d18_new_phase(&g, &s, 3);
    for (int i = 0; i < 4; i++) assert_int_equal(at(&s, gho0 + i), D18_AT_GONE); /* R42 */
    assert_int_equal(s.supply[D18_BLUE], 4);
    assert_int_equal(s.assoc_closed, 0);
    d18_new_phase(&g, &s, 4);
    /* Associates close at phase 4, except FD; LL and BT leave the map, their
     * treasuries go to the bank and their monsters leave the game (R50). */
    assert_int_equal(s.assoc_closed, 0x3f);
    assert_int_equal(s.minor_cash[1], 0);
    assert_int_equal(at(&s, b->monster[STL].first_copy), D18_AT_GONE);
    assert_int_equal(s.space_occ[8][0], D18_OCC_EMPTY);
    assert_int_equal(s.space_occ[9][0], D18_OCC_EMPTY);
    assert_int_equal(d18t_money(&s), D18_MONEY_TOTAL);
}

static void test_R77_R119_claws_fangs_and_killed_by_claw(void **unused)
{
    (void)unused;
    cr_game g = roster_game(3);
    d18_state s = with_front(&g, 0);
    const d18_board *b = &d18t_board;
    d18_buy_bank(&g, &s, 0, IMP);
    d18_buy_bank(&g, &s, 0, IMP); /* two IMPs: the limit is 3 */
    assert_true(d18_may_acquire(&g, &s, 0, STL));
    d18_acquire(&g, &s, 0, b->monster[STL].first_copy + 1);
    /* The claw removes the IMPs (after the checks, R119). */
    assert_int_equal(d18_owned(&g, &s, 0, 0), 1);
    assert_int_equal(at(&s, b->monster[IMP].first_copy), D18_AT_GONE);
    /* A claw owner may not acquire a fang, from any source. */
    assert_false(d18_may_acquire(&g, &s, 0, BAT));
    d18_state t = with_front(&g, 1);
    s.mon_at[b->monster[BAT].first_copy] = D18_AT_ENTITY + 1;
    assert_false(d18_may_acquire(&g, &s, 1, STL));
    (void)t;
}

/* Checks R78, R79, R115 and R124. */
static void test_R78_R79_R115_R124_limit_and_discard_order(void **unused)
{
    (void)unused;
    cr_game g = roster_game(3);
    d18_state s = with_front(&g, 0);
    /* Front 1 too, below front 0 in operating order. */
    s.pres[1] = 1, s.held[1][1] = 6, s.ipo[1] = 4, s.par_idx[1] = 1;
    s.mrow[1] = 4, s.mcol[1] = 3, s.mseq[1] = ++s.seq;
    s.floated |= 2;
    d18_buy_bank(&g, &s, 0, GHO);
    d18_buy_bank(&g, &s, 0, GHO);
    s.mon_at[d18t_board.monster[GHO].first_copy + 2] = D18_AT_ENTITY + 1;
    s.mon_at[d18t_board.monster[GHO].first_copy + 3] = D18_AT_ENTITY + 1;
    /* R124: F0 holds 2 of 3; buying the first phase-2 monster is legal
     * under phase 1's limit, then phase 2's limit (2) applies. */
    assert_int_equal(d18_offered_phase(&g, &s), 2);
    assert_true(d18_may_acquire(&g, &s, 0, BAT));
    s.op_front = 1; /* F1 is operating: it discards first (R115) */
    d18_buy_bank(&g, &s, 0, BAT);
    assert_int_equal(s.phase, 2);
    assert_true(d18_over_monster_limit(&g, &s, 0));
    assert_false(d18_over_monster_limit(&g, &s, 1)); /* 2 of 2 */
    assert_int_equal(d18_next_discarder(&g, &s), 0);
    /* A limit-exempt monster does not count (R78). */
    s.mon_at[d18t_board.monster[GHO].first_copy] = D18_AT_MARKET;
    assert_int_equal(d18_next_discarder(&g, &s), -1);
    s.mon_at[d18t_board.monster[WLF].first_copy] = D18_AT_ENTITY + 0;
    assert_int_equal(d18_next_discarder(&g, &s), -1);
    assert_true(d18_may_acquire(&g, &s, 0, WLF));
    /* Order: the operating front, then operating order, then LL, BT. */
    s.mon_at[d18t_board.monster[GHO].first_copy] = D18_AT_ENTITY + 0;
    s.mon_at[d18t_board.monster[IMP].first_copy] = D18_AT_ENTITY + 1;
    assert_int_equal(d18_next_discarder(&g, &s), 1);
    s.op_front = -1;
    assert_int_equal(d18_next_discarder(&g, &s), 0);
}

static void test_R71_R72_R73_R126_dividends(void **unused)
{
    (void)unused;
    cr_game g = roster_game(3);
    d18_state s = with_front(&g, 0); /* at (2,3): 100 */
    s.held[0][1] = 2, s.ipo[0] = 1, s.pool[0] = 1;
    int c0 = s.cash[0], c1 = s.cash[1], tr = s.treasury[0];
    d18_dividend(&g, &s, 0, 95, 1); /* R72: 9 a share */
    assert_int_equal(s.cash[0], c0 + 54);
    assert_int_equal(s.cash[1], c1 + 18);
    assert_int_equal(s.treasury[0], tr + 9); /* the market share pays the front */
    assert_int_equal(s.mcol[0], 4);          /* right */
    d18_dividend(&g, &s, 0, 120, 0);         /* retain */
    assert_int_equal(s.treasury[0], tr + 9 + 120);
    assert_int_equal(s.mcol[0], 3);
    d18_dividend(&g, &s, 0, 0, 1); /* R71: nothing earned retains */
    assert_int_equal(s.mcol[0], 2);
    s.mcol[0] = 0;
    d18_dividend(&g, &s, 0, 0, 0); /* R73: at the left edge it stays */
    assert_int_equal(s.mcol[0], 0);
    assert_int_equal(s.mrow[0], 2);
    s.mcol[0] = 7;
    d18_dividend(&g, &s, 0, 5, 1); /* R126: pays 0 a share, moves (up: no right) */
    assert_int_equal(s.mrow[0], 1);
    assert_int_equal(s.cash[0], c0 + 54);
    s.mrow[0] = 0;
    d18_dividend(&g, &s, 0, 50, 1); /* neither right nor up: stays */
    assert_int_equal(s.mrow[0], 0);
    assert_int_equal(s.mcol[0], 7);
    assert_int_equal(d18t_money(&s), D18_MONEY_TOTAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R114_setup_and_nurses_for_bt_only),
        cmocka_unit_test(test_R37_R38_R39_tracker_and_availability),
        cmocka_unit_test(test_R41_R42_R43_R50_phase_change),
        cmocka_unit_test(test_R77_R119_claws_fangs_and_killed_by_claw),
        cmocka_unit_test(test_R78_R79_R115_R124_limit_and_discard_order),
        cmocka_unit_test(test_R71_R72_R73_R126_dividends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
