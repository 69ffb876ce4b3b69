/* session.c — summaries of the event log and the bookkeeping of a screen
 * shared by the seats of a match (croupier/session.h).
 *
 * The summaries are croupier/log_summary.h's (the full-screen client shows
 * the same ones at its pane's width); line mode packs them to the fixed
 * CR_SESSION_SUMMARY_WIDTH, counted in bytes.  Invariant of a session: seen[s] and table_seen never
 * exceed the log's length (undo shortens the log and clamps them). */
#include "croupier/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/log_summary.h"

/* ---- summaries ---- */

static void emit_text(void *ctx, const char *s, size_t n) { cr_text_add(ctx, s, n); }

int cr_session_summarize(const cr_match *m, uint32_t from, uint32_t to, int view, int verbose,
                         const char *indent, cr_text *out)
{
    cr_log_summary_opts o = {
        .width = CR_SESSION_SUMMARY_WIDTH, .verbose = verbose, .indent = indent};
    int oom = 0;
    int k = cr_log_summary(m, from, to, view, &o, emit_text, out, &oom);
    if (oom) out->oom = 1;
    return k;
}

/* ---- the session ---- */

void cr_session_init(cr_session *s, cr_match *m, int verbose)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->verbose = verbose;
    s->owner = -1;
    const cr_game *g = cr_match_game(m);
    uint32_t now = cr_match_event_count(m);
    for (int seat = 0; seat < g->num_players; seat++) {
        s->seen[seat] = now;
        s->n_humans += cr_match_is_human(m, seat);
    }
    s->table_seen = now;
}

int cr_session_table_view(const cr_session *s)
{
    if (s->n_humans == 0) return CR_SEAT_OMNISCIENT;
    if (s->n_humans > 1) return CR_SEAT_PUBLIC;
    const cr_game *g = cr_match_game(s->m);
    for (int seat = 0; seat < g->num_players; seat++)
        if (cr_match_is_human(s->m, seat)) return seat;
    return CR_SEAT_PUBLIC;
}

int cr_session_needs_handover(const cr_session *s, int seat)
{
    return s->n_humans > 1 && s->owner != seat;
}

void cr_session_handover_text(const cr_session *s, int seat, char *buf, size_t cap)
{
    (void)s;
    snprintf(buf, cap, "Pass the screen to P%d, then press Enter (P%d's view follows)", seat, seat);
}

void cr_session_take_screen(cr_session *s, int seat) { s->owner = seat; }

void cr_session_catch_up(cr_session *s, int seat, cr_text *out)
{
    uint32_t now = cr_match_event_count(s->m);
    if (seat < 0 || seat >= cr_match_game(s->m)->num_players) return;
    if (s->seen[seat] < now) {
        cr_text head = {0};
        int k = cr_session_summarize(s->m, s->seen[seat], now, seat, s->verbose, "  ", &head);
        if (k > 0) {
            cr_text_printf(out, "since your last turn:\n");
            cr_text_add(out, head.p, head.len);
        }
        if (head.oom) out->oom = 1;
        cr_text_free(&head);
    }
    s->seen[seat] = now;
    if (s->n_humans == 1) s->table_seen = now;
}

void cr_session_table_lines(cr_session *s, cr_text *out)
{
    const cr_game *g = cr_match_game(s->m);
    uint32_t now = cr_match_event_count(s->m), from = s->table_seen;
    for (int seat = 0; seat < g->num_players; seat++)
        if (cr_match_is_human(s->m, seat) && s->seen[seat] > from) from = s->seen[seat];
    int view = cr_session_table_view(s);
    if (from < now) cr_session_summarize(s->m, from, now, view, s->verbose, "", out);
    s->table_seen = now;
    if (view >= 0) s->seen[view] = now;
}

cr_status cr_session_undo(cr_session *s, int seat, char *err, size_t errcap)
{
    int who = cr_match_undo_blocker(s->m, seat); /* the rule: only one's own moves */
    if (who >= 0) {
        snprintf(err, errcap,
                 "P%d has decided since your last decision; undo would take that back too", who);
        return CR_ERR_INVALID;
    }
    cr_status rc = cr_match_undo(s->m, seat, err, errcap);
    if (rc != CR_OK) return rc;
    uint32_t now = cr_match_event_count(s->m);
    for (int i = 0; i < CR_MAX_PLAYERS; i++)
        if (s->seen[i] > now) s->seen[i] = now;
    if (s->table_seen > now) s->table_seen = now;
    return CR_OK;
}
