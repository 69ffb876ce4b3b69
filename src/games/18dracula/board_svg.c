/* board_svg.c — a picture of an 18Dracula board as SVG (d18_board_svg).
 *
 * Drawn from the board alone, at the file's coordinates: route spaces first
 * (plain ones dashed grey, fixed-colour ones in their colour, pre-existing
 * ones solid dark, costs in a white tag at the middle, the castle's start
 * marked with a castle), then locations on top (cities as white discs with
 * their office spaces as dots in their band colours and the revenue per
 * level, towns as small black dots, off-boards as dark red boxes with the
 * revenue per phase and "FD" where the Flying Dutchman may double them),
 * and a legend with the cube supply and the phase chart.
 *
 * Only integers are printed, so the output is the same bytes everywhere;
 * docs/18dracula-board.svg is checked against it by the tests.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "games/18dracula/board.h"

typedef struct out {
    char *buf;
    size_t cap, len;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) o->len += (size_t)n;
}

/* A name with &, <, > and ' escaped for XML text. */
static void put_text(out *o, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': put(o, "&amp;"); break;
        case '<': put(o, "&lt;"); break;
        case '>': put(o, "&gt;"); break;
        case '\'': put(o, "&#39;"); break;
        case '"': put(o, "&quot;"); break;
        default: put(o, "%c", *s); break;
        }
    }
}

static const char *const ink[D18_NUM_COLOURS] = {"#d9a400", "#2e8b3e", "#2b5fb5", "#c0392b"};

static void route_svg(out *o, const d18_board *b, int r)
{
    const d18_route *rt = &b->route[r];
    const d18_location *a = &b->loc[rt->a], *z = &b->loc[rt->b];
    if (rt->pre_existing)
        put(o,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#3b3b3b\" "
            "stroke-width=\"6\"/>\n",
            a->x, a->y, z->x, z->y);
    else if (rt->colour != D18_NO_COLOUR)
        put(o,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"5\" "
            "stroke-dasharray=\"10 4\"/>\n",
            a->x, a->y, z->x, z->y, ink[rt->colour]);
    else
        put(o,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#8c8577\" stroke-width=\"2.5\" "
            "stroke-dasharray=\"6 4\"/>\n",
            a->x, a->y, z->x, z->y);
    int mx = (a->x + z->x) / 2, my = (a->y + z->y) / 2;
    if (rt->cost > 0)
        put(o,
            "<rect x=\"%d\" y=\"%d\" width=\"30\" height=\"15\" rx=\"4\" fill=\"#fffdf5\" "
            "stroke=\"#222\"/><text x=\"%d\" y=\"%d\" class=\"cost\">%d</text>\n",
            mx - 15, my - 8, mx, my + 4, rt->cost);
    if (rt->castle_start)
        put(o,
            "<path d=\"M%d %dh24v-14h-5v5h-4v-5h-6v5h-4v-5h-5z\" fill=\"#5a1020\" stroke=\"#fff\" "
            "stroke-width=\"1.5\"/><text x=\"%d\" y=\"%d\" class=\"note\">castle</text>\n",
            mx - 12, my + 7, mx, my + 20);
}

