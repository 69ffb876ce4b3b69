/* log_summary.c — the event log in words (croupier/log_summary.h).
 *
 * A summary works on the rendered lines only (cr_match_event_text as the
 * view may know the event), so it needs no knowledge of any game: grouping
 * by actor comes from the match (cr_match_actor), merging from the words of
 * the lines.  One group's lines are collected, merged into items, and the
 * items packed into lines; then the next group.  Widths are counted as the
 * caller asks (bytes for line mode's fixed width, UTF-8 characters for a
 * screen's cells), so the same code serves a terminal of any width. */
#include "croupier/log_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/text.h"

/* ---- widths ---- */

size_t cr_log_columns(const cr_log_summary_opts *opts, const char *s, size_t len)
{
    if (!opts->utf8_columns) return len;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* Where a line of at most `avail` columns taken from s[0..len) ends: len
 * when it all fits, else at a space (the one right after a line of whole
 * words, or the last that fits; the space is not part of the line), else a
 * cut after as many whole characters as fit (at least one, so a caller
 * always moves on). */
static size_t line_end(const cr_log_summary_opts *opts, const char *s, size_t len, size_t avail)
{
    size_t col = 0, space = 0, i = 0;
    while (i < len) {
        size_t next = i + 1;
        if (opts->utf8_columns)
            while (next < len && ((unsigned char)s[next] & 0xC0) == 0x80) next++;
        if (col + 1 > avail) break;
        if (s[i] == ' ' && i > 0) space = i;
        col++;
        i = next;
    }
    if (i >= len) return len;
    if (i > 0 && s[i] == ' ') return i; /* the words before fill the line exactly */
    if (space > 0) return space;
    if (i == 0) { /* not even one character fits: take one anyway */
        i = 1;
        while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    }
    return i;
}

/* The length of the group actor's name leading line s ("P1: " or "P1 " in
 * P1's group, so "P1: buy" reads "buy" under "P1 (heuristic):"); 0 when s
 * does not start with it or nothing would be left.  "P1's" is kept. */
static size_t actor_prefix(const char *s, int actor)
{
    if (actor < 0) return 0;
    char name[16];
    int n = snprintf(name, sizeof name, "P%d", actor);
    if (n <= 0 || strncmp(s, name, (size_t)n) != 0) return 0;
    size_t k = (size_t)n;
    /* only the echo of a decision ("P1: buy"): a line with the seat as its
     * subject ("P1 scores 34 VP") keeps it, since a group can hold lines of
     * other seats (the end's reveals and scores) and "scores 34 VP" would
     * read as theirs */
    if (s[k] != ':') return 0;
    k++;
    if (s[k] != ' ') return 0;
    while (s[k] == ' ') k++;
    return s[k] != '\0' ? k : 0;
}

/* ---- one group ---- */

/* The lines of one group, before merging: offsets into a buffer. */
typedef struct group {
    cr_text text;  /* the lines, each NUL-terminated, back to back */
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
    cr_text_add(&g->text, s, strlen(s) + 1);
}

static const char *group_line(const group *g, int i) { return g->text.p + g->start[i]; }

static int count_words(const char *s, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && (i == 0 || s[i - 1] == ' ')) n++;
    return n;
}

enum { MERGE_MAX_PREFIX_WORDS = 2, MERGE_MIN_SUFFIX_WORDS = 3, WRAP_MIN_COLUMNS = 8 };

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

/* The output of a summary: packing state over the emit callback. */
typedef struct out {
    const cr_log_summary_opts *o;
    const char *indent;
    size_t indent_cols;
    cr_log_emit emit;
    void *ctx;
    size_t used; /* columns on the current line, 0: no line open */
} out;

static void put(out *u, const char *s, size_t n) { u->emit(u->ctx, s, n); }

/* Whether this output wraps: asked for, a width, and room for some words. */
static int wrapping(const out *u)
{
    return u->o->wrap && u->o->width > 0 &&
           (size_t)u->o->width >= u->indent_cols + 2 + WRAP_MIN_COLUMNS;
}

/* Emits s[0..n) as lines of at most the width, each `indent` plus two
 * spaces (the first without them when `flush_first`: it starts with the
 * group's header), broken at spaces (wrapping). */
static void put_wrapped(out *u, const char *s, size_t n, int flush_first)
{
    for (int line = 0; n > 0; line++) {
        int bare = line == 0 && flush_first;
        size_t avail = (size_t)u->o->width - u->indent_cols - (bare ? 0 : 2);
        size_t e = line_end(u->o, s, n, avail);
        put(u, u->indent, strlen(u->indent));
        if (!bare) put(u, "  ", 2);
        put(u, s, e);
        put(u, "\n", 1);
        while (e < n && s[e] == ' ') e++;
        s += e;
        n -= e;
    }
}

/* Adds one item: after "; " on the open line when it fits there, else on a
 * line of its own. */
static void add_item(out *u, const char *s, size_t n)
{
    size_t width = u->o->width > 0 ? (size_t)u->o->width : (size_t)-1 / 2;
    size_t cols = cr_log_columns(u->o, s, n);
    if (u->used > 0 && !u->o->verbose && u->used + 2 + cols <= width) {
        put(u, "; ", 2);
        put(u, s, n);
        u->used += 2 + cols;
        return;
    }
    if (u->used > 0) put(u, "\n", 1);
    put(u, u->indent, strlen(u->indent));
    put(u, "  ", 2);
    put(u, s, n);
    u->used = u->indent_cols + 2 + cols;
}

