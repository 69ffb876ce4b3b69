/* test_map.c — 18Dracula's map rules on a small hand-built board holding
 * the places of the seed's worked examples: the slot model of the colour
 * rule (the two cube-colour examples of 8.6.3 are fixtures), city levels
 * (Overlook's example), blocking, connection, building and offices. */
#include "games/18dracula/d18_test.h"

enum {
    BLACKFORD,
    HOLLICK,
    KEIFERCOURT,
    MOREFRITE,
    BADLANDS,
    SADIE,
    OVERLOOK,
    BALATH,
    DRACUUL,
    HELIFAX,
    HOME1 /* .. HOME1 + 6: the other fronts' homes */
};
enum {
    R_BF_HO,
    R_KC_MO,
    R_KC_BA,
    R_BF_KC,
    R_SA_BF,
    R_SA_OV,
    R_SA_BL,
    R_OV_DR,
    R_OV_HE,
    R_OV_BL,
    R_BL_HO,
    R_DR_HE
};

static d18_board mb;

static void loc(int l, const char *id, int kind, int n_spaces, const int8_t *bands)
{
    d18_location *x = &mb.loc[l];
    snprintf(x->id, sizeof x->id, "%s", id);
    x->kind = (uint8_t)kind;
    x->n_spaces = (uint8_t)n_spaces;
    for (int i = 0; i < n_spaces; i++) x->space_band[i] = bands[i];
    for (int lv = 0; lv < 4; lv++) x->city_rev[lv] = x->city_val[lv] = 20;
    for (int p = 0; p < 5; p++) x->off_rev[p] = 30;
}

static void route(int r, int a, int b, int colour, int cost, int pre)
{
    d18_route *x = &mb.route[r];
    x->a = (uint8_t)a, x->b = (uint8_t)b;
    x->colour = (int8_t)colour;
    x->cost = (int16_t)cost;
    x->pre_existing = (uint8_t)pre;
    mb.loc[a].adj[mb.loc[a].n_adj++] = (uint8_t)r;
    mb.loc[b].adj[mb.loc[b].n_adj++] = (uint8_t)r;
}

static cr_game map_game(void)
{
    cr_game g = d18t_game(3); /* the test market */
    mb = d18t_board;
    memset(mb.loc, 0, sizeof mb.loc);
    static const int8_t yy[2] = {D18_YELLOW, D18_YELLOW}, ygr[3] = {D18_YELLOW, D18_GREEN, D18_RED},
                        y[1] = {D18_YELLOW}, gr[1] = {D18_GREEN};
    loc(BLACKFORD, "BLF", D18_CITY, 2, yy);
    loc(HOLLICK, "HOL", D18_TOWN, 0, NULL);
    loc(KEIFERCOURT, "KEI", D18_CITY, 1, y);
    loc(MOREFRITE, "MOR", D18_TOWN, 0, NULL);
    loc(BADLANDS, "BAD", D18_TOWN, 0, NULL);
    loc(SADIE, "SAD", D18_TOWN, 0, NULL);
    loc(OVERLOOK, "OVL", D18_CITY, 3, ygr);
    mb.loc[OVERLOOK].city_val[D18_GREEN] = 40;
    mb.loc[OVERLOOK].city_val[D18_BLUE] = 50;
    mb.loc[OVERLOOK].city_val[D18_RED] = 60;
    loc(BALATH, "BAL", D18_CITY, 2, yy);
    loc(DRACUUL, "DRA", D18_CITY, 1, gr); /* no space available at yellow */
    loc(HELIFAX, "HEL", D18_OFF, 0, NULL);
    for (int i = 0; i < 7; i++) loc(HOME1 + i, "H", D18_CITY, 1, y);
    mb.n_locations = HOME1 + 7;
    route(R_BF_HO, BLACKFORD, HOLLICK, D18_NO_COLOUR, 0, 0);
    route(R_KC_MO, KEIFERCOURT, MOREFRITE, D18_NO_COLOUR, 0, 0);
    route(R_KC_BA, KEIFERCOURT, BADLANDS, D18_NO_COLOUR, 0, 0);
    route(R_BF_KC, BLACKFORD, KEIFERCOURT, D18_NO_COLOUR, 0, 0);
    route(R_SA_BF, SADIE, BLACKFORD, D18_NO_COLOUR, 0, 0);
    route(R_SA_OV, SADIE, OVERLOOK, D18_NO_COLOUR, 0, 0);
    route(R_SA_BL, SADIE, BALATH, D18_NO_COLOUR, 0, 0);
    route(R_OV_DR, OVERLOOK, DRACUUL, D18_NO_COLOUR, 0, 1);
    route(R_OV_HE, OVERLOOK, HELIFAX, D18_NO_COLOUR, 0, 0);
    route(R_OV_BL, OVERLOOK, BALATH, D18_RED, 0, 0);
    route(R_BL_HO, BALATH, HOLLICK, D18_NO_COLOUR, 30, 0);
    route(R_DR_HE, DRACUUL, HELIFAX, D18_NO_COLOUR, 0, 0);
    mb.n_routes = R_DR_HE + 1;
    mb.castle_start = R_OV_DR;
    mb.route[R_OV_DR].castle_start = 1;
    mb.front[0].home = KEIFERCOURT;
    for (int f = 1; f < 8; f++) mb.front[f].home = (uint8_t)(HOME1 + f - 1);
    mb.ll.city = BALATH, mb.ll.space = 0;
    mb.bt.city = BLACKFORD, mb.bt.space = 0;
    g.data = &mb;
    return g;
}

