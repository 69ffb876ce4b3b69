/* test_assoc.c — associates in 18Dracula's operating rounds, on the bundled
 * board: fronts buying associates from players (8.12), Lupin's Lipids and
 * Blundell Transfusions merging into a front (8.4), the powers of Jekyl &
 * Hyde, the Church of the endless void and Molemen Inc. (9), and the
 * Flying Dutchman in the rampage.  Each test names the rulings it checks.
 * Positions are made by hand from a seated game, moving money only between
 * the bank and an account; every action goes through the game's legality
 * check and is followed by the invariants (money and certificates
 * conserved).  The last test plays random games and counts the new
 * actions, so the conformance suite's random play is known to reach them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "games/18dracula/d18_internal.h"

enum { NBC, VCC, SAN };

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

static const d18_board *B(void) { return d18_brd(G); }
static int loc(const char *id) { return d18_board_find_location(B(), id); }
static int mon(const char *id) { return d18_board_find_monster(B(), id); }
static int route(const char *a, const char *b) { return d18_board_find_route(B(), loc(a), loc(b)); }

static void move_money(d18_state *s, int32_t *to, int amt) /* bank -> account */
{
    s->bank -= amt;
    *to += amt;
}

static void check(const d18_state *s)
{
    char err[200];
    if (d18_check_invariants(G, s, err, sizeof err)) fail_msg("%s", err);
}

static void seated(d18_state *s)
{
    G->def->init(G, s);
    G->def->apply(G, s, d18_encode(D18_K_SEAT, 0, 0, 0), CX);
    s->priority = 0;
}

/* Phase 2 as a phase change leaves it: its cubes released (R43). */
static void phase2(d18_state *s)
{
    s->phase = 2;
    for (int c = 0; c < D18_NUM_COLOURS; c++) s->supply[c] += B()->release[1][c];
}

/* Front f started by p with 6 shares, floated, its home office placed. */
static void front(d18_state *s, int f, int p)
{
    s->pres[f] = (int8_t)p;
    s->held[f][p] = 6;
    s->ipo[f] = D18_SHARES - 6;
    s->par_idx[f] = 0;
    s->mrow[f] = (int8_t)B()->par_row[0];
    s->mcol[f] = (int8_t)B()->par_col[0];
    s->mseq[f] = ++s->seq;
    s->floated |= (uint8_t)(1u << f);
    s->space_occ[B()->front[f].home][B()->front[f].home_space] = (int8_t)f;
    s->offices_used[f] = 1;
}

/* f's turn at `step` in an operating round. */
static void turn(d18_state *s, int f, int step)
{
    s->stage = D18_S_OR;
    s->op_ent = s->op_front = (int8_t)f;
    s->operated = (uint8_t)(1u << f);
    s->minors_done = 3;
    s->or_step = (uint8_t)step;
    s->ors_in_set = 1;
}

/* A bank copy of monster type t goes to entity e. */
static void give(d18_state *s, int e, int t)
{
    int c = d18_bank_copy(G, s, t);
    assert_true(c >= 0);
    s->mon_at[c] = (uint8_t)(D18_AT_ENTITY + e);
}

static int ok(const d18_state *s, int kind, int o1, int o2, int amt)
{
    return d18_is_legal(G, s, d18_encode(kind, o1, o2, amt));
}

static int listed(const d18_state *s, int kind, int o1, int o2, int amt)
{
    cr_action out[D18_MAX_LEGAL];
    int n = G->def->legal_actions(G, s, out, CX);
    cr_action a = d18_encode(kind, o1, o2, amt);
    int found = 0;
    for (int i = 0; i < n; i++) {
        assert_true(d18_is_legal(G, s, out[i]));
        if (i) assert_true(out[i - 1] < out[i]);
        found |= out[i] == a;
    }
    return found;
}

static void act(d18_state *s, int kind, int o1, int o2, int amt)
{
    assert_true(ok(s, kind, o1, o2, amt));
    G->def->apply(G, s, d18_encode(kind, o1, o2, amt), CX);
    check(s);
}

/* ---- fronts buying associates (8.12) ---- */

