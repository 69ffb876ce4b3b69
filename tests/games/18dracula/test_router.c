/* test_router.c — the exact auto-router (spec §13): hand-built cases for
 * every rule it applies, named by ruling, and a comparison with the
 * independent brute force (router_brute.c) on thousands of random small
 * maps (revenue AND canonical description). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "croupier/rng.h"
#include "games/18dracula/board.h"
#include "games/18dracula/router.h"

/* Raw allocations counted around d18_route_solve (linked with
 * -Wl,--wrap=malloc,... in CMakeLists.txt): the hot path allocates nothing. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
static int counting;
static uint64_t raw_allocs;
void *__wrap_malloc(size_t n)
{
    raw_allocs += counting != 0;
    return __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t size)
{
    raw_allocs += counting != 0;
    return __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t n)
{
    raw_allocs += counting != 0;
    return __real_realloc(p, n);
}

static void *ws_mem;
static d18_route_ws *ws;
enum { WS_ROUTES = 1 << 16 };

static int setup(void **state)
{
    (void)state;
    size_t n = d18_route_ws_size(WS_ROUTES);
    ws_mem = malloc(n);
    ws = d18_route_ws_init(ws_mem, n);
    return ws ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(ws_mem);
    return 0;
}

/* ---- building inputs ---- */

static d18_route_input *new_input(void)
{
    d18_route_input *in = calloc(1, sizeof *in);
    assert_non_null(in);
    return in;
}

static int add_loc(d18_route_input *in, int kind, int value)
{
    int v = in->n_locs++;
    in->loc[v].kind = (uint8_t)kind;
    in->loc[v].value = value;
    return v;
}
static int city(d18_route_input *in, int value) { return add_loc(in, D18_LOC_CITY, value); }
static int office(d18_route_input *in, int value)
{
    int v = city(in, value);
    in->loc[v].office = 1;
    return v;
}
static int town(d18_route_input *in) { return add_loc(in, D18_LOC_TOWN, 0); }
static int offb(d18_route_input *in, int value, int fd)
{
    int v = add_loc(in, D18_LOC_OFF, value);
    in->loc[v].fd = (uint8_t)fd;
    return v;
}

/* A completed route space; also counts toward both ends' home stacking. */
static void join(d18_route_input *in, int a, int b)
{
    int i = in->n_spaces++;
    in->sp[i].a = (uint16_t)a;
    in->sp[i].b = (uint16_t)b;
    in->sp[i].space = (uint16_t)(100 + i);
    in->loc[a].home_stack++;
    in->loc[b].home_stack++;
}

static void castle(d18_route_input *in, int a, int b)
{
    in->has_castle = 1;
    in->castle.a = (uint16_t)a;
    in->castle.b = (uint16_t)b;
    in->castle.space = 99;
    in->loc[a].home_stack++;
    in->loc[b].home_stack++;
}

static int monster(d18_route_input *in, int move, int n, int linger, int export_, int flags,
                   int copies, int town_rev)
{
    int t = in->n_types++;
    d18_route_monster *m = &in->type[t];
    m->move = (uint8_t)move;
    m->n = (uint8_t)n;
    m->linger = (uint8_t)linger;
    m->export_ = (uint8_t)export_;
    m->flags = (uint8_t)flags;
    m->copies = (uint8_t)copies;
    m->town = town_rev;
    m->roster = (uint16_t)t;
    return t;
}

static d18_route_result res;

static int64_t solve(const d18_route_input *in)
{
    char err[256];
    counting = 1;
    cr_status st = d18_route_solve(in, ws, &res, NULL, NULL, err, sizeof err);
    counting = 0;
    if (st != CR_OK) fail_msg("solve: %s", err);
    return res.total;
}

/* The description as text, for exact comparison. */
static const char *desc(const d18_route_input *in)
{
    static char buf[4096];
    d18_route_result_str(in, &res, buf, sizeof buf);
    return buf;
}

static void expect(const d18_route_input *in, int64_t total, const char *text)
{
    assert_int_equal(solve(in), total);
    assert_string_equal(desc(in), text);
}

/* ---- movement types (§8.9.3, R64) ---- */

/* dit: every location is a stop; towns pay the card's town revenue (R66). */
static void test_dit_counts_every_location_R64_R66(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 20), t = town(in), c = city(in, 30), d = city(in, 40);
    join(in, o, t);
    join(in, t, c);
    join(in, c, d);
    monster(in, D18_MOVE_DIT, 3, 0, 0, 0, 1, 10);
    expect(in, 60, "t0 [(0,1,2,-1)] fd () = 60");
    in->type[0].n = 4;
    expect(in, 100, "t0 [(0,1,2,3,-1)] fd () = 100");
    in->type[0].n = 2; /* O-T is 30 (20 + 10); T-C is 40 but has no office (rule 3) */
    expect(in, 30, "t0 [(0,1,-1)] fd () = 30");
    free(in);
}

/* city ("claw"): towns are unlimited and do not count; cities count. */
static void test_city_towns_free_R100(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 20), t1 = town(in), t2 = town(in), c = city(in, 30), d = city(in, 40);
    join(in, o, t1);
    join(in, t1, t2);
    join(in, t2, c);
    join(in, c, d);
    monster(in, D18_MOVE_CITY, 3, 0, 0, 0, 1, 5);
    expect(in, 100, "t0 [(0,1,2,3,4,-1)] fd () = 100");
    in->type[0].n = 2;
    expect(in, 60, "t0 [(0,1,2,3,-1)] fd () = 60");
    free(in);
}

/* city never visits an off-board, even at an end (§8.9.3, R65). */
static void test_city_never_offboard_R65(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 20), x = offb(in, 90, 0);
    join(in, o, x);
    monster(in, D18_MOVE_CITY, 3, 0, 0, 0, 1, 0);
    expect(in, 0, "t0 [()] fd () = 0");
    free(in);
}

/* major ("no dit"): cities and off-boards count, towns do not. */
static void test_major_counts_cities_and_offboards(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int x = offb(in, 50, 0), o = office(in, 20), t = town(in), c = city(in, 30);
    join(in, x, o);
    join(in, o, t);
    join(in, t, c);
    monster(in, D18_MOVE_MAJOR, 2, 0, 1, 0, 1, 7);
    /* x-o-t (77: the town is free) beats x-o (70) and o-t-c (57) */
    expect(in, 77, "t0 [(0,1,2,-1)] fd () = 77");
    in->type[0].n = 3;
    expect(in, 107, "t0 [(0,1,2,3,-1)] fd () = 107");
    free(in);
}

/* inf: no bound at all. */
static void test_inf_unbounded_R64(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int prev = office(in, 10);
    for (int i = 0; i < 12; i++) {
        int v = (i % 3 == 1) ? town(in) : city(in, 10);
        join(in, prev, v);
        prev = v;
    }
    monster(in, D18_MOVE_INF, 0, 0, 0, 0, 1, 1);
    /* 9 cities after the office + office = 100, 4 towns = 4 */
    assert_int_equal(solve(in), 10 + 8 * 10 + 4 * 1);
    free(in);
}

