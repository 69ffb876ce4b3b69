/* tui.c — the full-screen client over the match layer (see tui.h).
 *
 * Screen (80x24 and larger):
 *
 *   row 0        header: the game, the seats, whose screen this is
 *   left pane    the table: the game's panels, flowed top to bottom; what
 *                does not fit is cut and `t` shows it whole
 *   right pane   the log ("since your last turn": at a decision a summary
 *                by seat, while bots move the newest events) above the
 *                menu of legal actions (prompt, numbered labels, group
 *                letters)
 *   last row     the highlighted action's full label, a message, or keys
 *
 * Text.  All text drawn goes through draw_text(), which wraps at spaces,
 * understands the panels' markup (parts.h) only where asked, shows every
 * other control character, invalid UTF-8 and zero-width or bidirectional
 * character as '?', and in ASCII mode any non-ASCII character as '?' too.
 * So text a record brought (seat specs) cannot move the cursor or reorder
 * the screen.
 *
 * Views.  A screen is drawn for one `view`: the human seat to act, or
 * between decisions the only human, the public view when two or more
 * humans share the screen (a privacy screen stands between their turns),
 * and the omniscient view at a table of bots only.  The log of a seat
 * starts at its anchor: the event count when its previous turn ended.
 *
 * This file holds the screen, the menu and the play loop; windows.c the
 * full-screen windows, replay.c the replay viewer (tui_internal.h).
 */
#include "tui/tui.h"

#include <ctype.h>
#include <jansson.h>
#include <langinfo.h>
#include <locale.h>
#include <ncurses.h>
#include <term.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "croupier/alloc.h"
#include "croupier/analysis.h"
#include "croupier/log_summary.h"
#include "croupier/parts.h"
#include "croupier/replay.h"
#include "croupier/session.h"
#include "croupier/text.h"

const char tui_keys_text[] =
    "Up/Down, PgUp/PgDn, Home/End  move in the menu\n"
    "Enter                         play the highlighted action (a group: open it)\n"
    "Esc, Backspace, Left          from a group back to the whole menu\n"
    "1..9 (digits)                 highlight action number N (Enter plays it)\n"
    "letters shown in the menu     next action of that kind (e.g. c: card)\n"
    "?                             explain this decision (the game's help)\n"
    "u                             undo: back to your previous decision\n"
    "s                             save the game (--save FILE, or asks for a file)\n"
    "l                             the whole log;  t: the whole table;  m: the map\n"
    "S                             the spreadsheet (18XX games: shares, cash, history)\n"
    "h                             a hint: what the strongest bot would play, and why\n"
    "G                             the player's guide (the rules in short, a glossary)\n"
    "+ / -                         bots play slower / faster\n"
    "q                             quit (asks first; saves with --save)\n";

#include "tui/tui_internal.h"

/* ------------------------------------------------------------------ text */

static int style_index(int b)
{
    switch (b) {
    case 'e': return ST_EMPH;
    case 'd': return ST_DIM;
    case '+': return ST_GOOD;
    case '-': return ST_BAD;
    case '!': return ST_ATTN;
    case '1': return ST_A1;
    case '2': return ST_A2;
    case '3': return ST_A3;
    case '4': return ST_A4;
    default: return ST_PLAIN;
    }
}

attr_t style_attr(const tui *t, int st)
{
    static const short pair_of[] = {0, 0, 0, 1, 2, 3, 4, 1, 2, 5};
    attr_t a = A_NORMAL;
    if (st == ST_EMPH || st == ST_ATTN) a |= A_BOLD;
    if (st == ST_DIM) a |= A_DIM;
    if (st < (int)(sizeof pair_of / sizeof pair_of[0]) && pair_of[st] && t->color)
        a |= COLOR_PAIR(pair_of[st]);
    else if (st >= ST_A1)
        a |= A_BOLD; /* no colours: the suits stand out at least */
    return a;
}

/* The next character of s[0..len): its byte length, its display width and
 * what to draw (`out`, NUL-terminated); markup bytes are reported as width
 * -1 with *markup set. */
static int next_char(const tui *t, const char *s, size_t len, int markup, char out[8], int *width,
                     int *is_markup)
{
    unsigned char c = (unsigned char)s[0];
    *is_markup = 0;
    if (markup && (c == CR_PANEL_STYLE) && len >= 2) {
        *is_markup = 1;
        out[0] = s[1];
        out[1] = '\0';
        *width = 0;
        return 2;
    }
    if (c < 0x20 || c == 0x7f) {
        strcpy(out, "?");
        *width = 1;
        return 1;
    }
    if (c < 0x80) {
        out[0] = (char)c;
        out[1] = '\0';
        *width = 1;
        return 1;
    }
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    wchar_t wc;
    size_t n = mbrtowc(&wc, s, len, &ps);
    if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
        strcpy(out, "?");
        *width = 1;
        return 1;
    }
    int w = wcwidth(wc);
    if (!t->utf8) { /* ASCII: the common punctuation and symbols by their look-alikes */
        static const struct {
            wchar_t wc;
            const char *ascii;
        } fold[] = {{0x2014, "-"}, {0x2013, "-"}, {0x2212, "-"},  {0x00b7, "|"},  {0x2026, "..."},
                    {0x2018, "'"}, {0x2019, "'"}, {0x201c, "\""}, {0x201d, "\""}, {0x2660, "S"},
                    {0x2663, "C"}, {0x2665, "H"}, {0x2666, "D"},  {0x2192, "->"}, {0x00e5, "a"},
                    {0x00e4, "a"}, {0x00f6, "o"}, {0x00e9, "e"}};
        for (size_t k = 0; k < sizeof fold / sizeof fold[0]; k++)
            if (fold[k].wc == wc) {
                strcpy(out, fold[k].ascii);
                *width = (int)strlen(out);
                return (int)n;
            }
    }
    if (!t->utf8 || w < 1 || n > 4 || (wc >= 0x202a && wc <= 0x202e) ||
        (wc >= 0x2066 && wc <= 0x2069)) {
        strcpy(out, "?");
        *width = 1;
        return (int)n;
    }
    memcpy(out, s, n);
    out[n] = '\0';
    *width = w;
    return (int)n;
}

/* Draws one logical line s[0..len) wrapped into `width` columns at (y, x),
 * at most max_rows rows (continuation rows indented by `indent`); returns
 * the rows it takes (drawn or not: y < 0 only counts).  base: attributes
 * added to every style; markup: honour CR_PANEL_STYLE. */
int draw_text(const tui *t, int y, int x, int width, int max_rows, const char *s, size_t len,
              int markup, attr_t base, int indent)
{
    if (width <= indent + 4) indent = 0;
    int rows = 0, st = ST_PLAIN;
    size_t i = 0;
    while (rows < max_rows) {
        int w = rows == 0 ? width : width - indent;
        int x0 = rows == 0 ? x : x + indent;
        /* find where this row ends: the last space that fits, or a hard cut */
        size_t j = i, brk = 0;
        int col = 0, have_brk = 0;
        while (j < len) {
            char ch[8];
            int cw, mk;
            int n = next_char(t, s + j, len - j, markup, ch, &cw, &mk);
            if (!mk && col + cw > w) break;
            if (!mk && ch[0] == ' ') {
                brk = j;
                have_brk = 1;
            }
            col += cw;
            j += (size_t)n;
        }
        size_t end = j;
        if (j < len && have_brk && brk > i) end = brk;
        if (y >= 0) {
            move(y + rows, x0);
            int c2 = 0;
            for (size_t k = i; k < end;) {
                char ch[8];
                int cw, mk;
                int n = next_char(t, s + k, len - k, markup, ch, &cw, &mk);
                if (mk) {
                    st = style_index(ch[0]);
                } else {
                    attrset(base | style_attr(t, st));
                    addstr(ch);
                    c2 += cw;
                }
                k += (size_t)n;
            }
            attrset(base);
            for (; c2 < w; c2++) addch(' ');
            attrset(A_NORMAL);
        } else {
            for (size_t k = i; k < end;) { /* keep the style across rows */
                char ch[8];
                int cw, mk;
                int n = next_char(t, s + k, len - k, markup, ch, &cw, &mk);
                if (mk) st = style_index(ch[0]);
                k += (size_t)n;
            }
        }
        rows++;
        i = end;
        while (i < len && s[i] == ' ') i++;
        if (i >= len) break;
    }
    return rows;
}