static void test_R85_R118_front_buys_an_associate_in_any_step(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 500);
    s.assoc_owner[D18_JH] = 1;
    turn(&s, NBC, D18_OS_BUILD);
    assert_false(ok(&s, D18_K_OFFER_AF, D18_JH, 0, 50)); /* R85: not in phase 1 */
    phase2(&s);
    check(&s);
    /* Every step of the turn, before buy_done (R118). */
    for (int step = D18_OS_BUILD; step <= D18_OS_BUY; step++) {
        s.or_step = (uint8_t)step;
        assert_true(listed(&s, D18_K_OFFER_AF, D18_JH, 0, 1));
        assert_true(listed(&s, D18_K_OFFER_AF, D18_JH, 0, 100)); /* twice the printed 50 */
    }
    s.or_step = D18_OS_BUILD;
    assert_true(ok(&s, D18_K_OFFER_AF, D18_JH, 0, 37)); /* any amount in range */
    assert_false(ok(&s, D18_K_OFFER_AF, D18_JH, 0, 101));
    assert_false(ok(&s, D18_K_OFFER_AF, D18_JH, 0, 0));
    assert_false(ok(&s, D18_K_OFFER_AF, D18_IL, 0, 10)); /* unsold: nobody to sell it */
    /* The price may not exceed the treasury. */
    d18_state t = s;
    move_money(&t, &t.treasury[NBC], -460);
    assert_true(ok(&t, D18_K_OFFER_AF, D18_JH, 0, 40));
    assert_false(ok(&t, D18_K_OFFER_AF, D18_JH, 0, 41));
    assert_false(listed(&t, D18_K_OFFER_AF, D18_JH, 0, 100));
    /* The owner answers; the treasury pays the seller. */
    int cash = s.cash[1], tr = s.treasury[NBC];
    act(&s, D18_K_OFFER_AF, D18_JH, 0, 75);
    assert_int_equal(s.stage, D18_S_OR_AOFFER);
    assert_int_equal(G->def->current_player(G, &s), 1);
    assert_false(ok(&s, D18_K_BUILD_DONE, 0, 0, 0));
    act(&s, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(s.assoc_owner[D18_JH], D18_OWN_FRONT + NBC);
    assert_int_equal(s.cash[1], cash + 75);
    assert_int_equal(s.treasury[NBC], tr - 75);
    assert_int_equal(s.stage, D18_S_OR);
    assert_int_equal(G->def->current_player(G, &s), 0);
    /* A front's associate is never sold again, and it pays the front. */
    assert_false(ok(&s, D18_K_OFFER_AF, D18_JH, 0, 10));
    /* Not after buy_done, and never in LL's turn. */
    s.assoc_owner[D18_MI] = 2;
    s.or_step = D18_OS_BUY;
    give(&s, NBC, mon("GHL"));
    assert_true(ok(&s, D18_K_OFFER_AF, D18_MI, 0, 10));
    act(&s, D18_K_BUY_DONE, 0, 0, 0);
    assert_true(s.op_front != NBC);
    assert_false(ok(&s, D18_K_OFFER_AF, D18_MI, 0, 10));
}

static void test_R97_a_declined_offer_is_not_repeated_in_the_turn(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 500);
    s.assoc_owner[D18_JH] = 1;
    s.assoc_owner[D18_MI] = 1;
    turn(&s, NBC, D18_OS_BUILD);
    act(&s, D18_K_OFFER_AF, D18_JH, 0, 20);
    act(&s, D18_K_DECLINE, 0, 0, 0);
    assert_int_equal(s.assoc_owner[D18_JH], 1);
    assert_int_equal(s.stage, D18_S_OR);
    assert_false(ok(&s, D18_K_OFFER_AF, D18_JH, 0, 100)); /* whatever the price */
    assert_false(listed(&s, D18_K_OFFER_AF, D18_JH, 0, 1));
    assert_true(ok(&s, D18_K_OFFER_AF, D18_MI, 0, 20)); /* another associate */
    /* The next turn may offer again. */
    give(&s, NBC, mon("GHL"));
    s.or_step = D18_OS_BUY;
    act(&s, D18_K_BUY_DONE, 0, 0, 0);
    turn(&s, NBC, D18_OS_BUILD);
    s.declined_af = 0; /* as begin_turn leaves it */
    assert_true(ok(&s, D18_K_OFFER_AF, D18_JH, 0, 100));
}

/* ---- LL and BT merging (8.4) ---- */