static d18_state fresh(const cr_game *g)
{
    d18_state s;
    d18t_seated(g, &s);
    s.supply[D18_GREEN] = 4; /* as if in phase 2 */
    return s;
}

static void test_R53_seed_colour_example_blackford_keifercourt(void **unused)
{
    (void)unused;
    cr_game g = map_game();
    d18_state s = fresh(&g);
    d18_place_cube(&g, &s, R_BF_HO, D18_YELLOW);
    d18_place_cube(&g, &s, R_KC_MO, D18_YELLOW);
    d18_place_cube(&g, &s, R_KC_BA, D18_YELLOW);
    assert_int_equal(d18_demand(&s, BLACKFORD), D18_YELLOW);
    assert_int_equal(d18_demand(&s, KEIFERCOURT), D18_GREEN);
    assert_int_equal(d18_required_colour(&g, &s, R_BF_KC), D18_GREEN);
    d18_place_cube(&g, &s, R_BF_KC, D18_GREEN);
    /* Blackford's green slot is filled; its second yellow slot stays open. */
    assert_int_equal(s.slots[BLACKFORD], 1u | 4u);
    assert_int_equal(d18_demand(&s, BLACKFORD), D18_YELLOW);
    assert_int_equal(d18_demand(&s, KEIFERCOURT), D18_BLUE);
}

static void test_R53_seed_colour_example_sadie_skipped_yellow(void **unused)
{
    (void)unused;
    cr_game g = map_game();
    d18_state s = fresh(&g);
    d18_place_cube(&g, &s, R_SA_BF, D18_GREEN); /* Sadie had no connection */
    assert_int_equal(s.slots[SADIE], 4u);       /* both yellow slots skipped */
    d18_place_cube(&g, &s, R_SA_OV, D18_YELLOW);
    assert_int_equal(s.slots[SADIE], 4u | 1u);
    assert_int_equal(d18_demand(&s, SADIE), D18_YELLOW);
    assert_int_equal(d18_required_colour(&g, &s, R_SA_BL), D18_YELLOW);
}

static void test_R54_R55_slots_past_five_are_red_and_fixed_colours_fill_slots(void **unused)
{
    (void)unused;
    for (int i = 4; i < 12; i++) assert_int_equal(d18_slot_colour(i), D18_RED);
    cr_game g = map_game();
    d18_state s = fresh(&g);
    /* The fixed red space asks for red whatever the demand... */
    assert_int_equal(d18_required_colour(&g, &s, R_OV_BL), D18_RED);
    s.supply[D18_RED] = 1;
    d18_place_cube(&g, &s, R_OV_BL, D18_RED);
    /* ... and fills Balath's first red slot, skipping Y, Y, G, B. */
    assert_int_equal(s.slots[BALATH], 1u << 4);
    assert_int_equal(d18_demand(&s, BALATH), D18_YELLOW);
    /* Removing it (JH) reopens that slot and returns the cube. */
    d18_remove_cube(&g, &s, R_OV_BL);
    assert_int_equal(s.slots[BALATH], 0u);
    assert_int_equal(s.supply[D18_RED], 1);
}

static void test_R56_R44_pre_existing_is_yellow_and_the_tracker_cube(void **unused)
{
    (void)unused;
    cr_game g = map_game();
    d18_state s = fresh(&g);
    assert_int_equal(s.cube[R_OV_DR], D18_CUBE_PRE);
    assert_int_equal(s.slots[OVERLOOK], 1u);
    assert_int_equal(s.slots[DRACUUL], 1u);
    assert_int_equal(d18_level(&g, &s, OVERLOOK), D18_YELLOW);
    assert_int_equal(s.supply[D18_YELLOW], 29);
}