void fill_row(int y, int x, int w, attr_t a)
{
    attrset(a);
    move(y, x);
    for (int i = 0; i < w; i++) addch(' ');
    attrset(A_NORMAL);
}

void draw_str(const tui *t, int y, int x, int w, const char *s, attr_t a)
{
    draw_text(t, y, x, w, 1, s, strlen(s), 0, a, 0);
}

/* ---------------------------------------------------------------- buffers */

/* The view's table as panel text in t->text; its length (0 when out of
 * memory: the text is then released, so the next table tries again). */
size_t table_text(tui *t, const void *obs)
{
    const cr_game *g = t->g;
    const cr_game_parts *parts = cr_parts(g);
    cr_text_reset(&t->text);
    if (parts->panels) {
        int flags = t->utf8 ? CR_PANEL_UTF8 : 0;
        CR_TEXT_RENDER(&t->text, parts->panels(g, obs, flags, buf, cap));
    } else if (g->def->obs_to_text) {
        cr_text_puts(&t->text, "\x01Table\n");
        CR_TEXT_RENDER(&t->text, g->def->obs_to_text(g, obs, buf, cap));
    } else {
        cr_text_puts(&t->text, "\x01Table\n(this game shows no table)\n");
    }
    if (!t->text.oom) return t->text.len;
    cr_text_free(&t->text);
    return 0;
}

/* Height of the panel starting at text[i] (up to the next title) in
 * columns of width w; *end gets the offset after it. */
static int panel_rows(const tui *t, const char *text, size_t len, size_t i, int w, size_t *end)
{
    int rows = 0;
    for (int first = 1; i < len; first = 0) {
        if (!first && text[i] == CR_PANEL_TITLE) break;
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        const char *s = text + i;
        size_t n = e - i;
        if (n && s[0] == CR_PANEL_TITLE) s++, n--;
        rows += draw_text(t, -1, 0, w, 1000, s, n, 1, A_NORMAL, 2);
        i = e + 1;
    }
    *end = i < len ? i : len;
    return rows;
}

/* Rows the panels of text[0..len) take in one column w wide. */
static int panels_height(tui *t, const char *text, size_t len, int w)
{
    int total = 0;
    for (size_t i = 0, end; i < len; i = end) total += panel_rows(t, text, len, i, w, &end);
    return total;
}

/* Draws the panels of text[0..len) in the box (y, x, w, h), in `cols`
 * columns: a panel goes whole into the first column with room after the
 * previous one.  With `flow` the box takes whole panels only (a panel
 * taller than a column is split) and leaves the rest to the caller, who
 * places it elsewhere; without, the last column takes what it can and says
 * what was cut.  Returns the offset of the first byte not drawn (len when
 * everything was). */
static size_t draw_panels(tui *t, const char *text, size_t len, int y, int x, int w, int h,
                          int cols, int flow)
{
    if (cols < 1) cols = 1;
    /* more columns only when one column of the whole width is too short */
    if (cols > 1 && panels_height(t, text, len, w) <= h) cols = 1;
    int cw = cols > 1 ? (w - (cols - 1)) / cols : w;
    int col = 0, row = 0, cut = 0;
    size_t i = 0;
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < h; r++) fill_row(y + r, x + c * (cw + 1), cw, A_NORMAL);
    while (i < len && !cut) {
        size_t end;
        int need = panel_rows(t, text, len, i, cw, &end);
        if (row > 0 && row + need > h) {
            if (col + 1 < cols) { /* the next column */
                col++;
                row = 0;
            } else if (flow && h - row < 2) {
                break; /* the rest goes elsewhere */
            }          /* else as much of it as fits: the caller continues it */
        }
        int cx = x + col * (cw + 1);
        while (i < end) {
            const char *nl = memchr(text + i, '\n', end - i);
            size_t e = nl ? (size_t)(nl - text) : end;
            const char *s = text + i;
            size_t n = e - i;
            int is_title = n > 0 && s[0] == CR_PANEL_TITLE;
            if (is_title) s++, n--;
            int rows = draw_text(t, -1, cx, cw, 1000, s, n, 1, A_NORMAL, 2);
            if (row + rows > h) {
                cut = 1;
                break;
            }
            draw_text(t, y + row, cx, cw, rows, s, n, 1, is_title ? A_BOLD | A_UNDERLINE : A_NORMAL,
                      2);
            row += rows;
            i = e + 1;
        }
    }
    if (i > len) i = len;
    if (cut && !flow && h > 0) {
        int cx = x + col * (cw + 1);
        fill_row(y + h - 1, cx, cw, A_NORMAL);
        draw_str(t, y + h - 1, cx, cw, "  ... more: press t for the whole table", A_DIM);
    }
    return i;
}

/* The table of t->text[0..len): its panels in the left box (1, 0, left,
 * body) in `cols` columns; what does not fit there (the last panels, the
 * least important) flows into the top of the right column (rx, rw), at most
 * right_max rows; a panel cut between the two goes on under its title with
 * "(cont.)".  Returns the rows taken in the right column (0 when the
 * left box held everything). */
int draw_table(tui *t, size_t len, int left, int cols, int rx, int rw, int body, int right_max)
{
    const char *text = cr_text_str(&t->text);
    int flow = rw >= MIN_RIGHT && right_max >= 3;
    size_t rest = draw_panels(t, text, len, 1, 0, left, body, cols, flow);
    attrset(A_DIM);
    for (int r = 1; r <= body; r++) mvaddch(r, left, ACS_VLINE);
    attrset(A_NORMAL);
    if (rest >= len) return 0;
    /* a panel cut at a line goes on under its title, "(cont.)" */
    const char *more = text + rest;
    size_t more_len = len - rest;
    char *joined = NULL;
    if (text[rest] != CR_PANEL_TITLE) {
        size_t ts = rest;
        while (ts > 0 && !(text[ts] == CR_PANEL_TITLE && text[ts - 1] == '\n')) ts--;
        size_t te = ts;
        while (te < rest && text[te] != '\n') te++;
        static const char cont[] = " (cont.)\n";
        joined = cr_alloc(te - ts + sizeof cont + more_len);
        if (joined != NULL && text[ts] == CR_PANEL_TITLE) {
            size_t n = te - ts;
            memcpy(joined, text + ts, n);
            memcpy(joined + n, cont, sizeof cont - 1);
            memcpy(joined + n + sizeof cont - 1, more, more_len);
            more = joined;
            more_len += n + sizeof cont - 1;
        }
    }
    int need = panels_height(t, more, more_len, rw);
    int h = need < right_max ? need : right_max;
    draw_panels(t, more, more_len, 1, rx, rw, h, 1, 0);
    cr_free(joined);
    return h;
}

/* The table's width and its columns on a screen W wide: at 80 columns 46 of
 * them; wide screens give the log and menu 44 and the table two columns. */
int table_width(int W, int *cols)
{
    int left = W * 58 / 100;
    if (left < MIN_LEFT) left = W < MIN_LEFT + 20 ? W / 2 : MIN_LEFT;
    if (W >= 130) left = W - 44;
    *cols = left >= 2 * MIN_LEFT + 1 ? 2 : 1;
    return left;
}

/* ----------------------------------------------------------------- views */

/* The view between two humans' decisions (a bot's move, the end): the
 * session's view for the whole table. */
static int viewer_between(const tui *t) { return cr_session_table_view(&t->ses); }