static void test_R49_R70_R125_ll_merges_into_the_buying_front(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_LL] = 1;
    move_money(&s, &s.minor_cash[0], 25);
    d18_place_cube(G, &s, route("RAV", "HOL"), D18_YELLOW);
    d18_place_cube(G, &s, route("HOL", "BAL"), D18_YELLOW);
    turn(&s, NBC, D18_OS_RAMPAGE);
    int stc = mon("STC"), tr = s.treasury[NBC];
    act(&s, D18_K_OFFER_AF, D18_LL, 0, 160);
    act(&s, D18_K_ACCEPT, 0, 0, 0);
    /* R49: the treasury and Steelclaw pass; LL counts as closed. */
    assert_int_equal(s.treasury[NBC], tr - 160 + 25);
    assert_int_equal(s.minor_cash[0], 0);
    assert_true(d18_copy_at(G, &s, stc, D18_AT_ENTITY + NBC) >= 0);
    assert_true(s.assoc_closed >> D18_LL & 1);
    /* The office in Balath: keep it as NBC's next office, free. */
    assert_int_equal(s.stage, D18_S_MERGE);
    assert_int_equal(G->def->current_player(G, &s), 0);
    assert_true(listed(&s, D18_K_MERGE_KEEP, 0, 0, 0));
    assert_true(listed(&s, D18_K_MERGE_REMOVE, 0, 0, 0));
    tr = s.treasury[NBC];
    act(&s, D18_K_MERGE_KEEP, 0, 0, 0);
    assert_int_equal(s.space_occ[loc("BAL")][B()->ll.space], NBC);
    assert_int_equal(s.offices_used[NBC], 2);
    assert_int_equal(s.treasury[NBC], tr);
    assert_int_equal(s.stage, D18_S_OR);
    /* R70: Steelclaw does not run for NBC in this OR (Balath-Ravenspire
     * would earn 50). */
    act(&s, D18_K_RAMPAGE, 0, 0, 0);
    assert_int_equal(s.revenue, 0);
    /* In the next OR it runs: Balath 20 + Ravenspire 30. */
    memset(s.mon_fresh, 0, sizeof s.mon_fresh);
    assert_int_equal(d18_rampage(G, &s, NBC, CX), 50);
    /* LL no longer operates. */
    assert_int_equal(d18_owner_of(&s, D18_ENT_LL), -1);
}

static void test_R101_R125_merge_over_the_limit_discards_after_the_offices(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_LL] = 1;
    for (int i = 0; i < 5; i++) give(&s, NBC, mon("GHL")); /* at the phase-2 limit of 5 */
    turn(&s, NBC, D18_OS_BUY);
    assert_false(d18_may_acquire(G, &s, NBC, mon("GHL")));
    assert_true(ok(&s, D18_K_OFFER_AF, D18_LL, 0, 1)); /* the limit does not forbid it */
    act(&s, D18_K_OFFER_AF, D18_LL, 0, 1);
    act(&s, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(d18_owned(G, &s, NBC, 1), 6);
    assert_int_equal(s.stage, D18_S_MERGE); /* the offices first (R125) */
    assert_false(ok(&s, D18_K_DISCARD, mon("GHL"), 0, 0));
    act(&s, D18_K_MERGE_REMOVE, 0, 0, 0);
    assert_int_equal(s.space_occ[loc("BAL")][B()->ll.space], D18_OCC_EMPTY);
    assert_int_equal(s.offices_used[NBC], 1);
    assert_int_equal(s.stage, D18_S_DISCARD); /* then the discards */
    assert_int_equal(G->def->current_player(G, &s), 0);
    act(&s, D18_K_DISCARD, mon("STC"), 0, 0);
    assert_int_equal(d18_owned(G, &s, NBC, 1), 5);
    assert_int_equal(s.stage, D18_S_OR);
}

static void test_R77_R119_claw_and_fang_forbid_buying_ll(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_LL] = 1;
    s.assoc_owner[D18_BT] = 2;
    give(&s, NBC, mon("REV")); /* a fang */
    turn(&s, NBC, D18_OS_BUY);
    assert_false(ok(&s, D18_K_OFFER_AF, D18_LL, 0, 100)); /* Steelclaw has a claw */
    assert_false(listed(&s, D18_K_OFFER_AF, D18_LL, 0, 1));
    assert_true(ok(&s, D18_K_OFFER_AF, D18_BT, 0, 100)); /* a Nurse has neither */
    /* A claw with a claw is fine. */
    d18_state t;
    seated(&t);
    phase2(&t);
    front(&t, NBC, 0);
    move_money(&t, &t.treasury[NBC], 300);
    t.assoc_owner[D18_LL] = 1;
    give(&t, NBC, mon("WWF"));
    turn(&t, NBC, D18_OS_BUY);
    assert_true(ok(&t, D18_K_OFFER_AF, D18_LL, 0, 100));
}