/* home: one office city, no route space; stacking capped by connections (R69). */
static void test_home_stacking_R69(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int a = office(in, 50), b = office(in, 30), c = city(in, 80), d = city(in, 10);
    join(in, a, c); /* a has 2 connections, b has 1 */
    join(in, a, d);
    join(in, b, d);
    monster(in, D18_MOVE_HOME, 0, 0, 0, 0, 4, 0);
    /* a twice (cap 2), b once (cap 1), fourth copy idle; c is no office */
    expect(in, 130, "t0 [(), (0), (0), (1)] fd () = 130");
    in->loc[b].home_stack = 0; /* no connection: still at least one (R69) */
    expect(in, 130, "t0 [(), (0), (0), (1)] fd () = 130");
    free(in);
}

/* The castle's space counts toward a home city's stacking (R69). */
static void test_home_stacking_counts_castle_R69(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int a = office(in, 50), b = city(in, 10);
    join(in, a, b);
    castle(in, a, b);
    monster(in, D18_MOVE_HOME, 0, 0, 0, 0, 3, 0);
    expect(in, 100, "t0 [(), (0), (0)] fd () = 100");
    free(in);
}

/* howl: each office plus every joined city and town, once; blocked cities
 * count (R127); off-boards never; the castle's space does not join. */
static void test_howl_R127(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o1 = office(in, 20), o2 = office(in, 30), blk = city(in, 40), t = town(in);
    int x = offb(in, 100, 1), far = city(in, 70), k = city(in, 60);
    in->loc[blk].blocked = 1;
    join(in, o1, blk);
    join(in, o1, t);
    join(in, o2, t); /* the town next to two offices counts once */
    join(in, o2, o1);
    join(in, o2, x);
    join(in, blk, far); /* two steps away: no */
    castle(in, o2, k);  /* joined only by the castle's space: no */
    monster(in, D18_MOVE_HOWL, 0, 0, 0, 0, 2, 15);
    in->owns_fd = 1; /* the Dutchman doubles routes only; a howl has none */
    /* 20 + 30 + 40 + 15 = 105 per copy */
    expect(in, 210, "t0 [(), ()] fd () = 210");
    assert_int_equal(res.type_revenue[0], 210);
    free(in);
}

/* ---- lingers (§8.9.6, R67) ---- */

/* The seed's example: major N = 5, linger 1, 4 cities: the best counts twice. */
static void test_linger_seed_example_R67(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int a = office(in, 10), b = city(in, 40), c = city(in, 20), d = city(in, 30);
    join(in, a, b);
    join(in, b, c);
    join(in, c, d);
    monster(in, D18_MOVE_MAJOR, 5, 1, 0, 0, 1, 0);
    expect(in, 140, "t0 [(0,1,2,3,-1,1)] fd () = 140");
    free(in);
}

/* A linger uses a stop: with N = 4 the 4-city route has no room to linger,
 * so 3 cities plus a linger (40+20+30+40 = 130) beat 4 cities (100). */
static void test_linger_uses_a_stop_R67(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int a = office(in, 10), b = city(in, 40), c = city(in, 20), d = city(in, 30);
    join(in, a, b);
    join(in, b, c);
    join(in, c, d);
    monster(in, D18_MOVE_MAJOR, 4, 1, 0, 0, 1, 0);
    /* a-b-c + linger b = 110; b-c-d has no office.  a-b-c-d = 100. */
    expect(in, 110, "t0 [(0,1,2,-1,1)] fd () = 110");
    in->loc[d].office = 1; /* now b-c-d + linger b: 40+20+30+40 = 130 */
    expect(in, 130, "t0 [(1,2,3,-1,1)] fd () = 130");
    free(in);
}

/* Linger applies to cities only, each at most twice; L = 2 takes the two best. */
static void test_linger_cities_only_at_most_twice_R67(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int x = offb(in, 90, 0), a = office(in, 10), t = town(in), b = city(in, 40);
    join(in, x, a);
    join(in, a, t);
    join(in, t, b);
    monster(in, D18_MOVE_INF, 0, 2, 1, 0, 1, 5);
    /* 90 + 10 + 5 + 40, lingers b (40) and a (10), never x or t */
    expect(in, 195, "t0 [(0,1,2,3,-1,1,3)] fd () = 195");
    in->type[0].linger = 5; /* still only the two cities, once more each */
    expect(in, 195, "t0 [(0,1,2,3,-1,1,3)] fd () = 195");
    free(in);
}

/* ---- off-boards (§8.9.4, R52, R65) ---- */

static void test_offboard_ends_only_and_export_R65(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int x = offb(in, 50, 0), o = office(in, 20), y = offb(in, 40, 0), c = city(in, 30);
    join(in, x, o);
    join(in, o, y);
    join(in, y, c); /* c lies beyond y: never through an off-board */
    monster(in, D18_MOVE_INF, 0, 0, 1, 0, 1, 0);
    expect(in, 110, "t0 [(0,1,2,-1)] fd () = 110"); /* both ends off-boards */
    in->type[0].export_ = 0;                        /* no export: no off-board at all */
    expect(in, 0, "t0 [()] fd () = 0");
    free(in);
}

/* ---- blocked cities (§8.5, R60, R120) ---- */

static void test_blocked_city_end_not_through_R60(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 20), b = city(in, 30), c = city(in, 40);
    in->loc[b].blocked = 1;
    join(in, o, b);
    join(in, b, c);
    monster(in, D18_MOVE_INF, 0, 0, 0, 0, 1, 0);
    expect(in, 50, "t0 [(0,1,-1)] fd () = 50"); /* may end in b, not pass it */
    in->type[0].flags = D18_RF_NOT_BLOCKED;
    expect(in, 90, "t0 [(0,1,2,-1)] fd () = 90");
    free(in);
}

/* ---- offices (§8.9.2.5) ---- */

static void test_no_office_flag(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 10), a = city(in, 50), b = city(in, 60);
    join(in, o, a);
    join(in, a, b);
    monster(in, D18_MOVE_DIT, 2, 0, 0, 0, 1, 0);
    expect(in, 60, "t0 [(0,1,-1)] fd () = 60");
    in->type[0].flags = D18_RF_NO_OFFICE;
    expect(in, 110, "t0 [(1,2,-1)] fd () = 110");
    free(in);
}

/* ---- the castle (§8.9.8, R100) ---- */

/* K's ends count as offices for rule 3 only, for castle monsters only; K is
 * usable by them alone; a blocked end stays blocked (R100). */
static void test_castle_R100(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 10), a = city(in, 50), b = city(in, 60), c = city(in, 70);
    join(in, o, c); /* the office is elsewhere */
    castle(in, a, b);
    join(in, b, c);
    monster(in, D18_MOVE_DIT, 2, 0, 0, 0, 1, 0);
    expect(in, 80, "t0 [(0,3,-1)] fd () = 80"); /* K unusable */
    in->type[0].flags = D18_RF_CASTLE;
    /* a-b over K, or b-c (an end of K is on it: rule 3 holds) = 130 */
    expect(in, 130, "t0 [(2,3,-1)] fd () = 130");
    in->type[0].n = 3; /* a-b-c: 180 */
    expect(in, 180, "t0 [(1,2,3,-1)] fd () = 180");
    in->loc[b].blocked = 1; /* R100: K's end does not unblock b; o-c-b ends there */
    expect(in, 140, "t0 [(0,3,2,-1)] fd () = 140");
    free(in);
}

