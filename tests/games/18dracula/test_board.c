/* test_board.c — 18Dracula board files (spec §14.1) and the bundled board
 * (§14.2, §14.3).
 *
 * Part 1: the bundled board parses, is the file in the repository, and
 * holds every requirement of §14.2 and every proposal of §14.3 it adopts.
 * Part 2: broken boards.  Each case edits the bundled board's text (or
 * builds a file) so that exactly one rule breaks, and expects the parser to
 * refuse it with a message naming the file, the line (where the rule is
 * about one line) and what is wrong, leaving the board zeroed.  Each case is
 * its own cmocka test, named after the rule and the ruling it checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "games/18dracula/board.h"

static const char *const board_path = "src/games/18dracula/boards/medieval.board";
static const char *const svg_path = "docs/18dracula-board.svg";

/* Reads a file of the repository (tests run in the source directory). */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

static int loc_named(const d18_board *b, const char *name)
{
    for (int i = 0; i < b->n_locations; i++)
        if (strcmp(b->loc[i].name, name) == 0) return i;
    fail_msg("no location named %s", name);
    return -1;
}

/* The route space between two named places: present, plain unless said. */
static int join(const d18_board *b, const char *x, const char *y)
{
    int r = d18_board_find_route(b, loc_named(b, x), loc_named(b, y));
    if (r < 0) fail_msg("%s and %s are not joined", x, y);
    return r;
}

/* --- Part 1: the bundled board ---------------------------------------------- */

/* The compiled-in text is the repository's file, it parses, and its hash is
 * FNV-1a 64 of those bytes (like a board file's g->data_hash).  R98: the
 * numbers the engine uses are this file's, parsed like any board file. */
static void test_builtin_is_the_file(void **state)
{
    (void)state;
    size_t len, blen;
    char *text = slurp(board_path, &len);
    const char *btext = d18_board_builtin_text(&blen);
    assert_int_equal(len, blen);
    assert_memory_equal(text, btext, len);
    assert_int_equal(btext[blen], '\0');
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ull;
    }
    assert_true(d18_board_builtin_hash() == h);
    static d18_board b;
    char err[256];
    assert_int_equal(d18_board_parse(text, len, "medieval.board", &b, err, sizeof err), CR_OK);
    assert_memory_equal(&b, d18_board_builtin(), sizeof b);
    free(text);
}

/* The bank, the starting money and the associates' prices are the rules'
 * unless a board gives others (optional `bank`, `cash`, `assoc` records);
 * the bundled board gives none, so its bytes and its hash, which positions
 * and records carry as data_hash, are those of every earlier version. */
static void test_money_and_associates(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    /* the hash of the bundled board since issue 18 (main at 8144fcf) */
    assert_true(d18_board_builtin_hash() == 0x98c7c5b4635357bbull);
    assert_int_equal(b->bank, 12000);
    static const int cash[7] = {0, 0, 1200, 800, 600, 480, 400};
    static const int price[7] = {30, 50, 60, 80, 100, 115, 180};
    for (int n = 2; n <= 6; n++) assert_int_equal(b->start_cash[n], cash[n]);
    for (int a = 0; a < D18_BOARD_ASSOCS; a++) assert_int_equal(b->assoc_price[a], price[a]);
    /* each record, in any order; what a file leaves out keeps the rules' */
    size_t len;
    const char *orig = d18_board_builtin_text(&len);
    static const char extra[] = "cash 4 700 2 1000   # some players richer\n"
                                "assoc FD price 250\n"
                                "bank 8000\n"
                                "assoc LL price 95\n";
    char *text = malloc(len + sizeof extra);
    assert_non_null(text);
    memcpy(text, orig, len);
    memcpy(text + len, extra, sizeof extra);
    static d18_board m;
    char err[256];
    assert_int_equal(d18_board_parse(text, len + sizeof extra - 1, "m.board", &m, err, sizeof err),
                     CR_OK);
    assert_int_equal(m.bank, 8000);
    assert_int_equal(m.start_cash[2], 1000);
    assert_int_equal(m.start_cash[3], 800);
    assert_int_equal(m.start_cash[4], 700);
    assert_int_equal(m.start_cash[5], 480);
    assert_int_equal(m.start_cash[6], 400);
    static const int mprice[7] = {30, 50, 60, 95, 100, 115, 250};
    for (int a = 0; a < D18_BOARD_ASSOCS; a++) assert_int_equal(m.assoc_price[a], mprice[a]);
    /* equal prices keep the rules' order; the extremes are accepted */
    static const char edge[] = "assoc JH price 60\nassoc IL price 5\nassoc FD price 5000\n"
                               "bank 1000000\ncash 2 50000 3 1\n";
    memcpy(text + len, edge, sizeof edge);
    assert_int_equal(d18_board_parse(text, len + sizeof edge - 1, "m.board", &m, err, sizeof err),
                     CR_OK);
    assert_int_equal(m.assoc_price[0], 5);
    assert_int_equal(m.assoc_price[1], 60);
    assert_int_equal(m.assoc_price[2], 60);
    assert_int_equal(m.assoc_price[6], 5000);
    assert_int_equal(m.bank, 1000000);
    assert_int_equal(m.start_cash[2], 50000);
    assert_int_equal(m.start_cash[3], 1);
    free(text);
}

/* §14.2: full-game size. */
static void test_builtin_size(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    assert_in_range(b->n_cities, 15, 25);
    assert_in_range(b->n_towns, 30, 50);
    assert_in_range(b->n_offs, 6, 8);
    assert_in_range(b->n_routes, 80, 120);
    assert_int_equal(b->n_locations, b->n_cities + b->n_towns + b->n_offs);
    int fixed = 0, costly = 0, pre = 0;
    for (int r = 0; r < b->n_routes; r++) {
        fixed += b->route[r].colour != D18_NO_COLOUR;
        costly += b->route[r].cost > 0;
        pre += b->route[r].pre_existing;
    }
    assert_true(fixed > 0 && costly > 0 && pre > 1);
}

