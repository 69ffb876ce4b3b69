/* coach.c — the replay viewer's coach (tui_coach, tui_internal.h): one
 * seat's decisions in the record analysed (croupier/analysis.h) on a key,
 * with a progress bar that Esc stops, then shown move by move (the move
 * played and its win chance, the best alternative and its win chance, the
 * mark) and as a summary screen whose worst decisions a digit jumps to.
 *
 * The analysis reads only what the seat observed at each decision, and the
 * viewer shows it only in that seat's view or the open view: the best
 * alternative may name a card of the seat's hand. */
#include "tui/tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"

void tui_coach_clear(tui_coach *c)
{
    cr_free(c->e);
    cr_free(c->text);
    memset(c, 0, sizeof *c);
    c->seat = -1;
}

static const char *mark_text(cr_move_mark m)
{
    return m == CR_MOVE_BLUNDER ? " ?\?" : m == CR_MOVE_DOUBTFUL ? " ?" : "";
}

/* The progress bar on the last row; Esc (or q) stops the analysis. */
typedef struct coach_progress {
    const tui *t;
    int seat, last;
} coach_progress;

static int coach_tick(void *ctx, int done, int total)
{
    coach_progress *p = ctx;
    int c;
    while ((c = getch()) != ERR)
        if (c == 27 || c == 'q') return 1;
    int pct = total ? 100 * done / total : 100;
    if (pct == p->last) return 0;
    p->last = pct;
    int W = COLS, H = LINES, bar = W - 40 > 10 ? W - 40 : 10;
    char line[512];
    int fill = bar * pct / 100;
    int len = snprintf(line, sizeof line, "analysing P%d: %3d%% [", p->seat, pct);
    for (int i = 0; i < bar && len < (int)sizeof line - 32; i++) line[len++] = i < fill ? '#' : '.';
    snprintf(line + len, sizeof line - (size_t)len, "]  Esc stops");
    fill_row(H - 1, 0, W, A_NORMAL);
    draw_str(p->t, H - 1, 0, W, line, A_BOLD);
    refresh();
    return 0;
}

/* The texts of each entry's played and best moves, in the state before it. */
static int coach_texts(const tui *t, const cr_record *r, tui_coach *c)
{
    const cr_game *g = t->g;
    c->text = cr_calloc((size_t)(c->n ? c->n : 1), sizeof *c->text);
    void *st = cr_alloc(g->state_size);
    cr_ctx *cx = cr_ctx_new(g);
    int ok = c->text && st && cx;
    if (ok) {
        g->def->init(g, st);
        int at = 0;
        for (int i = 0; i < c->n && ok; i++) {
            while (ok && at < c->e[i].step)
                ok = cr_apply_checked(g, st, r->actions[at++], cx) == CR_OK;
            g->def->action_to_str(g, st, c->e[i].played, c->text[i].played,
                                  sizeof c->text[i].played);
            g->def->action_to_str(g, st, c->e[i].best, c->text[i].best, sizeof c->text[i].best);
        }
    }
    cr_ctx_free(cx);
    cr_free(st);
    return ok;
}

int tui_coach_run(tui *t, tui_coach *c, int seat, long iters, char *msg, size_t cap)
{
    tui_coach_clear(c);
    cr_analysis_opts o = {.iters = iters, .threads = 1, .seed = 1};
    coach_progress p = {t, seat, -1};
    char err[256];
    nodelay(stdscr, TRUE);
    coach_tick(&p, 0, 1);
    cr_status rc = cr_analyse_record(t->g, cr_match_record(t->m), seat, &o, &c->e, &c->n, &c->sum,
                                     coach_tick, &p, err, sizeof err);
    nodelay(stdscr, FALSE);
    if (rc != CR_OK) {
        tui_coach_clear(c);
        snprintf(msg, cap, "%s", strcmp(err, "stopped") == 0 ? "analysis stopped" : err);
        return 0;
    }
    if (!coach_texts(t, cr_match_record(t->m), c)) {
        tui_coach_clear(c);
        snprintf(msg, cap, "out of memory");
        return 0;
    }
    c->seat = seat;
    c->iters = iters;
    snprintf(msg, cap,
             "P%d analysed: %d decisions, %d doubtful (?), %d blunders (?\?); c: summary, ] [: "
             "next / previous marked move",
             seat, c->sum.decisions, c->sum.doubtful, c->sum.blunders);
    return 1;
}