static void test_R119_killed_by_claw_leaves_when_ll_brings_a_claw(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_LL] = 1;
    give(&s, NBC, mon("FAM")); /* killed_by_claw */
    give(&s, NBC, mon("GHL"));
    turn(&s, NBC, D18_OS_BUY);
    act(&s, D18_K_OFFER_AF, D18_LL, 0, 50);
    act(&s, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(d18_copy_at(G, &s, mon("FAM"), D18_AT_ENTITY + NBC), -1);
    assert_true(d18_copy_at(G, &s, mon("FAM"), D18_AT_GONE) >= 0);
    assert_true(d18_copy_at(G, &s, mon("GHL"), D18_AT_ENTITY + NBC) >= 0);
    assert_true(d18_copy_at(G, &s, mon("STC"), D18_AT_ENTITY + NBC) >= 0);
}

static void test_R101_R110_bt_offices_in_placement_order(void **unused)
{
    (void)unused;
    int rav = loc("RAV"), blk = loc("BLK");
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_BT] = 2;
    /* BT's second office is in Ravenspire, where NBC has its home. */
    s.space_occ[rav][1] = D18_ENT_BT;
    s.bt_offices = 2;
    check(&s);
    turn(&s, NBC, D18_OS_BUY);
    give(&s, NBC, mon("GHL"));
    act(&s, D18_K_OFFER_AF, D18_BT, 0, 200);
    act(&s, D18_K_ACCEPT, 0, 0, 0);
    /* The start office (Blackford) is asked about first. */
    assert_int_equal(s.stage, D18_S_MERGE);
    act(&s, D18_K_MERGE_KEEP, 0, 0, 0);
    assert_int_equal(s.space_occ[blk][B()->bt.space], NBC);
    /* The second cannot be kept (NBC is in Ravenspire): removed unasked. */
    assert_int_equal(s.stage, D18_S_OR);
    assert_int_equal(s.space_occ[rav][1], D18_OCC_EMPTY);
    assert_int_equal(s.offices_used[NBC], 2);
    assert_int_equal(s.minor_cash[1], 0);

    /* A face-down Church token counts as an office in the city (R110). */
    d18_state t;
    seated(&t);
    phase2(&t);
    front(&t, NBC, 0);
    move_money(&t, &t.treasury[NBC], 300);
    t.assoc_owner[D18_BT] = 2;
    t.space_occ[blk][2] = D18_OCC_DOWN + NBC; /* Blackford's green space */
    t.offices_used[NBC] = 2;
    check(&t);
    turn(&t, NBC, D18_OS_BUY);
    give(&t, NBC, mon("GHL"));
    act(&t, D18_K_OFFER_AF, D18_BT, 0, 200);
    act(&t, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(t.stage, D18_S_OR);
    assert_int_equal(t.space_occ[blk][B()->bt.space], D18_OCC_EMPTY);

    /* No unused office: removed. */
    d18_state u;
    seated(&u);
    phase2(&u);
    front(&u, NBC, 0);
    move_money(&u, &u.treasury[NBC], 300);
    u.assoc_owner[D18_LL] = 2;
    u.space_occ[loc("VES")][1] = NBC;
    u.space_occ[loc("GAL")][1] = NBC;
    u.space_occ[loc("KEI")][1] = NBC;
    u.offices_used[NBC] = 4;
    check(&u);
    turn(&u, NBC, D18_OS_BUY);
    give(&u, NBC, mon("GHL"));
    act(&u, D18_K_OFFER_AF, D18_LL, 0, 10);
    act(&u, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(u.stage, D18_S_OR);
    assert_int_equal(u.space_occ[loc("BAL")][B()->ll.space], D18_OCC_EMPTY);
}

static void test_R114_a_front_with_bt_buys_no_nurses(void **unused)
{
    (void)unused;
    int nur = mon("NUR");
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    front(&s, VCC, 1);
    move_money(&s, &s.treasury[NBC], 300);
    move_money(&s, &s.treasury[VCC], 300);
    s.assoc_owner[D18_BT] = 2;
    s.mon_at[d18_bank_copy(G, &s, nur)] = D18_AT_MARKET; /* a discarded Nurse */
    turn(&s, NBC, D18_OS_BUY);
    act(&s, D18_K_OFFER_AF, D18_BT, 0, 100);
    act(&s, D18_K_ACCEPT, 0, 0, 0);
    act(&s, D18_K_MERGE_REMOVE, 0, 0, 0);
    assert_true(d18_copy_at(G, &s, nur, D18_AT_ENTITY + NBC) >= 0);
    assert_false(ok(&s, D18_K_BUY_BANK, nur, 0, 0));
    assert_false(ok(&s, D18_K_BUY_MKT, nur, 0, 0));
    /* Nor does any other front get NBC's Nurse. */
    act(&s, D18_K_BUY_DONE, 0, 0, 0);
    turn(&s, VCC, D18_OS_BUY);
    assert_false(ok(&s, D18_K_OFFER_MON, NBC, nur, 10));
}

/* ---- powers (9) ---- */

static void test_R87_R36_jekyl_and_hyde(void **unused)
{
    (void)unused;
    int ravhol = route("RAV", "HOL"), ashcry = route("ASH", "CRY"), pikmrt = route("PIK", "MRT");
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 10);
    s.assoc_owner[D18_JH] = D18_OWN_FRONT + NBC;
    uint32_t rav0 = s.slots[loc("RAV")], hol0 = s.slots[loc("HOL")];
    d18_place_cube(G, &s, ravhol, D18_YELLOW);
    turn(&s, NBC, D18_OS_BUILD);
    /* Remove: a placed yellow cube; not a pre-existing connection, not the
     * castle's space. */
    assert_true(listed(&s, D18_K_JH_REMOVE, ravhol, 0, 0));
    assert_false(ok(&s, D18_K_JH_REMOVE, route("FRG", "RAV"), 0, 0));
    d18_state c = s;
    c.castle = (uint8_t)ravhol;
    assert_false(ok(&c, D18_K_JH_REMOVE, ravhol, 0, 0));
    /* Add: anywhere the required colour is yellow, no connection needed,
     * the printed cost paid. */
    assert_false(d18_can_build(G, &s, NBC, pikmrt, 0));
    assert_true(listed(&s, D18_K_JH_ADD, pikmrt, 0, 0));
    assert_false(ok(&s, D18_K_JH_ADD, ashcry, 0, 0));              /* costs 20 > 10 */
    assert_false(ok(&s, D18_K_JH_ADD, route("OWL", "GAL"), 0, 0)); /* fixed green */
    d18_state e = s; /* an empty yellow supply: nothing to add */
    e.supply[D18_YELLOW] = 0;
    assert_false(ok(&e, D18_K_JH_ADD, pikmrt, 0, 0));
    /* Using it to remove: the cube returns, the slots reopen, JH closes;
     * the build allowance is untouched. */
    int supply = s.supply[D18_YELLOW];
    act(&s, D18_K_JH_REMOVE, ravhol, 0, 0);
    assert_int_equal(s.cube[ravhol], D18_CUBE_NONE);
    assert_int_equal(s.supply[D18_YELLOW], supply + 1);
    assert_int_equal(s.slots[loc("RAV")], rav0);
    assert_int_equal(s.slots[loc("HOL")], hol0);
    assert_true(s.assoc_closed >> D18_JH & 1);
    assert_int_equal(s.build_used, 0);
    assert_false(ok(&s, D18_K_JH_ADD, pikmrt, 0, 0)); /* used: closed */
    /* Adding, in another game: pays the cost. */
    d18_state t;
    seated(&t);
    phase2(&t);
    front(&t, NBC, 0);
    move_money(&t, &t.treasury[NBC], 30);
    t.assoc_owner[D18_JH] = D18_OWN_FRONT + NBC;
    turn(&t, NBC, D18_OS_DIVIDEND);
    t.revenue = 10;
    act(&t, D18_K_JH_ADD, ashcry, 0, 0);
    assert_int_equal(t.cube[ashcry], D18_YELLOW + 1);
    assert_int_equal(t.treasury[NBC], 10);
    assert_true(t.assoc_closed >> D18_JH & 1);
    assert_int_equal(t.or_step, D18_OS_DIVIDEND);
}