/* §8.6.3's two worked examples need these joins, all ordinary route spaces
 * (no fixed colour, no cost, not pre-existing), and Blackford, Keifercourt,
 * Sadie with no pre-existing connection (their slots start empty). */
static void test_builtin_example_places(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    const char *pairs[][2] = {{"Blackford", "Hollick"},    {"Keifercourt", "Morefrite"},
                              {"Keifercourt", "Badlands"}, {"Blackford", "Keifercourt"},
                              {"Sadie", "Blackford"},      {"Sadie", "Overlook"},
                              {"Sadie", "Balath"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const d18_route *r = &b->route[join(b, pairs[i][0], pairs[i][1])];
        assert_int_equal(r->colour, D18_NO_COLOUR);
        assert_int_equal(r->cost, 0);
        assert_false(r->pre_existing);
    }
    const char *fresh[] = {"Blackford", "Keifercourt", "Sadie", "Hollick",
                           "Morefrite", "Badlands",    "Balath"};
    for (size_t i = 0; i < sizeof fresh / sizeof fresh[0]; i++) {
        const d18_location *l = &b->loc[loc_named(b, fresh[i])];
        for (int k = 0; k < l->n_adj; k++) assert_false(b->route[l->adj[k]].pre_existing);
    }
    assert_int_equal(b->loc[loc_named(b, "Blackford")].kind, D18_CITY);
    assert_int_equal(b->loc[loc_named(b, "Keifercourt")].kind, D18_CITY);
    assert_int_equal(b->loc[loc_named(b, "Balath")].kind, D18_CITY);
    assert_int_equal(b->loc[loc_named(b, "Dracuul")].kind, D18_CITY);
}

/* §14.2: Overlook has spaces banded Y, G, R, pays 50 at blue and has at least
 * four route spaces (the level example: a blue cube next to a green one). */
static void test_builtin_overlook(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    const d18_location *o = &b->loc[loc_named(b, "Overlook")];
    assert_int_equal(o->kind, D18_CITY);
    assert_int_equal(o->n_spaces, 3);
    assert_int_equal(o->space_band[0], D18_YELLOW);
    assert_int_equal(o->space_band[1], D18_GREEN);
    assert_int_equal(o->space_band[2], D18_RED);
    assert_int_equal(d18_city_value(b, loc_named(b, "Overlook"), D18_BLUE), 50);
    assert_true(o->n_adj >= 4);
    /* its red revenue is absent: red pays blue's 50 (§8.5) */
    assert_int_equal(o->city_rev[D18_RED], D18_ABSENT);
    assert_int_equal(o->city_val[D18_RED], 50);
}

/* §14.2, R116: Helifax 30/50/50/100/100; exactly the four named off-boards
 * carry fd. */
static void test_builtin_offboards(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    int h = loc_named(b, "Helifax");
    assert_int_equal(b->loc[h].kind, D18_OFF);
    const int want[5] = {30, 50, 50, 100, 100};
    for (int p = 1; p <= 5; p++) assert_int_equal(d18_off_value(b, h, p), want[p - 1]);
    const char *fd[] = {"Dead Man's Bay", "Helifax", "Endsport", "Southport"};
    int n_fd = 0;
    for (int i = 0; i < b->n_locations; i++) n_fd += b->loc[i].fd;
    assert_int_equal(n_fd, 4);
    for (int i = 0; i < 4; i++) {
        const d18_location *l = &b->loc[loc_named(b, fd[i])];
        assert_int_equal(l->kind, D18_OFF);
        assert_true(l->fd);
    }
}

/* R36, §14.3: the castle starts on the pre-existing Dracuul–Overlook space. */
static void test_builtin_castle(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    int r = join(b, "Dracuul", "Overlook");
    assert_int_equal(b->castle_start, r);
    assert_true(b->route[r].castle_start);
    assert_true(b->route[r].pre_existing);
    int n = 0;
    for (int i = 0; i < b->n_routes; i++) n += b->route[i].castle_start;
    assert_int_equal(n, 1);
}

/* §2.6, R114, §14.3: LL in Balath with Steelclaw, BT in Blackford with a Nurse. */
static void test_builtin_minors(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    assert_int_equal(b->ll.city, loc_named(b, "Balath"));
    assert_int_equal(b->bt.city, loc_named(b, "Blackford"));
    assert_int_equal(b->loc[b->ll.city].space_band[b->ll.space], D18_YELLOW);
    assert_int_equal(b->loc[b->bt.city].space_band[b->bt.space], D18_YELLOW);
    const d18_monster *s = &b->monster[b->ll.monster];
    assert_string_equal(s->name, "Steelclaw");
    assert_int_equal(s->copies, 1);
    assert_int_equal(s->cf, D18_CF_CLAW);
    assert_int_equal(s->phase, 1);
    assert_int_equal(s->eaten, 4);
    const d18_monster *n = &b->monster[b->bt.monster];
    assert_string_equal(n->name, "Nurse");
    assert_true(n->flags & D18_F_NURSE);
    assert_int_equal(n->move, D18_MOVE_HOME);
    assert_int_equal(n->phase, 0);
    assert_int_equal(n->eaten, 4);
}

/* §1.3, R58, R59, §14.3: 8 fronts, homes in distinct yellow spaces, offices
 * free + 40, 100, 100. */
static void test_builtin_fronts(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    for (int f = 0; f < D18_NUM_FRONTS; f++) {
        const d18_front *fr = &b->front[f];
        assert_int_equal(b->loc[fr->home].kind, D18_CITY);
        assert_int_equal(b->loc[fr->home].space_band[fr->home_space], D18_YELLOW);
        assert_int_equal(fr->n_offices, 4);
        assert_int_equal(fr->office_cost[0], 0);
        assert_int_equal(fr->office_cost[1], 40);
        assert_int_equal(fr->office_cost[2], 100);
        assert_int_equal(fr->office_cost[3], 100);
        assert_int_equal(d18_board_find_front(b, fr->id), f);
        for (int g = 0; g < f; g++)
            assert_false(b->front[g].home == fr->home && b->front[g].home_space == fr->home_space);
        assert_false(fr->home == b->ll.city && fr->home_space == b->ll.space);
        assert_false(fr->home == b->bt.city && fr->home_space == b->bt.space);
    }
}

/* §1.6, R43, R44, R37, §14.3: cubes, releases and the phase chart. */
static void test_builtin_cubes_and_phases(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    const int cubes[4] = {30, 10, 7, 5};
    const int release[5][4] = {{0}, {0, 6, 0, 0}, {0, 4, 4, 0}, {0, 0, 3, 3}, {0, 0, 0, 2}};
    const int sales[5] = {12, 10, 8, 6, 0}, limit[5] = {6, 5, 4, 3, 3}, ors[5] = {1, 2, 2, 3, 3};
    for (int c = 0; c < 4; c++) assert_int_equal(b->cubes[c], cubes[c]);
    for (int p = 0; p < 5; p++) {
        for (int c = 0; c < 4; c++) assert_int_equal(b->release[p][c], release[p][c]);
        assert_int_equal(b->sales[p], sales[p]);
        assert_int_equal(b->limit[p], limit[p]);
        assert_int_equal(b->ors[p], ors[p]);
    }
}

/* R24, R28, R107, R122: par cells 67..100 in one column, white; prices never
 * lower than the cell to the left or below; room to move right and up from
 * each par cell; white, yellow and orange zones with orange lowest. */
static void test_builtin_market(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    const int par[6] = {67, 73, 80, 87, 93, 100};
    assert_int_equal(b->n_par, 6);
    for (int i = 0; i < 6; i++) {
        const d18_cell *c = d18_market_cell(b, b->par_row[i], b->par_col[i]);
        assert_non_null(c);
        assert_int_equal(c->price, par[i]);
        assert_true(c->par);
        assert_int_equal(c->zone, D18_WHITE);
        assert_int_equal(b->par_col[i], b->par_col[0]);
        assert_non_null(d18_market_cell(b, b->par_row[i], b->par_col[i] + 3));
        assert_non_null(d18_market_cell(b, b->par_row[i] - 1, b->par_col[i]));
    }
    assert_in_range(b->market_rows, 9, 13);
    int zones[3] = {0}, max_orange = 0, min_white = 10000;
    for (int r = 0; r < b->market_rows; r++)
        for (int c = 0; c < b->market_cols; c++) {
            const d18_cell *x = d18_market_cell(b, r, c);
            if (x == NULL) continue;
            zones[x->zone]++;
            const d18_cell *left = d18_market_cell(b, r, c - 1);
            const d18_cell *below = d18_market_cell(b, r + 1, c);
            if (left) assert_true(x->price >= left->price);
            if (below) assert_true(x->price >= below->price);
            if (x->zone == D18_ORANGE && x->price > max_orange) max_orange = x->price;
            if (x->zone == D18_WHITE && x->price < min_white) min_white = x->price;
        }
    assert_true(zones[D18_WHITE] > zones[D18_ZONE_YELLOW] + zones[D18_ORANGE]);
    assert_true(zones[D18_ZONE_YELLOW] > 0 && zones[D18_ORANGE] > 0);
    assert_true(max_orange < min_white);
    assert_null(d18_market_cell(b, -1, 0));
    assert_null(d18_market_cell(b, 0, D18_MAX_MARKET_COLS));
}

/* §14.2, §8.9: every movement type and flag, claws and fangs, lingers,
 * export, types eaten in each phase 2..5, and every phase reachable (§7.2);
 * R92: the roster is the board file's, in its order. */
static void test_builtin_roster(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    int moves = 0, eaten = 0, claw = 0, fang = 0, linger = 0, exports = 0;
    unsigned flags = 0;
    int bank[6] = {0};
    for (int t = 0; t < b->n_monsters; t++) {
        const d18_monster *m = &b->monster[t];
        moves |= 1 << m->move;
        flags |= m->flags;
        eaten |= 1 << m->eaten;
        claw += m->cf == D18_CF_CLAW;
        fang += m->cf == D18_CF_FANG;
        linger += m->linger > 0;
        exports += m->exports;
        bank[m->phase] += m->copies - (t == b->ll.monster) - (t == b->bt.monster);
        assert_int_equal(d18_board_find_monster(b, m->id), t);
    }
    assert_int_equal(moves, (1 << 6) - 1);
    assert_int_equal(flags, D18_F_ALL);
    assert_int_equal(eaten & 0x3c, 0x3c); /* phases 2, 3, 4, 5 */
    assert_true(claw >= 2 && fang >= 1 && linger >= 1 && exports >= 1);
    for (int p = 2; p <= 5; p++) assert_true(bank[p] >= 1);
    assert_true(bank[1] >= b->sales[0]); /* phase 1 lasts its S(1) purchases */
}

/* Derived tables: adjacency both ways, lookups by id, copies numbering. */
static void test_builtin_derived(void **state)
{
    (void)state;
    const d18_board *b = d18_board_builtin();
    int deg = 0;
    for (int i = 0; i < b->n_locations; i++) {
        const d18_location *l = &b->loc[i];
        assert_int_equal(d18_board_find_location(b, l->id), i);
        for (int k = 0; k < l->n_adj; k++) {
            const d18_route *r = &b->route[l->adj[k]];
            assert_true(r->a == i || r->b == i);
            if (k) assert_true(l->adj[k] > l->adj[k - 1]);
        }
        deg += l->n_adj;
    }
    assert_int_equal(deg, 2 * b->n_routes);
    for (int r = 0; r < b->n_routes; r++) {
        assert_int_equal(d18_board_find_route(b, b->route[r].a, b->route[r].b), r);
        assert_int_equal(d18_board_find_route(b, b->route[r].b, b->route[r].a), r);
        assert_int_equal(d18_route_other(b, r, b->route[r].a), b->route[r].b);
    }
    assert_int_equal(d18_board_find_location(b, "NOPE"), -1);
    assert_int_equal(d18_board_find_monster(b, "NOPE"), -1);
    assert_int_equal(d18_board_find_front(b, "NOPE"), -1);
    int next = 0;
    for (int t = 0; t < b->n_monsters; t++) {
        assert_int_equal(b->monster[t].first_copy, next);
        next += b->monster[t].copies;
    }
    assert_int_equal(b->n_copies, next);
}

/* The format's tolerance: CRLF line ends and comments change nothing. */
static void test_crlf_and_comments(void **state)
{
    (void)state;
    size_t len;
    const char *text = d18_board_builtin_text(&len);
    char *crlf = malloc(2 * len + 64);
    assert_non_null(crlf);
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            memcpy(crlf + n, "  # a comment \"with a quote\r\n", 29);
            n += 29;
        } else {
            crlf[n++] = text[i];
        }
    }
    static d18_board b;
    char err[256];
    cr_status rc = d18_board_parse(crlf, n, "crlf.board", &b, err, sizeof err);
    if (rc != CR_OK) fail_msg("%s", err);
    assert_memory_equal(&b, d18_board_builtin(), sizeof b);
    free(crlf);
}