const char *view_name(int view, char *buf, size_t cap)
{
    if (view == CR_SEAT_PUBLIC)
        snprintf(buf, cap, "public view");
    else if (view == CR_SEAT_OMNISCIENT)
        snprintf(buf, cap, "open view (all cards)");
    else
        snprintf(buf, cap, "P%d's view", view);
    return buf;
}

void draw_header(tui *t, int view, const char *extra)
{
    int W = COLS;
    char seats[400], line[600], vb[32];
    const cr_game *g = t->g;
    const char *dot = t->utf8 ? "\xc2\xb7" : "|";
    size_t n = 0;
    seats[0] = '\0';
    for (int s = 0; s < g->num_players && n < sizeof seats; s++)
        n += (size_t)snprintf(seats + n, sizeof seats - n, "%sP%d %s", s ? ", " : "", s,
                              s == view && !t->replay ? "you" : cr_match_seat_spec(t->m, s));
    /* the title when it fits, else the game's short name, else without the
     * seats (the state in `extra`, "(game over)", must stay in sight) */
    const char *title = g->def->title ? g->def->title : g->def->name;
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 2)
            snprintf(line, sizeof line, " %s %s %s %s", title, dot, view_name(view, vb, sizeof vb),
                     extra ? extra : "");
        else
            snprintf(line, sizeof line, " %s %s %s %s %s %s", title, dot,
                     view_name(view, vb, sizeof vb), dot, seats, extra ? extra : "");
        if (strlen(line) <= (size_t)W) break;
        title = g->def->name;
    }
    fill_row(0, 0, W, A_REVERSE);
    draw_str(t, 0, 0, W, line, A_REVERSE);
}

/* The log pane's summary is built in a cr_text (the emit of cr_log_summary). */
static void pane_emit(void *ctx, const char *s, size_t n) { cr_text_add(ctx, s, n); }

/* The lines of a summary: where each starts and how many rows it takes. */
typedef struct log_lines {
    const char *p;
    size_t len;
    size_t *start;
    int *rows;
    int n;
} log_lines;

static size_t line_len(const log_lines *L, int i)
{
    return (i + 1 < L->n ? L->start[i + 1] : L->len) - 1 - L->start[i];
}

/* Whether line i starts a group (its header, then the first items): the
 * summary indents the rest of a group. */
static int line_starts_group(const log_lines *L, int i) { return L->p[L->start[i]] != ' '; }

/* The length of the header at the start of line i: "Chance:" or up to the
 * first "):" ("P1 (heuristic):"); 0 when there is none. */
static size_t header_len(const log_lines *L, int i)
{
    const char *s = L->p + L->start[i];
    size_t n = line_len(L, i);
    if (n >= 7 && memcmp(s, "Chance:", 7) == 0) return 7;
    for (size_t k = 0; k + 1 < n; k++)
        if (s[k] == ')' && s[k + 1] == ':') return k + 2;
    return 0;
}

/* Draws line i at row y: the header, when it starts one, in bold. */
static int draw_log_line(tui *t, const log_lines *L, int i, int y, int x, int w, int max_rows)
{
    const char *s = L->p + L->start[i];
    size_t n = line_len(L, i);
    int rows = draw_text(t, y, x, w, max_rows, s, n, 0, A_NORMAL, 2);
    size_t hl = line_starts_group(L, i) ? header_len(L, i) : 0;
    int cols = 0; /* the header's columns: its UTF-8 characters */
    for (size_t k = 0; k < hl; k++) cols += ((unsigned char)s[k] & 0xC0) != 0x80;
    if (hl > 0 && cols <= w && draw_text(t, -1, x, cols, 2, s, hl, 0, A_NORMAL, 0) == 1)
        draw_text(t, y, x, cols, 1, s, hl, 0, A_BOLD, 0); /* over the same cells */
    return rows;
}

/* The log pane as a summary (croupier/log_summary.h): events from `from`
 * grouped by who acted, each group a paragraph led by its header ("P1
 * (heuristic): ..."), like lines merged, wrapped to the pane's width.
 * When it cannot all fit the newest lines are kept under a line saying
 * what was cut: the number of lines before, or the header of the group
 * the first kept line continues.  0 when it could not be built (out of
 * memory). */
static int draw_log_summary(tui *t, int view, uint32_t from, const char *title, int y, int x, int w,
                            int h)
{
    cr_text pt = CR_TEXT_INIT;
    cr_log_summary_opts o = {.width = w,
                             .utf8_columns = 1,
                             .wrap = 1,
                             .inline_headers = 1,
                             .drop_actor = 1,
                             .indent = ""};
    int oom = 0;
    int k = cr_log_summary(t->m, from, cr_match_event_count(t->m), view, &o, pane_emit, &pt, &oom);
    log_lines L = {pt.p, pt.len, NULL, NULL, 0};
    int cap = 0;
    for (size_t i = 0; i < pt.len; i++) cap += pt.p[i] == '\n';
    if (cap > 0) {
        L.start = malloc((size_t)cap * sizeof *L.start);
        L.rows = malloc((size_t)cap * sizeof *L.rows);
    }
    if (oom || pt.oom || (cap > 0 && (L.start == NULL || L.rows == NULL))) {
        free(L.start);
        free(L.rows);
        cr_text_free(&pt);
        return 0;
    }
    for (size_t i = 0; i < pt.len && L.n < cap;) { /* every line ends in '\n' */
        const char *nl = memchr(pt.p + i, '\n', pt.len - i);
        size_t e = nl ? (size_t)(nl - pt.p) : pt.len;
        L.start[L.n] = i;
        /* the summary wraps to w already; draw_text is the judge of wide characters */
        L.rows[L.n++] = draw_text(t, -1, x, w, 1000, pt.p + i, e - i, 0, A_NORMAL, 2);
        i = e + 1;
    }
    char head[128];
    snprintf(head, sizeof head, "%s (%d)", title, k);
    draw_str(t, y, x, w, head, A_BOLD | A_UNDERLINE);
    int body = h - 1, total = 0, row = y + 1, first = 0;
    for (int i = 0; i < L.n; i++) total += L.rows[i];
    if (total > body && body >= 2) {
        /* the newest lines that fit under one line about the cut */
        int sum = 0;
        first = L.n;
        while (first > 0 && sum + L.rows[first - 1] <= body - 1) sum += L.rows[--first];
        int g = first;
        while (g > 0 && !line_starts_group(&L, g)) g--;
        char more[160];
        size_t hl = first < L.n && !line_starts_group(&L, first) ? header_len(&L, g) : 0;
        if (hl > 0 && hl < 100)
            snprintf(more, sizeof more, "... %.*s, continued", (int)hl - 1, pt.p + L.start[g]);
        else
            snprintf(more, sizeof more, "... %d earlier line%s (l: all)", first,
                     first == 1 ? "" : "s");
        draw_str(t, row++, x, w, more, A_DIM);
    } else if (total > body) { /* a tiny pane: the newest rows only */
        int sum = 0;
        first = L.n;
        while (first > 0 && sum + L.rows[first - 1] <= body) sum += L.rows[--first];
    }
    for (int i = first; i < L.n && row < y + h; i++) {
        int can = y + h - row;
        row += draw_log_line(t, &L, i, row, x, w, L.rows[i] < can ? L.rows[i] : can);
    }
    free(L.start);
    free(L.rows);
    cr_text_free(&pt);
    return 1;
}

/* The log pane: events from `from` for `view`.  When the human decides
 * (t->log_summary) a summary of them; else one event a line, the newest at
 * the bottom, so a bot's move shows as it is made. */