static void test_R86_powers_only_in_the_owning_fronts_turn(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    front(&s, VCC, 1);
    move_money(&s, &s.treasury[NBC], 300);
    move_money(&s, &s.treasury[VCC], 300);
    s.assoc_owner[D18_MI] = D18_OWN_FRONT + NBC;
    turn(&s, VCC, D18_OS_BUILD);
    assert_false(ok(&s, D18_K_MOLEMEN, loc("DRA"), 0, 0));
    turn(&s, NBC, D18_OS_BUILD);
    assert_true(ok(&s, D18_K_MOLEMEN, loc("MOR"), 0, 0));
    s.stage = D18_S_SR;
    s.actor = 0;
    s.sr_no = 3;
    assert_false(ok(&s, D18_K_MOLEMEN, loc("MOR"), 0, 0));
}

static void test_R88_R110_church_of_the_endless_void(void **unused)
{
    (void)unused;
    int blk = loc("BLK"), ovl = loc("OVL");
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_CV] = D18_OWN_FRONT + NBC;
    s.assoc_owner[D18_BT] = 2;
    d18_place_cube(G, &s, route("RAV", "HOL"), D18_YELLOW);
    d18_place_cube(G, &s, route("HOL", "BLK"), D18_YELLOW);
    d18_place_cube(G, &s, route("BLK", "SAD"), D18_YELLOW);
    d18_place_cube(G, &s, route("SAD", "OVL"), D18_YELLOW);
    turn(&s, NBC, D18_OS_BUILD);
    /* Reached cities with a space not yet available. */
    assert_true(listed(&s, D18_K_CHURCH, blk, 0, 0));
    assert_true(listed(&s, D18_K_CHURCH, ovl, 0, 0));
    assert_false(ok(&s, D18_K_CHURCH, loc("DRA"), 0, 0)); /* not reached */
    assert_false(ok(&s, D18_K_CHURCH, loc("MOR"), 0, 0)); /* no such space */
    assert_false(ok(&s, D18_K_CHURCH, loc("RAV"), 0, 0)); /* NBC's office is there */
    /* Overlook (Y G R): the lowest band not yet available, green. */
    d18_state o = s;
    act(&o, D18_K_CHURCH, ovl, 0, 0);
    assert_int_equal(o.space_occ[ovl][1], D18_OCC_DOWN + NBC);
    assert_int_equal(o.space_occ[ovl][2], D18_OCC_EMPTY);
    /* Blackford (Y Y G): its green space, for the next office's cost. */
    int tr = s.treasury[NBC];
    act(&s, D18_K_CHURCH, blk, 0, 0);
    assert_int_equal(s.space_occ[blk][2], D18_OCC_DOWN + NBC);
    assert_int_equal(s.treasury[NBC], tr - 40);
    assert_int_equal(s.offices_used[NBC], 2);
    assert_true(s.assoc_closed >> D18_CV & 1);
    /* Face down it is no office: not for blocking (with Blackford's yellow
     * spaces taken, it is blocked for NBC), routes or the rampage; but NBC
     * may place no other office there. */
    s.space_occ[blk][1] = VCC;
    front(&s, VCC, 1);
    s.space_occ[B()->front[VCC].home][B()->front[VCC].home_space] = D18_OCC_EMPTY;
    s.offices_used[VCC] = 1;
    assert_false(d18_has_office(G, &s, NBC, blk));
    assert_true(d18_blocked(G, &s, NBC, blk));
    s.or_step = D18_OS_OFFICE;
    assert_false(d18_can_place_office(G, &s, NBC, blk));
    /* A green cube at Blackford, in anyone's turn: the token turns face
     * up at once and is an ordinary office. */
    d18_place_cube(G, &s, route("BLK", "KEI"), D18_GREEN);
    assert_int_equal(s.space_occ[blk][2], NBC);
    assert_true(d18_has_office(G, &s, NBC, blk));
    assert_false(d18_blocked(G, &s, NBC, blk));
    /* The reservation outlived CV's closing; no second use. */
    assert_false(ok(&s, D18_K_CHURCH, ovl, 0, 0));
}