/* The picture in the docs is d18_board_svg's output for the bundled board. */
static void test_svg_is_current(void **state)
{
    (void)state;
    size_t len;
    char *svg = slurp(svg_path, &len);
    static char buf[1 << 20];
    size_t n = d18_board_svg(d18_board_builtin(), buf, sizeof buf);
    assert_true(n < sizeof buf);
    if (n != len || memcmp(svg, buf, n) != 0)
        fail_msg("%s is stale: regenerate with build/d18-board-svg -o %s", svg_path, svg_path);
    /* snprintf semantics: a short buffer gets a prefix and the full length */
    char small[64];
    assert_int_equal(d18_board_svg(d18_board_builtin(), small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, buf, sizeof small - 1);
    free(svg);
}

/* --- Part 2: broken boards ---------------------------------------------------- */

typedef struct broken {
    const char *name; /* the rule, and the ruling it cites */
    /* edits of the bundled text: each `find` (first occurrence) becomes `repl` */
    const char *find[3], *repl[3];
    const char *append; /* a line added at the end */
    const char *expect; /* a piece of the message */
    int at_edit;        /* the message names the line of the first edit */
    cr_status rc;
} broken;

#define E1(f, r) .find = {f}, .repl = {r}
#define INV      CR_ERR_INVALID
#define SYN      CR_ERR_PARSE

static const broken cases[] = {
    /* the version line */
    {"version_unsupported", E1("croupier-board 18dracula 1", "croupier-board 18dracula 2"),
     .expect = "version '2' is not supported", .at_edit = 1, .rc = INV},
    {"version_other_game", E1("croupier-board 18dracula 1", "croupier-board dml 1"),
     .expect = "not 18dracula", .at_edit = 1, .rc = INV},
    {"version_line_missing", E1("croupier-board 18dracula 1", "# no version line"),
     .expect = "not a croupier board file", .at_edit = 1, .rc = SYN},
    /* lexical */
    {"lex_non_ascii_byte",
     E1("\"Sadie\"", "\"S\xc3\xa4"
                     "die\""),
     .expect = "byte 0xc3", .at_edit = 1, .rc = SYN},
    {"lex_control_byte",
     E1("\"Sadie\"", "\"Sa\x01"
                     "die\""),
     .expect = "byte 0x01", .at_edit = 1, .rc = SYN},
    {"lex_name_not_closed", E1("\"Blackford\"", "\"Blackford"), .expect = "not closed",
     .at_edit = 1, .rc = SYN},
    {"lex_name_too_long", E1("\"Blackford\"", "\"Blackford-upon-the-Withering-Marshes-of-Dread\""),
     .expect = "a name has 1 to 39 characters", .at_edit = 1, .rc = INV},
    {"lex_bad_id", E1("city BLK", "city B-K"), .expect = "'B-K' is not an id", .at_edit = 1,
     .rc = SYN},
    {"lex_unknown_record", .append = "river BLK HOL", .expect = "unknown record 'river'",
     .rc = SYN},
    {"lex_unknown_key", E1("at 450 270", "at 450 270 spooky"), .expect = "unknown key 'spooky'",
     .at_edit = 1, .rc = SYN},
    {"lex_key_twice", E1("at 470 164", "at 470 164 at 1 1"), .expect = "'at' is given twice",
     .at_edit = 1, .rc = SYN},
    {"lex_number_overflow", E1("price 80", "price 99999999999999999999"),
     .expect = "expected a whole number from 1 to 5000", .at_edit = 1, .rc = INV},
    {"lex_negative_number", E1("price 80", "price -80"),
     .expect = "expected a whole number from 1 to 5000", .at_edit = 1, .rc = INV},
    {"lex_coordinate_out_of_range", E1("at 470 164", "at 470 1640"),
     .expect = "at (y): expected a whole number from 0 to 1000", .at_edit = 1, .rc = INV},
    /* locations (§14.1) */
    {"location_duplicate_id", E1("city BLK", "city HOL"), .expect = "the id 'HOL' is already used",
     .at_edit = 1, .rc = INV},
    {"city_yellow_revenue_required_8_5",
     E1("rev 20 30 40 50  offices Y Y G   at 470", "rev - 30 40 50  offices Y Y G   at 470"),
     .expect = "the yellow revenue is required", .at_edit = 1, .rc = INV},
    {"city_rev_missing", E1("rev 20 30 40 50  offices Y Y G   at 470", "offices Y Y G   at 470"),
     .expect = "'rev' is missing", .at_edit = 1, .rc = INV},
    {"city_too_many_office_spaces", E1("offices Y Y G   at 470", "offices Y Y G G B R R at 470"),
     .expect = "more than 6 office spaces", .at_edit = 1, .rc = INV},
    {"city_at_missing", E1("   at 470 164", ""), .expect = "'at X Y' is missing", .at_edit = 1,
     .rc = INV},
    {"town_has_no_revenue_R66", E1("at 450 270", "rev 10 at 450 270"),
     .expect = "a town has no revenue of its own, R66", .at_edit = 1, .rc = SYN},
    {"offboard_revenue_needs_five_phases", E1("rev 30 50 50 100 100 fd", "rev 30 50 50 100 fd"),
     .expect = "off rev (phase 5): expected a whole number", .at_edit = 1, .rc = INV},
    {"fd_only_on_offboards_R116", E1("at 470 164", "at 470 164 fd"),
     .expect = "only off-boards carry fd, R116", .at_edit = 1, .rc = SYN},
    /* route spaces */
    {"route_unknown_location", E1("route BLK KEI", "route BLK ZZZ"),
     .expect = "unknown location 'ZZZ'", .at_edit = 1, .rc = INV},
    {"route_joins_itself", E1("route BLK KEI", "route BLK BLK"), .expect = "to itself",
     .at_edit = 1, .rc = INV},
    {"route_duplicate_pair", .append = "route KEI BLK", .expect = "already joined", .rc = INV},
    {"route_pre_existing_with_cost_8_6_4",
     E1("route FRG RAV pre_existing", "route FRG RAV pre_existing cost 10"),
     .expect = "pre_existing route space has no cost", .at_edit = 1, .rc = INV},
    {"route_pre_existing_with_colour_8_6_4",
     E1("route FRG RAV pre_existing", "route FRG RAV pre_existing colour G"),
     .expect = "pre_existing route space has no fixed colour", .at_edit = 1, .rc = INV},
    {"route_cost_at_least_1", E1("cost 20", "cost 0"),
     .expect = "route cost: expected a whole number from 1", .at_edit = 1, .rc = INV},
    {"route_bad_colour", E1("colour G", "colour P"), .expect = "expected a colour Y, G, B or R",
     .at_edit = 1, .rc = INV},
    {"castle_start_not_pre_existing_R36",
     E1("route OVL DRA pre_existing castle_start", "route OVL DRA castle_start"),
     .expect = "castle_start route space must be pre_existing (R36)", .at_edit = 1, .rc = INV},
    {"castle_start_missing_R36",
     E1("route OVL DRA pre_existing castle_start", "route OVL DRA pre_existing"),
     .expect = "no route space is flagged castle_start", .rc = INV},
    {"castle_start_twice_R36",
     E1("route FRG RAV pre_existing", "route FRG RAV pre_existing castle_start"),
     .expect = "a second castle_start", .rc = INV},
    /* fronts */
    {"fronts_exactly_8",
     E1("front NBC \"Nightshade Bottling Co.\"  home RAV 1 offices 40 100 100", "# no NBC"),
     .expect = "7 fronts; a board has exactly 8", .rc = INV},
    {"fronts_not_9", .append = "front XTR \"Extra\" home RAV 2", .expect = "more than 8 fronts",
     .rc = INV},
    {"front_duplicate_id", E1("front VCC", "front NBC"), .expect = "the id 'NBC' is already used",
     .at_edit = 1, .rc = INV},
    {"front_home_not_a_city", E1("home RAV 1", "home HOL 1"), .expect = "HOL is not a city",
     .at_edit = 1, .rc = INV},
    {"front_home_space_out_of_range", E1("home RAV 1", "home RAV 4"),
     .expect = "office space of RAV: expected a whole number from 1 to 3", .at_edit = 1, .rc = INV},
    {"front_home_space_not_yellow_R58", E1("home RAV 1", "home RAV 3"),
     .expect = "has a green band; a home or start space must be yellow (R58)", .at_edit = 1,
     .rc = INV},
    {"front_home_space_shared", E1("home GAL 1", "home RAV 1"),
     .expect = "already the home space of NBC", .at_edit = 1, .rc = INV},
    {"front_home_missing", E1("home RAV 1 offices", "offices"),
     .expect = "'home CITY SPACE' is missing", .at_edit = 1, .rc = INV},
    {"front_office_costs_cheapest_first_R59", E1("offices 40 100 100", "offices 100 40 100"),
     .expect = "cheapest first (R59)", .at_edit = 1, .rc = INV},
    {"front_too_many_offices", E1("offices 40 100 100", "offices 40 40 40 40 40 40 40 40"),
     .expect = "more than 8 offices", .at_edit = 1, .rc = INV},
    /* LL and BT (§2.6, R114, R58) */
    {"ll_missing", E1("ll start BAL 1 monster STC", "# no ll"), .expect = "no 'll' line",
     .rc = INV},
    {"ll_twice", .append = "ll start BAL 1 monster STC", .expect = "ll: given twice", .rc = INV},
    {"ll_start_is_a_home_space", E1("home GAL 1", "home BAL 1"),
     .expect = "ll start: office space 1 of BAL is already the home space of VCC", .rc = INV},
    {"ll_monster_is_a_nurse_R114", E1("ll start BAL 1 monster STC", "ll start BAL 1 monster NUR"),
     .expect = "NUR is a nurse type; LL's starting type is not (R114)", .rc = INV},
    {"ll_monster_unknown", E1("ll start BAL 1 monster STC", "ll start BAL 1 monster XXX"),
     .expect = "unknown monster type 'XXX'", .rc = INV},
    {"bt_monster_not_a_nurse_R114", E1("bt start BLK 1 monster NUR", "bt start BLK 1 monster GHL"),
     .expect = "GHL is not a nurse type", .at_edit = 1, .rc = INV},
    {"bt_start_not_yellow_R58", E1("bt start BLK 1", "bt start BLK 3"),
     .expect = "a home or start space must be yellow (R58)", .at_edit = 1, .rc = INV},
    {"bt_start_is_ll_start_14_1", E1("bt start BLK 1", "bt start BAL 1"),
     .expect = "office space 1 of BAL is already the start space of ll", .at_edit = 1, .rc = INV},
    /* a front listed after bt: the whole-file check finds the shared space */
    {"front_after_bt_on_bt_start_14_1",
     E1("front NBC \"Nightshade Bottling Co.\"  home RAV 1 offices 40 100 100", "# NBC moved"),
     .append = "front NBC \"Nightshade Bottling Co.\" home BLK 1",
     .expect = "front home: office space 1 of BLK is already the start space of bt", .rc = INV},
    /* cubes (R43, R44) */
    {"cubes_missing", E1("cubes 30 10 7 5", "# no cubes"), .expect = "no 'cubes' line", .rc = INV},
    {"cubes_yellow_includes_tracker_R44", E1("cubes 30 10 7 5", "cubes 0 10 7 5"),
     .expect = "cubes (yellow): expected a whole number from 1", .at_edit = 1, .rc = INV},
    {"cubes_released_exceed_count_R43", E1("cubes 30 10 7 5", "cubes 30 9 7 5"),
     .expect = "10 green cubes are released, more than the 9", .rc = INV},
    {"cubes_blue_before_phase_3_R43", E1("release 6 0 0", "release 6 1 0"),
     .expect = "blue cubes may enter the supply only from phase 3 on (R43)", .at_edit = 1,
     .rc = INV},
    /* phase chart (§7.1, R37) */
    {"phase_missing", E1("phase 3 sales 8  limit 4 ors 2 release 4 4 0", "# no phase 3"),
     .expect = "no 'phase 3' line", .rc = INV},
    {"phase_twice", .append = "phase 2 sales 10 limit 5 ors 2", .expect = "phase 2: given twice",
     .rc = INV},
    {"phase_sales_at_least_1_7_1", E1("phase 1 sales 12", "phase 1 sales 0"),
     .expect = "phase 1 sales: expected a whole number from 1", .at_edit = 1, .rc = INV},
    {"phase_5_has_no_sales_7_2", E1("phase 5          limit", "phase 5 sales 4 limit"),
     .expect = "phase 5: no 'sales'", .at_edit = 1, .rc = INV},
    {"phase_ors_1_to_3_8_1", E1("limit 3 ors 3 release 0 3 3", "limit 3 ors 4 release 0 3 3"),
     .expect = "phase 4 ors: expected a whole number from 1 to 3", .at_edit = 1, .rc = INV},
    {"phase_limit_at_least_1_8_11_3", E1("limit 6", "limit 0"),
     .expect = "phase 1 limit: expected a whole number from 1", .at_edit = 1, .rc = INV},
    /* market (R24, R107) */
    {"market_par_not_white_R24", E1("100p", "100yp"), .expect = "is not white (R24)", .at_edit = 1,
     .rc = INV},
    {"market_par_price_twice_R24", E1("93p", "100p"), .expect = "par price 100 is used twice",
     .at_edit = 1, .rc = INV},
    {"market_bad_cell", E1("93p", "93q"), .expect = "'93q' is not a cell", .at_edit = 1, .rc = SYN},
    {"market_row_twice_R107", .append = "market 0 0 10", .expect = "row 0 is given twice",
     .rc = INV},
    {"market_row_out_of_range_R107", .append = "market 16 0 10",
     .expect = "market row: expected a whole number from 0 to 15", .rc = INV},
    {"market_price_at_least_1", E1("93p", "0"), .expect = "expected a whole number from 1 to 5000",
     .at_edit = 1, .rc = INV},
    /* monster roster (§14.1, §8.9, R99, R114) */
    {"monster_duplicate_id", E1("monster GHL", "monster STC"),
     .expect = "the id 'STC' is already used by the monster", .at_edit = 1, .rc = INV},
    {"monster_copies_at_least_1", E1("copies 8", "copies 0"),
     .expect = "monster copies: expected a whole number from 1", .at_edit = 1, .rc = INV},
    {"monster_claw_and_fang_8_11_2", E1("move city 2  claw", "move city 2  claw fang"),
     .expect = "a claw and a fang on one type", .at_edit = 1, .rc = INV},
    {"monster_eaten_later_than_phase", E1("phase 2 price 180 eaten 4", "phase 2 price 180 eaten 2"),
     .expect = "eaten in phase 2, not later than its phase 2", .at_edit = 1, .rc = INV},
    {"monster_eaten_or_permanent", E1("eaten 3   move dit 2", "move dit 2"),
     .expect = "give either 'eaten P' or 'permanent'", .at_edit = 1, .rc = INV},
    {"monster_unknown_movement_R99", E1("move dit 2", "move fly 2"),
     .expect = "'fly' is not a movement type", .at_edit = 1, .rc = INV},
    {"monster_n_missing_8_9_3", E1("move dit 3", "move dit"), .expect = "N is missing",
     .at_edit = 1, .rc = INV},
    {"monster_n_on_home_R99", E1("move home    nurse", "move home 2 nurse"),
     .expect = "move home: takes no N (R99)", .at_edit = 1, .rc = INV},
    {"monster_howl_with_path_flag_R99",
     E1("move howl    town 20", "move howl    town 20 not_blocked"),
     .expect = "'not_blocked' on a howl monster, which runs no path (R99)", .at_edit = 1,
     .rc = INV},
    {"monster_home_with_path_flag_R99",
     E1("move home    limit_exempt", "move home    triple limit_exempt"),
     .expect = "'triple' on a home monster, which runs no path (R99)", .at_edit = 1, .rc = INV},
    {"monster_howl_is_not_a_flag_R99", E1("move city 3  claw", "move city 3  claw howl"),
     .expect = "howl is a movement type", .at_edit = 1, .rc = SYN},
    {"monster_export_on_city_8_9_3", E1("move city 3  claw", "move city 3  claw export"),
     .expect = "'export' on a city monster", .at_edit = 1, .rc = INV},
    {"monster_linger_on_home_8_9_3",
     E1("move home    limit_exempt", "move home    linger 1 limit_exempt"),
     .expect = "'linger' on a home monster", .at_edit = 1, .rc = INV},
    /* R91: the Medieval Edition has no upgrades, so no trade-in field */
    {"monster_no_trade_in_R91", E1("move city 3  claw", "move city 3  claw trade 100"),
     .expect = "unknown key 'trade'", .at_edit = 1, .rc = SYN},
    {"monster_unknown_flag_8_9_8", E1("move city 3  claw", "move city 3  claw flying"),
     .expect = "unknown key 'flying'", .at_edit = 1, .rc = SYN},
    {"monster_nurse_flag_on_phase_1_R114", E1("copies 6 phase 0", "copies 6 phase 1"),
     .expect = "the nurse flag on a phase-1 type; nurse types have phase 0 (R114)", .at_edit = 1,
     .rc = INV},
    {"monster_phase_0_without_nurse_14_1", E1("copies 8 phase 1", "copies 8 phase 0"),
     .expect = "phase 0 without the nurse flag", .at_edit = 1, .rc = INV},
    {"phase_5_unreachable_7_2", .find = {"copies 3 phase 5", "copies 4 phase 5"},
     .repl = {"copies 3 phase 4", "copies 4 phase 4"},
     .expect = "phase 5 cannot be reached: no phase-5 monster is in the bank", .rc = INV},
    {"phase_2_unreachable_only_ll_copy_7_2",
     .find = {"copies 1 phase 1 price 90  eaten 4", "copies 6 phase 2", "copies 3 phase 2"},
     .repl = {"copies 1 phase 2 price 90  eaten 4", "copies 6 phase 3", "copies 3 phase 3"},
     .expect = "phase 2 cannot be reached", .rc = INV},
    /* the rules' money and prices, optional board data (R4, R5, §9) */
    {"bank_below_minimum", .append = "bank 999",
     .expect = "bank: expected a whole number from 1000 to 1000000, not '999'", .rc = INV},
    {"bank_not_a_number", .append = "bank lots", .expect = "bank: expected a whole number",
     .rc = INV},
    {"bank_without_number", .append = "bank", .expect = "bank: expected one number", .rc = SYN},
    {"bank_twice", .append = "bank 9000\nbank 8000", .expect = "bank: given twice", .rc = INV},
    {"cash_zero", .append = "cash 4 0", .expect = "cash 4: expected a whole number from 1 to 50000",
     .rc = INV},
    {"cash_too_many_players", .append = "cash 7 300",
     .expect = "cash: 7 players: a table has 2 to 6 players", .rc = INV},
    {"cash_not_a_player_count", .append = "cash four 600",
     .expect = "cash: 'four' is not a number of players", .rc = SYN},
    {"cash_count_twice", .append = "cash 4 600 4 700", .expect = "cash: '4' is given twice",
     .rc = SYN},
    {"cash_value_missing", .append = "cash 4 600 5", .expect = "cash: '5' needs 1 value",
     .rc = SYN},
    {"cash_twice", .append = "cash 4 600\ncash 5 500", .expect = "cash: given twice", .rc = INV},
    {"assoc_unknown", .append = "assoc XY price 50", .expect = "assoc: unknown associate 'XY'",
     .rc = INV},
    {"assoc_price_missing", .append = "assoc LL", .expect = "assoc LL: 'price P' is missing",
     .rc = INV},
    {"assoc_unknown_key", .append = "assoc LL revenue 5", .expect = "assoc LL: unknown key",
     .rc = SYN},
    {"assoc_price_zero", .append = "assoc IL price 0",
     .expect = "assoc IL price: expected a whole number from 5 to 5000", .rc = INV},
    {"assoc_price_not_multiple_of_5", .append = "assoc LL price 82",
     .expect = "assoc LL price: 82 is not a multiple of 5", .rc = INV},
    {"assoc_price_order_4_1", .append = "assoc LL price 120",
     .expect = "assoc BT price 100 is below LL's 120", .rc = INV},
    {"assoc_twice", .append = "assoc LL price 80\nassoc LL price 85",
     .expect = "assoc LL: given twice", .rc = INV},
};

/* phase_2_unreachable_only_ll_copy moves every phase-2 type to phase 3 and
 * Steelclaw (LL's one copy) to phase 2: two more edits than a case holds. */
static const char *const extra_phase2[][2] = {{"copies 4 phase 2", "copies 4 phase 3"},
                                              {"copies 5 phase 2", "copies 5 phase 3"}};

static char *replace_first(char *text, const char *find, const char *repl)
{
    char *at = strstr(text, find);
    if (at == NULL) fail_msg("the bundled board no longer contains '%s'", find);
    size_t fl = strlen(find), rl = strlen(repl), tl = strlen(text);
    char *out = malloc(tl - fl + rl + 1);
    assert_non_null(out);
    size_t pre = (size_t)(at - text);
    memcpy(out, text, pre);
    memcpy(out + pre, repl, rl);
    memcpy(out + pre + rl, at + fl, tl - pre - fl + 1);
    free(text);
    return out;
}

static int line_of(const char *text, const char *find)
{
    const char *at = strstr(text, find);
    int line = 1;
    for (const char *c = text; c < at; c++) line += *c == '\n';
    return line;
}

/* Parses `text`, expects refusal with `rc` and `expect` in the message, a
 * zeroed board and (line > 0) "test.board:LINE: " at the message's start. */
static void expect_refused(const char *text, size_t len, cr_status rc, const char *expect, int line)
{
    static d18_board b;
    memset(&b, 0x5a, sizeof b);
    char err[512];
    cr_status got = d18_board_parse(text, len, "test.board", &b, err, sizeof err);
    if (got == CR_OK) fail_msg("accepted; expected: %s", expect);
    if (strstr(err, expect) == NULL) fail_msg("message '%s' lacks '%s'", err, expect);
    if (got != rc) fail_msg("status %d, expected %d (%s)", got, rc, err);
    assert_int_equal(strncmp(err, "test.board:", 11), 0);
    if (line > 0) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "test.board:%d: ", line);
        if (strncmp(err, prefix, strlen(prefix)) != 0)
            fail_msg("message '%s' does not start with '%s'", err, prefix);
    }
    static const d18_board zero;
    assert_memory_equal(&b, &zero, sizeof b);
}