void draw_log(tui *t, int view, uint32_t from, const char *title, int y, int x, int w, int h)
{
    if (h <= 0) return;
    for (int r = 0; r < h; r++) fill_row(y + r, x, w, A_NORMAL);
    if (t->log_summary && draw_log_summary(t, view, from, title, y, x, w, h)) return;
    const cr_match_event *ev;
    int n = cr_match_events_since(t->m, from, &ev);
    char head[96];
    snprintf(head, sizeof head, "%s (%d)", title, n);
    draw_str(t, y, x, w, head, A_BOLD | A_UNDERLINE);
    int rows = h - 1, used = 0;
    /* walk back from the newest event until the pane is full */
    int first = n;
    char buf[1024];
    while (first > 0) {
        size_t len = cr_match_event_text(t->m, &ev[first - 1], view, buf, sizeof buf);
        if (len >= sizeof buf) len = sizeof buf - 1;
        if (len == 0) {
            first--;
            continue;
        }
        int need = draw_text(t, -1, x, w, 1000, buf, len, 0, A_NORMAL, 2);
        if (used + need > rows) break;
        used += need;
        first--;
    }
    int row = y + 1 + (rows - used);
    for (int i = first; i < n; i++) {
        size_t len = cr_match_event_text(t->m, &ev[i], view, buf, sizeof buf);
        if (len >= sizeof buf) len = sizeof buf - 1;
        if (len == 0) continue;
        row += draw_text(t, row, x, w, 1000, buf, len, 0, A_NORMAL, 2);
    }
}

/* -------------------------------------------------------------- the menu */

static int reserved_key(int c) { return strchr("qsultvnmh?+-", c) != NULL; }

static int menu_height(tui *t, int seat, int w);

/* ---- grouped menus
 * A game that gives its actions sections (parts.h, menu_section) gets a
 * long menu in two levels: the top level lists the sections in the game's
 * order, each as one row with its count (a section of one action shows
 * that action, which Enter plays at once: a row that opens onto a single
 * choice would only cost a key), then the actions of no section; Enter
 * (or Right) opens a section, Esc, Backspace or Left goes back up.  A menu
 * is grouped only when it is long: when the flat list would not fit in the
 * rows the screen promises the menu (MENU_MIN_ROWS), and it has two
 * sections or more.  Every action keeps its number in the flat list (the
 * line client's), so digits pick an action at either level, opening its
 * section. */

/* The menu's width on this screen: the right column's. */
static int menu_width(void)
{
    int cols;
    return COLS - table_width(COLS, &cols) - 1;
}

/* Shows level `open` (-1: the top) with the row `want` (a rows[] entry)
 * highlighted, or the first row. */
static void set_level(tui *t, int open, int want)
{
    t->open = t->grouped ? open : -1;
    t->n_rows = 0;
    for (int i = 0; i < t->n_items && !t->grouped; i++) t->rows[t->n_rows++] = i;
    if (t->grouped && t->open >= 0) {
        for (int i = 0; i < t->n_items; i++)
            if (t->items[i].sec == t->open) t->rows[t->n_rows++] = i;
    } else if (t->grouped) {
        for (int k = 0; k < t->n_secs; k++) { /* sorted by rank */
            int row = -1 - k;
            for (int i = 0; i < t->n_items && t->secs[k].n == 1; i++)
                if (t->items[i].sec == k) row = i;
            t->rows[t->n_rows++] = row;
        }
        for (int i = 0; i < t->n_items; i++)
            if (t->items[i].sec < 0) t->rows[t->n_rows++] = i;
    }
    t->sel = 0;
    for (int r = 0; r < t->n_rows; r++)
        if (t->rows[r] == want) t->sel = r;
}

/* Highlights item i, opening its section (or going back to the top level)
 * when it is not on the level shown. */
static void select_item(tui *t, int i)
{
    int s = t->grouped ? t->items[i].sec : -1;
    int level = s >= 0 && t->secs[s].n >= 2 ? s : -1;
    if (level != t->open) {
        set_level(t, level, i);
        return;
    }
    for (int r = 0; r < t->n_rows; r++)
        if (t->rows[r] == i) t->sel = r;
}

/* Asks the game for the sections of the menu's actions (when it gives
 * them), sorts them by rank and decides whether the menu is grouped. */
static void build_sections(tui *t, int seat)
{
    const cr_game_parts *parts = cr_parts(t->g);
    t->n_secs = 0;
    t->grouped = 0;
    for (int i = 0; i < t->n_items; i++) t->items[i].sec = -1;
    if (parts->menu_section != NULL && t->n_items > 0) {
        cr_match_observe(t->m, seat, t->obs);
        for (int i = 0; i < t->n_items; i++) {
            char title[sizeof t->secs[0].title];
            int rank = parts->menu_section(t->g, t->obs, t->legal[i], title, sizeof title);
            if (rank < 0 || title[0] == '\0') continue;
            int k = 0;
            while (k < t->n_secs && strcmp(t->secs[k].title, title) != 0) k++;
            if (k == t->n_secs) {
                snprintf(t->secs[k].title, sizeof t->secs[k].title, "%s", title);
                t->secs[k].rank = rank;
                t->secs[k].n = 0;
                t->n_secs++;
            }
            t->secs[k].n++;
            t->items[i].sec = k;
        }
        /* by rank, ties in the order met (insertion sort: a few sections);
         * rows[] holds where each section went */
        for (int k = 0; k < t->n_secs; k++) t->rows[k] = k;
        for (int k = 1; k < t->n_secs; k++) {
            section cur = t->secs[k];
            int j = k, moved = t->rows[k];
            while (j > 0 && t->secs[j - 1].rank > cur.rank) {
                t->secs[j] = t->secs[j - 1];
                t->rows[j] = t->rows[j - 1];
                j--;
            }
            t->secs[j] = cur;
            t->rows[j] = moved;
        }
        for (int i = 0; i < t->n_items; i++) {
            int k = 0;
            while (k < t->n_secs && t->rows[k] != t->items[i].sec) k++;
            if (t->items[i].sec >= 0) t->items[i].sec = k;
        }
    }
    set_level(t, -1, 0);
    if (t->n_secs >= 2 && menu_height(t, seat, menu_width()) > MENU_MIN_ROWS) {
        t->grouped = 1;
        set_level(t, -1, t->n_items); /* no row is item n_items: the first row */
    }
}

/* Row r of the level shown as the menu draws it: "12 label" for an action
 * (its number in the flat list), " > Title (N)" for a section. */
static int row_line(const tui *t, int r, char *buf, size_t cap)
{
    int e = t->rows[r];
    int n = e >= 0 ? snprintf(buf, cap, "%2d %s", e + 1, t->items[e].label)
                   : snprintf(buf, cap, " %s %s (%d)", t->utf8 ? "\xe2\x96\xb8" : ">",
                              t->secs[-1 - e].title, t->secs[-1 - e].n);
    return n < 0 ? 0 : (size_t)n < cap ? n : (int)cap - 1;
}

/* The open section's title row: "v Start a front (48)". */
static void section_title(const tui *t, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s %s (%d)", t->utf8 ? "\xe2\x96\xbe" : "v", t->secs[t->open].title,
             t->secs[t->open].n);
}

/* Whether row r is, or holds, an action of the letters' group `group`. */
static int row_has_group(const tui *t, int r, const char *group)
{
    int e = t->rows[r];
    if (e >= 0) return strcmp(t->items[e].group, group) == 0;
    for (int i = 0; i < t->n_items; i++)
        if (t->items[i].sec == -1 - e && strcmp(t->items[i].group, group) == 0) return 1;
    return 0;
}

/* Reads the legal actions of `seat` into items[] (label, group), gives
 * each group a letter and the menu its sections. */