static void test_R89_R109_molemen(void **unused)
{
    (void)unused;
    int fel = loc("FEL"), mor = loc("MOR");
    d18_state s;
    seated(&s);
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_MI] = D18_OWN_FRONT + NBC;
    turn(&s, NBC, D18_OS_RAMPAGE);
    /* Unconnected; Fellhaven's first space is FMW's home (R109). */
    assert_false(d18_can_place_office(G, &s, NBC, fel));
    assert_true(listed(&s, D18_K_MOLEMEN, fel, 0, 0));
    assert_false(ok(&s, D18_K_MOLEMEN, loc("RAV"), 0, 0)); /* NBC is there */
    assert_false(ok(&s, D18_K_MOLEMEN, loc("HOL"), 0, 0)); /* a town */
    d18_state t = s;
    t.space_occ[mor][0] = D18_OCC_DOWN + NBC; /* a face-down token: one per city */
    t.offices_used[NBC] = 2;
    assert_false(ok(&t, D18_K_MOLEMEN, mor, 0, 0));
    int tr = s.treasury[NBC];
    act(&s, D18_K_MOLEMEN, fel, 0, 0);
    assert_int_equal(s.space_occ[fel][0], D18_OCC_EMPTY);
    assert_int_equal(s.space_occ[fel][1], NBC);
    assert_int_equal(s.treasury[NBC], tr - 40);
    assert_int_equal(s.offices_used[NBC], 2);
    assert_true(s.assoc_closed >> D18_MI & 1);
    assert_int_equal(s.or_step, D18_OS_RAMPAGE); /* in addition to the office step */
    assert_false(ok(&s, D18_K_MOLEMEN, mor, 0, 0));
    /* Without the money for the next office: refused. */
    d18_state u;
    seated(&u);
    phase2(&u);
    front(&u, NBC, 0);
    move_money(&u, &u.treasury[NBC], 39);
    u.assoc_owner[D18_MI] = D18_OWN_FRONT + NBC;
    turn(&u, NBC, D18_OS_BUILD);
    assert_false(ok(&u, D18_K_MOLEMEN, fel, 0, 0));
}