/* ---- triple (§8.9.8) ---- */

static void test_triple_three_disjoint_routes(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 10), a = city(in, 20), b = city(in, 30), c = city(in, 40), d = city(in, 50);
    join(in, o, a);
    join(in, o, b);
    join(in, o, c);
    join(in, o, d);
    monster(in, D18_MOVE_DIT, 2, 0, 0, D18_RF_TRIPLE, 1, 0);
    /* the three best spokes: d, c, b */
    expect(in, 150, "t0 [(0,2,-1), (0,3,-1), (0,4,-1)] fd () = 150");
    free(in);
}

/* ---- disjointness (§13.4, R68) ---- */

static void test_monsters_share_no_route_space_R68(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 10), a = city(in, 100), b = city(in, 20);
    join(in, o, a); /* one bridge to a */
    join(in, o, b);
    monster(in, D18_MOVE_DIT, 2, 0, 0, 0, 1, 0);
    monster(in, D18_MOVE_DIT, 2, 0, 0, 0, 1, 0);
    /* both want o-a (110); the first type in roster order gets it (§13.6: the
     * smaller description puts (0,1) in t0) and t1 runs o-b */
    expect(in, 140, "t0 [(0,1,-1)] t1 [(0,2,-1)] fd () = 140");
    free(in);
}

/* ---- Flying Dutchman (§8.9.9, R90, R116) ---- */

static void test_flying_dutchman_once_R90_R116(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int x = offb(in, 60, 1), o = office(in, 10), y = offb(in, 80, 1), z = offb(in, 100, 0);
    int p = office(in, 10);
    join(in, x, o);
    join(in, o, y);
    join(in, p, z);
    monster(in, D18_MOVE_MAJOR, 3, 0, 1, 0, 2, 0);
    expect(in, 260, "t0 [(0,1,2,-1), (3,4,-1)] fd () = 260");
    in->owns_fd = 1; /* the best fd off-board (y) once more; z is not fd */
    expect(in, 340, "t0 [(0,1,2,-1), (3,4,-1)] fd (0,2) = 340");
    assert_int_equal(res.fd_bonus, 80);
    free(in);
}

/* The Dutchman changes which routes win: without it the 2-stop monster
 * prefers o-c (90); with it o-x (50 + 50) wins. */
static void test_flying_dutchman_in_maximisation_R90(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 10), c = city(in, 80), x = offb(in, 50, 1);
    join(in, o, c);
    join(in, o, x);
    monster(in, D18_MOVE_MAJOR, 2, 0, 1, 0, 1, 0);
    expect(in, 90, "t0 [(0,1,-1)] fd () = 90");
    in->owns_fd = 1;
    expect(in, 110, "t0 [(0,2,-1)] fd (0,2) = 110");
    free(in);
}

/* ---- tie-breaks (§13.6, R117) ---- */

/* Two equal spokes: the smaller tuple wins. */
static void test_tiebreak_smaller_tuple_R117(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int a = city(in, 30), o = office(in, 10), b = city(in, 30);
    join(in, o, b);
    join(in, o, a);
    monster(in, D18_MOVE_DIT, 2, 0, 0, 0, 1, 0);
    expect(in, 40, "t0 [(0,1,-1)] fd () = 40");
    free(in);
}

/* Equal revenue, fewer routes of an earlier type: () pads first, so the
 * first type in roster order takes the fewest routes (R117). */
static void test_tiebreak_fewer_routes_first_type_R117(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 10), a = city(in, 30);
    join(in, o, a);
    monster(in, D18_MOVE_DIT, 2, 0, 0, 0, 1, 0);
    monster(in, D18_MOVE_DIT, 2, 0, 0, 0, 1, 0);
    /* one route space, one route: t1 takes it since t0 [()] < t0 [(0,1,-1)] */
    expect(in, 40, "t0 [()] t1 [(0,1,-1)] fd () = 40");
    free(in);
}

/* Equal lingers: the smaller city lingers (R67, R117). */
static void test_tiebreak_linger_smaller_city_R117(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int a = city(in, 30), o = office(in, 10), b = city(in, 30);
    join(in, a, o);
    join(in, o, b);
    monster(in, D18_MOVE_MAJOR, 4, 1, 0, 0, 1, 0);
    expect(in, 100, "t0 [(0,1,2,-1,0)] fd () = 100");
    free(in);
}

/* A city worth 0 may linger for nothing when stops are left: the tuple
 * (..., -1, 0, 1, 2) is smaller than (..., -1, 1, 2), so it does (R67,
 * R117).  A route does not reach out to a 0 city at its end either: the
 * shorter path's tuple is smaller at equal revenue. */
static void test_tiebreak_linger_on_zero_city_R117(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int z = city(in, 0), o = office(in, 10), b = city(in, 30), z2 = city(in, 0);
    join(in, z, o);
    join(in, o, b);
    join(in, b, z2);
    monster(in, D18_MOVE_MAJOR, 8, 3, 0, 0, 1, 0);
    expect(in, 80, "t0 [(0,1,2,-1,0,1,2)] fd () = 80");
    in->type[0].linger = 2; /* b and o: both worth something, no room for z */
    expect(in, 80, "t0 [(0,1,2,-1,1,2)] fd () = 80");
    in->type[0].linger = 1; /* only b */
    expect(in, 70, "t0 [(0,1,2,-1,2)] fd () = 70");
    in->type[0].n = 4; /* 0-1-2 + linger b is 4 stops: still there */
    in->type[0].linger = 3;
    expect(in, 80, "t0 [(1,2,-1,1,2)] fd () = 80");
    free(in);
}

/* Equal fd off-boards on one route: the smaller location; on two routes:
 * the earlier position (R117). */
static void test_tiebreak_flying_dutchman_R117(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int x = offb(in, 40, 1), o = office(in, 10), y = offb(in, 40, 1);
    join(in, x, o);
    join(in, o, y);
    monster(in, D18_MOVE_MAJOR, 3, 0, 1, 0, 1, 0);
    in->owns_fd = 1;
    expect(in, 130, "t0 [(0,1,2,-1)] fd (0,0) = 130");
    in->type[0].n = 2;
    in->type[0].copies = 2;
    expect(in, 140, "t0 [(0,1,-1), (1,2,-1)] fd (0,0) = 140");
    free(in);
}

/* Equal totals from different home cities: the smaller city (R117). */
static void test_tiebreak_home_R117(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int a = office(in, 40), b = office(in, 40);
    join(in, a, b);
    monster(in, D18_MOVE_HOME, 0, 0, 0, 0, 1, 0);
    expect(in, 40, "t0 [(0)] fd () = 40");
    free(in);
}