static void build_menu(tui *t, int seat)
{
    int n = cr_match_legal(t->m, seat, t->legal);
    t->n_items = n;
    t->sel = 0;
    t->n_letters = 0;
    char buf[1024];
    for (int i = 0; i < n; i++) {
        item *it = &t->items[i];
        it->label[0] = it->group[0] = '\0';
        it->key = 0;
        size_t len = cr_match_action_json(t->m, seat, t->legal[i], buf, sizeof buf);
        json_t *o = len > 0 && len < sizeof buf ? json_loadb(buf, len, 0, NULL) : NULL;
        const char *label = json_string_value(json_object_get(o, "label"));
        const char *group = json_string_value(json_object_get(o, "group"));
        const char *key = json_string_value(json_object_get(o, "key"));
        if (label)
            snprintf(it->label, sizeof it->label, "%s", label);
        else
            cr_match_action_text(t->m, seat, t->legal[i], it->label, sizeof it->label);
        snprintf(it->group, sizeof it->group, "%s", group ? group : "");
        json_t *am = json_object_get(o, "amount");
        const char *text = json_string_value(json_object_get(o, "text"));
        it->amount = json_is_object(am) && text != NULL;
        if (it->amount) {
            it->amin = (int)json_integer_value(json_object_get(am, "min"));
            it->amax = (int)json_integer_value(json_object_get(am, "max"));
            it->astep = (int)json_integer_value(json_object_get(am, "step"));
            if (it->astep < 1) it->astep = 1;
            snprintf(it->text, sizeof it->text, "%s", text);
        }
        if (key && islower((unsigned char)key[0]) && key[1] == '\0' && !reserved_key(key[0]))
            it->key = key[0];
        json_decref(o);
    }
    /* a letter per group: first the letters the game gives (they mean the
     * same in every menu), then the first free letter of each other
     * group's name; the legend lists them in the menu's order */
    char taken[128] = {0};
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            item *it = &t->items[i];
            if (pass == 0) it->letter = 0;
            if (it->group[0] == '\0' || it->letter) continue;
            int first = -1; /* the group's first item, which holds its letter */
            for (int k = 0; k < i && first < 0; k++)
                if (strcmp(t->items[k].group, it->group) == 0) first = k;
            if (first >= 0) continue;
            int c = 0;
            if (pass == 0) {
                if (it->key && !taken[(int)it->key]) c = it->key;
            } else {
                for (const char *p = it->group; *p && !c; p++) {
                    int d = tolower((unsigned char)*p);
                    if (islower(d) && !reserved_key(d) && !taken[d]) c = d;
                }
            }
            if (c) {
                it->letter = (char)c;
                taken[c] = 1;
            }
        }
    for (int i = 0; i < n && t->n_letters < 64; i++) {
        if (!t->items[i].letter) continue;
        t->letters[t->n_letters] = t->items[i].letter;
        snprintf(t->letter_of_group[t->n_letters], GROUP_MAX, "%s", t->items[i].group);
        t->n_letters++;
    }
    build_sections(t, seat);
}

/* The letters' legend ("c:card d:done w:undo") into buf; its length. */
static size_t menu_legend(const tui *t, char *buf, size_t cap)
{
    size_t ln = 0;
    buf[0] = '\0';
    for (int k = 0; k < t->n_letters && ln < cap; k++)
        ln += (size_t)snprintf(buf + ln, cap - ln, "%s%c:%s", k ? " " : "", t->letters[k],
                               t->letter_of_group[k]);
    return ln < cap ? ln : cap - 1;
}

/* The legend's rows in a box w wide: at most two (what does not fit is cut
 * with a mark). */
static int legend_rows(const tui *t, int w)
{
    char legend[256];
    size_t ln = menu_legend(t, legend, sizeof legend);
    return ln ? draw_text(t, -1, 0, w, 2, legend, ln, 0, A_DIM, 2) : 0;
}

/* The rows the menu of `seat` would take whole in a box w wide: its head,
 * the prompt (at most 3 rows), every row of the level shown (at most 2
 * rows each) and the letters' legend. */
static int menu_height(tui *t, int seat, int w)
{
    char buf[1024];
    size_t pl = cr_match_prompt(t->m, seat, buf, sizeof buf);
    if (pl >= sizeof buf) pl = sizeof buf - 1;
    int rows = 1 + draw_text(t, -1, 0, w, 3, buf, pl, 0, A_NORMAL, 0) + legend_rows(t, w);
    rows += t->open >= 0; /* the open section's title */
    for (int r = 0; r < t->n_rows; r++) {
        int n = row_line(t, r, buf, sizeof buf);
        rows += draw_text(t, -1, 0, w, 2, buf, (size_t)n, 0, A_NORMAL, 3);
    }
    return rows;
}

static void draw_menu(tui *t, int seat, int y, int x, int w, int h)
{
    for (int r = 0; r < h; r++) fill_row(y + r, x, w, A_NORMAL);
    if (h < 3) return;
    char head[64];
    snprintf(head, sizeof head, "Your move, P%d", seat);
    draw_str(t, y, x, w, head, A_BOLD | A_UNDERLINE);
    int row = y + 1;
    char prompt[1024];
    size_t pl = cr_match_prompt(t->m, seat, prompt, sizeof prompt);
    if (pl >= sizeof prompt) pl = sizeof prompt - 1;
    int prow = draw_text(t, -1, x, w, 3, prompt, pl, 0, A_NORMAL, 0);
    if (prow > h - 3) prow = h - 3;
    if (prow > 0) row += draw_text(t, row, x, w, prow, prompt, pl, 0, A_NORMAL, 0);
    if (t->open >= 0 && row < y + h - 1) { /* one level down: the section's title */
        char title[128];
        section_title(t, title, sizeof title);
        draw_str(t, row++, x, w, title, A_BOLD);
    }
    /* the group letters */
    char legend[256];
    size_t ln = menu_legend(t, legend, sizeof legend);
    int lrows = legend_rows(t, w);
    int list_rows = y + h - row - lrows;
    if (list_rows < 1) list_rows = 1;
    /* each item wrapped to at most two rows; the first item shown is the
     * lowest that keeps the highlighted one on screen */
    char line[LABEL_MAX + 16];
    int top = t->sel, used = 0;
    while (top >= 0) {
        row_line(t, top, line, sizeof line);
        int r = draw_text(t, -1, x, w, 2, line, strlen(line), 0, A_NORMAL, 3);
        if (used + r > list_rows && top < t->sel) break;
        used += r;
        top--;
    }
    top++;
    for (int k = top; k < t->n_rows && row < y + h - lrows; k++) {
        row_line(t, k, line, sizeof line);
        int r = draw_text(t, -1, x, w, 2, line, strlen(line), 0, A_NORMAL, 3);
        if (row + r > y + h - lrows) r = y + h - lrows - row;
        row += draw_text(t, row, x, w, r, line, strlen(line), 0, k == t->sel ? A_REVERSE : A_NORMAL,
                         3);
    }
    if (lrows) { /* whole, or cut with a mark */
        int full = draw_text(t, -1, 0, w, 100, legend, ln, 0, A_DIM, 2);
        if (full > lrows && w > 4) {
            draw_text(t, y + h - lrows, x, w, lrows, legend, ln, 0, A_DIM, 2);
            attrset(A_BOLD);
            if (t->utf8)
                mvaddstr(y + h - 1, x + w - 1, "\xe2\x80\xa6");
            else
                mvaddstr(y + h - 1, x + w - 3, "...");
            attrset(A_NORMAL);
        } else {
            draw_text(t, y + h - lrows, x, w, lrows, legend, ln, 0, A_DIM, 2);
        }
    }
}

static void draw_footer(tui *t, const char *fallback)
{
    int y = LINES - 1;
    fill_row(y, 0, COLS, A_NORMAL);
    if (t->msg[0]) {
        draw_str(t, y, 0, COLS, t->msg, A_BOLD);
    } else if (fallback) {
        draw_str(t, y, 0, COLS, fallback, A_DIM);
    }
}