static void run_case(void **state)
{
    const broken *c = *state;
    size_t len;
    const char *orig = d18_board_builtin_text(&len);
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, orig, len + 1);
    int line = c->at_edit ? line_of(text, c->find[0]) : 0;
    for (int i = 0; i < 3 && c->find[i]; i++) text = replace_first(text, c->find[i], c->repl[i]);
    if (strcmp(c->name, "phase_2_unreachable_only_ll_copy_7_2") == 0)
        for (int i = 0; i < 2; i++)
            text = replace_first(text, extra_phase2[i][0], extra_phase2[i][1]);
    if (c->append) {
        size_t tl = strlen(text), al = strlen(c->append);
        text = realloc(text, tl + al + 2);
        assert_non_null(text);
        memcpy(text + tl, c->append, al);
        memcpy(text + tl + al, "\n", 2);
        if (line == 0 && strncmp(c->expect, "no ", 3) != 0) {
            /* an appended line is the file's last line */
            int n = 1;
            for (size_t i = 0; i + 1 < tl + al + 1; i++) n += text[i] == '\n';
            line = n;
        }
    }
    /* whole-file checks name no line */
    if (strstr(c->expect, "cannot be reached") || strstr(c->expect, "are released") ||
        strstr(c->expect, "fronts; a board") || strncmp(c->expect, "no ", 3) == 0)
        line = 0;
    expect_refused(text, strlen(text), c->rc, c->expect, line);
    free(text);
}