static void test_R90_R116_flying_dutchman_doubles_an_fd_offboard(void **unused)
{
    (void)unused;
    d18_state s;
    seated(&s);
    front(&s, NBC, 0);
    d18_place_cube(G, &s, route("RAV", "HEL"), D18_YELLOW);
    give(&s, NBC, mon("BAT")); /* dit 3, export, towns 10 */
    /* Helifax 30 + Ravenspire 30 + Frostgallow 10. */
    s.assoc_owner[D18_FD] = 1; /* a player's: no effect */
    assert_int_equal(d18_rampage(G, &s, NBC, CX), 70);
    s.assoc_owner[D18_FD] = D18_OWN_FRONT + VCC; /* another front's */
    assert_int_equal(d18_rampage(G, &s, NBC, CX), 70);
    s.assoc_owner[D18_FD] = D18_OWN_FRONT + NBC; /* Helifax once more */
    assert_int_equal(d18_rampage(G, &s, NBC, CX), 100);
    /* Wolfmarch is an off-board without the fd flag: not doubled. */
    d18_state t;
    seated(&t);
    front(&t, VCC, 0);
    d18_place_cube(G, &t, route("GAL", "HAG"), D18_YELLOW);
    d18_place_cube(G, &t, route("WLF", "HAG"), D18_YELLOW);
    give(&t, VCC, mon("BAT"));
    int plain = d18_rampage(G, &t, VCC, CX);
    t.assoc_owner[D18_FD] = D18_OWN_FRONT + VCC;
    assert_int_equal(d18_rampage(G, &t, VCC, CX), plain);
}

/* ---- text and positions ---- */

static void test_notation_and_positions_of_the_new_decisions(void **unused)
{
    (void)unused;
    const cr_action acts[] = {
        d18_encode(D18_K_OFFER_AF, D18_LL, 0, 160),  d18_encode(D18_K_MERGE_KEEP, 0, 0, 0),
        d18_encode(D18_K_MERGE_REMOVE, 0, 0, 0),     d18_encode(D18_K_JH_REMOVE, 3, 0, 0),
        d18_encode(D18_K_JH_ADD, 7, 0, 0),           d18_encode(D18_K_CHURCH, loc("BLK"), 0, 0),
        d18_encode(D18_K_MOLEMEN, loc("FEL"), 0, 0),
    };
    d18_state s;
    seated(&s);
    char buf[128];
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) {
        G->def->action_to_str(G, &s, acts[i], buf, sizeof buf);
        cr_action back = -1;
        assert_int_equal(G->def->str_to_action(G, &s, buf, &back), CR_OK);
        assert_int_equal(back, acts[i]);
    }
    G->def->action_to_str(G, &s, acts[0], buf, sizeof buf);
    assert_string_equal(buf, "front-offer LL 160");
    G->def->action_to_str(G, &s, acts[6], buf, sizeof buf);
    assert_string_equal(buf, "molemen FEL");
    cr_action a;
    assert_int_not_equal(G->def->str_to_action(G, &s, "church NOWHERE", &a), CR_OK);
    assert_int_not_equal(G->def->str_to_action(G, &s, "front-offer XX 3", &a), CR_OK);

    /* A position in the middle of a merger saves and loads back. */
    phase2(&s);
    front(&s, NBC, 0);
    move_money(&s, &s.treasury[NBC], 300);
    s.assoc_owner[D18_LL] = 1;
    turn(&s, NBC, D18_OS_BUY);
    give(&s, NBC, mon("GHL"));
    act(&s, D18_K_OFFER_AF, D18_LL, 0, 100);
    char *text = malloc(1 << 16);
    assert_non_null(text);
    size_t len = G->def->serialize(G, &s, text, 1 << 16);
    d18_state back;
    char err[200];
    assert_int_equal(d18_deserialize(G, &back, text, len, err, sizeof err), CR_OK);
    assert_memory_equal(&back, &s, sizeof s);
    act(&s, D18_K_ACCEPT, 0, 0, 0);
    assert_int_equal(s.stage, D18_S_MERGE);
    len = G->def->serialize(G, &s, text, 1 << 16);
    assert_int_equal(d18_deserialize(G, &back, text, len, err, sizeof err), CR_OK);
    assert_memory_equal(&back, &s, sizeof s);
    /* A merger with nothing to merge is refused by the loader. */
    char *p = strstr(text, "\"merge_next\":0");
    assert_non_null(p);
    p[strlen("\"merge_next\":")] = '1';
    assert_int_not_equal(d18_deserialize(G, &back, text, len, err, sizeof err), CR_OK);
    free(text);
}