static void test_R57_R58_overlook_levels(void **unused)
{
    (void)unused;
    cr_game g = map_game();
    d18_state s = fresh(&g);
    assert_int_equal(d18_level(&g, &s, KEIFERCOURT), D18_YELLOW); /* R57: unconnected */
    d18_place_cube(&g, &s, R_SA_OV, D18_GREEN);
    s.supply[D18_BLUE] = 1;
    d18_place_cube(&g, &s, R_OV_HE, D18_BLUE); /* a blue cube next to a green one */
    int lv = d18_level(&g, &s, OVERLOOK);
    assert_int_equal(lv, D18_BLUE);
    assert_int_equal(d18_city_value(&mb, OVERLOOK, lv), 50);
    /* The yellow and green spaces are open, the red one is not: the first
     * empty available space is taken (R109). */
    assert_int_equal(d18_office_space(&g, &s, 1, OVERLOOK), 0);
    s.space_occ[OVERLOOK][0] = 3;
    assert_int_equal(d18_office_space(&g, &s, 1, OVERLOOK), 1);
    s.space_occ[OVERLOOK][1] = 4;
    assert_int_equal(d18_office_space(&g, &s, 1, OVERLOOK), -1);
    assert_true(d18_blocked(&g, &s, 1, OVERLOOK));
    assert_false(d18_blocked(&g, &s, 3, OVERLOOK)); /* it has an office there */
}

static void test_R60_R61_R120_blocking(void **unused)
{
    (void)unused;
    cr_game g = map_game();
    d18_state s = fresh(&g);
    /* Keifercourt's only space is F0's reserved home: empty, so no block. */
    assert_false(d18_blocked(&g, &s, 1, KEIFERCOURT));
    assert_int_equal(d18_office_space(&g, &s, 1, KEIFERCOURT), -1); /* but reserved */
    s.space_occ[KEIFERCOURT][0] = 0;                                /* F0 floated */
    assert_true(d18_blocked(&g, &s, 1, KEIFERCOURT));
    assert_false(d18_blocked(&g, &s, 0, KEIFERCOURT));
    /* R120: Dracuul's only space opens at green: blocked for all. */
    assert_true(d18_blocked(&g, &s, 0, DRACUUL));
    assert_true(d18_blocked(&g, &s, D18_ENT_LL, DRACUUL));
    /* Towns and off-boards are never blocked. */
    assert_false(d18_blocked(&g, &s, 1, HOLLICK));
    assert_false(d18_blocked(&g, &s, 1, HELIFAX));
}

static void test_R52_R36_connection_tracing(void **unused)
{
    (void)unused;
    cr_game g = map_game();
    d18_state s = fresh(&g);
    d18_locset x, r;
    /* BT (Blackford) with nothing built: X = R = {Blackford}. */
    d18_reach(&g, &s, D18_ENT_BT, &x, &r);
    assert_true(d18_in(&x, BLACKFORD));
    assert_false(d18_in(&r, HOLLICK));
    d18_place_cube(&g, &s, R_BF_HO, D18_YELLOW);
    d18_place_cube(&g, &s, R_BL_HO, D18_YELLOW);
    d18_reach(&g, &s, D18_ENT_BT, &x, &r);
    assert_true(d18_in(&x, HOLLICK)); /* a town: traced through */
    assert_true(d18_in(&x, BALATH));  /* a city with an empty space */
    /* The castle's pre-existing space is never traced: Overlook is not
     * reached through Dracuul, and nothing beyond Helifax (an off-board). */
    d18_place_cube(&g, &s, R_DR_HE, D18_YELLOW);
    s.space_occ[OVERLOOK][0] = 2;
    d18_locset x2, r2;
    s.space_occ[DRACUUL][0] = 5; /* F5 sits in Dracuul */
    d18_reach(&g, &s, 5, &x2, &r2);
    assert_true(d18_in(&r2, HELIFAX));
    assert_false(d18_in(&x2, HELIFAX));
    assert_false(d18_in(&r2, OVERLOOK));
    s.castle = R_DR_HE; /* the castle moves: now Overlook is reached */
    d18_reach(&g, &s, 5, &x2, &r2);
    assert_true(d18_in(&r2, OVERLOOK));
    assert_false(d18_in(&r2, HELIFAX));
    /* A blocked city ends a trace: Keifercourt blocked for BT. */
    d18_place_cube(&g, &s, R_KC_MO, D18_YELLOW);
    s.space_occ[KEIFERCOURT][0] = 0;
    s.supply[D18_GREEN] = 1;
    d18_place_cube(&g, &s, R_BF_KC, D18_GREEN);
    d18_reach(&g, &s, D18_ENT_BT, &x, &r);
    assert_true(d18_in(&r, KEIFERCOURT));
    assert_false(d18_in(&x, KEIFERCOURT));
    assert_false(d18_in(&r, MOREFRITE));
}