/* ---- parallel spaces and errors ---- */

/* Two route spaces joining the same pair are two different spaces. */
static void test_parallel_spaces(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 10), a = city(in, 30), b = city(in, 5);
    join(in, o, a);
    join(in, o, a);
    join(in, a, b);
    monster(in, D18_MOVE_DIT, 3, 0, 0, 0, 2, 0);
    expect(in, 85, "t0 [(0,1,-1), (0,1,2,-1)] fd () = 85");
    free(in);
}

static void test_bad_input_changes_nothing(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int o = office(in, 10), a = city(in, 30);
    join(in, o, a);
    monster(in, D18_MOVE_HOME, 2, 0, 0, 0, 1, 0); /* home with an N: R99 */
    char err[256] = "";
    assert_int_equal(d18_route_solve(in, ws, &res, NULL, NULL, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, "R99"));
    assert_int_equal(res.total, 0);
    in->type[0].n = 0;
    in->sp[0].b = 77; /* no such location */
    assert_int_equal(d18_route_solve(in, ws, &res, NULL, NULL, err, sizeof err), CR_ERR_INVALID);
    assert_non_null(strstr(err, "route space 0"));
    in->sp[0].b = (uint16_t)a;
    in->type[0].move = D18_MOVE_CITY;
    in->type[0].n = 2;
    in->type[0].export_ = 1;
    assert_int_equal(d18_route_solve(in, ws, &res, NULL, NULL, err, sizeof err), CR_ERR_INVALID);
    in->type[0].export_ = 0;
    in->type[0].copies = 40; /* more routes than a description holds */
    assert_int_equal(d18_route_solve(in, ws, &res, NULL, NULL, err, sizeof err), CR_ERR_INVALID);
    free(in);
}

/* A workspace too small says so and how much it needs; the retry is exact. */
static void test_workspace_too_small_asks_for_more(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    int prev = office(in, 10);
    for (int i = 0; i < 8; i++) {
        int v = city(in, 10 + i);
        join(in, prev, v);
        join(in, prev, v);
        prev = v;
    }
    monster(in, D18_MOVE_INF, 0, 0, 0, 0, 1, 0);
    size_t small = d18_route_ws_size(16);
    void *mem = malloc(small);
    d18_route_ws *w = d18_route_ws_init(mem, small);
    assert_non_null(w);
    uint32_t need = 0;
    char err[256];
    assert_int_equal(d18_route_solve(in, w, &res, NULL, &need, err, sizeof err), CR_ERR_NOMEM);
    assert_non_null(strstr(err, "grow it"));
    assert_int_equal(res.total, 0);
    assert_true(need > d18_route_ws_capacity(w));
    /* grow as told until it fits: each answer asks for more than the last */
    cr_status st = CR_ERR_NOMEM;
    for (int tries = 0; st == CR_ERR_NOMEM; tries++) {
        assert_true(tries < 8);
        uint32_t had = d18_route_ws_capacity(w);
        free(mem);
        size_t big = d18_route_ws_size(need);
        mem = malloc(big);
        w = d18_route_ws_init(mem, big);
        assert_true(d18_route_ws_capacity(w) > had);
        st = d18_route_solve(in, w, &res, NULL, &need, err, sizeof err);
    }
    assert_int_equal(st, CR_OK);
    assert_int_equal(res.total, 10 + 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17);
    free(mem);
    free(in);
}

/* ---- against the brute force ---- */

static void random_input(d18_route_input *in, cr_rng *rng)
{
    memset(in, 0, sizeof *in);
    int n = 3 + (int)cr_rng_below(rng, 8); /* 3..10 */
    for (int v = 0; v < n; v++) {
        uint32_t k = cr_rng_below(rng, 20);
        if (k < 12) {
            int val = 10 * (int)cr_rng_below(rng, 6); /* 0..50, equal values are common */
            city(in, val);
            uint32_t f = cr_rng_below(rng, 10);
            if (f < 3)
                in->loc[v].office = 1;
            else if (f < 5)
                in->loc[v].blocked = 1;
        } else if (k < 16) {
            town(in);
        } else {
            offb(in, 10 * (1 + (int)cr_rng_below(rng, 6)), cr_rng_below(rng, 2) == 0);
        }
    }
    if (n >= 2) {
        int e = 2 + (int)cr_rng_below(rng, 13); /* 2..14 */
        for (int i = 0; i < e; i++) {
            int a = (int)cr_rng_below(rng, (uint32_t)n), b = (int)cr_rng_below(rng, (uint32_t)n);
            if (a == b) continue;
            join(in, a, b);
        }
        if (cr_rng_below(rng, 3) == 0) {
            int a = (int)cr_rng_below(rng, (uint32_t)n), b = (int)cr_rng_below(rng, (uint32_t)n);
            if (a != b) castle(in, a, b);
        }
    }
    for (int v = 0; v < n; v++)
        if (cr_rng_below(rng, 4) == 0) in->loc[v].home_stack = (uint8_t)cr_rng_below(rng, 3);
    int slots = 0, want = 1 + (int)cr_rng_below(rng, 3);
    while (slots < want) {
        int mv = (int)cr_rng_below(rng, 6);
        int n_stop = 0, lg = 0, ex = 0, fl = 0, copies = 1, tr = 0;
        if (mv >= D18_MOVE_DIT) {
            if (mv != D18_MOVE_INF) n_stop = 1 + (int)cr_rng_below(rng, 4);
            lg = (int)cr_rng_below(rng, 3);
            ex = mv != D18_MOVE_CITY && cr_rng_below(rng, 2);
            tr = (int)cr_rng_below(rng, 8) == 0;
            if (cr_rng_below(rng, 5) == 0) fl |= D18_RF_NOT_BLOCKED;
            if (cr_rng_below(rng, 6) == 0) fl |= D18_RF_NO_OFFICE;
            if (cr_rng_below(rng, 3) == 0) fl |= D18_RF_CASTLE;
        }
        if (!tr && slots + 2 <= want && cr_rng_below(rng, 3) == 0) copies = 2;
        if (tr) {
            if (slots + 3 > 3)
                tr = 0;
            else
                fl |= D18_RF_TRIPLE;
        }
        int tau = mv == D18_MOVE_HOME ? 0 : 5 * (int)cr_rng_below(rng, 3);
        monster(in, mv, n_stop, lg, ex, fl, copies, tau);
        slots += copies * (tr ? 3 : 1);
    }
    in->owns_fd = cr_rng_below(rng, 2) == 0;
}

static int same_result(const d18_route_result *a, const d18_route_result *b)
{
    if (a->total != b->total || a->fd_bonus != b->fd_bonus || a->fd_slot != b->fd_slot ||
        a->fd_loc != b->fd_loc || a->n_slots != b->n_slots)
        return 0;
    for (int i = 0; i < a->n_slots; i++) {
        const d18_route_entry *x = &a->slot[i], *y = &b->slot[i];
        if (x->n_locs != y->n_locs || x->n_linger != y->n_linger || x->revenue != y->revenue)
            return 0;
        if (x->n_locs && x->is_path != y->is_path) return 0;
        if (memcmp(x->loc, y->loc, x->n_locs * sizeof x->loc[0])) return 0;
        if (memcmp(x->linger, y->linger, x->n_linger * sizeof x->linger[0])) return 0;
    }
    return 1;
}

