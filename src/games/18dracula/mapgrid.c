/* mapgrid.c — 18Dracula's map as a picture in text: the `map` part
 * (croupier/parts.h) the full-screen client shows with `m` and scrolls.
 *
 * The board file places every location (x, y in 0..1000); the picture
 * scales those places onto a grid at most D18_MAP_COLS wide (rows count
 * double, as a terminal's cells are about twice as tall as wide) and draws:
 *   - each route space as a line between its two places: '-' '|' '/' '\'
 *     in the colour of its cube (the four accent styles: yellow, green,
 *     blue, red), pre-built ones plain, an unbuilt one as dim dots with its
 *     cost at its middle where there is room, the castle's space as '#';
 *   - each place by its id over the lines: cities emphasised, off-boards
 *     in the attention style with their value in the current phase, towns
 *     plain;
 * and below it a key: every city by name with its level, its value now and
 * its office spaces (whose office, or '-' free, 'v' a Church token, and
 * the home spaces of the fronts not yet placed), the off-boards by name
 * with this phase's value, and the towns by name.  Drawn with the annals
 * (d18_map_annals, annals.h), the route spaces the last rampage ran over
 * are drawn '*' emphasised, on top, and a line under the title says whose
 * rampage it was: readable without colour.  Everything in 18Dracula
 * is public (R7); the text comes from the observation alone.  ASCII only;
 * not the hot path.
 */
#include <stdlib.h>
#include <string.h>

#include "croupier/parts.h"
#include "croupier/text.h"
#include "games/18dracula/annals.h"
#include "games/18dracula/d18_internal.h"

enum { D18_MAP_COLS = 78, D18_MAP_MAX_ROWS = 60 };

typedef struct grid {
    int w, h;
    char ch[D18_MAP_MAX_ROWS][D18_MAP_COLS];
    char st[D18_MAP_MAX_ROWS][D18_MAP_COLS];       /* panel style byte, '0' plain */
    uint8_t label[D18_MAP_MAX_ROWS][D18_MAP_COLS]; /* a place's text: lines keep off */
} grid;

static void put(grid *gr, int r, int c, char ch, char st)
{
    if (r < 0 || r >= gr->h || c < 0 || c >= gr->w || gr->label[r][c]) return;
    gr->ch[r][c] = ch;
    gr->st[r][c] = st;
}

static void put_label(grid *gr, int r, int c, const char *text, char st)
{
    for (int i = 0; text[i] && c + i < gr->w; i++)
        if (r >= 0 && r < gr->h && c + i >= 0) {
            gr->ch[r][c + i] = text[i];
            gr->st[r][c + i] = st;
            gr->label[r][c + i] = 1;
        }
}

/* Whether cells (r, c..c+n-1) are free of places and other lines. */
static int room(const grid *gr, int r, int c, int n)
{
    if (r < 0 || r >= gr->h || c < 0 || c + n > gr->w) return 0;
    for (int i = 0; i < n; i++)
        if (gr->label[r][c + i] || (gr->ch[r][c + i] != ' ' && gr->ch[r][c + i] != '.')) return 0;
    return 1;
}

typedef struct scale {
    int minx, miny, spanx, spany, w, h;
} scale;

static int col_of(const scale *sc, int x) { return 1 + (x - sc->minx) * (sc->w - 4) / sc->spanx; }
static int row_of(const scale *sc, int y) { return (y - sc->miny) * (sc->h - 1) / sc->spany; }

/* Route space r as a line from a to b; hl: one of the last rampage's,
 * drawn '*' emphasised over whatever is there. */
static void draw_route(grid *gr, const scale *sc, const d18_board *b, const d18_state *s, int r,
                       int hl)
{
    const d18_location *A = &b->loc[b->route[r].a], *B = &b->loc[b->route[r].b];
    int c0 = col_of(sc, A->x) + 1, r0 = row_of(sc, A->y);
    int c1 = col_of(sc, B->x) + 1, r1 = row_of(sc, B->y);
    int dc = abs(c1 - c0), dr = abs(r1 - r0), sc_ = c0 < c1 ? 1 : -1, sr = r0 < r1 ? 1 : -1;
    /* the stroke by the line's slope on screen (a row is two columns tall) */
    char stroke = 2 * dr <= dc / 2 ? '-' : dc <= dr ? '|' : (sc_ == sr) ? '\\' : '/';
    int c = s->cube[r];
    int castle = s->castle == r;
    char st = castle               ? '!'
              : c == D18_CUBE_NONE ? 'd'
              : c == D18_CUBE_PRE  ? '0'
                                   : (char)('1' + (c - 1));
    char ch = castle ? '#' : c == D18_CUBE_NONE ? '.' : stroke;
    if (hl) {
        st = 'e';
        ch = '*';
    }
    int err = dc - dr, x = c0, y = r0, n = 0, cells[256][2];
    for (;;) {
        if (n < 256) {
            cells[n][0] = y;
            cells[n][1] = x;
            n++;
        }
        put(gr, y, x, ch, st);
        if (x == c1 && y == r1) break;
        int e2 = 2 * err;
        if (e2 > -dr) {
            err -= dr;
            x += sc_;
        }
        if (e2 < dc) {
            err += dc;
            y += sr;
        }
    }
    /* an unbuilt space's cost at its middle, where the cells are free */
    if (c == D18_CUBE_NONE && b->route[r].cost > 0 && n >= 5) {
        char cost[8];
        int k = snprintf(cost, sizeof cost, "%d", b->route[r].cost);
        int my = cells[n / 2][0], mx = cells[n / 2][1] - k / 2;
        int ok = 1;
        for (int i = 0; i < k; i++)
            if (my < 0 || my >= gr->h || mx + i < 0 || mx + i >= gr->w || gr->label[my][mx + i])
                ok = 0;
        for (int i = 0; ok && i < k; i++) {
            gr->ch[my][mx + i] = cost[i];
            gr->st[my][mx + i] = 'd';
        }
    }
}

