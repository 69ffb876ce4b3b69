/* session.c — summaries of the event log and the bookkeeping of a terminal
 * shared by the seats of a match (session.h).
 *
 * A summary works on the rendered lines only (event_to_str as the view may
 * know the event), so it needs no knowledge of any game: grouping by actor
 * comes from the match (cr_match_actor), merging from the words of the
 * lines.  Invariant of a session: seen[s] and table_seen never exceed the
 * log's length (undo shortens the log and clamps them). */
#include "session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/alloc.h"

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

/* The lines of one group, before merging: offsets into a cli_text. */
typedef struct group {
    cli_text text; /* the lines, each NUL-terminated, back to back */
    size_t *start; /* offset of line i */
    int n, cap;
    int oom;
} group;

static void group_add(group *g, const char *s)
{
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 32;
        size_t *p = realloc(g->start, (size_t)cap * sizeof *p);
        if (p == NULL) {
            g->oom = 1;
            return;
        }
        g->start = p;
        g->cap = cap;
    }
    g->start[g->n++] = g->text.len;
    cli_text_add(&g->text, s, strlen(s) + 1);
}

static const char *group_line(const group *g, int i) { return g->text.p + g->start[i]; }

static int count_words(const char *s, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && (i == 0 || s[i - 1] == ' ')) n++;
    return n;
}

enum { MERGE_MAX_PREFIX_WORDS = 2, MERGE_MIN_SUFFIX_WORDS = 3 };

/* The split of `a` and `b` into a short head and a common tail of whole
 * words: the tail's offset in each, or 0 when they do not merge (tails of
 * at least MERGE_MIN_SUFFIX_WORDS words after heads of at most
 * MERGE_MAX_PREFIX_WORDS words). */
static int merge_split(const char *a, const char *b, size_t *ta, size_t *tb)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t k = 0; /* common tail length in bytes */
    while (k < la && k < lb && a[la - 1 - k] == b[lb - 1 - k]) k++;
    /* back to a word boundary: the tail must start right after a space in both */
    while (k > 0 && !(k < la && k < lb && a[la - 1 - k] == ' ' && b[lb - 1 - k] == ' ')) k--;
    if (k == 0) return 0;
    size_t ha = la - k - 1, hb = lb - k - 1; /* heads without the space */
    if (ha == 0 || hb == 0) return 0;
    if (count_words(a + la - k, k) < MERGE_MIN_SUFFIX_WORDS) return 0;
    if (count_words(a, ha) > MERGE_MAX_PREFIX_WORDS || count_words(b, hb) > MERGE_MAX_PREFIX_WORDS)
        return 0;
    *ta = la - k;
    *tb = lb - k;
    return 1;
}

/* Merges the group's lines into items (identical runs counted, shared
 * tails merged) and packs them into lines of at most CLI_SUMMARY_WIDTH. */
static void group_flush(const group *g, const char *indent, int verbose, cli_text *out)
{
    size_t width = CLI_SUMMARY_WIDTH, used = 0;
    cli_text item = {0};
    for (int i = 0; i < g->n;) {
        const char *s = group_line(g, i);
        int j = i + 1;
        cli_text_clear(&item);
        if (verbose) {
            cli_text_add(&item, s, strlen(s));
        } else {
            while (j < g->n && strcmp(group_line(g, j), s) == 0) j++;
            size_t ta, tb;
            if (j - i > 1) {
                cli_text_addf(&item, "%s ×%d", s, j - i);
            } else if (j < g->n && merge_split(s, group_line(g, j), &ta, &tb)) {
                const char *tail = s + ta;
                /* heads in order, each with its count of repeats */
                int k = i;
                while (k < g->n) {
                    const char *t = group_line(g, k);
                    size_t lt = strlen(t), lk = strlen(tail);
                    if (lt <= lk + 1 || strcmp(t + lt - lk, tail) != 0 || t[lt - lk - 1] != ' ' ||
                        count_words(t, lt - lk - 1) > MERGE_MAX_PREFIX_WORDS)
                        break;
                    int r = k + 1;
                    while (r < g->n && strcmp(group_line(g, r), t) == 0) r++;
                    if (k > i) cli_text_add(&item, ", ", 2);
                    cli_text_add(&item, t, lt - lk - 1);
                    if (r - k > 1) cli_text_addf(&item, " ×%d", r - k);
                    k = r;
                }
                cli_text_addf(&item, " %s", tail);
                j = k;
            } else {
                cli_text_add(&item, s, strlen(s));
            }
        }
        i = j;
        if (item.len == 0) continue;
        /* pack: "; " between items on a line, a new line when it would overflow */
        if (used > 0 && !verbose && used + 2 + item.len <= width) {
            cli_text_add(out, "; ", 2);
            cli_text_add(out, item.p, item.len);
            used += 2 + item.len;
        } else {
            if (used > 0) cli_text_add(out, "\n", 1);
            cli_text_addf(out, "%s  %s", indent, item.p);
            used = strlen(indent) + 2 + item.len;
        }
    }
    if (used > 0) cli_text_add(out, "\n", 1);
    if (item.oom) out->oom = 1;
    cli_text_fini(&item);
}

static void group_header(const cr_match *m, int actor, int view, const char *indent, cli_text *out)
{
    if (actor == CR_CHANCE)
        cli_text_addf(out, "%sChance:\n", indent);
    else if (actor == view)
        cli_text_addf(out, "%sP%d (you):\n", indent, actor);
    else
        cli_text_addf(out, "%sP%d (%s):\n", indent, actor, cr_match_seat_spec(m, actor));
}

int cli_summarize(const cr_match *m, uint32_t from, uint32_t to, int view, int verbose,
                  const char *indent, cli_text *out)
{
    const cr_match_event *ev;
    int n = cr_match_events_since(m, from, &ev);
    if (to > cr_match_event_count(m)) to = cr_match_event_count(m);
    if (to <= from) return 0;
    if ((uint32_t)n > to - from) n = (int)(to - from);
    group g = {0};
    char small[512];
    char *big = NULL;
    int actor = CR_TERMINAL, rendered = 0; /* actor of the group being built */
    for (int i = 0; i < n; i++) {
        int who = cr_match_actor(m, ev[i].action_index);
        if (who != CR_CHANCE && who != actor && actor != CR_TERMINAL && g.n > 0) {
            group_header(m, actor, view, indent, out);
            group_flush(&g, indent, verbose, out);
            g.n = 0;
            cli_text_clear(&g.text);
        }
        if (who != CR_CHANCE || actor == CR_TERMINAL) actor = who;
        size_t len = cr_match_event_text(m, &ev[i], view, small, sizeof small);
        const char *s = small;
        if (len >= sizeof small) { /* a long line: render it whole */
            char *p = realloc(big, len + 1);
            if (p == NULL) continue;
            big = p;
            cr_match_event_text(m, &ev[i], view, big, len + 1);
            s = big;
        }
        if (s[0] == '\0') continue;
        group_add(&g, s);
        rendered++;
    }
    if (g.n > 0) {
        group_header(m, actor, view, indent, out);
        group_flush(&g, indent, verbose, out);
    }
    if (g.oom || g.text.oom) out->oom = 1;
    free(big);
    free(g.start);
    cli_text_fini(&g.text);
    return rendered;
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