/* ---- random play reaches every new decision ---- */

static void test_random_games_use_the_associate_actions(void **unused)
{
    (void)unused;
    cr_action *legal = malloc(sizeof *legal * D18_MAX_LEGAL);
    double prob[720];
    char err[256];
    long count[D18_NKINDS] = {0}, accepted = 0;
    assert_non_null(legal);
    for (int game = 0; game < 4; game++) {
        cr_params p = {.num_players = 3 + game % 2};
        cr_game *g = cr_game_new(&d18_def, &p, err, sizeof err);
        cr_ctx *cx = cr_ctx_new(g);
        assert_non_null(cx);
        cr_rng rng;
        cr_rng_seed(&rng, (uint64_t)(1000 + game), 5);
        d18_state s;
        g->def->init(g, &s);
        long step = 0;
        for (; step < 200000; step++) {
            int who = g->def->current_player(g, &s);
            if (who == CR_TERMINAL) break;
            int n = who == CR_CHANCE ? g->def->chance_outcomes(g, &s, legal, prob)
                                     : g->def->legal_actions(g, &s, legal, cx);
            if (n < 1) fail_msg("no legal action: stage %d, step %ld", s.stage, step);
            assert_true(n <= g->max_legal);
            cr_action a = legal[cr_rng_below(&rng, (uint32_t)n)];
            d18_act x;
            assert_true(d18_decode(a, &x));
            count[x.kind]++;
            if (s.stage == D18_S_OR_AOFFER && x.kind == D18_K_ACCEPT) accepted++;
            g->def->apply(g, &s, a, cx);
            if (d18_check_invariants(g, &s, err, sizeof err))
                fail_msg("game %d, step %ld: %s", game, step, err);
        }
        if (step >= 200000) fail_msg("game %d: stalled", game);
        cr_ctx_free(cx);
        cr_game_free(g);
    }
    print_message("offers %ld (accepted %ld), merge keep %ld remove %ld, jh remove %ld add %ld, "
                  "church %ld, molemen %ld\n",
                  count[D18_K_OFFER_AF], accepted, count[D18_K_MERGE_KEEP],
                  count[D18_K_MERGE_REMOVE], count[D18_K_JH_REMOVE], count[D18_K_JH_ADD],
                  count[D18_K_CHURCH], count[D18_K_MOLEMEN]);
    assert_true(count[D18_K_OFFER_AF] > 0 && accepted > 0);
    assert_true(count[D18_K_MERGE_KEEP] + count[D18_K_MERGE_REMOVE] > 0);
    assert_true(count[D18_K_JH_REMOVE] + count[D18_K_JH_ADD] > 0);
    assert_true(count[D18_K_CHURCH] > 0);
    assert_true(count[D18_K_MOLEMEN] > 0);
    free(legal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R85_R118_front_buys_an_associate_in_any_step),
        cmocka_unit_test(test_R97_a_declined_offer_is_not_repeated_in_the_turn),
        cmocka_unit_test(test_R49_R70_R125_ll_merges_into_the_buying_front),
        cmocka_unit_test(test_R101_R125_merge_over_the_limit_discards_after_the_offices),
        cmocka_unit_test(test_R77_R119_claw_and_fang_forbid_buying_ll),
        cmocka_unit_test(test_R119_killed_by_claw_leaves_when_ll_brings_a_claw),
        cmocka_unit_test(test_R101_R110_bt_offices_in_placement_order),
        cmocka_unit_test(test_R114_a_front_with_bt_buys_no_nurses),
        cmocka_unit_test(test_R87_R36_jekyl_and_hyde),
        cmocka_unit_test(test_R86_powers_only_in_the_owning_fronts_turn),
        cmocka_unit_test(test_R88_R110_church_of_the_endless_void),
        cmocka_unit_test(test_R89_R109_molemen),
        cmocka_unit_test(test_R90_R116_flying_dutchman_doubles_an_fd_offboard),
        cmocka_unit_test(test_notation_and_positions_of_the_new_decisions),
        cmocka_unit_test(test_random_games_use_the_associate_actions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