static void test_R51_R55_building(void **unused)
{
    (void)unused;
    cr_game g = map_game();
    d18_state s = fresh(&g);
    int bt = D18_ENT_BT;
    assert_true(d18_can_build(&g, &s, bt, R_BF_HO, 0));
    assert_false(d18_can_build(&g, &s, bt, R_BL_HO, 0)); /* not connected yet */
    d18_place_cube(&g, &s, R_BF_HO, D18_YELLOW);
    /* R51: the second yellow may rely on the first. */
    assert_true(d18_can_build(&g, &s, bt, R_BL_HO, 1));
    /* R55: the cost is paid from the treasury (BT holds 30). */
    s.minor_cash[1] = 29, s.bank += 1;
    assert_false(d18_can_build(&g, &s, bt, R_BL_HO, 1));
    s.minor_cash[1] = 30, s.bank -= 1;
    /* After a green cube, nothing more; a green is never a second cube. */
    assert_false(d18_can_build(&g, &s, bt, R_BL_HO, 2));
    d18_place_cube(&g, &s, R_KC_MO, D18_YELLOW);
    d18_place_cube(&g, &s, R_KC_BA, D18_YELLOW);
    assert_true(d18_can_build(&g, &s, bt, R_BF_KC, 0)); /* green needed */
    assert_false(d18_can_build(&g, &s, bt, R_BF_KC, 1));
    s.supply[D18_GREEN] = 0; /* 8.6.3: the required colour must be in the supply */
    assert_false(d18_can_build(&g, &s, bt, R_BF_KC, 0));
    /* A completed space cannot be built again. */
    assert_false(d18_can_build(&g, &s, bt, R_BF_HO, 0));
    assert_false(d18_can_build(&g, &s, bt, R_OV_DR, 0));
}

static void test_R59_R109_R110_office_placement(void **unused)
{
    (void)unused;
    cr_game g = map_game();
    d18_state s = fresh(&g);
    int f = 1;
    s.space_occ[BLACKFORD][1] = (int8_t)f; /* F1 already in Blackford */
    s.offices_used[f] = 1;
    s.treasury[f] = 100, s.bank -= 100;
    d18_place_cube(&g, &s, R_BF_HO, D18_YELLOW);
    d18_place_cube(&g, &s, R_BL_HO, D18_YELLOW);
    assert_false(d18_can_place_office(&g, &s, f, BLACKFORD)); /* one per city */
    assert_false(d18_can_place_office(&g, &s, f, HOLLICK));   /* a town */
    assert_true(d18_can_place_office(&g, &s, f, BALATH));     /* LL holds space 0 */
    assert_int_equal(d18_office_space(&g, &s, f, BALATH), 1);
    assert_int_equal(d18_office_cost(&g, &s, f), 40);
    s.treasury[f] = 39, s.bank += 61;
    assert_false(d18_can_place_office(&g, &s, f, BALATH));
    /* A face-down Church token also forbids a second office (R110). */
    s.treasury[f] = 100, s.bank -= 61;
    s.space_occ[BALATH][1] = D18_OCC_DOWN + f;
    assert_false(d18_can_place_office(&g, &s, f, BALATH));
    /* LL never places another office; BT one more at 40. */
    assert_int_equal(d18_office_cost(&g, &s, D18_ENT_LL), -1);
    assert_int_equal(d18_office_cost(&g, &s, D18_ENT_BT), 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R53_seed_colour_example_blackford_keifercourt),
        cmocka_unit_test(test_R53_seed_colour_example_sadie_skipped_yellow),
        cmocka_unit_test(test_R54_R55_slots_past_five_are_red_and_fixed_colours_fill_slots),
        cmocka_unit_test(test_R56_R44_pre_existing_is_yellow_and_the_tracker_cube),
        cmocka_unit_test(test_R57_R58_overlook_levels),
        cmocka_unit_test(test_R60_R61_R120_blocking),
        cmocka_unit_test(test_R52_R36_connection_tracing),
        cmocka_unit_test(test_R51_R55_building),
        cmocka_unit_test(test_R59_R109_R110_office_placement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