static void test_matches_brute_force(void **state)
{
    (void)state;
    enum { INSTANCES = 3000 };
    d18_route_input *in = new_input();
    d18_route_result *br = calloc(1, sizeof *br);
    cr_rng rng;
    cr_rng_seed(&rng, 0x18d, 13);
    int compared = 0, skipped = 0, nonzero = 0, with_fd = 0, with_linger = 0;
    for (int it = 0; it < INSTANCES; it++) {
        random_input(in, &rng);
        cr_status st = d18_route_brute(in, 3000000, br);
        if (st == CR_ERR_UNSUPPORTED) {
            skipped++;
            continue;
        }
        assert_int_equal(st, CR_OK);
        solve(in);
        if (!same_result(&res, br)) {
            char a[4096], b[4096];
            d18_route_result_str(in, &res, a, sizeof a);
            d18_route_result_str(in, br, b, sizeof b);
            fail_msg("instance %d differs:\n router %s\n brute  %s", it, a, b);
        }
        compared++;
        nonzero += res.total > 0;
        with_fd += res.fd_slot >= 0;
        for (int i = 0; i < res.n_slots; i++) with_linger += res.slot[i].n_linger > 0;
    }
    printf("# brute force: %d compared, %d skipped (too many leaves), %d earn, %d use the "
           "Dutchman, %d lingering routes\n",
           compared, skipped, nonzero, with_fd, with_linger);
    assert_true(skipped * 20 < INSTANCES);
    assert_true(nonzero > INSTANCES / 2);
    assert_true(with_fd > 20 && with_linger > 50);
    free(br);
    free(in);
}

/* A workspace holding fewer routes than the position has: the router keeps
 * only the routes that may be in the answer (restrict_routes in router.c)
 * and answers exactly when they fit, else asks for more.  On the random
 * inputs above, with room for 2 to 8 routes, every answer it gives is the
 * brute force's. */
static void test_small_workspace_matches_brute_force(void **state)
{
    (void)state;
    enum { INSTANCES = 3000 };
    d18_route_input *in = new_input();
    d18_route_result *br = calloc(1, sizeof *br), *small = calloc(1, sizeof *small);
    size_t bytes = d18_route_ws_size(8);
    void *mem = malloc(bytes);
    cr_rng rng;
    cr_rng_seed(&rng, 0x18d, 13);
    int restricted = 0, refused = 0;
    for (int it = 0; it < INSTANCES; it++) {
        random_input(in, &rng);
        cr_status st = d18_route_brute(in, 3000000, br);
        if (st == CR_ERR_UNSUPPORTED) continue;
        assert_int_equal(st, CR_OK);
        uint32_t cap = 2 + (uint32_t)(it % 7); /* 2..8 routes */
        d18_route_ws *w = d18_route_ws_init(mem, d18_route_ws_size(cap));
        assert_int_equal(d18_route_ws_capacity(w), cap);
        d18_route_stats stats;
        char err[256];
        uint32_t need = 0;
        counting = 1;
        st = d18_route_solve(in, w, small, &stats, &need, err, sizeof err);
        counting = 0;
        assert_int_equal(raw_allocs, 0);
        if (st == CR_ERR_NOMEM) {
            assert_true(stats.routes > cap && need > cap);
            assert_int_equal(small->total, 0);
            refused++;
            continue;
        }
        assert_int_equal(st, CR_OK);
        restricted += stats.routes > cap;
        if (!same_result(small, br)) {
            char a[4096], b[4096];
            d18_route_result_str(in, small, a, sizeof a);
            d18_route_result_str(in, br, b, sizeof b);
            fail_msg("instance %d (room for %u routes) differs:\n router %s\n brute  %s", it, cap,
                     a, b);
        }
    }
    printf("# small workspace: %d answered with fewer routes than the position has, %d asked "
           "for more\n",
           restricted, refused);
    assert_true(restricted > 300);
    free(mem);
    free(small);
    free(br);
    free(in);
}

/* The rampage that made the context's scratch too small (conformance game
 * 18dracula/medieval/4p seed 131024753858, step 3136): a `city` 6-stop
 * monster and an `inf` one that passes blocked cities, 214,300 routes, most
 * of them the inf monster's.  With room for 65,536 routes (and for the
 * 131,072 of the game's scratch) the router keeps those that may be in the
 * answer and gives, without allocating, the answer of a workspace holding
 * every route.  (The brute force did not finish on it in minutes.) */
/* kind, blocked, office, fd, home_stack, value */
static const int big_locs[][6] = {
    {1, 0, 0, 0, 0, 0},   {2, 0, 0, 0, 1, 60},  {1, 0, 0, 0, 2, 0},  {0, 0, 1, 0, 3, 40},
    {2, 0, 0, 1, 2, 100}, {1, 0, 0, 0, 0, 0},   {0, 0, 0, 0, 0, 20}, {1, 0, 0, 0, 1, 0},
    {1, 0, 0, 0, 2, 0},   {0, 1, 0, 0, 2, 20},  {1, 0, 0, 0, 4, 0},  {1, 0, 0, 0, 3, 0},
    {1, 0, 0, 0, 3, 0},   {0, 1, 0, 0, 4, 40},  {0, 1, 0, 0, 2, 40}, {0, 0, 0, 0, 0, 10},
    {1, 0, 0, 0, 2, 0},   {0, 0, 1, 0, 3, 40},  {1, 0, 0, 0, 0, 0},  {1, 0, 0, 0, 3, 0},
    {1, 0, 0, 0, 2, 0},   {0, 1, 0, 0, 2, 10},  {0, 0, 1, 0, 3, 30}, {1, 0, 0, 0, 4, 0},
    {1, 0, 0, 0, 5, 0},   {0, 1, 0, 0, 3, 30},  {1, 0, 0, 0, 4, 0},  {1, 0, 0, 0, 4, 0},
    {2, 0, 0, 1, 1, 90},  {2, 0, 0, 1, 1, 100}, {1, 0, 0, 0, 1, 0},  {0, 1, 0, 0, 3, 40},
    {1, 0, 0, 0, 3, 0},   {0, 0, 1, 0, 5, 50},  {0, 0, 0, 0, 3, 80}, {1, 0, 0, 0, 3, 0},
    {0, 1, 0, 0, 3, 40},  {1, 0, 0, 0, 3, 0},   {1, 0, 0, 0, 0, 0},  {0, 1, 0, 0, 2, 20},
    {1, 0, 0, 0, 3, 0},   {1, 0, 0, 0, 0, 0},   {1, 0, 0, 0, 1, 0},  {0, 1, 0, 0, 0, 20},
    {1, 0, 0, 0, 0, 0},   {1, 0, 0, 0, 2, 0},   {0, 1, 0, 0, 3, 30}, {2, 0, 0, 0, 0, 80},
    {1, 0, 0, 0, 0, 0},   {0, 1, 0, 0, 1, 10},  {1, 0, 0, 0, 0, 0},  {1, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 10},  {1, 0, 0, 0, 0, 0},   {0, 1, 0, 0, 2, 30}, {0, 0, 0, 0, 3, 40},
    {1, 0, 0, 0, 0, 0},   {2, 0, 0, 1, 0, 90},  {1, 0, 0, 0, 0, 0},  {1, 0, 0, 0, 0, 0},
    {1, 0, 0, 0, 0, 0},   {2, 0, 0, 0, 1, 80},
};
/* a, b, board space */
static const int big_spaces[][3] = {
    {1, 10, 2},   {2, 3, 3},    {2, 11, 4},   {3, 4, 5},    {3, 12, 6},   {4, 13, 8},
    {7, 8, 13},   {8, 17, 15},  {9, 10, 16},  {9, 19, 17},  {10, 11, 18}, {10, 20, 19},
    {11, 21, 20}, {12, 13, 21}, {12, 22, 22}, {13, 14, 23}, {13, 23, 24}, {14, 24, 26},
    {16, 17, 29}, {16, 26, 30}, {17, 27, 31}, {19, 20, 33}, {19, 29, 34}, {21, 31, 38},
    {22, 23, 39}, {22, 32, 40}, {23, 24, 41}, {23, 33, 42}, {24, 25, 43}, {24, 34, 44},
    {25, 26, 45}, {25, 35, 46}, {26, 27, 47}, {26, 36, 48}, {27, 28, 49}, {27, 37, 50},
    {30, 39, 54}, {31, 32, 55}, {31, 40, 56}, {32, 33, 57}, {33, 34, 59}, {34, 35, 61},
    {35, 36, 63}, {36, 37, 65}, {37, 46, 67}, {39, 40, 69}, {40, 49, 71}, {45, 46, 79},
    {45, 54, 80}, {46, 55, 82}, {54, 55, 92}, {55, 61, 94}, {33, 24, 99},
};

