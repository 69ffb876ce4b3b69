/* d18_test.h — helpers shared by 18Dracula's rule tests: a game over a
 * hand-built board (only what a test needs: the market grid, its zones and
 * par cells), and actions applied through the game's own legality check.
 *
 * The test market (rows 0..5 from the top, columns 0..7):
 *   price(r, c) = 40 + 10 * c + 10 * (5 - r);
 *   row 5 is yellow, and (5, 0), (5, 1) are orange; column 0 of rows 3..4
 *   is yellow; everything else is white;
 *   par cells: column 2, rows 4, 3, 2, 1 -> prices 70, 80, 90, 100.
 */
#ifndef D18_TEST_H
#define D18_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "games/18dracula/d18_internal.h"

static d18_board d18t_board;

static inline void d18t_make_board(void)
{
    d18_board *b = &d18t_board;
    memset(b, 0, sizeof *b);
    d18_board_rule_money(b);
    b->market_rows = 6;
    b->market_cols = 8;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 8; c++) {
            d18_cell *cell = &b->cell[r][c];
            cell->price = (int16_t)(40 + 10 * c + 10 * (5 - r));
            cell->zone = D18_WHITE;
            if (r == 5 || (c == 0 && r >= 3)) cell->zone = D18_ZONE_YELLOW;
            if (r == 5 && c <= 1) cell->zone = D18_ORANGE;
        }
    /* Ten cities with one yellow space each: the fronts' homes, then LL's
     * and BT's start cities; 4 offices a front (free, 40, 100, 100). */
    for (int l = 0; l < 10; l++) {
        d18_location *loc = &b->loc[l];
        loc->id[0] = 'C', loc->id[1] = (char)('0' + l), loc->id[2] = '\0'; /* C0..C9 */
        loc->kind = D18_CITY;
        loc->n_spaces = 1;
        loc->space_band[0] = D18_YELLOW;
        for (int lv = 0; lv < D18_NUM_COLOURS; lv++) loc->city_rev[lv] = loc->city_val[lv] = 20;
    }
    b->n_locations = b->n_cities = 10;
    for (int f = 0; f < D18_NUM_FRONTS; f++) {
        b->front[f].home = (uint8_t)f;
        b->front[f].n_offices = 4;
        b->front[f].office_cost[1] = 40;
        b->front[f].office_cost[2] = b->front[f].office_cost[3] = 100;
    }
    b->ll.city = 8;
    b->bt.city = 9;
    b->cubes[0] = 30, b->cubes[1] = 10, b->cubes[2] = 7, b->cubes[3] = 5;
    b->n_par = 4;
    for (int i = 0; i < 4; i++) {
        b->par_row[i] = (uint8_t)(4 - i);
        b->par_col[i] = 2;
        b->cell[4 - i][2].par = 1;
    }
}

static inline cr_game d18t_game(int np)
{
    d18t_make_board();
    cr_game g;
    memset(&g, 0, sizeof g);
    g.def = &d18_def;
    g.num_players = np;
    g.data = &d18t_board;
    g.num_actions = d18_num_actions();
    return g;
}

/* A new game seated in seat order (seat p at position p). */
static inline void d18t_seated(const cr_game *g, d18_state *s)
{
    g->def->init(g, s);
    assert_int_equal(g->def->current_player(g, s), CR_CHANCE);
    g->def->apply(g, s, d18_encode(D18_K_SEAT, 0, 0, 0), NULL);
}

/* A stock round `sr` (>= 1) with seat `p` to act and every associate
 * unsold (the tests set owners as they need). */
static inline void d18t_sr(const cr_game *g, d18_state *s, int sr, int p)
{
    d18t_seated(g, s);
    s->stage = D18_S_SR;
    s->sr_no = (uint16_t)sr;
    s->priority = (int8_t)p;
    s->actor = (int8_t)p;
    s->last_actor = -1;
}

static inline int d18t_money(const d18_state *s)
{
    int m = s->bank + s->minor_cash[0] + s->minor_cash[1];
    for (int p = 0; p < s->np; p++) m += s->cash[p];
    for (int f = 0; f < D18_NFRONTS; f++) m += s->treasury[f];
    return m;
}

/* Every listed action is legal, the list ascends, and the listed set
 * agrees with is_legal over the listed kinds. */
static inline int d18t_legal(const cr_game *g, const d18_state *s, cr_action *out)
{
    int n = g->def->legal_actions(g, s, out, NULL);
    for (int i = 0; i < n; i++) {
        assert_true(d18_is_legal(g, s, out[i]));
        if (i) assert_true(out[i - 1] < out[i]);
    }
    return n;
}

static inline int d18t_listed(const cr_game *g, const d18_state *s, cr_action a)
{
    cr_action out[4096];
    int n = d18t_legal(g, s, out);
    for (int i = 0; i < n; i++)
        if (out[i] == a) return 1;
    return 0;
}

static inline int d18t_ok(const cr_game *g, const d18_state *s, int kind, int o1, int o2, int amt)
{
    return d18_is_legal(g, s, d18_encode(kind, o1, o2, amt));
}

static inline void d18t_do(const cr_game *g, d18_state *s, int kind, int o1, int o2, int amt)
{
    cr_action a = d18_encode(kind, o1, o2, amt);
    assert_true(d18_is_legal(g, s, a));
    g->def->apply(g, s, a, NULL);
    assert_int_equal(d18t_money(s), D18_MONEY_TOTAL);
}

#endif