/* The whole screen for `view`; seat_to_decide >= 0 draws its menu. */
static void draw_screen(tui *t, int view, int seat_to_decide, uint32_t log_from,
                        const char *log_title, const char *extra)
{
    int W = COLS, H = LINES;
    erase();
    draw_header(t, view, extra);
    int cols, left = table_width(W, &cols);
    int rx = left + 1, rw = W - rx;
    int body = H - 1 - (t->footer_rows > 1 ? t->footer_rows : 1);
    cr_match_observe(t->m, view, t->obs);
    size_t len = table_text(t, t->obs);
    /* the right column: what the table's left box cannot hold, the log,
     * then the menu; the menu shrinks to MENU_MIN_ROWS (it scrolls) before
     * the table is cut */
    int menu_want = seat_to_decide >= 0 ? menu_height(t, seat_to_decide, rw) : 0;
    int menu_min = menu_want < MENU_MIN_ROWS ? menu_want : MENU_MIN_ROWS;
    /* a grouped menu's top level is short: it stays whole, the table
     * yields first (t shows it whole) */
    if (seat_to_decide >= 0 && t->grouped && t->open < 0 && menu_want > menu_min)
        menu_min = menu_want < body - LOG_MIN_ROWS ? menu_want : body - LOG_MIN_ROWS;
    int top = draw_table(t, len, left, cols, rx, rw, body, body - menu_min - LOG_MIN_ROWS);
    int right = body - top;
    int menu_rows = 0;
    if (seat_to_decide >= 0) {
        menu_rows = menu_want;
        if (menu_rows > right - LOG_MIN_ROWS) menu_rows = right - LOG_MIN_ROWS;
        if (menu_rows < 4) menu_rows = right > 4 ? 4 : right;
    }
    draw_log(t, view, log_from, log_title, 1 + top, rx, rw, right - menu_rows);
    if (seat_to_decide >= 0) {
        draw_menu(t, seat_to_decide, 1 + body - menu_rows, rx, rw, menu_rows);
        char line[LABEL_MAX + 64];
        if (t->n_rows > 0 && t->rows[t->sel] < 0) { /* a section */
            const section *sc = &t->secs[-1 - t->rows[t->sel]];
            static const char *const keys[] = {"   (Enter opens it, ? explains, q quits)",
                                               "  (Enter, ?, q)", ""};
            for (int k = 0; k < 3; k++) {
                snprintf(line, sizeof line, "%.60s: %d choices%s", sc->title, sc->n, keys[k]);
                if (strlen(line) <= (size_t)W) break;
            }
        } else if (t->n_rows > 0) {
            /* the highlighted action whole, then the keys as the width allows */
            static const char *const keys[] = {"   (Enter plays it, ? explains, q quits)",
                                               "  (Enter, ?, q)", ""};
            static const char *const keys_down[] = {"   (Enter plays it, Esc back, ? explains)",
                                                    "  (Enter, Esc, ?)", ""};
            int i = t->rows[t->sel];
            for (int k = 0; k < 3; k++) {
                snprintf(line, sizeof line, "%d: %.180s%s", i + 1, t->items[i].label,
                         t->open >= 0 ? keys_down[k] : keys[k]);
                if (strlen(line) <= (size_t)W) break;
            }
            /* a label too long for its number too: the label alone (the
             * menu shows the number) */
            if (strlen(line) > (size_t)W) snprintf(line, sizeof line, "%.180s", t->items[i].label);
        } else {
            line[0] = '\0';
        }
        draw_footer(t, line);
    } else {
        char line[256];
        snprintf(line, sizeof line, "P%d (%.40s) played; %d ms a move (+ slower, - faster, q quit)",
                 t->bot, cr_match_seat_spec(t->m, t->bot >= 0 ? t->bot : 0), t->pace_ms);
        draw_footer(t, t->replay ? NULL : line);
    }
    refresh();
}

/* Asks a yes/no question on the last row. */
static int confirm(tui *t, const char *question)
{
    for (;;) {
        fill_row(LINES - 1, 0, COLS, A_NORMAL);
        draw_str(t, LINES - 1, 0, COLS, question, A_BOLD);
        refresh();
        int c = getch();
        if (c == 'y' || c == 'Y') return 1;
        if (c == 'n' || c == 'N' || c == 27) return 0;
    }
}

/* Reads a line on the last row (a file name); 0 when cancelled. */
static int ask_line_esc(tui *t, const char *question, char *out, size_t cap, int *escaped);
static int ask_line(tui *t, const char *question, char *out, size_t cap)
{
    int esc;
    return ask_line_esc(t, question, out, cap, &esc);
}

/* ask_line, telling Esc (*escaped = 1) from Enter on an empty line. */
static int ask_line_esc(tui *t, const char *question, char *out, size_t cap, int *escaped)
{
    size_t n = 0;
    *escaped = 0;
    out[0] = '\0';
    for (;;) {
        char line[1400];
        snprintf(line, sizeof line, "%s%s_", question, out);
        fill_row(LINES - 1, 0, COLS, A_NORMAL);
        draw_str(t, LINES - 1, 0, COLS, line, A_BOLD);
        refresh();
        int c = getch();
        if (c == '\n' || c == KEY_ENTER || c == '\r') return n > 0;
        if (c == 27) {
            *escaped = 1;
            return 0;
        }
        if ((c == KEY_BACKSPACE || c == 127 || c == 8) && n > 0) {
            out[--n] = '\0';
        } else if (c >= 0x20 && c < 0x7f && n + 1 < cap) {
            out[n++] = (char)c;
            out[n] = '\0';
        }
    }
}

/* An amount action: asks for any amount of its range (Enter alone plays
 * the menu's, Esc goes back to the menu), checks the range and the step, and submits the notation
 * with that amount in place of the menu's.  DEC_MOVED when a move was made. */
static int play_amount(tui *t, int seat, const item *it, cr_action menu_action)
{
    char q[160], typed[24], err[512];
    if (it->astep > 1)
        snprintf(q, sizeof q,
                 "amount from %d to %d, in steps of %d (Enter: the menu's): ", it->amin, it->amax,
                 it->astep);
    else
        snprintf(q, sizeof q, "amount from %d to %d (Enter: the menu's): ", it->amin, it->amax);
    int esc;
    if (!ask_line_esc(t, q, typed, sizeof typed, &esc)) {
        if (esc) return 0; /* back to the menu */
        if (cr_match_submit_action(t->m, seat, menu_action, err, sizeof err) != CR_OK) {
            snprintf(t->msg, sizeof t->msg, "%s", err);
            return 0;
        }
        return 1;
    }
    char *end;
    long v = strtol(typed, &end, 10);
    const char *tail = it->text + strlen(it->text);
    while (tail > it->text && isdigit((unsigned char)tail[-1])) tail--;
    if (*end != '\0' || v < it->amin || v > it->amax || (v - it->amin) % it->astep != 0 ||
        tail == it->text + strlen(it->text)) {
        snprintf(t->msg, sizeof t->msg, "not an amount of this action: from %d to %d%s", it->amin,
                 it->amax, it->astep > 1 ? " on its steps" : "");
        return 0;
    }
    char text[128];
    snprintf(text, sizeof text, "%.*s%ld", (int)(tail - it->text), it->text, v);
    if (cr_match_submit(t->m, seat, text, err, sizeof err) != CR_OK) {
        snprintf(t->msg, sizeof t->msg, "%s", err);
        return 0;
    }
    return 1;
}

/* Saves to the game's file, asking for one when it has none.  A failed
 * save leaves the game with no file (the quit prompt then says it is not
 * saved, and `s` asks again) and the game goes on. */
static int do_save(tui *t)
{
    if (t->save_path[0] == '\0' && !ask_line(t, "save to file (Enter saves, Esc cancels): ",
                                             t->save_path, sizeof t->save_path)) {
        t->save_path[0] = '\0';
        snprintf(t->msg, sizeof t->msg, "not saved");
        return 0;
    }
    char err[256];
    if (cr_match_save_file(t->m, t->save_path, err, sizeof err) != CR_OK) {
        snprintf(t->msg, sizeof t->msg,
                 "cannot save to %.200s: %.200s -- the game is not saved (s saves elsewhere)",
                 t->save_path, err);
        t->save_path[0] = '\0';
        return -1;
    }
    if (t->ses.n_humans >= 2) /* a record holds the deal: every Hand of the table */
        snprintf(t->msg, sizeof t->msg,
                 "saved to %.300s: it holds every card, keep it out of sight", t->save_path);
    else
        snprintf(t->msg, sizeof t->msg, "saved to %.300s (%d actions)", t->save_path,
                 cr_match_record(t->m)->n_actions);
    return 1;
}