static const char *ent_id(const d18_board *b, int e)
{
    if (e >= 0 && e < D18_NFRONTS) return b->front[e].id;
    return e == D18_ENT_LL ? "LL" : e == D18_ENT_BT ? "BT" : "?";
}

static void style(cr_tbuf *t, char c) { cr_tb_printf(t, "%c%c", CR_PANEL_STYLE, c); }

static const char *level_word(int lv)
{
    static const char *const w[] = {"yellow", "green", "blue", "red"};
    return lv >= 0 && lv < 4 ? w[lv] : "?";
}

/* Whether route space r is one of the last rampage's (annals.h). */
static int last_ran(const d18_annals *a, const d18_state *s, int r)
{
    return a && a->has_last && (a->last_space[r >> 6] >> (r & 63) & 1) &&
           (s->cube[r] != D18_CUBE_NONE || s->castle == r);
}

static size_t map_text(const cr_game *g, const void *obs, const d18_annals *an, char *buf,
                       size_t cap)
{
    const d18_state *s = obs;
    const d18_board *b = d18_brd(g);
    cr_tbuf t;
    cr_tb_init(&t, buf, cap);
    grid *gr = calloc(1, sizeof *gr);
    if (!gr) return t.len;
    scale sc = {.minx = D18_MAX_COORD, .miny = D18_MAX_COORD, .w = D18_MAP_COLS};
    int maxx = 0, maxy = 0;
    for (int l = 0; l < b->n_locations; l++) {
        const d18_location *L = &b->loc[l];
        if (L->x < sc.minx) sc.minx = L->x;
        if (L->y < sc.miny) sc.miny = L->y;
        if (L->x > maxx) maxx = L->x;
        if (L->y > maxy) maxy = L->y;
    }
    sc.spanx = maxx > sc.minx ? maxx - sc.minx : 1;
    sc.spany = maxy > sc.miny ? maxy - sc.miny : 1;
    /* rows: the same scale as the columns, halved */
    sc.h = 1 + (sc.spany * (sc.w - 4) / sc.spanx) / 2;
    if (sc.h < 8) sc.h = 8;
    if (sc.h > D18_MAP_MAX_ROWS - 1) sc.h = D18_MAP_MAX_ROWS - 1;
    gr->w = sc.w;
    gr->h = sc.h + 1;
    memset(gr->ch, ' ', sizeof gr->ch);
    memset(gr->st, '0', sizeof gr->st);
    /* places first (lines keep off them), then the lines */
    for (int l = 0; l < b->n_locations; l++) {
        const d18_location *L = &b->loc[l];
        int r = row_of(&sc, L->y), c = col_of(&sc, L->x);
        char st = L->kind == D18_CITY ? 'e' : L->kind == D18_OFF ? '!' : '0';
        put_label(gr, r, c, L->id, st);
    }
    for (int r = 0; r < b->n_routes && r < D18_MAX_ROUTES; r++) draw_route(gr, &sc, b, s, r, 0);
    int n_hl = 0; /* the last rampage's on top */
    for (int r = 0; r < b->n_routes && r < D18_MAX_ROUTES; r++)
        if (last_ran(an, s, r)) {
            draw_route(gr, &sc, b, s, r, 1);
            n_hl++;
        }
    /* an off-board's value now, after its id where there is room */
    for (int l = 0; l < b->n_locations; l++) {
        const d18_location *L = &b->loc[l];
        if (L->kind != D18_OFF) continue;
        char v[8];
        int k = snprintf(v, sizeof v, "%d", L->off_rev[s->phase - 1]);
        int r = row_of(&sc, L->y), c = col_of(&sc, L->x) + (int)strlen(L->id) + 1;
        if (room(gr, r, c - 1, k + 1)) put_label(gr, r, c, v, '!');
    }

    cr_tb_printf(&t, "%cMap, phase %d: ", CR_PANEL_TITLE, s->phase);
    for (int c = 0; c < 4; c++) {
        style(&t, (char)('1' + c));
        cr_tb_printf(&t, "%s%s", c ? " " : "", level_word(c));
    }
    style(&t, '0');
    cr_tb_printf(&t, " cubes, ");
    style(&t, 'd');
    cr_tb_printf(&t, "... unbuilt (cost)");
    style(&t, '0');
    cr_tb_printf(&t, ", ");
    style(&t, '!');
    cr_tb_printf(&t, "#");
    style(&t, '0');
    cr_tb_printf(&t, " the castle\n");
    if (an && an->has_last) {
        style(&t, 'e');
        cr_tb_printf(&t, "*");
        style(&t, '0');
        cr_tb_printf(&t, " the last rampage: %s earned %d", ent_id(b, an->last_ent),
                     (int)an->last_revenue);
        cr_tb_printf(&t, "%s\n", n_hl ? " on these routes" : " (no route on the map)");
    }
    for (int r = 0; r < gr->h; r++) {
        int end = gr->w;
        while (end > 0 && gr->ch[r][end - 1] == ' ') end--;
        char cur = '0';
        for (int c = 0; c < end; c++) {
            if (gr->st[r][c] != cur && gr->ch[r][c] != ' ') {
                cur = gr->st[r][c];
                style(&t, cur);
            }
            cr_tb_printf(&t, "%c", gr->ch[r][c]);
        }
        if (cur != '0') style(&t, '0');
        cr_tb_printf(&t, "\n");
    }
    free(gr);

    /* the key */
    cr_tb_printf(&t, "%cCities: level, value now, office spaces\n", CR_PANEL_TITLE);
    for (int l = 0; l < b->n_locations; l++) {
        const d18_location *L = &b->loc[l];
        if (L->kind != D18_CITY) continue;
        int lv = d18_level(g, s, l);
        style(&t, 'e');
        cr_tb_printf(&t, "%s", L->id);
        style(&t, '0');
        cr_tb_printf(&t, " %s, ", L->name);
        style(&t, (char)('1' + lv));
        cr_tb_printf(&t, "%s", level_word(lv));
        style(&t, '0');
        cr_tb_printf(&t, " %d [", d18_city_value(b, l, lv));
        for (int i = 0; i < L->n_spaces; i++) {
            int o = s->space_occ[l][i];
            const char *home = NULL;
            for (int f = 0; f < D18_NFRONTS; f++)
                if (b->front[f].home == l && b->front[f].home_space == i) home = b->front[f].id;
            if (o == D18_OCC_EMPTY && home)
                cr_tb_printf(&t, "%s%s home", i ? " " : "", home);
            else
                cr_tb_printf(&t, "%s%s", i ? " " : "",
                             o == D18_OCC_EMPTY  ? "-"
                             : o >= D18_OCC_DOWN ? "v"
                                                 : ent_id(b, o));
        }
        cr_tb_printf(&t, "]\n");
    }
    cr_tb_printf(&t, "%cOff-boards: value in phase %d\n", CR_PANEL_TITLE, s->phase);
    for (int l = 0; l < b->n_locations; l++) {
        const d18_location *L = &b->loc[l];
        if (L->kind != D18_OFF) continue;
        style(&t, '!');
        cr_tb_printf(&t, "%s", L->id);
        style(&t, '0');
        cr_tb_printf(&t, " %s %d%s\n", L->name, L->off_rev[s->phase - 1],
                     L->fd ? " (the Flying Dutchman may double it)" : "");
    }
    cr_tb_printf(&t, "%cTowns\n", CR_PANEL_TITLE);
    int col = 0;
    for (int l = 0; l < b->n_locations; l++) {
        const d18_location *L = &b->loc[l];
        if (L->kind != D18_TOWN) continue;
        int k = (int)(strlen(L->id) + strlen(L->name) + 3);
        if (col && col + k > D18_MAP_COLS) {
            cr_tb_printf(&t, "\n");
            col = 0;
        }
        cr_tb_printf(&t, "%s%s %s", col ? ", " : "", L->id, L->name);
        col += k;
    }
    cr_tb_printf(&t, "\n");
    return t.len;
}

size_t d18_map_text(const cr_game *g, const void *obs, unsigned flags, char *buf, size_t cap)
{
    (void)flags; /* ASCII whatever the flags */
    return map_text(g, obs, NULL, buf, cap);
}

size_t d18_map_annals(const cr_game *g, const void *obs, const void *annals, unsigned flags,
                      char *buf, size_t cap)
{
    (void)flags;
    return map_text(g, obs, annals, buf, cap);
}