static void big_input(d18_route_input *in)
{
    memset(in, 0, sizeof *in);
    in->n_locs = (int)(sizeof big_locs / sizeof big_locs[0]);
    for (int v = 0; v < in->n_locs; v++) {
        d18_route_loc *l = &in->loc[v];
        l->kind = (uint8_t)big_locs[v][0];
        l->blocked = (uint8_t)big_locs[v][1];
        l->office = (uint8_t)big_locs[v][2];
        l->fd = (uint8_t)big_locs[v][3];
        l->home_stack = (uint8_t)big_locs[v][4];
        l->value = big_locs[v][5];
    }
    in->n_spaces = (int)(sizeof big_spaces / sizeof big_spaces[0]);
    for (int i = 0; i < in->n_spaces; i++) {
        in->sp[i].a = (uint16_t)big_spaces[i][0];
        in->sp[i].b = (uint16_t)big_spaces[i][1];
        in->sp[i].space = (uint16_t)big_spaces[i][2];
    }
    in->has_castle = 1;
    in->castle.a = 33, in->castle.b = 42, in->castle.space = 60;
    int t = monster(in, D18_MOVE_CITY, 6, 2, 0, 0, 1, 0);
    in->type[t].roster = 10;
    t = monster(in, D18_MOVE_INF, 0, 2, 1, D18_RF_NOT_BLOCKED, 1, 20);
    in->type[t].roster = 13;
}

static void test_more_routes_than_the_workspace(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    big_input(in);
    d18_route_stats stats;
    char err[256];
    /* every route stored: the plain search */
    d18_route_result *full = calloc(1, sizeof *full);
    size_t bytes = d18_route_ws_size(1u << 18);
    void *mem = malloc(bytes);
    assert_int_equal(
        d18_route_solve(in, d18_route_ws_init(mem, bytes), full, &stats, NULL, err, sizeof err),
        CR_OK);
    assert_int_equal(stats.routes, 214300);
    assert_int_equal(full->total, 1370);
    free(mem);
    const char *want = "t10 [(13,23,33,24,34,-1,33,34)] t13 "
                       "[(29,19,9,10,11,2,3,12,13,14,24,23,22,32,33,34,35,36,26,16,17,27,37,46,45,"
                       "54,55,61,-1,33,34)] fd () = 1370";
    char got[4096];
    d18_route_result_str(in, full, got, sizeof got);
    assert_string_equal(got, want);
    /* room for a quarter of them (the test's workspace), then half (the
     * game's scratch): the same answer, no allocation */
    assert_true(d18_route_ws_capacity(ws) < 214300);
    counting = 1;
    assert_int_equal(d18_route_solve(in, ws, &res, &stats, NULL, err, sizeof err), CR_OK);
    counting = 0;
    assert_int_equal(raw_allocs, 0);
    assert_true(same_result(&res, full));
    bytes = d18_route_ws_size(1u << 17);
    mem = malloc(bytes);
    counting = 1;
    assert_int_equal(
        d18_route_solve(in, d18_route_ws_init(mem, bytes), &res, &stats, NULL, err, sizeof err),
        CR_OK);
    counting = 0;
    assert_int_equal(raw_allocs, 0);
    assert_true(same_result(&res, full));
    free(mem);
    free(full);
    free(in);
}

/* Late-game positions of the bundled board (router_bench.c): where the
 * brute force finishes, it agrees; everywhere the description adds up. */
static void test_bundled_board_late_game(void **state)
{
    (void)state;
    d18_route_input *in = new_input();
    d18_route_result *br = calloc(1, sizeof *br);
    cr_rng rng;
    cr_rng_seed(&rng, 7, 18);
    int compared = 0;
    for (int i = 0; i < 16; i++) {
        assert_true(d18_router_late_position(d18_board_builtin(), &rng, in));
        solve(in);
        int64_t sum = res.fd_bonus;
        for (int t = 0; t < in->n_types; t++) sum += res.type_revenue[t];
        assert_int_equal(sum, res.total);
        uint64_t used[D18_ROUTE_WORDS] = {0};
        for (int k = 0; k < res.n_slots; k++) { /* R68: no space twice */
            const d18_route_entry *x = &res.slot[k];
            for (int j = 1; x->is_path && j < x->n_locs; j++) {
                int e = -1;
                for (int q = 0; q < in->n_spaces + in->has_castle && e < 0; q++) {
                    const d18_route_space *sp = q < in->n_spaces ? &in->sp[q] : &in->castle;
                    int ok = (sp->a == x->loc[j - 1] && sp->b == x->loc[j]) ||
                             (sp->b == x->loc[j - 1] && sp->a == x->loc[j]);
                    if (ok && !(used[q >> 6] >> (q & 63) & 1)) e = q;
                }
                assert_true(e >= 0);
                used[e >> 6] |= 1ull << (e & 63);
            }
        }
        if (d18_route_brute(in, 2000000, br) == CR_OK) {
            assert_true(same_result(&res, br));
            compared++;
        }
    }
    printf("# bundled board, late game: %d of 16 positions checked by the brute force\n", compared);
    assert_int_equal(raw_allocs, 0); /* every solve() of this file counted */
    assert_true(compared >= 2);
    free(br);
    free(in);
}