static int privacy_screen(tui *t, int seat)
{
    for (;;) {
        erase();
        char line[128];
        snprintf(line, sizeof line, "Pass to P%d %s press Enter", seat,
                 t->utf8 ? "\xe2\x80\x94" : "-");
        draw_str(t, LINES / 2 - 1,
                 (COLS - (int)strlen(line)) / 2 > 0 ? (COLS - (int)strlen(line)) / 2 : 0, COLS,
                 line, A_BOLD);
        snprintf(line, sizeof line, "(the table stays hidden until P%d is at the screen; q quits)",
                 seat);
        draw_str(t, LINES / 2 + 1, 2, COLS - 2, line, A_DIM);
        refresh();
        int c = getch();
        if (c == '\n' || c == '\r' || c == KEY_ENTER) return 1;
        if (c == 'q' && confirm(t, "Quit the game? (y/n)")) return 0;
    }
}

/* ---------------------------------------------------------------- pacing */

/* Waits the pace after a bot's move; + and - change it, q asks to quit, any
 * other key is kept for the next decision and ends the wait (typing ahead
 * skips the show).  0: go on; 1: quit. */
static int pace_wait(tui *t)
{
    if (t->pace_ms <= 0) return 0;
    int left = t->pace_ms;
    while (left > 0) {
        int step = left < 50 ? left : 50;
        timeout(step);
        int c = getch();
        timeout(-1);
        if (c == ERR) {
            left -= step;
            continue;
        }
        if (c == '+') {
            t->pace_ms = t->pace_ms < 5000 ? t->pace_ms * 2 + 50 : t->pace_ms;
            return 0;
        }
        if (c == '-') {
            t->pace_ms = t->pace_ms / 2 > 20 ? t->pace_ms / 2 : 0;
            return 0;
        }
        if (c == 'q') return confirm(t, "Quit the game? (y/n)");
        if (c == KEY_RESIZE) continue;
        ungetch(c);
        return 0;
    }
    return 0;
}

/* ------------------------------------------------------------- terminal */

int term_start(tui *t, const tui_options *opt, char *err, size_t errcap)
{
    setlocale(LC_ALL, "");
    const char *cs = nl_langinfo(CODESET);
    t->utf8 = !opt->ascii && cs != NULL && strcmp(cs, "UTF-8") == 0;
    /* Ask terminfo first: a newterm() that fails keeps what it allocated
     * (LeakSanitizer sees it), setupterm() with an error code does not. */
    int term_err = 0;
    if (setupterm(NULL, fileno(stdout), &term_err) != OK) {
        snprintf(err, errcap, "cannot use the terminal (TERM=%s)",
                 getenv("TERM") ? getenv("TERM") : "unset");
        return 0;
    }
    del_curterm(cur_term);
    if (newterm(NULL, stdout, stdin) == NULL) {
        snprintf(err, errcap, "cannot use the terminal (TERM=%s)",
                 getenv("TERM") ? getenv("TERM") : "unset");
        return 0;
    }
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(50);
    t->color = has_colors();
    if (t->color) {
        start_color();
        use_default_colors();
        init_pair(1, COLOR_CYAN, -1);
        init_pair(2, COLOR_GREEN, -1);
        init_pair(3, COLOR_RED, -1);
        init_pair(4, COLOR_YELLOW, -1);
        init_pair(5, COLOR_MAGENTA, -1);
    }
    return 1;
}

int tui_init(tui *t, cr_match *m, const tui_options *opt, char *err, size_t errcap)
{
    memset(t, 0, sizeof *t);
    t->m = m;
    t->g = cr_match_game(m);
    t->pace_ms = opt->pace_ms;
    t->prev_actor = -99;
    if (opt->save_path) snprintf(t->save_path, sizeof t->save_path, "%s", opt->save_path);
    t->obs = cr_alloc(t->g->obs_size ? t->g->obs_size : 1);
    t->legal = cr_alloc((size_t)t->g->max_legal * sizeof *t->legal);
    t->items = cr_alloc((size_t)t->g->max_legal * sizeof *t->items);
    t->rows = cr_alloc((size_t)t->g->max_legal * sizeof *t->rows);
    t->secs = cr_alloc((size_t)t->g->max_legal * sizeof *t->secs);
    t->open = -1;
    if (t->obs == NULL || t->legal == NULL || t->items == NULL || t->rows == NULL ||
        t->secs == NULL || !cr_text_reserve(&t->text, 16384)) {
        snprintf(err, errcap, "out of memory");
        return 0;
    }
    cr_session_init(&t->ses, m, 0);
    return 1;
}

void tui_fini(tui *t)
{
    cr_free(t->obs);
    cr_free(t->legal);
    cr_free(t->items);
    cr_free(t->rows);
    cr_free(t->secs);
    cr_text_free(&t->text);
}

/* ------------------------------------------------------------------ play */

enum { DEC_MOVED, DEC_UNDONE, DEC_QUIT };

