/* windows.c — the full-screen client's windows (tui_internal.h): a
 * scrolled text window, and in it the whole log, the whole table, the map,
 * the spreadsheet, the achievements, the player's guide and the help of a
 * decision. */
#include "tui/tui_internal.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/log_summary.h"
#include "croupier/parts.h"
#include "croupier/replay.h"

/* --------------------------------------------------------------- windows */

/* A full-screen text window with a title: scrolls with the arrows, closes
 * on any other key.  markup: the text is panel text. */
void text_window(tui *t, const char *title, const char *text, size_t len, int markup,
                 int start_at_end)
{
    int skip = -1;
    for (;;) {
        int W = COLS, H = LINES, w = W - 2;
        erase();
        fill_row(0, 0, W, A_REVERSE);
        draw_str(t, 0, 0, W, title, A_REVERSE);
        /* count wrapped rows of every line */
        int total = 0;
        for (size_t i = 0; i < len;) {
            const char *nl = memchr(text + i, '\n', len - i);
            size_t e = nl ? (size_t)(nl - text) : len;
            const char *s = text + i;
            size_t n = e - i;
            if (markup && n && s[0] == CR_PANEL_TITLE) s++, n--;
            total += draw_text(t, -1, 1, w, 1000, s, n, markup, A_NORMAL, 2);
            i = e + 1;
        }
        int rows = H - 2;
        int max_skip = total > rows ? total - rows : 0;
        if (skip < 0) skip = start_at_end ? max_skip : 0;
        if (skip > max_skip) skip = max_skip;
        int row = 0, y = 1;
        for (size_t i = 0; i < len && y < H - 1;) {
            const char *nl = memchr(text + i, '\n', len - i);
            size_t e = nl ? (size_t)(nl - text) : len;
            const char *s = text + i;
            size_t n = e - i;
            int title_line = markup && n && s[0] == CR_PANEL_TITLE;
            if (title_line) s++, n--;
            int need = draw_text(t, -1, 1, w, 1000, s, n, markup, A_NORMAL, 2);
            if (row >= skip) {
                int can = H - 1 - y;
                int got = draw_text(t, y, 1, w, need < can ? need : can, s, n, markup,
                                    title_line ? A_BOLD | A_UNDERLINE : A_NORMAL, 2);
                y += got;
            } else if (row + need > skip) {
                /* a wrapped line cut at the top: start it on the next line */
            }
            row += need;
            i = e + 1;
        }
        fill_row(H - 1, 0, W, A_NORMAL);
        draw_str(t, H - 1, 0, W, "Up/Down/PgUp/PgDn scroll, any other key closes", A_DIM);
        refresh();
        int c = getch();
        if (c == KEY_RESIZE) continue;
        if (c == KEY_UP)
            skip--;
        else if (c == KEY_DOWN)
            skip++;
        else if (c == KEY_PPAGE)
            skip -= rows;
        else if (c == KEY_NPAGE)
            skip += rows;
        else if (c == KEY_HOME)
            skip = 0;
        else if (c == KEY_END)
            skip = max_skip;
        else
            break;
        if (skip < 0) skip = 0;
    }
}

/* The whole log of `view` in a window. */
void log_window(tui *t, int view)
{
    const cr_match_event *ev;
    int n = cr_match_events_since(t->m, 0, &ev);
    cr_text log = CR_TEXT_INIT; /* out of memory: the lines that fit */
    char buf[1024];
    for (int i = 0; i < n; i++) {
        size_t k = cr_match_event_text(t->m, &ev[i], view, buf, sizeof buf);
        if (k >= sizeof buf) k = sizeof buf - 1;
        if (k == 0) continue;
        cr_text_add(&log, buf, k);
        cr_text_add(&log, "\n", 1);
    }
    char title[64], vb[32];
    snprintf(title, sizeof title, " The log (%s)", view_name(view, vb, sizeof vb));
    text_window(t, title, cr_text_str(&log), log.len, 0, 1);
    cr_text_free(&log);
}

