/* session.c — summaries of the event log and the bookkeeping of a terminal
 * shared by the seats of a match (session.h).
 *
 * The summaries are croupier/log_summary.h's (the full-screen client shows
 * the same ones at its pane's width); line mode packs them to the fixed
 * CLI_SUMMARY_WIDTH, counted in bytes.  Invariant of a session: seen[s] and table_seen never exceed
 * the log's length (undo shortens the log and clamps them). */
#include "session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"
#include "croupier/log_summary.h"

/* ---- text ---- */

void cli_text_fini(cli_text *t)
{
    free(t->p);
    memset(t, 0, sizeof *t);
}

void cli_text_clear(cli_text *t)
{
    t->len = 0;
    if (t->p) t->p[0] = '\0';
}

static int text_reserve(cli_text *t, size_t more)
{
    if (t->oom) return 0;
    if (t->len + more + 1 <= t->cap) return 1;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + more + 1) cap *= 2;
    char *p = realloc(t->p, cap);
    if (p == NULL) {
        t->oom = 1;
        return 0;
    }
    t->p = p;
    t->cap = cap;
    return 1;
}

void cli_text_add(cli_text *t, const char *s, size_t n)
{
    if (!text_reserve(t, n)) return;
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

void cli_text_addf(cli_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !text_reserve(t, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(t->p + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* ---- summaries ---- */

static void emit_text(void *ctx, const char *s, size_t n) { cli_text_add(ctx, s, n); }

int cli_summarize(const cr_match *m, uint32_t from, uint32_t to, int view, int verbose,
                  const char *indent, cli_text *out)
{
    cr_log_summary_opts o = {.width = CLI_SUMMARY_WIDTH, .verbose = verbose, .indent = indent};
    int oom = 0;
    int k = cr_log_summary(m, from, to, view, &o, emit_text, out, &oom);
    if (oom) out->oom = 1;
    return k;
}

/* ---- the session ---- */

void cli_session_init(cli_session *s, cr_match *m, int verbose)
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

int cli_session_table_view(const cli_session *s)
{
    if (s->n_humans == 0) return CR_SEAT_OMNISCIENT;
    if (s->n_humans > 1) return CR_SEAT_PUBLIC;
    const cr_game *g = cr_match_game(s->m);
    for (int seat = 0; seat < g->num_players; seat++)
        if (cr_match_is_human(s->m, seat)) return seat;
    return CR_SEAT_PUBLIC;
}

int cli_session_needs_handover(const cli_session *s, int seat)
{
    return s->n_humans > 1 && s->owner != seat;
}

void cli_session_handover_text(const cli_session *s, int seat, char *buf, size_t cap)
{
    (void)s;
    snprintf(buf, cap, "Pass the screen to P%d, then press Enter (P%d's view follows)", seat, seat);
}

void cli_session_take_screen(cli_session *s, int seat) { s->owner = seat; }

void cli_session_catch_up(cli_session *s, int seat, cli_text *out)
{
    uint32_t now = cr_match_event_count(s->m);
    if (seat < 0 || seat >= cr_match_game(s->m)->num_players) return;
    if (s->seen[seat] < now) {
        cli_text head = {0};
        int k = cli_summarize(s->m, s->seen[seat], now, seat, s->verbose, "  ", &head);
        if (k > 0) {
            cli_text_addf(out, "since your last turn:\n");
            cli_text_add(out, head.p, head.len);
        }
        if (head.oom) out->oom = 1;
        cli_text_fini(&head);
    }
    s->seen[seat] = now;
    if (s->n_humans == 1) s->table_seen = now;
}

void cli_session_table_lines(cli_session *s, cli_text *out)
{
    const cr_game *g = cr_match_game(s->m);
    uint32_t now = cr_match_event_count(s->m), from = s->table_seen;
    for (int seat = 0; seat < g->num_players; seat++)
        if (cr_match_is_human(s->m, seat) && s->seen[seat] > from) from = s->seen[seat];
    int view = cli_session_table_view(s);
    if (from < now) cli_summarize(s->m, from, now, view, s->verbose, "", out);
    s->table_seen = now;
    if (view >= 0) s->seen[view] = now;
}

cr_status cli_session_undo(cli_session *s, int seat, char *err, size_t errcap)
{
    const cr_record *r = cr_match_record(s->m);
    int k = r->n_actions - 1;
    while (k >= 0 && cr_match_actor(s->m, k) != seat) k--;
    for (int j = k + 1; k >= 0 && j < r->n_actions; j++) {
        int who = cr_match_actor(s->m, j);
        if (who >= 0 && who != seat && cr_match_is_human(s->m, who)) {
            snprintf(err, errcap,
                     "P%d has decided since your last decision; undo would take that back too",
                     who);
            return CR_ERR_INVALID;
        }
    }
    cr_status rc = cr_match_undo(s->m, seat, err, errcap);
    if (rc != CR_OK) return rc;
    uint32_t now = cr_match_event_count(s->m);
    for (int i = 0; i < CR_MAX_PLAYERS; i++)
        if (s->seen[i] > now) s->seen[i] = now;
    if (s->table_seen > now) s->table_seen = now;
    return CR_OK;
}