/* The slowest late-game positions of the benchmark (`bench_18d_router 1000
 * 1 0`: positions of seed 1 by number) keep the answers the router gave
 * before any speed-up: total and §13.6 description, exactly.  Position 638
 * (25,634 routes, an inf L2 not_blocked, a major-5 triple and a city-6 L2)
 * was the worst case, 981 the second, 664 the one with the most routes. */
static void test_bundled_board_worst_positions(void **state)
{
    (void)state;
    static const struct {
        int pos;
        int64_t total;
        const char *text;
    } cases[] = {
        {638, 1200,
         "t10 [(23,33,42,43,34,-1,33,34)] t12 [(15,25,-1), (24,25,26,27,-1), (35,36,37,46,"
         "45,-1)] t13 [(28,27,17,16,26,36,45,54,53,52,43,44,35,34,24,33,32,41,42,51,50,-1,"
         "33,34)] fd () = 1200"},
        {981, 1560,
         "t6 [(25), (25)] t12 [(1,0,9,19,20,10,11,2,3,4,-1), (6,15,-1), (27,26,36,45,54,-1"
         ")] t13 [(7,16,15,14,24,33,23,13,12,22,21,20,30,39,48,-1,13,33), (28,27,17,16,26,"
         "25,24,34,35,-1,17,34)] fd (2,4) = 1560"},
        {664, 1540,
         "t6 [(34)] t11 [(1,10,20,19,29,-1)] t13 [(11,21,31,32,33,23,24,14,15,6,7,16,26,25"
         ",35,34,43,52,53,54,45,46,-1,25,34), (12,13,23,22,32,41,42,33,24,25,15,16,17,27,2"
         "8,-1,25,33)] fd () = 1540"},
    };
    d18_route_input *in = new_input();
    cr_rng rng;
    cr_rng_seed(&rng, 1, 18);
    size_t next = 0;
    for (int i = 0; next < sizeof cases / sizeof cases[0] && i <= 981; i++) {
        assert_true(d18_router_late_position(d18_board_builtin(), &rng, in));
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
            if (cases[c].pos == i) {
                expect(in, cases[c].total, cases[c].text);
                next++;
            }
    }
    assert_int_equal(next, sizeof cases / sizeof cases[0]);
    assert_int_equal(raw_allocs, 0);
    free(in);
}

/* The same on seed 2 (`bench_18d_router 1000 2 0`): the slowest positions
 * once the Lagrangian bound priced odd-degree locations and the Flying
 * Dutchman (891: 3,040 routes, a triple with 3 route slots and an fd
 * bonus; 935 and 552 with fd bonuses too) keep the answers the router gave
 * before those changes. */
static void test_bundled_board_worst_positions_seed2(void **state)
{
    (void)state;
    static const struct {
        int pos;
        int64_t total;
        const char *text;
    } cases[] = {
        {552, 1480,
         "t6 [(43)] t11 [(9,19,29,-1)] t12 [(14,15,16,26,25,24,33,42,43,44,35,-1), (29,30,39,"
         "-1), (47,55,-1)] t13 [(29,38,39,40,31,30,20,10,11,21,22,32,33,23,24,34,43,52,53,-1,"
         "33,34)] fd (1,29) = 1480"},
        {891, 1380,
         "t6 [(43), (43)] t11 [(1,10,9,19,29,-1), (11,10,20,30,29,-1)] t12 [(23,33,24,34,43,"
         "52,53,54,45,-1), (29,38,39,30,31,32,33,42,51,58,59,52,-1), (47,55,54,60,61,-1)] fd "
         "(2,29) = 1380"},
        {935, 1470,
         "t6 [(33), (33)] t10 [(14,24,33,-1,14,33)] t12 [(2,3,12,13,23,22,-1), (11,21,31,-1),"
         " (29,30,31,32,33,-1)] t13 [(28,27,37,46,45,36,35,34,24,23,33,42,41,32,22,21,20,30,"
         "39,40,49,48,-1,33,34)] fd (5,29) = 1470"},
    };
    d18_route_input *in = new_input();
    cr_rng rng;
    cr_rng_seed(&rng, 2, 18);
    size_t next = 0;
    for (int i = 0; next < sizeof cases / sizeof cases[0] && i <= 935; i++) {
        assert_true(d18_router_late_position(d18_board_builtin(), &rng, in));
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
            if (cases[c].pos == i) {
                expect(in, cases[c].total, cases[c].text);
                next++;
            }
    }
    assert_int_equal(next, sizeof cases / sizeof cases[0]);
    assert_int_equal(raw_allocs, 0);
    free(in);
}

/* The first 200 late-game positions of both benchmark seeds keep the
 * descriptions the router gave before issue 19's speed-ups: a hash (FNV-1a)
 * of every description, each followed by a newline, as the router of main
 * at 24dd4d6 printed them (all 3,000 positions of seeds 1-3 were compared
 * when the speed-ups were made).  A faster search must leave every answer
 * as it was. */
static uint64_t fnv_text(uint64_t h, const char *s)
{
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return h;
}

static void test_bundled_board_answers_pinned(void **state)
{
    (void)state;
    static const uint64_t want[2] = {0x2f36106e35f6fce4u, 0xd76538efe12ed28cu};
    d18_route_input *in = new_input();
    for (int seed = 1; seed <= 2; seed++) {
        cr_rng rng;
        cr_rng_seed(&rng, (uint64_t)seed, 18);
        uint64_t h = 0xcbf29ce484222325u;
        for (int i = 0; i < 200; i++) {
            assert_true(d18_router_late_position(d18_board_builtin(), &rng, in));
            solve(in);
            h = fnv_text(fnv_text(h, desc(in)), "\n");
        }
        assert_true(h == want[seed - 1]);
    }
    assert_int_equal(raw_allocs, 0);
    free(in);
}

/* Issue 19's fourth session changed how the restarted search finds its
 * answer: the price fit reads every route only on some steps (fit sets
 * between, for parts of more than 2,048 routes), and aimed searches come
 * down from the fitted bound, each one that finds nothing proving the
 * maximum lower.  These positions all restart (the Lagrangian path) and
 * keep the answers the router of main at 22e5836 gave: seed 2's 183 (2,965
 * routes: fit sets; two aims find nothing before the third finds 1,210),
 * 338 (47,965 routes) and 454 (1,391 routes: every fit step reads all;
 * three aims find nothing, the fourth finds 860 where the plain search
 * had 830), seed 1's 968 (10,664 routes, and the Dutchman: four aims find
 * nothing, then the search from the plain total finds 1,280).
 * Were a failed aim taken for a proof it is not (say, of a maximum at
 * least two steps below it), these would differ.  The fitted bound only
 * steers: any prices give valid bounds, and the search's are computed
 * from every route once the fit ends. */