/* Files that are not edits of the bundled board. */
static void test_broken_files(void **state)
{
    (void)state;
    expect_refused("", 0, CR_ERR_PARSE, "an empty file", 0);
    expect_refused("\n\n", 2, CR_ERR_PARSE, "not a croupier board file", 1);
    /* a NUL byte: refused, not read as the end of the text */
    size_t len;
    const char *orig = d18_board_builtin_text(&len);
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, orig, len + 1);
    char *at = strstr(text, "Blackford");
    *at = '\0';
    expect_refused(text, len, CR_ERR_PARSE, "a NUL byte", line_of(orig, "\"Blackford\""));
    free(text);
    /* a line longer than D18_MAX_LINE */
    char *big = malloc(len + D18_MAX_LINE + 64);
    assert_non_null(big);
    memcpy(big, orig, len);
    memcpy(big + len, "title \"", 7);
    memset(big + len + 7, 'x', D18_MAX_LINE);
    big[len + 7 + D18_MAX_LINE] = '\n';
    expect_refused(big, len + 8 + D18_MAX_LINE, CR_ERR_PARSE, "a line longer than 1024", 0);
    free(big);
    /* a file larger than D18_MAX_FILE, refused before it is read */
    char *huge = malloc(D18_MAX_FILE + 1);
    assert_non_null(huge);
    memset(huge, '\n', D18_MAX_FILE + 1);
    expect_refused(huge, D18_MAX_FILE + 1, CR_ERR_INVALID, "a board file has at most", 0);
    free(huge);
    /* too many words on a line */
    char words[512] = "croupier-board 18dracula 1\ntitle";
    for (int i = 0; i < 60; i++) strcat(words, " x");
    expect_refused(words, strlen(words), CR_ERR_PARSE, "more than 48 words", 2);
    /* more locations than D18_MAX_LOCATIONS, more routes than a location may have */
    static char many[64 * 1024];
    int n = snprintf(many, sizeof many, "croupier-board 18dracula 1\n");
    for (int i = 0; i <= D18_MAX_LOCATIONS; i++)
        n += snprintf(many + n, sizeof many - (size_t)n, "town T%d \"T\" at 1 1\n", i);
    expect_refused(many, (size_t)n, CR_ERR_INVALID, "more than 128 locations",
                   D18_MAX_LOCATIONS + 2);
    n = snprintf(many, sizeof many, "croupier-board 18dracula 1\ntown HUB \"Hub\" at 1 1\n");
    for (int i = 0; i <= D18_MAX_DEGREE; i++)
        n += snprintf(many + n, sizeof many - (size_t)n, "town T%d \"T\" at 1 1\nroute HUB T%d\n",
                      i, i);
    expect_refused(many, (size_t)n, CR_ERR_INVALID, "HUB would touch more than 12 route spaces",
                   2 + 2 * (D18_MAX_DEGREE + 1));
    /* a NULL error buffer is allowed */
    static d18_board b;
    assert_int_equal(d18_board_parse("x", 1, NULL, &b, NULL, 0), CR_ERR_PARSE);
}