static int decide(tui *t, int seat)
{
    build_menu(t, seat);
    int number = 0; /* digits typed so far */
    for (;;) {
        t->log_summary = 1;
        draw_screen(t, seat, seat, t->anchor[seat], "Since your last turn", NULL);
        t->log_summary = 0;
        int c = getch();
        if (c != ERR && !isdigit(c)) number = 0;
        if (c != ERR && c != KEY_RESIZE) t->msg[0] = '\0';
        switch (c) {
        case KEY_UP: t->sel = t->sel > 0 ? t->sel - 1 : t->n_rows - 1; break;
        case KEY_DOWN: t->sel = t->sel + 1 < t->n_rows ? t->sel + 1 : 0; break;
        case KEY_PPAGE: t->sel = t->sel > 8 ? t->sel - 8 : 0; break;
        case KEY_NPAGE: t->sel = t->sel + 8 < t->n_rows ? t->sel + 8 : t->n_rows - 1; break;
        case KEY_HOME: t->sel = 0; break;
        case KEY_END: t->sel = t->n_rows - 1; break;
        case KEY_RIGHT: /* opens a section; plays nothing */
            if (t->n_rows > 0 && t->rows[t->sel] < 0) set_level(t, -1 - t->rows[t->sel], 0);
            break;
        case 27: /* Esc, Backspace, Left: back to the top level */
        case KEY_BACKSPACE:
        case 127:
        case 8:
        case KEY_LEFT:
            if (t->open >= 0) set_level(t, -1, -1 - t->open);
            break;
        case '\n':
        case '\r':
        case KEY_ENTER: {
            char err[512];
            if (t->n_rows <= 0) break;
            int i = t->rows[t->sel];
            if (i < 0) { /* a section: one level down */
                set_level(t, -1 - i, t->n_items);
                break;
            }
            if (t->items[i].amount) { /* any amount of its range */
                if (play_amount(t, seat, &t->items[i], t->legal[i])) return DEC_MOVED;
                break;
            }
            if (cr_match_submit_action(t->m, seat, t->legal[i], err, sizeof err) != CR_OK) {
                snprintf(t->msg, sizeof t->msg, "%s", err);
                break;
            }
            return DEC_MOVED;
        }
        case '?': help_window(t, seat); break;
        case 'l': log_window(t, seat); break;
        case 'G': guide_window(t); break;
        case 't': table_window(t, seat); break;
        case 'm':
            cr_match_observe(t->m, seat, t->obs);
            map_window(t, t->obs, cr_match_event_count(t->m));
            break;
        case 'S': /* the spreadsheet (a game with annals: parts.h) */
            cr_match_observe(t->m, seat, t->obs);
            sheet_window(t, t->obs, cr_match_event_count(t->m));
            break;
        case 'h': { /* what the strongest tier would play (croupier/analysis.h) */
            char err[256];
            if (cr_match_hint(t->m, seat, NULL, t->msg, sizeof t->msg, err, sizeof err) != CR_OK)
                snprintf(t->msg, sizeof t->msg, "no hint: %s", err);
            break;
        }
        case 's': do_save(t); break;
        case '+': t->pace_ms = t->pace_ms < 5000 ? t->pace_ms * 2 + 50 : t->pace_ms; break;
        case '-': t->pace_ms = t->pace_ms / 2 > 20 ? t->pace_ms / 2 : 0; break;
        case 'u': {
            char err[512];
            /* never another human's decision (cr_match_undo_blocker's rule) */
            if (cr_session_undo(&t->ses, seat, err, sizeof err) != CR_OK) {
                snprintf(t->msg, sizeof t->msg, "cannot undo: %.400s", err);
                break;
            }
            snprintf(t->msg, sizeof t->msg, "took back your last decision (%d actions remain)",
                     cr_match_record(t->m)->n_actions);
            return DEC_UNDONE;
        }
        case 'q':
            if (t->save_path[0]) {
                /* saved here, so a failed save keeps the game on screen */
                if (confirm(t, "Quit the game? It is saved first. (y/n)") && do_save(t) > 0)
                    return DEC_QUIT;
            } else if (confirm(t, "Quit the game? It is not saved (s saves). (y/n)")) {
                return DEC_QUIT;
            }
            break;
        default:
            if (c >= '0' && c <= '9') {
                int k = number * 10 + (c - '0');
                if (k < 1 || k > t->n_items) k = c - '0';
                if (k >= 1 && k <= t->n_items) {
                    number = k;
                    select_item(t, k - 1); /* opens its section */
                } else {
                    number = 0;
                }
            } else if (c > 0 && c < 128 && islower(c)) {
                for (int k = 0; k < t->n_letters; k++) {
                    if (t->letters[k] != c) continue;
                    /* the next row of that kind on this level; one level
                     * down with none left in the section, the top level's */
                    for (int pass = 0; pass < 2; pass++) {
                        int found = 0;
                        for (int d = 1; d <= t->n_rows && !found; d++) {
                            int r = (t->sel + d) % t->n_rows;
                            if (row_has_group(t, r, t->letter_of_group[k])) {
                                t->sel = r;
                                found = 1;
                            }
                        }
                        if (found || t->open < 0) break;
                        set_level(t, -1, -1 - t->open);
                    }
                }
            }
            break;
        }
    }
}

/* "st", "nd", "rd", "th" for a rank. */
static const char *ordinal(int k)
{
    if (k % 100 >= 11 && k % 100 <= 13) return "th";
    return k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
}

static void end_screen(tui *t)
{
    int view = viewer_between(t);
    cr_result res;
    cr_match_result(t->m, &res);
    char line[512];
    size_t n = (size_t)snprintf(line, sizeof line, "Final scores:");
    for (int s = 0; s < t->g->num_players && n < sizeof line; s++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s P%d %d (%d%s%s)", s ? "," : "", s,
                              (int)res.score[s], (int)res.rank[s], ordinal(res.rank[s]),
                              res.winners >> s & 1 ? ", wins" : "");
    for (;;) {
        snprintf(t->msg, sizeof t->msg, "%s", line);
        t->replay = 1; /* no pace line */
        t->log_summary = 1;
        t->footer_rows = 2; /* the scores and the keys: the table stops above them */
        draw_screen(t, view, -1, view >= 0 ? t->anchor[view] : 0,
                    view >= 0 ? "Since your last turn" : "Log", "(game over)");
        t->log_summary = 0;
        t->footer_rows = 1;
        int y = LINES - 2;
        fill_row(y, 0, COLS, A_NORMAL);
        draw_str(t, y, 0, COLS,
                 "Game over. q leaves, l shows the whole log, t the table, a the achievements.",
                 A_BOLD);
        refresh();
        int c = getch();
        if (c == 'q' || c == 27) break;
        if (c == 'l') log_window(t, view);
        if (c == 't') table_window(t, view);
        if (c == 'a') achievements_window(t, cr_match_state(t->m));
        if (c == 'S') { /* the spreadsheet at the end */
            cr_match_observe(t->m, view, t->obs);
            sheet_window(t, t->obs, cr_match_event_count(t->m));
        }
    }
    t->msg[0] = '\0';
}

int tui_play(cr_match *m, const tui_options *opt, char *err, size_t errcap)
{
    tui t;
    if (!tui_init(&t, m, opt, err, errcap)) {
        tui_fini(&t);
        return TUI_FAILED;
    }
    if (!term_start(&t, opt, err, errcap)) {
        tui_fini(&t);
        return TUI_NO_TERM;
    }
    int rc = TUI_OVER;
    for (;;) {
        int who = cr_match_to_act(m);
        if (who == CR_TERMINAL) {
            end_screen(&t);
            break;
        }
        if (who == CR_CHANCE || !cr_match_is_human(m, who)) {
            int i = cr_match_record(m)->n_actions;
            if (cr_match_step(m) != CR_OK) {
                snprintf(err, errcap, "internal: the game cannot go on at action %d", i + 1);
                rc = TUI_FAILED;
                break;
            }
            t.prev_actor = who;
            if (who >= 0 && t.pace_ms > 0) {
                int view = viewer_between(&t);
                if (t.ses.n_humans >= 2) /* the next human gets the privacy screen */
                    cr_session_take_screen(&t.ses, -1);
                t.bot = who;
                draw_screen(&t, view, -1, view >= 0 ? t.anchor[view] : 0,
                            view >= 0 ? "Since your last turn" : "What happens", NULL);
                if (pace_wait(&t)) {
                    rc = TUI_STOPPED;
                    break;
                }
            }
            continue;
        }
        if (cr_session_needs_handover(&t.ses, who)) {
            if (!privacy_screen(&t, who)) {
                rc = TUI_STOPPED;
                break;
            }
        }
        cr_session_take_screen(&t.ses, who);
        if (t.prev_actor != who) t.anchor[who] = t.last_sub[who];
        if (t.save_path[0] && opt->save_path) {
            /* the game's file follows every decision; when it cannot be
             * written the footer says so and the game goes on unsaved */
            char keep[sizeof t.msg];
            snprintf(keep, sizeof keep, "%s", t.msg);
            if (do_save(&t) > 0) snprintf(t.msg, sizeof t.msg, "%s", keep);
        }
        int d = decide(&t, who);
        if (d == DEC_QUIT) {
            rc = TUI_STOPPED;
            break;
        }
        uint32_t now = cr_match_event_count(m);
        if (d == DEC_UNDONE) { /* the seat is back in a turn of its own: keep its anchor */
            for (int s = 0; s < CR_MAX_PLAYERS; s++) {
                if (t.anchor[s] > now) t.anchor[s] = now;
                if (t.last_sub[s] > now) t.last_sub[s] = now;
            }
            t.prev_actor = who;
            continue;
        }
        t.last_sub[who] = now;
        t.prev_actor = who;
    }
    endwin();
    if (rc != TUI_FAILED && t.save_path[0]) {
        char e2[256];
        if (cr_match_save_file(m, t.save_path, e2, sizeof e2) != CR_OK) {
            snprintf(err, errcap, "cannot save to %s: %s", t.save_path, e2);
            t.save_path[0] = '\0';
            rc = TUI_FAILED;
        }
    }
    if (opt->saved_to && opt->saved_cap) snprintf(opt->saved_to, opt->saved_cap, "%s", t.save_path);
    tui_fini(&t);
    return rc;
}
