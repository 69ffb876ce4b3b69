/* fuzz_18d_board.c — libFuzzer target: bytes -> d18_board_parse (18Dracula
 * board files, spec §14.1).
 *
 * A refused file must come with a one-line message naming the file and
 * leave the board zeroed.  An accepted board must keep every promise of
 * board.h: every index in range, the adjacency lists consistent with the
 * route spaces, exactly one castle start (pre-existing), homes and start
 * spaces yellow and distinct, par cells white with different prices, the
 * roster's rules (R99, R114) and every phase 2..5 reachable.  Parsing the
 * same bytes again gives the same board, and drawing it (d18_board_svg)
 * stays within its length.  ASan and UBSan watch the parser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "games/18dracula/board.h"

static void check_board(const d18_board *b)
{
    FUZZ_CHECK(b->n_locations >= 1 && b->n_locations <= D18_MAX_LOCATIONS, "n_locations");
    FUZZ_CHECK(b->n_cities + b->n_towns + b->n_offs == b->n_locations, "location counts");
    int degree = 0;
    for (int i = 0; i < b->n_locations; i++) {
        const d18_location *l = &b->loc[i];
        FUZZ_CHECK(l->kind <= D18_OFF && l->n_spaces <= D18_MAX_OFFICE_SPACES, "location %d", i);
        FUZZ_CHECK(l->n_adj <= D18_MAX_DEGREE, "degree of %d", i);
        FUZZ_CHECK(d18_board_find_location(b, l->id) == i, "lookup of %s", l->id);
        FUZZ_CHECK(memchr(l->name, '\0', sizeof l->name) && strlen(l->name) > 0, "name");
        if (l->kind == D18_CITY) FUZZ_CHECK(l->city_val[D18_YELLOW] >= 0, "yellow revenue");
        for (int c = 1; l->kind == D18_CITY && c < D18_NUM_COLOURS; c++)
            FUZZ_CHECK(l->city_val[c] >= 0, "city value at level %d", c);
        for (int s = 0; s < l->n_spaces; s++)
            FUZZ_CHECK(l->space_band[s] >= D18_YELLOW && l->space_band[s] <= D18_RED, "band");
        for (int k = 0; k < l->n_adj; k++) {
            FUZZ_CHECK(l->adj[k] < b->n_routes, "adjacency index");
            FUZZ_CHECK(b->route[l->adj[k]].a == i || b->route[l->adj[k]].b == i, "adjacency");
        }
        degree += l->n_adj;
    }
    FUZZ_CHECK(degree == 2 * b->n_routes, "adjacency count");
    int castles = 0;
    for (int r = 0; r < b->n_routes; r++) {
        const d18_route *rt = &b->route[r];
        FUZZ_CHECK(rt->a < b->n_locations && rt->b < b->n_locations && rt->a != rt->b, "ends");
        FUZZ_CHECK(!rt->pre_existing || (rt->colour == D18_NO_COLOUR && rt->cost == 0), "pre");
        FUZZ_CHECK(!rt->castle_start || rt->pre_existing, "castle start not pre-existing");
        FUZZ_CHECK(d18_board_find_route(b, rt->a, rt->b) == r, "route lookup");
        castles += rt->castle_start;
    }
    FUZZ_CHECK(castles == 1 && b->route[b->castle_start].castle_start, "castle start");
    for (int f = 0; f < D18_NUM_FRONTS; f++) {
        const d18_front *fr = &b->front[f];
        FUZZ_CHECK(fr->home < b->n_locations && b->loc[fr->home].kind == D18_CITY, "home city");
        FUZZ_CHECK(fr->home_space < b->loc[fr->home].n_spaces, "home space");
        FUZZ_CHECK(b->loc[fr->home].space_band[fr->home_space] == D18_YELLOW, "home band");
        FUZZ_CHECK(fr->n_offices >= 1 && fr->n_offices <= D18_MAX_FRONT_OFFICES, "offices");
        for (int g = 0; g < f; g++)
            FUZZ_CHECK(b->front[g].home != fr->home || b->front[g].home_space != fr->home_space,
                       "shared home space");
    }
    const d18_minor *m[2] = {&b->ll, &b->bt};
    for (int k = 0; k < 2; k++) {
        FUZZ_CHECK(m[k]->city < b->n_locations && m[k]->space < b->loc[m[k]->city].n_spaces,
                   "minor start");
        FUZZ_CHECK(m[k]->monster < b->n_monsters, "minor monster");
    }
    FUZZ_CHECK(b->monster[b->bt.monster].flags & D18_F_NURSE, "bt's nurse");
    FUZZ_CHECK(!(b->monster[b->ll.monster].flags & D18_F_NURSE), "ll's type");
    FUZZ_CHECK(b->n_par >= 1 && b->n_par <= D18_MAX_PAR, "par count");
    for (int i = 0; i < b->n_par; i++) {
        const d18_cell *c = d18_market_cell(b, b->par_row[i], b->par_col[i]);
        FUZZ_CHECK(c && c->par && c->zone == D18_WHITE, "par cell");
        if (i) {
            const d18_cell *p = d18_market_cell(b, b->par_row[i - 1], b->par_col[i - 1]);
            FUZZ_CHECK(p->price < c->price, "par prices ascending and different");
        }
    }
    int bank[D18_NUM_PHASES + 1] = {0}, copies = 0;
    for (int t = 0; t < b->n_monsters; t++) {
        const d18_monster *mt = &b->monster[t];
        FUZZ_CHECK(mt->copies >= 1 && mt->first_copy == copies, "copies");
        FUZZ_CHECK(mt->cf <= D18_CF_FANG && (mt->flags & ~D18_F_ALL) == 0, "claw/flags");
        FUZZ_CHECK(!!(mt->flags & D18_F_NURSE) == (mt->phase == 0), "R114");
        if (mt->move == D18_MOVE_HOME || mt->move == D18_MOVE_HOWL)
            FUZZ_CHECK(!(mt->flags & D18_F_PATH_FLAGS) && !mt->exports && !mt->linger, "R99");
        FUZZ_CHECK(mt->eaten == 0 || (mt->eaten > mt->phase && mt->eaten <= 5), "eaten");
        copies += mt->copies;
        bank[mt->phase] += mt->copies - (t == b->ll.monster) - (t == b->bt.monster);
    }
    FUZZ_CHECK(copies == b->n_copies && copies <= D18_MAX_MONSTER_COPIES, "copy count");
    for (int p = 2; p <= D18_NUM_PHASES; p++) FUZZ_CHECK(bank[p] >= 1, "phase %d unreachable", p);
    for (int c = D18_GREEN; c <= D18_RED; c++) {
        int total = 0;
        for (int p = 0; p < D18_NUM_PHASES; p++) total += b->release[p][c];
        FUZZ_CHECK(total <= b->cubes[c], "releases of colour %d", c);
    }
    /* money and associates: the rules' unless the file says, within bounds */
    FUZZ_CHECK(b->bank >= D18_MIN_BANK && b->bank <= D18_MAX_BANK, "bank");
    for (int n = 2; n <= D18_BOARD_MAX_PLAYERS; n++)
        FUZZ_CHECK(b->start_cash[n] >= 1 && b->start_cash[n] <= D18_MAX_START_CASH, "cash %d", n);
    for (int a = 0; a < D18_BOARD_ASSOCS; a++) {
        FUZZ_CHECK(b->assoc_price[a] >= 5 && b->assoc_price[a] <= D18_MAX_PRICE &&
                       b->assoc_price[a] % 5 == 0,
                   "associate %d's price", a);
        FUZZ_CHECK(a == 0 || b->assoc_price[a] >= b->assoc_price[a - 1], "associates' order");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static d18_board b, again;
    char err[512];
    memset(err, 'x', sizeof err);
    err[sizeof err - 1] = '\0';
    cr_status rc = d18_board_parse((const char *)data, size, "fuzz.board", &b, err, sizeof err);
    if (rc != CR_OK) {
        static const d18_board zero;
        FUZZ_CHECK(memcmp(&b, &zero, sizeof b) == 0, "a refused board was not zeroed");
        FUZZ_CHECK(strncmp(err, "fuzz.board", 10) == 0 && memchr(err, '\0', sizeof err - 1),
                   "a refused board (%s) came without a message naming the file",
                   cr_status_str(rc));
        FUZZ_CHECK(strchr(err, '\n') == NULL, "a message of more than one line: %s", err);
        return 0;
    }
    check_board(&b);
    rc = d18_board_parse((const char *)data, size, "fuzz.board", &again, err, sizeof err);
    FUZZ_CHECK(rc == CR_OK && memcmp(&b, &again, sizeof b) == 0, "parsing is not deterministic");
    static char svg[1 << 20];
    size_t n = d18_board_svg(&b, svg, sizeof svg);
    FUZZ_CHECK(n < sizeof svg && strlen(svg) == n,
               "the picture does not fit or lies about its length");
    return 0;
}