int main(void)
{
    enum { N_CASES = sizeof cases / sizeof cases[0] };
    static struct CMUnitTest tests[N_CASES + 32];
    int n = 0;
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_builtin_is_the_file),
        cmocka_unit_test(test_builtin_size),
        cmocka_unit_test(test_money_and_associates),
        cmocka_unit_test(test_builtin_example_places),
        cmocka_unit_test(test_builtin_overlook),
        cmocka_unit_test(test_builtin_offboards),
        cmocka_unit_test(test_builtin_castle),
        cmocka_unit_test(test_builtin_minors),
        cmocka_unit_test(test_builtin_fronts),
        cmocka_unit_test(test_builtin_cubes_and_phases),
        cmocka_unit_test(test_builtin_market),
        cmocka_unit_test(test_builtin_roster),
        cmocka_unit_test(test_builtin_derived),
        cmocka_unit_test(test_crlf_and_comments),
        cmocka_unit_test(test_svg_is_current),
        cmocka_unit_test(test_broken_files),
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) tests[n++] = fixed[i];
    for (int i = 0; i < N_CASES; i++) {
        tests[n] = (struct CMUnitTest)cmocka_unit_test_prestate(run_case, (void *)&cases[i]);
        tests[n].name = cases[i].name;
        n++;
    }
    return _cmocka_run_group_tests("18dracula_board", tests, (size_t)n, NULL, NULL);
}
