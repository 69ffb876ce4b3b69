/* board.c — 18Dracula board files: parsing, validation, lookups.
 *
 * A board file is line-oriented text (docs/18dracula-board.md).  The first
 * line is the version line "croupier-board 18dracula 1"; every other line is
 * blank, a comment (from '#' to the end of the line, outside quotes) or one
 * record: a keyword, then words and "quoted names".  Records refer only to
 * ids defined on earlier lines, so one pass over the file reads it, and every
 * check that concerns one record is made on that record's line.  The checks
 * about the whole file (counts, the castle's start, reachable phases, cube
 * totals, ...) run after the last line.
 *
 * Hostile input: the file is bounded (D18_MAX_FILE bytes, D18_MAX_LINE per
 * line, MAX_WORDS words per line), every number is read digit by digit with
 * a bound far below int overflow, every count is checked against its maximum
 * before an array is written, and NUL bytes, control characters and bytes
 * outside ASCII are refused outside comments.  The parser allocates nothing.
 */
#include "games/18dracula/board.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/18dracula/d18_internal.h" /* the rules' money and associates */

#if defined(__GNUC__)
#define D18_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define D18_PRINTF(a, b)
#endif

static const char *const colour_names[D18_NUM_COLOURS] = {"Y", "G", "B", "R"};
static const char *const colour_words[D18_NUM_COLOURS] = {"yellow", "green", "blue", "red"};
static const char *const move_names[] = {"home", "howl", "dit", "city", "major", "inf"};
static const char *const flag_names[] = {"not_blocked",  "no_office",      "castle", "triple",
                                         "limit_exempt", "killed_by_claw", "nurse"};
enum { NUM_FLAGS = 7 };

const char *d18_colour_name(int colour)
{
    return colour >= 0 && colour < D18_NUM_COLOURS ? colour_names[colour] : "-";
}

const char *d18_move_name(int move)
{
    return move >= 0 && move <= D18_MOVE_INF ? move_names[move] : "?";
}

/* --- The parser's state --------------------------------------------------- */

enum { MAX_WORDS = 48, WORD_MAX = 40 };

typedef struct word {
    const char *s; /* into the line buffer, NUL-terminated */
    int len;
    int quoted;
} word;

typedef struct parser {
    const char *file;
    char *err;
    size_t errcap;
    d18_board *b;
    int line;
    /* the current line's words */
    int nw;
    word w[MAX_WORDS];
    /* what the file has given so far */
    int n_fronts;
    int seen_title, seen_cubes, seen_phase[D18_NUM_PHASES], seen_ll, seen_bt;
    int line_cubes, line_phase[D18_NUM_PHASES];
    int seen_row[D18_MAX_MARKET_ROWS];
    int line_bank, line_cash, line_assoc[D18_BOARD_ASSOCS];
    int n_castle;
    int n_cells;
} parser;

static cr_status fail(parser *p, cr_status rc, const char *fmt, ...) D18_PRINTF(3, 4);