/* The game's board as a picture (cr_game_parts.map) from the observation
 * obs, scrolled; with the game's annals of the log up to event `upto`
 * (map_annals: e.g. the last rampage's routes emphasised) when it keeps
 * them.  A game without a map says so. */
void map_window(tui *t, const void *obs, uint32_t upto)
{
    const cr_game_parts *parts = cr_parts(t->g);
    void *annals = parts->map_annals ? cr_match_annals(t->m, upto) : NULL;
    if (parts->map == NULL && annals == NULL) {
        snprintf(t->msg, sizeof t->msg, "this game has no map to draw");
        return;
    }
    size_t len = annals ? parts->map_annals(t->g, obs, annals, 0, NULL, 0)
                        : parts->map(t->g, obs, 0, NULL, 0);
    char *text = cr_alloc(len + 1);
    if (text != NULL) {
        if (annals)
            parts->map_annals(t->g, obs, annals, 0, text, len + 1);
        else
            parts->map(t->g, obs, 0, text, len + 1);
        text_window(t, " The map", text, len, 1, 0);
    }
    cr_free(text);
    cr_free(annals);
}

/* The game's spreadsheet (cr_game_parts.sheet: players against companies,
 * the history of operating rounds) from the observation obs and the annals
 * of the log up to event `upto`, scrolled; a game without one says so. */
void sheet_window(tui *t, const void *obs, uint32_t upto)
{
    const cr_game_parts *parts = cr_parts(t->g);
    void *annals = parts->sheet ? cr_match_annals(t->m, upto) : NULL;
    if (annals == NULL) {
        snprintf(t->msg, sizeof t->msg, "this game has no spreadsheet");
        return;
    }
    size_t len = parts->sheet(t->g, obs, annals, 0, NULL, 0);
    char *text = cr_alloc(len + 1);
    if (text != NULL) {
        parts->sheet(t->g, obs, annals, 0, text, len + 1);
        text_window(t, " The spreadsheet", text, len, 1, 0);
    }
    cr_free(text);
    cr_free(annals);
}

void table_window(tui *t, int view)
{
    cr_match_observe(t->m, view, t->obs);
    size_t len = table_text(t, t->obs);
    char *copy = cr_alloc(len + 1);
    if (copy == NULL) return;
    memcpy(copy, cr_text_str(&t->text), len);
    copy[len] = '\0';
    text_window(t, " The table", copy, len, 1, 0);
    cr_free(copy);
}

/* The achievements of the game st in a window (cr_achievements_text), or
 * why there are none to show. */
void achievements_window(tui *t, const void *st)
{
    static const char not_over[] = "Achievements are earned when the game is over.\n";
    static const char none[] = "Nobody earned an achievement in this game.\n";
    size_t len = cr_is_terminal(t->g, st) ? cr_achievements_text(t->g, st, NULL, 0) : 0;
    char *text = len ? cr_alloc(len + 1) : NULL;
    if (text == NULL) {
        const char *why = cr_is_terminal(t->g, st) ? none : not_over;
        text_window(t, " Achievements", why, strlen(why), 0, 0);
        return;
    }
    cr_achievements_text(t->g, st, text, len + 1);
    text_window(t, " Achievements", text, len, 0, 0);
    cr_free(text);
}

/* The game's player's guide (cr_game_parts.guide), scrolled like the log. */
void guide_window(tui *t)
{
    const char *guide = cr_parts(t->g)->guide;
    if (guide == NULL) {
        snprintf(t->msg, sizeof t->msg, "this game has no player's guide yet");
        return;
    }
    text_window(t, " The player's guide", guide, strlen(guide), 0, 0);
}

void help_window(tui *t, int seat)
{
    size_t cap = 16384;
    char *buf = cr_alloc(cap);
    if (buf == NULL) return;
    size_t n = cr_match_help(t->m, seat, buf, cap);
    if (n >= cap) n = cap - 1;
    buf[n] = '\0';
    size_t k = (size_t)snprintf(buf + n, cap - n, "%s\nKeys:\n%s", n ? "\n" : "", tui_keys_text);
    if (k >= cap - n) k = cap - n - 1;
    text_window(t, " Help: this decision", buf, n + k, 0, 0);
    cr_free(buf);
}