int tui_coach_at(const tui_coach *c, int step)
{
    int lo = 0, hi = c->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->e[mid].step == step) return mid;
        if (c->e[mid].step < step)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int tui_coach_line(const tui_coach *c, int k, char *buf, size_t cap)
{
    int i = k > 0 ? tui_coach_at(c, k - 1) : -1;
    if (i < 0) {
        /* the seat's next analysed decision, to say where to go */
        int next = -1;
        for (int j = 0; j < c->n; j++)
            if (c->e[j].step >= k) {
                next = j;
                break;
            }
        if (next < 0)
            return snprintf(buf, cap, "coach P%d: no analysed decision after this move", c->seat);
        return snprintf(buf, cap, "coach P%d: its next analysed decision is move %d", c->seat,
                        c->e[next].step + 1);
    }
    const cr_analysis_entry *e = &c->e[i];
    if (e->played == e->best)
        return snprintf(buf, cap,
                        "coach P%d, decision %d: played %s, %.0f%% to win: the best of %d", c->seat,
                        e->decision + 1, c->text[i].played, 100 * e->played_win, e->n_choices);
    return snprintf(buf, cap, "coach P%d, decision %d: played %s, %.0f%%%s; best %s, %.0f%%",
                    c->seat, e->decision + 1, c->text[i].played, 100 * e->played_win,
                    mark_text(e->mark), c->text[i].best, 100 * e->best_win);
}

int tui_coach_jump(const tui_coach *c, int k, int dir)
{
    /* the move shown after a decision at step s is s + 1 */
    if (dir > 0) {
        for (int i = 0; i < c->n; i++)
            if (c->e[i].mark != CR_MOVE_FINE && c->e[i].step + 1 > k) return c->e[i].step + 1;
    } else {
        for (int i = c->n - 1; i >= 0; i--)
            if (c->e[i].mark != CR_MOVE_FINE && c->e[i].step + 1 < k) return c->e[i].step + 1;
    }
    return -1;
}

enum { WORST_MAX = 9 };

typedef struct worst_item {
    double loss;
    int i;
} worst_item;

static int by_loss(const void *a, const void *b)
{
    const worst_item *x = a, *y = b;
    return x->loss < y->loss ? 1 : x->loss > y->loss ? -1 : x->i - y->i;
}

int tui_coach_summary(tui *t, const tui_coach *c)
{
    /* the worst decisions: the marked ones by loss, at most nine */
    worst_item *all = cr_alloc((size_t)(c->n ? c->n : 1) * sizeof *all);
    int n_all = 0, worst[WORST_MAX], n_worst = 0;
    for (int i = 0; all && i < c->n; i++)
        if (c->e[i].mark != CR_MOVE_FINE) all[n_all++] = (worst_item){c->e[i].loss, i};
    if (all) qsort(all, (size_t)n_all, sizeof *all, by_loss);
    for (int j = 0; j < n_all && n_worst < WORST_MAX; j++) worst[n_worst++] = all[j].i;
    cr_free(all);
    for (;;) {
        int W = COLS, H = LINES, y = 1;
        erase();
        fill_row(0, 0, W, A_REVERSE);
        char line[512];
        snprintf(line, sizeof line, " Coach: P%d's decisions (%ld iterations each)", c->seat,
                 c->iters);
        draw_str(t, 0, 0, W, line, A_REVERSE);
        snprintf(line, sizeof line,
                 "%d decisions analysed (two or more choices): %d doubtful (?), "
                 "%d blunders (?\?).",
                 c->sum.decisions, c->sum.doubtful, c->sum.blunders);
        y += draw_text(t, y, 1, W - 2, 3, line, strlen(line), 0, A_NORMAL, 2);
        snprintf(line, sizeof line,
                 "Error rate %.1f: the win chance lost by clear mistakes, per decision, in "
                 "thousandths of a win.",
                 c->sum.error_rate);
        y += draw_text(t, y, 1, W - 2, 3, line, strlen(line), 0, A_NORMAL, 2);
        y++;
        if (n_worst == 0) {
            draw_str(t, y++, 1, W - 2, "No clear mistake: every loss is within the search's noise.",
                     A_NORMAL);
        } else {
            draw_str(t, y++, 1, W - 2, "The worst decisions (a digit goes to the move):", A_BOLD);
            for (int j = 0; j < n_worst && y < H - 2; j++) {
                int i = worst[j];
                const cr_analysis_entry *e = &c->e[i];
                snprintf(line, sizeof line, "%d. move %d%s: played %s (%.0f%%), best %s (%.0f%%)",
                         j + 1, e->step + 1, mark_text(e->mark), c->text[i].played,
                         100 * e->played_win, c->text[i].best, 100 * e->best_win);
                draw_str(t, y++, 1, W - 2, line, A_NORMAL);
            }
        }
        fill_row(H - 1, 0, W, A_NORMAL);
        draw_str(t, H - 1, 0, W,
                 n_worst ? "1-9 go to that move, any other key closes" : "any key closes", A_DIM);
        refresh();
        int ch = getch();
        if (ch == KEY_RESIZE) continue;
        if (ch >= '1' && ch < '1' + n_worst) return c->e[worst[ch - '1']].step + 1;
        return -1;
    }
}