static void test_bundled_board_restarted_positions(void **state)
{
    (void)state;
    static const struct {
        int seed, pos;
        uint64_t routes;
        int64_t total;
        const char *text;
    } cases[] = {
        {1, 968, 10664, 1310,
         "t6 [(13)] t11 [(4,13,-1)] t13 [(6,5,14,13,12,22,21,20,30,39,40,49,50,51,42,43,44,53,"
         "52,59,-1,14,52), (17,8,7,6,15,14,24,23,22,32,31,30,29,-1,14,31)] fd (1,4) = 1310"},
        {2, 183, 2965, 1210,
         "t10 [(25,15,14,24,33,-1,14,33)] t12 [(4,5,6,15,16,26,25,24,23,33,-1), (22,32,31,40,"
         "49,-1), (28,27,37,46,45,54,55,47,-1), (33,32,41,50,-1), (33,42,-1), (47,46,55,-1)] "
         "fd () = 1210"},
        {2, 338, 47965, 1260,
         "t6 [(6), (17)] t9 [(22,32,33,24,25,-1)] t11 [(29,30,31,40,39,48,-1)] t13 [(14,15,25,"
         "35,44,43,34,24,23,33,42,41,32,31,21,11,10,9,19,20,30,39,38,29,-1,25,33)] fd () = "
         "1260"},
        {2, 454, 1391, 940,
         "t6 [(34)] t12 [(), (), (), (15,25,-1), (21,20,30,29,-1), (21,31,30,39,-1), (25,24,23,"
         "33,32,41,42,43,52,-1), (25,26,27,28,-1), (34,24,33,42,51,50,57,-1)] fd () = 940"},
    };
    d18_route_input *in = new_input();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cr_rng rng;
        cr_rng_seed(&rng, (uint64_t)cases[c].seed, 18);
        for (int i = 0; i <= cases[c].pos; i++)
            assert_true(d18_router_late_position(d18_board_builtin(), &rng, in));
        d18_route_stats st;
        char err[256];
        counting = 1;
        cr_status rc = d18_route_solve(in, ws, &res, &st, NULL, err, sizeof err);
        counting = 0;
        assert_int_equal(rc, CR_OK);
        assert_int_equal(st.routes, cases[c].routes);
        assert_int_equal(st.restarts, 1);
        assert_int_equal(res.total, cases[c].total);
        assert_string_equal(desc(in), cases[c].text);
    }
    assert_int_equal(raw_allocs, 0);
    free(in);
}

/* Revenues all multiplied by one factor leave the answer's description as
 * it was and multiply its total: the aimed searches after the restart round
 * their aims to the revenues' common divisor and step down by multiples of
 * it (10 on the bundled board; 1 and 70 here), which must change nothing
 * but the speed.  Positions 638 and 664 of seed 1 restart; at grain 10
 * some of their aims find nothing before one finds the answer. */
static void scale_input(d18_route_input *in, int mul, int div)
{
    for (int v = 0; v < in->n_locs; v++) {
        assert_int_equal(in->loc[v].value % div, 0);
        in->loc[v].value = in->loc[v].value / div * mul;
    }
    for (int t = 0; t < in->n_types; t++) {
        assert_int_equal(in->type[t].town % div, 0);
        in->type[t].town = in->type[t].town / div * mul;
    }
}

static void test_scaled_revenues_same_answer(void **state)
{
    (void)state;
    d18_route_input *in = new_input(), *scaled = new_input();
    static d18_route_result base;
    cr_rng rng;
    cr_rng_seed(&rng, 1, 18);
    int done = 0;
    for (int i = 0; i <= 664; i++) {
        assert_true(d18_router_late_position(d18_board_builtin(), &rng, in));
        if (i != 638 && i != 664) continue;
        char err[256];
        d18_route_stats st;
        assert_int_equal(d18_route_solve(in, ws, &base, &st, NULL, err, sizeof err), CR_OK);
        assert_int_equal(st.restarts, 1);
        static const int how[2][2] = {{1, 10}, {7, 1}};
        for (int k = 0; k < 2; k++) {
            *scaled = *in;
            scale_input(scaled, how[k][0], how[k][1]);
            assert_int_equal(d18_route_solve(scaled, ws, &res, &st, NULL, err, sizeof err), CR_OK);
            assert_int_equal(st.restarts, 1);
            assert_int_equal(res.total * how[k][1], base.total * how[k][0]);
            assert_int_equal(d18_route_result_cmp(&res, &base), 0);
        }
        done++;
    }
    assert_int_equal(done, 2);
    free(scaled);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dit_counts_every_location_R64_R66),
        cmocka_unit_test(test_city_towns_free_R100),
        cmocka_unit_test(test_city_never_offboard_R65),
        cmocka_unit_test(test_major_counts_cities_and_offboards),
        cmocka_unit_test(test_inf_unbounded_R64),
        cmocka_unit_test(test_home_stacking_R69),
        cmocka_unit_test(test_home_stacking_counts_castle_R69),
        cmocka_unit_test(test_howl_R127),
        cmocka_unit_test(test_linger_seed_example_R67),
        cmocka_unit_test(test_linger_uses_a_stop_R67),
        cmocka_unit_test(test_linger_cities_only_at_most_twice_R67),
        cmocka_unit_test(test_offboard_ends_only_and_export_R65),
        cmocka_unit_test(test_blocked_city_end_not_through_R60),
        cmocka_unit_test(test_no_office_flag),
        cmocka_unit_test(test_castle_R100),
        cmocka_unit_test(test_triple_three_disjoint_routes),
        cmocka_unit_test(test_monsters_share_no_route_space_R68),
        cmocka_unit_test(test_flying_dutchman_once_R90_R116),
        cmocka_unit_test(test_flying_dutchman_in_maximisation_R90),
        cmocka_unit_test(test_tiebreak_smaller_tuple_R117),
        cmocka_unit_test(test_tiebreak_fewer_routes_first_type_R117),
        cmocka_unit_test(test_tiebreak_linger_smaller_city_R117),
        cmocka_unit_test(test_tiebreak_linger_on_zero_city_R117),
        cmocka_unit_test(test_tiebreak_flying_dutchman_R117),
        cmocka_unit_test(test_tiebreak_home_R117),
        cmocka_unit_test(test_parallel_spaces),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_workspace_too_small_asks_for_more),
        cmocka_unit_test(test_scaled_revenues_same_answer),
        cmocka_unit_test(test_bundled_board_restarted_positions),
        cmocka_unit_test(test_matches_brute_force),
        cmocka_unit_test(test_small_workspace_matches_brute_force),
        cmocka_unit_test(test_more_routes_than_the_workspace),
        cmocka_unit_test(test_bundled_board_late_game),
        cmocka_unit_test(test_bundled_board_worst_positions),
        cmocka_unit_test(test_bundled_board_worst_positions_seed2),
        cmocka_unit_test(test_bundled_board_answers_pinned),
    };
    return cmocka_run_group_tests_name("18dracula router", tests, setup, teardown);
}