/* "FILE:LINE: message" (LINE 0: "FILE: message"). */
static cr_status fail(parser *p, cr_status rc, const char *fmt, ...)
{
    if (p->err == NULL || p->errcap == 0) return rc;
    int n = p->line > 0 ? snprintf(p->err, p->errcap, "%s:%d: ", p->file, p->line)
                        : snprintf(p->err, p->errcap, "%s: ", p->file);
    if (n < 0) n = 0;
    if ((size_t)n < p->errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err + n, p->errcap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return rc;
}

#define BAD(...)    fail(p, CR_ERR_INVALID, __VA_ARGS__)
#define SYNTAX(...) fail(p, CR_ERR_PARSE, __VA_ARGS__)
#define TRY(x)                                                                                     \
    do {                                                                                           \
        cr_status rc_ = (x);                                                                       \
        if (rc_ != CR_OK) return rc_;                                                              \
    } while (0)

static int is_word(const word *w, const char *s) { return !w->quoted && strcmp(w->s, s) == 0; }

/* Splits one line (NUL-terminated, comment already cut) into words. */
static cr_status split(parser *p, char *line)
{
    p->nw = 0;
    char *c = line;
    for (;;) {
        while (*c == ' ' || *c == '\t') c++;
        if (*c == '\0') return CR_OK;
        if (p->nw == MAX_WORDS) return SYNTAX("more than %d words on one line", MAX_WORDS);
        word *w = &p->w[p->nw++];
        if (*c == '"') {
            char *start = ++c;
            while (*c != '"' && *c != '\0') c++;
            if (*c != '"') return SYNTAX("a name is not closed: a '\"' is missing");
            *c++ = '\0';
            w->s = start;
            w->len = (int)(c - 1 - start);
            w->quoted = 1;
            if (*c != ' ' && *c != '\t' && *c != '\0')
                return SYNTAX("a space must follow the name \"%.39s\"", start);
        } else {
            char *start = c;
            while (*c != ' ' && *c != '\t' && *c != '\0' && *c != '"') c++;
            if (*c == '"') return SYNTAX("a '\"' inside a word; names go between quotes");
            if (*c != '\0') *c++ = '\0';
            w->s = start;
            w->len = (int)strlen(start);
            w->quoted = 0;
            if (w->len > WORD_MAX) return SYNTAX("a word longer than %d characters", WORD_MAX);
        }
    }
}

/* A whole number in [lo, hi]. */
static cr_status num(parser *p, const word *w, const char *what, int lo, int hi, int *out)
{
    *out = 0;
    long v = 0;
    int ok = !w->quoted && w->len > 0 && w->len <= 9;
    for (int i = 0; ok && i < w->len; i++) {
        if (w->s[i] < '0' || w->s[i] > '9')
            ok = 0;
        else
            v = v * 10 + (w->s[i] - '0');
    }
    if (!ok || v < lo || v > hi)
        return BAD("%s: expected a whole number from %d to %d, not '%.40s'", what, lo, hi, w->s);
    *out = (int)v;
    return CR_OK;
}

/* One of Y G B R. */
static cr_status colour(parser *p, const word *w, const char *what, int *out)
{
    *out = 0;
    for (int c = 0; c < D18_NUM_COLOURS; c++)
        if (is_word(w, colour_names[c])) {
            *out = c;
            return CR_OK;
        }
    return BAD("%s: expected a colour Y, G, B or R, not '%.40s'", what, w->s);
}

static int id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static cr_status id_word(parser *p, int i, const char *what, char *out)
{
    if (i >= p->nw) return SYNTAX("%s: the id is missing", what);
    const word *w = &p->w[i];
    int ok = !w->quoted && w->len >= 1 && w->len < D18_ID_CAP;
    for (int k = 0; ok && k < w->len; k++) ok = id_char(w->s[k]);
    if (!ok)
        return SYNTAX("%s: '%.40s' is not an id (1 to %d letters, digits or '_')", what, w->s,
                      D18_ID_CAP - 1);
    memcpy(out, w->s, (size_t)w->len + 1);
    return CR_OK;
}

static cr_status name_word(parser *p, int i, const char *what, char *out)
{
    if (i >= p->nw || !p->w[i].quoted) return SYNTAX("%s: a \"name\" in quotes must follow", what);
    const word *w = &p->w[i];
    if (w->len < 1 || w->len >= D18_NAME_CAP)
        return BAD("%s: a name has 1 to %d characters", what, D18_NAME_CAP - 1);
    memcpy(out, w->s, (size_t)w->len + 1);
    return CR_OK;
}

/* Location index of the id in word i, defined on an earlier line. */
static cr_status loc_ref(parser *p, int i, const char *what, int *out)
{
    *out = 0;
    if (i >= p->nw) return SYNTAX("%s: a location id is missing", what);
    const word *w = &p->w[i];
    for (int k = 0; k < p->b->n_locations; k++)
        if (!w->quoted && strcmp(p->b->loc[k].id, w->s) == 0) {
            *out = k;
            return CR_OK;
        }
    return BAD("%s: unknown location '%.40s' (locations are listed before the lines that use "
               "them)",
               what, w->s);
}

static cr_status monster_ref(parser *p, int i, const char *what, int *out)
{
    *out = 0;
    if (i >= p->nw) return SYNTAX("%s: a monster id is missing", what);
    const word *w = &p->w[i];
    for (int k = 0; k < p->b->n_monsters; k++)
        if (!w->quoted && strcmp(p->b->monster[k].id, w->s) == 0) {
            *out = k;
            return CR_OK;
        }
    return BAD("%s: unknown monster type '%.40s' (monster types are listed before the lines "
               "that use them)",
               what, w->s);
}

/* Clause keywords of one record: each may appear once. */
static cr_status clause(parser *p, const word *w, const char *const *keys, int n, int *seen,
                        const char *rec, int *which)
{
    *which = 0;
    for (int k = 0; k < n; k++)
        if (is_word(w, keys[k])) {
            if (seen[k]) return SYNTAX("%s: '%s' is given twice", rec, keys[k]);
            seen[k] = 1;
            *which = k;
            return CR_OK;
        }
    if (w->quoted) return SYNTAX("%s: unexpected name \"%.39s\"", rec, w->s);
    return SYNTAX("%s: unknown key '%.40s'", rec, w->s);
}

/* Needs `k` more words after word i. */
static cr_status need(parser *p, int i, int k, const char *rec, const char *key)
{
    if (i + k >= p->nw) return SYNTAX("%s: '%s' needs %d value%s", rec, key, k, k == 1 ? "" : "s");
    return CR_OK;
}

/* --- Records --------------------------------------------------------------- */

static cr_status rec_location(parser *p, int kind)
{
    d18_board *b = p->b;
    const char *rec = kind == D18_CITY ? "city" : kind == D18_TOWN ? "town" : "off";
    if (b->n_locations == D18_MAX_LOCATIONS)
        return BAD("more than %d locations", D18_MAX_LOCATIONS);
    d18_location *l = &b->loc[b->n_locations];
    memset(l, 0, sizeof *l);
    TRY(id_word(p, 1, rec, l->id));
    for (int k = 0; k < b->n_locations; k++)
        if (strcmp(b->loc[k].id, l->id) == 0)
            return BAD("%s: the id '%s' is already used by the location on line %d", rec, l->id,
                       b->loc[k].line);
    TRY(name_word(p, 2, rec, l->name));
    l->kind = (uint8_t)kind;
    l->line = p->line;
    for (int c = 0; c < D18_NUM_COLOURS; c++) l->city_rev[c] = l->city_val[c] = D18_ABSENT;
    static const char *const keys[] = {"rev", "offices", "at", "fd"};
    int seen[4] = {0};
    int i = 3;
    while (i < p->nw) {
        int k;
        TRY(clause(p, &p->w[i], keys, 4, seen, rec, &k));
        if ((k == 0 && kind == D18_TOWN) || (k == 1 && kind != D18_CITY) ||
            (k == 3 && kind != D18_OFF))
            return SYNTAX("%s: unknown key '%s' (%s)", rec, keys[k],
                          k == 0   ? "a town has no revenue of its own, R66"
                          : k == 1 ? "only cities have office spaces"
                                   : "only off-boards carry fd, R116");
        i++;
        if (k == 0 && kind == D18_CITY) {
            TRY(need(p, i - 1, 4, rec, "rev"));
            for (int c = 0; c < D18_NUM_COLOURS; c++, i++) {
                if (is_word(&p->w[i], "-")) {
                    if (c == D18_YELLOW)
                        return BAD("city rev: the yellow revenue is required (§8.5); '-' is for "
                                   "a missing green, blue or red value");
                    continue;
                }
                int v;
                char what[32];
                snprintf(what, sizeof what, "city rev (%s)", colour_words[c]);
                TRY(num(p, &p->w[i], what, 0, D18_MAX_REVENUE, &v));
                l->city_rev[c] = (int16_t)v;
            }
        } else if (k == 0) {
            TRY(need(p, i - 1, D18_NUM_PHASES, rec, "rev"));
            for (int ph = 0; ph < D18_NUM_PHASES; ph++, i++) {
                int v;
                char what[32];
                snprintf(what, sizeof what, "off rev (phase %d)", ph + 1);
                TRY(num(p, &p->w[i], what, 0, D18_MAX_REVENUE, &v));
                l->off_rev[ph] = (int16_t)v;
            }
        } else if (k == 1) {
            while (i < p->nw && !p->w[i].quoted && p->w[i].len == 1 &&
                   strchr("YGBR", p->w[i].s[0]) != NULL) {
                if (l->n_spaces == D18_MAX_OFFICE_SPACES)
                    return BAD("city: more than %d office spaces", D18_MAX_OFFICE_SPACES);
                int c;
                TRY(colour(p, &p->w[i], "city offices", &c));
                l->space_band[l->n_spaces++] = (int8_t)c;
                i++;
            }
            if (l->n_spaces == 0)
                return BAD("city offices: expected bands Y, G, B or R (leave 'offices' out for "
                           "a city with no office space, R120)");
        } else if (k == 2) {
            TRY(need(p, i - 1, 2, rec, "at"));
            int x, y;
            TRY(num(p, &p->w[i], "at (x)", 0, D18_MAX_COORD, &x));
            TRY(num(p, &p->w[i + 1], "at (y)", 0, D18_MAX_COORD, &y));
            l->x = (int16_t)x;
            l->y = (int16_t)y;
            i += 2;
        } else {
            l->fd = 1;
        }
    }
    if (!seen[0] && kind != D18_TOWN)
        return BAD("%s: 'rev' is missing (%s)", rec,
                   kind == D18_CITY ? "its revenue per level" : "its revenue in phases 1 to 5");
    if (!seen[2]) return BAD("%s: 'at X Y' is missing (where to draw it)", rec);
    if (kind == D18_CITY) {
        for (int c = 0; c < D18_NUM_COLOURS; c++)
            l->city_val[c] = l->city_rev[c] != D18_ABSENT ? l->city_rev[c] : l->city_val[c - 1];
        b->n_cities++;
    } else if (kind == D18_TOWN) {
        b->n_towns++;
    } else {
        b->n_offs++;
    }
    b->n_locations++;
    return CR_OK;
}

static cr_status rec_route(parser *p)
{
    d18_board *b = p->b;
    if (b->n_routes == D18_MAX_ROUTES) return BAD("more than %d route spaces", D18_MAX_ROUTES);
    d18_route *r = &b->route[b->n_routes];
    memset(r, 0, sizeof *r);
    int a, z;
    TRY(loc_ref(p, 1, "route", &a));
    TRY(loc_ref(p, 2, "route", &z));
    if (a == z)
        return BAD("route: joins %s to itself; a route space joins two locations", p->w[1].s);
    for (int k = 0; k < b->n_routes; k++)
        if ((b->route[k].a == a && b->route[k].b == z) ||
            (b->route[k].a == z && b->route[k].b == a))
            return BAD("route: %s and %s are already joined by the route space on line %d",
                       b->loc[a].id, b->loc[z].id, b->route[k].line);
    r->a = (uint8_t)a;
    r->b = (uint8_t)z;
    r->colour = D18_NO_COLOUR;
    r->line = p->line;
    static const char *const keys[] = {"colour", "cost", "pre_existing", "castle_start"};
    int seen[4] = {0};
    int i = 3;
    while (i < p->nw) {
        int k;
        TRY(clause(p, &p->w[i], keys, 4, seen, "route", &k));
        i++;
        if (k == 0) {
            TRY(need(p, i - 1, 1, "route", "colour"));
            int c;
            TRY(colour(p, &p->w[i++], "route colour", &c));
            r->colour = (int8_t)c;
        } else if (k == 1) {
            TRY(need(p, i - 1, 1, "route", "cost"));
            int v;
            TRY(num(p, &p->w[i++], "route cost", 1, D18_MAX_COST, &v));
            r->cost = (int16_t)v;
        } else if (k == 2) {
            r->pre_existing = 1;
        } else {
            r->castle_start = 1;
        }
    }
    if (r->pre_existing && (seen[0] || seen[1]))
        return BAD("route: a pre_existing route space has no %s (it is a yellow connection from "
                   "the start, §8.6.4)",
                   seen[0] ? "fixed colour" : "cost");
    if (r->castle_start) {
        if (!r->pre_existing)
            return BAD("route: the castle_start route space must be pre_existing (R36)");
        if (p->n_castle > 0)
            return BAD("route: a second castle_start (the first is on line %d); exactly one "
                       "route space is the castle's start",
                       b->route[b->castle_start].line);
        p->n_castle++;
        b->castle_start = b->n_routes;
    }
    for (int e = 0; e < 2; e++) {
        d18_location *l = &b->loc[e ? z : a];
        if (l->n_adj == D18_MAX_DEGREE)
            return BAD("route: %s would touch more than %d route spaces", l->id, D18_MAX_DEGREE);
    }
    b->loc[a].adj[b->loc[a].n_adj++] = b->n_routes;
    b->loc[z].adj[b->loc[z].n_adj++] = b->n_routes;
    b->n_routes++;
    return CR_OK;
}

/* An office space of a city: checks kind, index and yellow band, and that no
 * front, LL or BT given so far uses it.  space_word is 1-based in the file. */
static cr_status start_space(parser *p, int i, const char *rec, int *city, int *space)
{
    *space = 0;
    d18_board *b = p->b;
    TRY(loc_ref(p, i, rec, city));
    const d18_location *l = &b->loc[*city];
    if (l->kind != D18_CITY) return BAD("%s: %s is not a city", rec, l->id);
    if (i + 1 >= p->nw)
        return SYNTAX("%s: the office space number after %s is missing", rec, l->id);
    if (l->n_spaces == 0) return BAD("%s: %s has no office space", rec, l->id);
    char what[48];
    snprintf(what, sizeof what, "%s: office space of %s", rec, l->id);
    int s;
    TRY(num(p, &p->w[i + 1], what, 1, l->n_spaces, &s));
    s--;
    if (l->space_band[s] != D18_YELLOW)
        return BAD("%s: office space %d of %s has a %s band; a home or start space must be "
                   "yellow (R58)",
                   rec, s + 1, l->id, colour_words[l->space_band[s]]);
    for (int f = 0; f < p->n_fronts; f++)
        if (b->front[f].home == *city && b->front[f].home_space == s)
            return BAD("%s: office space %d of %s is already the home space of %s (line %d)", rec,
                       s + 1, l->id, b->front[f].id, b->front[f].line);
    const d18_minor *m[2] = {p->seen_ll ? &b->ll : NULL, p->seen_bt ? &b->bt : NULL};
    for (int k = 0; k < 2; k++)
        if (m[k] && m[k]->city == *city && m[k]->space == s)
            return BAD("%s: office space %d of %s is already the start space of %s (line %d)", rec,
                       s + 1, l->id, k ? "bt" : "ll", m[k]->line);
    *space = s;
    return CR_OK;
}

static cr_status rec_front(parser *p)
{
    d18_board *b = p->b;
    if (p->n_fronts == D18_NUM_FRONTS)
        return BAD("front: more than %d fronts; a board has exactly %d", D18_NUM_FRONTS,
                   D18_NUM_FRONTS);
    d18_front *f = &b->front[p->n_fronts];
    memset(f, 0, sizeof *f);
    TRY(id_word(p, 1, "front", f->id));
    for (int k = 0; k < p->n_fronts; k++)
        if (strcmp(b->front[k].id, f->id) == 0)
            return BAD("front: the id '%s' is already used by the front on line %d", f->id,
                       b->front[k].line);
    TRY(name_word(p, 2, "front", f->name));
    f->line = p->line;
    f->n_offices = 1;
    static const char *const keys[] = {"home", "offices"};
    int seen[2] = {0};
    int i = 3;
    while (i < p->nw) {
        int k;
        TRY(clause(p, &p->w[i], keys, 2, seen, "front", &k));
        i++;
        if (k == 0) {
            TRY(need(p, i - 1, 2, "front", "home"));
            int c, s;
            TRY(start_space(p, i, "front home", &c, &s));
            f->home = (uint8_t)c;
            f->home_space = (uint8_t)s;
            i += 2;
        } else {
            int n = 0;
            while (i < p->nw && !p->w[i].quoted && p->w[i].s[0] >= '0' && p->w[i].s[0] <= '9') {
                if (n + 1 == D18_MAX_FRONT_OFFICES)
                    return BAD("front offices: more than %d offices (the home office included)",
                               D18_MAX_FRONT_OFFICES);
                int v;
                TRY(num(p, &p->w[i], "front offices", 1, D18_MAX_COST, &v));
                if (n > 0 && v < f->office_cost[n])
                    return BAD("front offices: costs go cheapest first (R59); %d follows %d", v,
                               f->office_cost[n]);
                f->office_cost[++n] = (int16_t)v;
                i++;
            }
            if (n == 0) return BAD("front offices: expected the costs of the bought offices");
            f->n_offices = (uint8_t)(n + 1);
        }
    }
    if (!seen[0]) return BAD("front: 'home CITY SPACE' is missing");
    p->n_fronts++;
    return CR_OK;
}

static cr_status rec_minor(parser *p, int is_bt)
{
    d18_board *b = p->b;
    const char *rec = is_bt ? "bt" : "ll";
    if (is_bt ? p->seen_bt : p->seen_ll)
        return BAD("%s: given twice (first on line %d)", rec, is_bt ? b->bt.line : b->ll.line);
    d18_minor m;
    memset(&m, 0, sizeof m);
    m.line = p->line;
    static const char *const keys[] = {"start", "monster"};
    int seen[2] = {0};
    int i = 1;
    while (i < p->nw) {
        int k;
        TRY(clause(p, &p->w[i], keys, 2, seen, rec, &k));
        i++;
        if (k == 0) {
            TRY(need(p, i - 1, 2, rec, "start"));
            int c, s;
            TRY(start_space(p, i, is_bt ? "bt start" : "ll start", &c, &s));
            m.city = (uint8_t)c;
            m.space = (uint8_t)s;
            i += 2;
        } else {
            int t;
            TRY(monster_ref(p, i, is_bt ? "bt monster" : "ll monster", &t));
            const d18_monster *mt = &b->monster[t];
            if (is_bt && !(mt->flags & D18_F_NURSE))
                return BAD("bt monster: %s is not a nurse type; BT starts with a Nurse (R114)",
                           mt->id);
            if (!is_bt && (mt->flags & D18_F_NURSE))
                return BAD("ll monster: %s is a nurse type; LL's starting type is not (R114)",
                           mt->id);
            m.monster = (uint8_t)t;
            i++;
        }
    }
    if (!seen[0]) return BAD("%s: 'start CITY SPACE' is missing", rec);
    if (!seen[1]) return BAD("%s: 'monster TYPE' is missing", rec);
    if (is_bt) {
        b->bt = m;
        p->seen_bt = 1;
    } else {
        b->ll = m;
        p->seen_ll = 1;
    }
    return CR_OK;
}

static cr_status rec_cubes(parser *p)
{
    d18_board *b = p->b;
    if (p->seen_cubes) return BAD("cubes: given twice (first on line %d)", p->line_cubes);
    if (p->nw != 1 + D18_NUM_COLOURS)
        return SYNTAX("cubes: expected 4 counts: yellow green blue red");
    for (int c = 0; c < D18_NUM_COLOURS; c++) {
        int v;
        char what[32];
        snprintf(what, sizeof what, "cubes (%s)", colour_words[c]);
        TRY(num(p, &p->w[1 + c], what, c == D18_YELLOW ? 1 : 0, D18_MAX_CUBES, &v));
        b->cubes[c] = (int16_t)v;
    }
    p->seen_cubes = 1;
    p->line_cubes = p->line;
    return CR_OK;
}

static cr_status rec_phase(parser *p)
{
    d18_board *b = p->b;
    int ph;
    if (p->nw < 2) return SYNTAX("phase: the phase number is missing");
    TRY(num(p, &p->w[1], "phase", 1, D18_NUM_PHASES, &ph));
    if (p->seen_phase[ph - 1])
        return BAD("phase %d: given twice (first on line %d)", ph, p->line_phase[ph - 1]);
    static const char *const keys[] = {"sales", "limit", "ors", "release"};
    int seen[4] = {0};
    int i = 2;
    char rec[16];
    snprintf(rec, sizeof rec, "phase %d", ph);
    while (i < p->nw) {
        int k, v;
        TRY(clause(p, &p->w[i], keys, 4, seen, rec, &k));
        i++;
        if (k == 3) {
            TRY(need(p, i - 1, 3, rec, "release"));
            for (int c = D18_GREEN; c <= D18_RED; c++, i++) {
                char what[40];
                snprintf(what, sizeof what, "%s release (%s)", rec, colour_words[c]);
                TRY(num(p, &p->w[i], what, 0, D18_MAX_CUBES, &v));
                /* green from phase 2, blue from 3, red from 4 (R43) */
                if (v > 0 && ph < c + 1)
                    return BAD("%s release: %s cubes may enter the supply only from phase %d on "
                               "(R43)",
                               rec, colour_words[c], c + 1);
                b->release[ph - 1][c] = (int16_t)v;
            }
            continue;
        }
        TRY(need(p, i - 1, 1, rec, keys[k]));
        char what[32];
        snprintf(what, sizeof what, "%s %s", rec, keys[k]);
        if (k == 0) {
            if (ph == D18_NUM_PHASES)
                return BAD("phase 5: no 'sales' (the tracker stops in phase 5, §7.2)");
            TRY(num(p, &p->w[i], what, 1, D18_MAX_SALES, &v));
            b->sales[ph - 1] = (int16_t)v;
        } else if (k == 1) {
            TRY(num(p, &p->w[i], what, 1, D18_MAX_MONSTER_COPIES, &v));
            b->limit[ph - 1] = (uint8_t)v;
        } else {
            TRY(num(p, &p->w[i], what, 1, 3, &v));
            b->ors[ph - 1] = (uint8_t)v;
        }
        i++;
    }
    if (!seen[0] && ph < D18_NUM_PHASES)
        return BAD("%s: 'sales S' is missing (purchases before phase %d, §7.1)", rec, ph + 1);
    if (!seen[1]) return BAD("%s: 'limit L' is missing (the monster limit)", rec);
    if (!seen[2]) return BAD("%s: 'ors K' is missing (operating rounds per set)", rec);
    p->seen_phase[ph - 1] = 1;
    p->line_phase[ph - 1] = p->line;
    return CR_OK;
}

/* market ROW COL CELL... ; a cell is PRICE with optional suffixes y (yellow
 * zone), o (orange zone), p (par cell). */
static cr_status rec_market(parser *p)
{
    d18_board *b = p->b;
    if (p->nw < 4) return SYNTAX("market: expected ROW COL and at least one cell");
    int row, col;
    TRY(num(p, &p->w[1], "market row", 0, D18_MAX_MARKET_ROWS - 1, &row));
    TRY(num(p, &p->w[2], "market column", 0, D18_MAX_MARKET_COLS - 1, &col));
    if (p->seen_row[row])
        return BAD("market: row %d is given twice (first on line %d)", row, p->seen_row[row]);
    p->seen_row[row] = p->line;
    if (col + (p->nw - 3) > D18_MAX_MARKET_COLS)
        return BAD("market: row %d would reach column %d; columns go up to %d", row,
                   col + p->nw - 4, D18_MAX_MARKET_COLS - 1);
    for (int i = 3; i < p->nw; i++, col++) {
        const word *w = &p->w[i];
        char digits[WORD_MAX + 1];
        int nd = 0;
        while (nd < w->len && w->s[nd] >= '0' && w->s[nd] <= '9') {
            digits[nd] = w->s[nd];
            nd++;
        }
        digits[nd] = '\0';
        int zone = D18_WHITE, par = 0, zset = 0;
        for (int k = nd; k < w->len; k++) {
            char c = w->s[k];
            if (c == 'p' && !par) {
                par = 1;
            } else if ((c == 'y' || c == 'o') && !zset) {
                zone = c == 'y' ? D18_ZONE_YELLOW : D18_ORANGE;
                zset = 1;
            } else {
                return SYNTAX("market: '%.40s' is not a cell (PRICE, then y for yellow, o for "
                              "orange, p for par)",
                              w->s);
            }
        }
        word dw = {digits, nd, 0};
        char what[40];
        snprintf(what, sizeof what, "market cell (row %d, column %d)", row, col);
        int price;
        TRY(num(p, &dw, what, 1, D18_MAX_PRICE, &price));
        if (par && zone != D18_WHITE)
            return BAD("market: the par cell %d at row %d, column %d is not white (R24)", price,
                       row, col);
        if (par) {
            for (int k = 0; k < b->n_par; k++)
                if (b->cell[b->par_row[k]][b->par_col[k]].price == price)
                    return BAD("market: par price %d is used twice (R24: each par price in "
                               "exactly one cell)",
                               price);
            if (b->n_par == D18_MAX_PAR) return BAD("market: more than %d par cells", D18_MAX_PAR);
            b->par_row[b->n_par] = (uint8_t)row;
            b->par_col[b->n_par] = (uint8_t)col;
            b->n_par++;
        }
        b->cell[row][col].price = (int16_t)price;
        b->cell[row][col].zone = (uint8_t)zone;
        b->cell[row][col].par = (uint8_t)par;
        if (row + 1 > b->market_rows) b->market_rows = (uint8_t)(row + 1);
        if (col + 1 > b->market_cols) b->market_cols = (uint8_t)(col + 1);
        p->n_cells++;
    }
    return CR_OK;
}

static cr_status rec_monster(parser *p)
{
    d18_board *b = p->b;
    if (b->n_monsters == D18_MAX_MONSTER_TYPES)
        return BAD("more than %d monster types", D18_MAX_MONSTER_TYPES);
    d18_monster *m = &b->monster[b->n_monsters];
    memset(m, 0, sizeof *m);
    TRY(id_word(p, 1, "monster", m->id));
    for (int k = 0; k < b->n_monsters; k++)
        if (strcmp(b->monster[k].id, m->id) == 0)
            return BAD("monster: the id '%s' is already used by the monster on line %d", m->id,
                       b->monster[k].line);
    TRY(name_word(p, 2, "monster", m->name));
    m->line = p->line;
    enum {
        K_COPIES,
        K_PHASE,
        K_PRICE,
        K_EATEN,
        K_PERM,
        K_MOVE,
        K_TOWN,
        K_EXPORT,
        K_LINGER,
        K_CLAW,
        K_FANG,
        K_FLAG0
    };
    static const char *const keys[] = {
        "copies",    "phase",  "price",  "eaten",        "permanent",      "move",
        "town",      "export", "linger", "claw",         "fang",           "not_blocked",
        "no_office", "castle", "triple", "limit_exempt", "killed_by_claw", "nurse"};
    enum { NKEYS = K_FLAG0 + NUM_FLAGS };
    int seen[NKEYS] = {0};
    int i = 3, v;
    while (i < p->nw) {
        int k;
        if (is_word(&p->w[i], "howl"))
            return SYNTAX("monster: unknown key 'howl' (howl is a movement type: 'move howl', "
                          "R99)");
        TRY(clause(p, &p->w[i], keys, NKEYS, seen, "monster", &k));
        i++;
        if (k >= K_FLAG0) {
            m->flags |= (uint16_t)(1u << (k - K_FLAG0));
            continue;
        }
        switch (k) {
        case K_EXPORT: m->exports = 1; continue;
        case K_PERM: m->eaten = 0; continue;
        case K_CLAW: m->cf = D18_CF_CLAW; continue;
        case K_FANG: m->cf = D18_CF_FANG; continue;
        default: break;
        }
        TRY(need(p, i - 1, 1, "monster", keys[k]));
        char what[32];
        snprintf(what, sizeof what, "monster %s", keys[k]);
        switch (k) {
        case K_COPIES:
            TRY(num(p, &p->w[i++], what, 1, D18_MAX_COPIES, &v));
            m->copies = (uint8_t)v;
            break;
        case K_PHASE:
            TRY(num(p, &p->w[i++], what, 0, D18_NUM_PHASES, &v));
            m->phase = (uint8_t)v;
            break;
        case K_PRICE:
            TRY(num(p, &p->w[i++], what, 1, D18_MAX_PRICE, &v));
            m->price = (int16_t)v;
            break;
        case K_EATEN:
            TRY(num(p, &p->w[i++], what, 2, D18_NUM_PHASES, &v));
            m->eaten = (uint8_t)v;
            break;
        case K_TOWN:
            TRY(num(p, &p->w[i++], what, 0, D18_MAX_TOWN_REVENUE, &v));
            m->town_rev = (int16_t)v;
            break;
        case K_LINGER:
            TRY(num(p, &p->w[i++], what, 0, D18_MAX_LINGER, &v));
            m->linger = (uint8_t)v;
            break;
        case K_MOVE: {
            int t = -1;
            for (int j = 0; j <= D18_MOVE_INF; j++)
                if (is_word(&p->w[i], move_names[j])) t = j;
            if (t < 0)
                return BAD("monster move: '%.40s' is not a movement type (home, howl, dit, city, "
                           "major, inf; R99)",
                           p->w[i].s);
            m->move = (uint8_t)t;
            i++;
            int takes_n = t == D18_MOVE_DIT || t == D18_MOVE_CITY || t == D18_MOVE_MAJOR;
            int next_num =
                i < p->nw && !p->w[i].quoted && p->w[i].s[0] >= '0' && p->w[i].s[0] <= '9';
            if (takes_n) {
                if (!next_num)
                    return BAD("monster move %s: N is missing ('move %s N')", move_names[t],
                               move_names[t]);
                snprintf(what, sizeof what, "monster move %s N", move_names[t]);
                TRY(num(p, &p->w[i++], what, 1, D18_MAX_N, &v));
                m->n = (uint8_t)v;
            } else if (next_num) {
                return BAD("monster move %s: takes no N (R99)", move_names[t]);
            }
            break;
        }
        default: break;
        }
    }
    static const char *const required[] = {"copies", "phase", "price", "move"};
    static const int req_key[] = {K_COPIES, K_PHASE, K_PRICE, K_MOVE};
    for (int k = 0; k < 4; k++)
        if (!seen[req_key[k]]) return BAD("monster %s: '%s' is missing", m->id, required[k]);
    if (seen[K_EATEN] == seen[K_PERM])
        return BAD("monster %s: give either 'eaten P' or 'permanent'", m->id);
    if (seen[K_CLAW] && seen[K_FANG])
        return BAD("monster %s: a claw and a fang on one type (§8.11.2: never both)", m->id);
    if (m->eaten && m->eaten <= m->phase)
        return BAD("monster %s: eaten in phase %d, not later than its phase %d (§14.1)", m->id,
                   m->eaten, m->phase);
    int mv = m->move;
    int pathless = mv == D18_MOVE_HOME || mv == D18_MOVE_HOWL;
    if (pathless && (m->flags & D18_F_PATH_FLAGS)) {
        const char *f = "";
        for (int k = 0; k < 4; k++)
            if (m->flags & (1u << k)) f = flag_names[k];
        return BAD("monster %s: '%s' on a %s monster, which runs no path (R99)", m->id, f,
                   move_names[mv]);
    }
    if (m->exports && (pathless || mv == D18_MOVE_CITY))
        return BAD("monster %s: 'export' on a %s monster, which never visits off-boards (§8.9.3)",
                   m->id, move_names[mv]);
    if (seen[K_LINGER] && pathless)
        return BAD("monster %s: 'linger' on a %s monster (§8.9.3: it has no meaning there)", m->id,
                   move_names[mv]);
    if ((m->flags & D18_F_NURSE) && m->phase != 0)
        return BAD("monster %s: the nurse flag on a phase-%d type; nurse types have phase 0 (R114)",
                   m->id, m->phase);
    if (!(m->flags & D18_F_NURSE) && m->phase == 0)
        return BAD("monster %s: phase 0 without the nurse flag; only nurse types have phase 0 "
                   "(§14.1)",
                   m->id);
    if (b->n_copies + m->copies > D18_MAX_MONSTER_COPIES)
        return BAD("monster %s: more than %d monster copies in all", m->id, D18_MAX_MONSTER_COPIES);
    m->first_copy = b->n_copies;
    for (int k = 0; k < m->copies; k++) b->copy_type[b->n_copies + k] = b->n_monsters;
    b->n_copies = (uint8_t)(b->n_copies + m->copies);
    b->n_monsters++;
    return CR_OK;
}

/* bank B: the bank at the start (R4's 12,000 by default). */
static cr_status rec_bank(parser *p)
{
    if (p->line_bank) return BAD("bank: given twice (first on line %d)", p->line_bank);
    if (p->nw != 2) return SYNTAX("bank: expected one number, the bank at the start");
    int v;
    TRY(num(p, &p->w[1], "bank", D18_MIN_BANK, D18_MAX_BANK, &v));
    p->b->bank = v;
    p->line_bank = p->line;
    return CR_OK;
}

/* cash N C [N C ...]: each player's starting money at a table of N players
 * (R5's 2,400 / N for every N not given). */
static cr_status rec_cash(parser *p)
{
    static const char *const keys[] = {"2", "3", "4", "5", "6"};
    if (p->line_cash) return BAD("cash: given twice (first on line %d)", p->line_cash);
    if (p->nw < 3) return SYNTAX("cash: expected pairs PLAYERS CASH, e.g. 'cash 4 600'");
    int seen[5] = {0};
    for (int i = 1; i < p->nw; i += 2) {
        int k, v;
        if (p->w[i].quoted || p->w[i].len != 1 || p->w[i].s[0] < '0' || p->w[i].s[0] > '9')
            return SYNTAX("cash: '%.40s' is not a number of players (2 to %d)", p->w[i].s,
                          D18_BOARD_MAX_PLAYERS);
        if (p->w[i].s[0] < '2' || p->w[i].s[0] > '6')
            return BAD("cash: %s players: a table has 2 to %d players", p->w[i].s,
                       D18_BOARD_MAX_PLAYERS);
        TRY(clause(p, &p->w[i], keys, 5, seen, "cash", &k));
        TRY(need(p, i, 1, "cash", keys[k]));
        char what[32];
        snprintf(what, sizeof what, "cash %s", keys[k]);
        TRY(num(p, &p->w[i + 1], what, 1, D18_MAX_START_CASH, &v));
        p->b->start_cash[k + 2] = v;
    }
    p->line_cash = p->line;
    return CR_OK;
}

/* assoc ID price P: an associate's list price (§9), a multiple of 5 (bids
 * and the all-pass price drops go by 5, §4). */
static cr_status rec_assoc(parser *p)
{
    if (p->nw < 2) return SYNTAX("assoc: the associate's id is missing");
    int a = -1;
    for (int k = 0; k < D18_BOARD_ASSOCS; k++)
        if (is_word(&p->w[1], d18_assoc_id[k])) a = k;
    if (a < 0)
        return BAD("assoc: unknown associate '%.40s' (the associates are IL, JH, CV, LL, BT, MI "
                   "and FD)",
                   p->w[1].s);
    char rec[16];
    snprintf(rec, sizeof rec, "assoc %s", d18_assoc_id[a]);
    if (p->line_assoc[a]) return BAD("%s: given twice (first on line %d)", rec, p->line_assoc[a]);
    static const char *const keys[] = {"price"};
    int seen[1] = {0};
    for (int i = 2; i < p->nw; i += 2) {
        int k, v;
        TRY(clause(p, &p->w[i], keys, 1, seen, rec, &k));
        TRY(need(p, i, 1, rec, keys[k]));
        char what[32];
        snprintf(what, sizeof what, "%s price", rec);
        TRY(num(p, &p->w[i + 1], what, 5, D18_MAX_PRICE, &v));
        if (v % 5) return BAD("%s price: %d is not a multiple of 5 (bids go by 5, §4)", rec, v);
        p->b->assoc_price[a] = (int16_t)v;
    }
    if (!seen[0]) return BAD("%s: 'price P' is missing", rec);
    p->line_assoc[a] = p->line;
    return CR_OK;
}

static cr_status rec_title(parser *p)
{
    if (p->seen_title) return BAD("title: given twice");
    TRY(name_word(p, 1, "title", p->b->title));
    if (p->nw != 2) return SYNTAX("title: expected one \"name\"");
    p->seen_title = 1;
    return CR_OK;
}

/* --- Whole-file checks ----------------------------------------------------- */

static cr_status finish(parser *p)
{
    d18_board *b = p->b;
    p->line = 0;
    if (b->n_cities == 0) return BAD("no city; a board needs cities");
    if (p->n_castle == 0)
        return BAD("no route space is flagged castle_start; exactly one must be (R36)");
    if (p->n_fronts != D18_NUM_FRONTS)
        return BAD("%d front%s; a board has exactly %d (§1.3)", p->n_fronts,
                   p->n_fronts == 1 ? "" : "s", D18_NUM_FRONTS);
    if (!p->seen_ll) return BAD("no 'll' line (Lupin's Lipids' start and monster)");
    if (!p->seen_bt) return BAD("no 'bt' line (Blundell Transfusions' start and Nurse type)");
    /* A front listed after ll/bt may take their space: start_space() only
     * saw the fronts before them. */
    for (int f = 0; f < D18_NUM_FRONTS; f++) {
        const d18_minor *m[2] = {&b->ll, &b->bt};
        for (int k = 0; k < 2; k++)
            if (b->front[f].home == m[k]->city && b->front[f].home_space == m[k]->space) {
                p->line = b->front[f].line;
                return BAD("front home: office space %d of %s is already the start space of %s "
                           "(line %d)",
                           m[k]->space + 1, b->loc[m[k]->city].id, k ? "bt" : "ll", m[k]->line);
            }
    }
    if (b->ll.city == b->bt.city && b->ll.space == b->bt.space) {
        p->line = b->bt.line;
        return BAD("bt start: the same office space as ll's start (line %d)", b->ll.line);
    }
    if (!p->seen_cubes) return BAD("no 'cubes' line (the count of each colour)");
    for (int ph = 0; ph < D18_NUM_PHASES; ph++)
        if (!p->seen_phase[ph]) return BAD("no 'phase %d' line (phase chart, §7.1)", ph + 1);
    for (int c = D18_GREEN; c <= D18_RED; c++) {
        int total = 0;
        for (int ph = 0; ph < D18_NUM_PHASES; ph++) total += b->release[ph][c];
        if (total > b->cubes[c])
            return BAD("%d %s cubes are released, more than the %d the board has (R43)", total,
                       colour_words[c], b->cubes[c]);
    }
    if (p->n_cells == 0) return BAD("no 'market' line (the stock market, R107)");
    if (b->n_par == 0) return BAD("the market has no par cell (R24)");
    if (b->n_monsters == 0) return BAD("no monster types");
    /* The auction offers the associates in the rules' order, the cheapest
     * first (§4.1): a board may change their prices, not that order. */
    for (int a = 1; a < D18_BOARD_ASSOCS; a++)
        if (b->assoc_price[a] < b->assoc_price[a - 1]) {
            p->line = p->line_assoc[a] ? p->line_assoc[a] : p->line_assoc[a - 1];
            return BAD("assoc %s price %d is below %s's %d: the auction sells the associates in "
                       "the order IL, JH, CV, LL, BT, MI, FD, the cheapest first (§4.1), so their "
                       "prices may not fall along it",
                       d18_assoc_id[a], b->assoc_price[a], d18_assoc_id[a - 1],
                       b->assoc_price[a - 1]);
        }
    /* Every phase 2..5 reachable: at least one copy of a phase-P type in the
     * bank at the start (LL's and BT's copies are not, §7.2, §14.1). */
    for (int ph = 2; ph <= D18_NUM_PHASES; ph++) {
        int bank = 0;
        for (int t = 0; t < b->n_monsters; t++)
            if (b->monster[t].phase == ph)
                bank += b->monster[t].copies - (t == b->ll.monster) - (t == b->bt.monster);
        if (bank < 1)
            return BAD("phase %d cannot be reached: no phase-%d monster is in the bank at the "
                       "start (§7.2)",
                       ph, ph);
    }
    /* Derived tables.  Par cells by ascending price (insertion sort). */
    for (int i = 1; i < b->n_par; i++)
        for (int j = i; j > 0; j--) {
            const d18_cell *x = &b->cell[b->par_row[j - 1]][b->par_col[j - 1]];
            const d18_cell *y = &b->cell[b->par_row[j]][b->par_col[j]];
            if (x->price <= y->price) break;
            uint8_t r = b->par_row[j], c = b->par_col[j];
            b->par_row[j] = b->par_row[j - 1];
            b->par_col[j] = b->par_col[j - 1];
            b->par_row[j - 1] = r;
            b->par_col[j - 1] = c;
        }
    for (int i = 0; i < b->n_locations; i++) b->loc_by_id[i] = (uint8_t)i;
    for (int i = 1; i < b->n_locations; i++)
        for (int j = i; j > 0; j--) {
            if (strcmp(b->loc[b->loc_by_id[j - 1]].id, b->loc[b->loc_by_id[j]].id) <= 0) break;
            uint8_t t = b->loc_by_id[j];
            b->loc_by_id[j] = b->loc_by_id[j - 1];
            b->loc_by_id[j - 1] = t;
        }
    return CR_OK;
}

/* --- The file -------------------------------------------------------------- */

static cr_status parse_line(parser *p, char *line)
{
    TRY(split(p, line));
    if (p->nw == 0) return CR_OK;
    const word *k = &p->w[0];
    if (p->line == 1) {
        if (p->nw != 3 || !is_word(k, "croupier-board"))
            return SYNTAX("not a croupier board file: the first line must be 'croupier-board "
                          "18dracula 1'");
        if (!is_word(&p->w[1], "18dracula"))
            return BAD("a board for the game '%.40s', not 18dracula", p->w[1].s);
        if (!is_word(&p->w[2], "1"))
            return BAD("board format version '%.40s' is not supported (this program reads "
                       "version 1)",
                       p->w[2].s);
        return CR_OK;
    }
    if (is_word(k, "city")) return rec_location(p, D18_CITY);
    if (is_word(k, "town")) return rec_location(p, D18_TOWN);
    if (is_word(k, "off")) return rec_location(p, D18_OFF);
    if (is_word(k, "route")) return rec_route(p);
    if (is_word(k, "front")) return rec_front(p);
    if (is_word(k, "ll")) return rec_minor(p, 0);
    if (is_word(k, "bt")) return rec_minor(p, 1);
    if (is_word(k, "cubes")) return rec_cubes(p);
    if (is_word(k, "phase")) return rec_phase(p);
    if (is_word(k, "market")) return rec_market(p);
    if (is_word(k, "monster")) return rec_monster(p);
    if (is_word(k, "title")) return rec_title(p);
    if (is_word(k, "bank")) return rec_bank(p);
    if (is_word(k, "cash")) return rec_cash(p);
    if (is_word(k, "assoc")) return rec_assoc(p);
    return SYNTAX("unknown record '%.40s' (expected title, city, town, off, route, front, ll, bt, "
                  "cubes, phase, market, monster, bank, cash or assoc)",
                  k->s);
}

static cr_status parse_all(parser *p, const char *text, size_t len)
{
    if (len > D18_MAX_FILE)
        return BAD("the file has %zu bytes; a board file has at most %d", len, D18_MAX_FILE);
    char line[D18_MAX_LINE + 2];
    size_t pos = 0;
    p->line = 0;
    while (pos < len) {
        p->line++;
        size_t n = 0;
        int in_quote = 0, comment = 0;
        while (pos < len && text[pos] != '\n') {
            unsigned char c = (unsigned char)text[pos];
            if (c == '\0') return SYNTAX("a NUL byte (offset %zu)", pos);
            if (!comment) {
                if (c == '"') in_quote = !in_quote;
                if (c == '#' && !in_quote) comment = 1;
            }
            if (!comment) {
                if (c == '\r' && (pos + 1 == len || text[pos + 1] == '\n')) {
                    pos++;
                    continue;
                }
                if ((c < 0x20 && c != '\t') || c >= 0x7f)
                    return SYNTAX("byte 0x%02x (offset %zu): board files are printable ASCII "
                                  "outside comments",
                                  c, pos);
                if (n == D18_MAX_LINE)
                    return SYNTAX("a line longer than %d characters", D18_MAX_LINE);
                line[n++] = (char)c;
            }
            pos++;
        }
        pos++; /* the newline */
        line[n] = '\0';
        TRY(parse_line(p, line));
        if (p->line == 1 && p->nw == 0)
            return SYNTAX("not a croupier board file: the first line must be 'croupier-board "
                          "18dracula 1'");
    }
    if (p->line == 0)
        return SYNTAX("an empty file; a board file starts 'croupier-board 18dracula 1'");
    return finish(p);
}

void d18_board_rule_money(d18_board *b)
{
    b->bank = D18_BANK_START;
    memset(b->start_cash, 0, sizeof b->start_cash);
    for (int n = 2; n <= D18_BOARD_MAX_PLAYERS; n++) b->start_cash[n] = D18_PLAYER_MONEY / n;
    for (int a = 0; a < D18_BOARD_ASSOCS; a++) b->assoc_price[a] = d18_rule_assoc_price[a];
}

cr_status d18_board_parse(const char *text, size_t len, const char *file_name, d18_board *out,
                          char *err, size_t errcap)
{
    parser ps;
    parser *p = &ps;
    memset(p, 0, sizeof *p);
    p->file = file_name ? file_name : "board";
    p->err = err;
    p->errcap = errcap;
    p->b = out;
    memset(out, 0, sizeof *out);
    d18_board_rule_money(out); /* unless the file gives others */
    if (err && errcap) err[0] = '\0';
    cr_status rc = text == NULL && len > 0 ? BAD("no text") : parse_all(p, text ? text : "", len);
    if (rc != CR_OK) memset(out, 0, sizeof *out);
    return rc;
}

/* --- Lookups --------------------------------------------------------------- */

int d18_board_find_location(const d18_board *b, const char *id)
{
    int lo = 0, hi = b->n_locations - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(b->loc[b->loc_by_id[mid]].id, id);
        if (c == 0) return b->loc_by_id[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int d18_board_find_monster(const d18_board *b, const char *id)
{
    for (int i = 0; i < b->n_monsters; i++)
        if (strcmp(b->monster[i].id, id) == 0) return i;
    return -1;
}

int d18_board_find_front(const d18_board *b, const char *id)
{
    for (int i = 0; i < D18_NUM_FRONTS; i++)
        if (strcmp(b->front[i].id, id) == 0) return i;
    return -1;
}

int d18_board_find_route(const d18_board *b, int a, int b2)
{
    if (a < 0 || a >= b->n_locations) return -1;
    const d18_location *l = &b->loc[a];
    for (int i = 0; i < l->n_adj; i++)
        if (d18_route_other(b, l->adj[i], a) == b2) return l->adj[i];
    return -1;
}

/* --- The bundled board ----------------------------------------------------- */

/* build/gen/d18_builtin_board.c (CMakeLists.txt, boards/embed.cmake) */
extern const char d18_builtin_board[];
extern const size_t d18_builtin_board_len;

static d18_board builtin;
static uint64_t builtin_hash;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void builtin_load(void)
{
    char err[256];
    if (d18_board_parse(d18_builtin_board, d18_builtin_board_len, "medieval.board", &builtin, err,
                        sizeof err) != CR_OK) {
        fprintf(stderr, "croupier: the bundled 18Dracula board is broken: %s\n", err);
        abort();
    }
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64, as the core hashes a board file */
    for (size_t i = 0; i < d18_builtin_board_len; i++) {
        h ^= (unsigned char)d18_builtin_board[i];
        h *= 0x100000001b3ull;
    }
    builtin_hash = h;
}

const d18_board *d18_board_builtin(void)
{
    pthread_once(&builtin_once, builtin_load);
    return &builtin;
}

const char *d18_board_builtin_text(size_t *len)
{
    if (len) *len = d18_builtin_board_len;
    return d18_builtin_board;
}

uint64_t d18_board_builtin_hash(void)
{
    pthread_once(&builtin_once, builtin_load);
    return builtin_hash;
}
