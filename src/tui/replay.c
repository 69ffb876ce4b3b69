/* replay.c — the full-screen replay viewer (tui_replay, tui.h): the match
 * layer's replay cursor (croupier/replay.h) stepped move by move, the table
 * and the log up to the move in one view, `v` switching views, `c` the
 * coach (coach.c): a seat's decisions analysed, one line a move. */
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

/* ---------------------------------------------------------------- replay */

/* `c`: the summary of the seat analysed when the view is that seat's (or
 * not a seat's); otherwise the view's seat analysed, or, from the public or
 * open view with nothing analysed, the seat asked for on the last row. */
static void coach_key(tui *t, tui_coach *co, int *view, int *k, long iters, char *note, size_t cap)
{
    const cr_game *g = t->g;
    int seat = *view >= 0 ? *view : co->seat;
    if (seat < 0) {
        char ask[160];
        snprintf(ask, sizeof ask, "coach: analyse which seat? 0-%d (Esc cancels)",
                 g->num_players - 1);
        fill_row(LINES - 1, 0, COLS, A_NORMAL);
        draw_str(t, LINES - 1, 0, COLS, ask, A_BOLD);
        refresh();
        int c = getch();
        if (c < '0' || c >= '0' + g->num_players) return;
        seat = c - '0';
    }
    if (seat == co->seat) {
        int to = tui_coach_summary(t, co);
        if (to >= 0) *k = to;
        if (*view != CR_SEAT_OMNISCIENT) *view = seat;
        return;
    }
    if (tui_coach_run(t, co, seat, iters, note, cap) && *view != CR_SEAT_OMNISCIENT) *view = seat;
}