static void location_svg(out *o, const d18_location *l)
{
    if (l->kind == D18_TOWN) {
        put(o, "<circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"#1d1d1d\"/>\n", l->x, l->y);
        put(o, "<text x=\"%d\" y=\"%d\" class=\"town\">", l->x, l->y + 19);
        put_text(o, l->name);
        put(o, "</text>\n");
        return;
    }
    if (l->kind == D18_OFF) {
        int w = (int)strlen(l->name) * 7 + (l->fd ? 35 : 0) + 16;
        if (w < 112) w = 112;
        put(o,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"34\" rx=\"3\" fill=\"#6b1e2a\" "
            "stroke=\"#2a0a10\" stroke-width=\"2\"/>\n",
            l->x - w / 2, l->y - 17, w);
        put(o, "<text x=\"%d\" y=\"%d\" class=\"offname\">", l->x, l->y - 3);
        put_text(o, l->name);
        put(o, "%s</text>\n<text x=\"%d\" y=\"%d\" class=\"offrev\">%d/%d/%d/%d/%d</text>\n",
            l->fd ? " (FD)" : "", l->x, l->y + 11, l->off_rev[0], l->off_rev[1], l->off_rev[2],
            l->off_rev[3], l->off_rev[4]);
        return;
    }
    put(o,
        "<circle cx=\"%d\" cy=\"%d\" r=\"19\" fill=\"#fffdf5\" stroke=\"#1d1d1d\" "
        "stroke-width=\"2.5\"/>\n",
        l->x, l->y);
    /* office spaces: a row of dots in band colours (up to 3 a row) */
    int n = l->n_spaces;
    for (int i = 0; i < n; i++) {
        int row = i / 3, in_row = n - row * 3 < 3 ? n - row * 3 : 3, col = i % 3;
        int cx = l->x + (col * 2 - (in_row - 1)) * 6;
        int cy = l->y + (n > 3 ? (row == 0 ? -5 : 6) : 0);
        put(o, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\" stroke=\"#1d1d1d\"/>\n", cx, cy,
            ink[l->space_band[i]]);
    }
    if (n == 0)
        put(o,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#1d1d1d\" "
            "stroke-width=\"2\"/>\n",
            l->x - 8, l->y, l->x + 8, l->y);
    put(o, "<text x=\"%d\" y=\"%d\" class=\"city\">", l->x, l->y + 32);
    put_text(o, l->name);
    put(o, "</text>\n<text x=\"%d\" y=\"%d\" class=\"rev\">", l->x, l->y - 24);
    for (int c = 0; c < D18_NUM_COLOURS; c++) {
        if (c) put(o, "/");
        if (l->city_rev[c] == D18_ABSENT)
            put(o, "-");
        else
            put(o, "%d", l->city_rev[c]);
    }
    put(o, "</text>\n");
}

size_t d18_board_svg(const d18_board *b, char *buf, size_t cap)
{
    out o = {buf, cap, 0};
    if (cap) buf[0] = '\0';
    const int W = 1100, H = 860;
    put(&o,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- Generated by d18-board-svg from the board file: do not edit. -->\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        "viewBox=\"-45 -20 %d %d\" font-family=\"DejaVu Serif, serif\">\n"
        "<style>\n"
        "text{text-anchor:middle}\n"
        ".city{font-size:13px;font-weight:bold;fill:#1d1d1d}\n"
        ".rev{font-size:10px;fill:#6b1e2a}\n"
        ".town{font-size:10px;font-style:italic;fill:#333}\n"
        ".offname{font-size:11px;font-weight:bold;fill:#fff}\n"
        ".offrev{font-size:10px;fill:#ffd9a0}\n"
        ".cost{font-size:10px;font-weight:bold;fill:#222}\n"
        ".note{font-size:9px;fill:#5a1020}\n"
        ".legend{font-size:12px;text-anchor:start;fill:#1d1d1d}\n"
        ".title{font-size:18px;font-weight:bold;text-anchor:start;fill:#3a0d16}\n"
        "</style>\n"
        "<rect x=\"-45\" y=\"-20\" width=\"%d\" height=\"%d\" fill=\"#f3ead3\"/>\n",
        W, H, W, H, W, H);
    put(&o, "<g id=\"routes\">\n");
    for (int r = 0; r < b->n_routes; r++) route_svg(&o, b, r);
    put(&o, "</g>\n<g id=\"locations\">\n");
    for (int i = 0; i < b->n_locations; i++) location_svg(&o, &b->loc[i]);
    put(&o, "</g>\n");

    /* legend */
    int y = 740;
    put(&o, "<g id=\"legend\">\n<text x=\"0\" y=\"%d\" class=\"title\">", y);
    put_text(&o, b->title[0] ? b->title : "18Dracula board");
    put(&o,
        "</text>\n<text x=\"0\" y=\"%d\" class=\"legend\">%d cities, %d towns, %d off-boards, "
        "%d route spaces; cubes %d yellow, %d green, %d blue, %d red</text>\n",
        y + 20, b->n_cities, b->n_towns, b->n_offs, b->n_routes, b->cubes[0], b->cubes[1],
        b->cubes[2], b->cubes[3]);
    put(&o, "<text x=\"0\" y=\"%d\" class=\"legend\">phases 1-5: sales", y + 38);
    for (int p = 0; p < D18_NUM_PHASES - 1; p++) put(&o, " %d", b->sales[p]);
    put(&o, "; monster limit");
    for (int p = 0; p < D18_NUM_PHASES; p++) put(&o, " %d", b->limit[p]);
    put(&o, "; ORs per set");
    for (int p = 0; p < D18_NUM_PHASES; p++) put(&o, " %d", b->ors[p]);
    put(&o, "</text>\n");
    /* keys: route kinds and location kinds */
    int ky = y + 62, kx = 0;
    put(&o,
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#8c8577\" stroke-width=\"2.5\" "
        "stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%d\" class=\"legend\">route space</text>\n",
        kx, ky, kx + 36, ky, kx + 42, ky + 4);
    kx += 140;
    put(&o,
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#3b3b3b\" stroke-width=\"6\"/>"
        "<text x=\"%d\" y=\"%d\" class=\"legend\">pre-existing</text>\n",
        kx, ky, kx + 36, ky, kx + 42, ky + 4);
    kx += 140;
    for (int c = 0; c < D18_NUM_COLOURS; c++)
        put(&o,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"5\" "
            "stroke-dasharray=\"10 4\"/>\n",
            kx + c * 14, ky - 6 + c * 4, kx + c * 14 + 12, ky - 6 + c * 4, ink[c]);
    put(&o, "<text x=\"%d\" y=\"%d\" class=\"legend\">fixed colour</text>\n", kx + 60, ky + 4);
    kx += 170;
    put(&o,
        "<rect x=\"%d\" y=\"%d\" width=\"30\" height=\"15\" rx=\"4\" fill=\"#fffdf5\" "
        "stroke=\"#222\"/><text x=\"%d\" y=\"%d\" class=\"cost\">40</text>"
        "<text x=\"%d\" y=\"%d\" class=\"legend\">cost (pts)</text>\n",
        kx, ky - 8, kx + 15, ky + 4, kx + 38, ky + 4);
    kx += 130;
    put(&o,
        "<circle cx=\"%d\" cy=\"%d\" r=\"10\" fill=\"#fffdf5\" stroke=\"#1d1d1d\" "
        "stroke-width=\"2\"/><circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\" stroke=\"#1d1d1d\"/>"
        "<text x=\"%d\" y=\"%d\" class=\"legend\">city: office spaces by band, rev "
        "Y/G/B/R</text>\n",
        kx + 10, ky, kx + 10, ky, ink[0], kx + 26, ky + 4);
    ky += 26;
    put(&o,
        "<circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"#1d1d1d\"/><text x=\"%d\" y=\"%d\" "
        "class=\"legend\">town</text>\n",
        10, ky, 24, ky + 4);
    put(&o,
        "<rect x=\"%d\" y=\"%d\" width=\"28\" height=\"16\" fill=\"#6b1e2a\"/><text x=\"%d\" "
        "y=\"%d\" class=\"legend\">off-board: rev in phases 1-5; (FD): the Flying Dutchman may "
        "double it</text>\n",
        140, ky - 8, 174, ky + 4);
    put(&o, "</g>\n</svg>\n");
    return o.len;
}