/* Merges the group's lines into items (identical runs counted, shared
 * tails merged) and packs them into lines. */
static void group_flush(const group *g, out *u, const cr_text *head, int *oom)
{
    int verbose = u->o->verbose, wrap = wrapping(u);
    int inline_head = wrap && !verbose && u->o->inline_headers;
    cr_text item = {0}, para = {0}; /* wrapping: the group's items, "; "-separated */
    u->used = 0;
    if (inline_head) {
        cr_text_add(&para, head->p, head->len);
        cr_text_add(&para, " ", 1);
    } else {
        put(u, u->indent, strlen(u->indent));
        put(u, head->p, head->len);
        put(u, "\n", 1);
    }
    size_t para_start = para.len;
    for (int i = 0; i < g->n;) {
        const char *s = group_line(g, i);
        int j = i + 1;
        cr_text_reset(&item);
        if (verbose) {
            cr_text_add(&item, s, strlen(s));
        } else {
            while (j < g->n && strcmp(group_line(g, j), s) == 0) j++;
            size_t ta, tb;
            if (j - i > 1) {
                cr_text_printf(&item, "%s ×%d", s, j - i);
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
                    if (k > i) cr_text_add(&item, ", ", 2);
                    cr_text_add(&item, t, lt - lk - 1);
                    if (r - k > 1) cr_text_printf(&item, " ×%d", r - k);
                    k = r;
                }
                cr_text_printf(&item, " %s", tail);
                j = k;
            } else {
                cr_text_add(&item, s, strlen(s));
            }
        }
        i = j;
        if (item.len == 0) continue;
        if (!wrap) {
            add_item(u, item.p, item.len);
        } else if (verbose) {
            put_wrapped(u, item.p, item.len, 0);
        } else {
            if (para.len > para_start) cr_text_add(&para, "; ", 2);
            cr_text_add(&para, item.p, item.len);
        }
    }
    if (u->used > 0) put(u, "\n", 1);
    u->used = 0;
    if (para.len > para_start) put_wrapped(u, para.p, para.len, inline_head);
    if (item.oom || para.oom) *oom = 1;
    cr_text_free(&item);
    cr_text_free(&para);
}

/* The group's header without its newline: "Chance:", "P0 (you):",
 * "P1 (heuristic):". */
static void group_header(const cr_match *m, int actor, int view, cr_text *h)
{
    cr_text_reset(h);
    if (actor == CR_CHANCE) {
        cr_text_add(h, "Chance:", 7);
    } else if (actor == view) {
        cr_text_printf(h, "P%d (you):", actor);
    } else {
        const char *spec = cr_match_seat_spec(m, actor);
        cr_text_printf(h, "P%d (%s):", actor, spec ? spec : "");
    }
}

int cr_log_summary(const cr_match *m, uint32_t from, uint32_t to, int view,
                   const cr_log_summary_opts *opts, cr_log_emit emit, void *ctx, int *oom)
{
    const cr_match_event *ev;
    int n = cr_match_events_since(m, from, &ev);
    if (to > cr_match_event_count(m)) to = cr_match_event_count(m);
    if (to <= from) return 0;
    if ((uint32_t)n > to - from) n = (int)(to - from);
    out u = {opts, opts->indent ? opts->indent : "", 0, emit, ctx, 0};
    u.indent_cols = cr_log_columns(opts, u.indent, strlen(u.indent));
    int failed = 0;
    group g = {0};
    cr_text head = {0};
    char small[512];
    char *big = NULL;
    int actor = CR_TERMINAL, rendered = 0; /* actor of the group being built */
    for (int i = 0; i < n; i++) {
        int who = cr_match_actor(m, ev[i].action_index);
        if (who != CR_CHANCE && who != actor && actor != CR_TERMINAL && g.n > 0) {
            group_header(m, actor, view, &head);
            group_flush(&g, &u, &head, &failed);
            g.n = 0;
            cr_text_reset(&g.text);
        }
        if (who != CR_CHANCE || actor == CR_TERMINAL) actor = who;
        size_t len = cr_match_event_text(m, &ev[i], view, small, sizeof small);
        const char *s = small;
        if (len >= sizeof small) { /* a long line: render it whole */
            char *p = realloc(big, len + 1);
            if (p == NULL) {
                failed = 1;
                continue;
            }
            big = p;
            cr_match_event_text(m, &ev[i], view, big, len + 1);
            s = big;
        }
        if (s[0] == '\0') continue;
        if (opts->drop_actor) s += actor_prefix(s, actor);
        group_add(&g, s);
        rendered++;
    }
    if (g.n > 0) {
        group_header(m, actor, view, &head);
        group_flush(&g, &u, &head, &failed);
    }
    if (g.oom || g.text.oom || head.oom) failed = 1;
    cr_text_free(&head);
    if (oom && failed) *oom = 1;
    free(big);
    free(g.start);
    cr_text_free(&g.text);
    return rendered;
}