int tui_replay(cr_match *m, int view, const tui_options *opt, char *err, size_t errcap)
{
    tui t;
    if (!tui_init(&t, m, opt, err, errcap)) {
        tui_fini(&t);
        return TUI_FAILED;
    }
    const cr_game *g = t.g;
    const cr_record *r = cr_match_record(m);
    cr_replay *rp = cr_replay_new(m); /* the state at any move, from its checkpoints */
    if (rp == NULL) {
        snprintf(err, errcap, "out of memory");
        tui_fini(&t);
        return TUI_FAILED;
    }
    if (!term_start(&t, opt, err, errcap)) {
        cr_replay_free(rp);
        tui_fini(&t);
        return TUI_NO_TERM;
    }
    t.replay = 1;
    const cr_match_event *all;
    cr_match_events_since(m, 0, &all);
    int k = 0, n = r->n_actions;
    long iters = opt->analyse_iters > 0 ? opt->analyse_iters : 300;
    tui_coach co;
    memset(&co, 0, sizeof co);
    tui_coach_clear(&co);
    char note[512] = ""; /* the coach's one-shot message */
    for (;;) {
        cr_replay_seek(rp, k);
        const void *st = cr_replay_state(rp);
        const void *before = k > 0 ? cr_replay_state_before(rp) : NULL;
        /* the table at step k, in the view's eyes */
        erase();
        draw_header(&t, view, "(replay)");
        int W = COLS, H = LINES, cols, left = table_width(W, &cols);
        g->def->observe(g, st, view, t.obs);
        size_t len = table_text(&t, t.obs);
        int rx = left + 1, rw = W - rx;
        /* the coach's line, when there is one, takes the row above the footer */
        int body = H - 2 - (co.seat >= 0 || note[0]);
        int top = draw_table(&t, len, left, cols, rx, rw, body, body - 2 - LOG_MIN_ROWS);
        /* the log up to move k: events of actions before k, the last move's first */
        int upto = (int)cr_replay_event_at(rp, k);
        int last_from = k > 0 ? (int)cr_replay_event_at(rp, k - 1) : upto;
        int rows = body - 1 - top, y = 1 + top;
        for (int row = 0; row < rows + 1; row++) fill_row(y + row, rx, rw, A_NORMAL);
        draw_str(&t, y++, rx, rw, "The log up to this move", A_BOLD | A_UNDERLINE);
        /* the newest events that fit, the last move's in bold */
        char buf[1024];
        int first = upto, used = 0;
        while (first > 0) {
            size_t l = cr_match_event_text(m, &all[first - 1], view, buf, sizeof buf);
            if (l >= sizeof buf) l = sizeof buf - 1;
            int need = l ? draw_text(&t, -1, rx, rw, 1000, buf, l, 0, A_NORMAL, 2) : 0;
            if (used + need > rows) break;
            used += need;
            first--;
        }
        y += rows - used;
        for (int i = first; i < upto; i++) {
            size_t l = cr_match_event_text(m, &all[i], view, buf, sizeof buf);
            if (l >= sizeof buf) l = sizeof buf - 1;
            if (l == 0) continue;
            y += draw_text(&t, y, rx, rw, 1000, buf, l, 0, i >= last_from ? A_BOLD : A_NORMAL, 2);
        }
        /* the move itself, when the view may read it */
        char line[512] = "";
        if (k > 0) {
            int actor = g->def->current_player(g, before);
            char at[256] = "";
            if (view == CR_SEAT_OMNISCIENT || actor == view || actor == CR_CHANCE)
                g->def->action_to_str(g, before, r->actions[k - 1], at, sizeof at);
            char who[16] = "";
            if (actor >= 0) snprintf(who, sizeof who, "P%d: ", actor);
            /* the keys as the width allows, after the move (S: a game with
             * a spreadsheet, parts.h "Annals") */
            const char *const keys[] = {
                k == n && cr_is_terminal(g, st)
                    ? "  | Right/n next, Left/p back, v view, l log, m map, a achievements, c "
                      "coach, q quits"
                : cr_parts(g)->sheet
                    ? "  | Right/n next, Left/p back, v view, l log, m map, S sheet, c coach, q "
                      "quits"
                    : "  | Right/n next, Left/p back, v view, l log, m map, c coach, q quits",
                "  | Right, Left, v view, l log, q", "  | q quits"};
            for (int kk = 0; kk < 3; kk++) {
                snprintf(line, sizeof line, "move %d of %d: %s%s%s", k, n, who,
                         at[0]              ? at
                         : upto > last_from ? "(its events are in the log)"
                                            : "a step this view does not see",
                         keys[kk]);
                if (strlen(line) <= (size_t)W) break;
            }
        } else {
            snprintf(line, sizeof line,
                     "move 0 of %d: the start  | Right/n next, Left/p back, Home/End, v view, "
                     "c coach, q quits",
                     n);
        }
        fill_row(H - 1, 0, W, A_NORMAL);
        draw_str(&t, H - 1, 0, W, line, A_DIM);
        if (co.seat >= 0 || note[0]) {
            char cl[512];
            if (note[0])
                snprintf(cl, sizeof cl, "%s", note);
            else if (view == co.seat || view == CR_SEAT_OMNISCIENT)
                tui_coach_line(&co, k, cl, sizeof cl);
            else /* the best alternative may name a card of the seat's hand */
                snprintf(cl, sizeof cl,
                         "coach: P%d's analysis shows in P%d's view or the open view", co.seat,
                         co.seat);
            fill_row(H - 2, 0, W, A_NORMAL);
            draw_str(&t, H - 2, 0, W, cl, A_BOLD);
            note[0] = '\0';
        }
        refresh();
        int c = getch();
        if (c == 'q' || c == 27) break;
        if (c == KEY_RIGHT || c == 'n' || c == ' ')
            k = k < n ? k + 1 : n;
        else if (c == KEY_LEFT || c == 'p' || c == 'b')
            k = k > 0 ? k - 1 : 0;
        else if (c == KEY_NPAGE)
            k = k + 10 < n ? k + 10 : n;
        else if (c == KEY_PPAGE)
            k = k > 10 ? k - 10 : 0;
        else if (c == KEY_HOME)
            k = 0;
        else if (c == KEY_END)
            k = n;
        else if (c == 'v') {
            /* public view -> P0 -> P1 ... -> open view (a record is its
             * owner's: every card may be shown) -> public view */
            if (view == CR_SEAT_PUBLIC)
                view = 0;
            else if (view == CR_SEAT_OMNISCIENT)
                view = CR_SEAT_PUBLIC;
            else if (view + 1 < g->num_players)
                view++;
            else
                view = CR_SEAT_OMNISCIENT;
        } else if (c == 'l') {
            log_window(&t, view);
        } else if (c == 'm') { /* the map at this move */
            g->def->observe(g, st, view, t.obs);
            map_window(&t, t.obs, (uint32_t)upto);
        } else if (c == 'S') { /* the spreadsheet at this move */
            g->def->observe(g, st, view, t.obs);
            sheet_window(&t, t.obs, (uint32_t)upto);
        } else if (c == 'a') {
            achievements_window(&t, st);
        } else if (c == 'c') {
            coach_key(&t, &co, &view, &k, iters, note, sizeof note);
        } else if ((c == ']' || c == '[') && co.seat >= 0) {
            int to = tui_coach_jump(&co, k, c == ']' ? 1 : -1);
            if (to >= 0)
                k = to;
            else
                snprintf(note, sizeof note, "coach: no marked decision of P%d %s this move",
                         co.seat, c == ']' ? "after" : "before");
        }
    }
    endwin();
    tui_coach_clear(&co);
    cr_replay_free(rp);
    tui_fini(&t);
    return TUI_OVER;
}
