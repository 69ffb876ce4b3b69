/* match/view.c — a seat's view of a match as JSON (view.h): the members
 * of the server's `update`, the result, and events as one seat sees them;
 * with the growing text buffer they are written into (moved here from the
 * server, which writes its replies with it too).
 *
 * Invariant: what a view shows comes from the match layer's per-seat calls
 * (cr_match_observe, _prompt, _help, _legal, _action_json, _event_json for
 * that seat); only the result and the achievements read the state, and
 * only once the game is over.  The same match and seat give the same bytes,
 * so a client may hash a view to tell whether it changed.
 */
#include "match/view.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "croupier/parts.h"

/* ---- the growing text buffer ---- */

void cr_jb_reserve(cr_jbuf *b, size_t extra)
{
    if (b->oom || b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        b->oom = 1;
        return;
    }
    b->p = p;
    b->cap = cap;
}

void cr_jb_add(cr_jbuf *b, const char *s, size_t n)
{
    cr_jb_reserve(b, n);
    if (b->oom) return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void cr_jb_puts(cr_jbuf *b, const char *s) { cr_jb_add(b, s, strlen(s)); }

void cr_jb_printf(cr_jbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    cr_jb_reserve(b, (size_t)n);
    if (b->oom) return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* view.h: a byte that does not start a whole UTF-8 sequence becomes
 * U+FFFD; quotes, backslashes and controls are escaped. */
void cr_jb_json_str(cr_jbuf *b, const char *s)
{
    cr_jb_add(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            cr_jb_add(b, e, 2);
        } else if (*p < 0x20 || *p == 0x7f) {
            cr_jb_printf(b, "\\u%04x", *p);
        } else if (*p < 0x80) {
            cr_jb_add(b, (const char *)p, 1);
        } else {
            size_t k = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2;
            if (strnlen((const char *)p, k) == k && cr_utf8_valid((const char *)p, k)) {
                cr_jb_add(b, (const char *)p, k);
                p += k - 1;
            } else {
                cr_jb_puts(b, "\\ufffd");
            }
        }
    }
    cr_jb_add(b, "\"", 1);
}

void cr_jb_reset(cr_jbuf *b)
{
    b->len = 0;
    if (b->p) b->p[0] = '\0';
}

void cr_jb_free(cr_jbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

int cr_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k;
        unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
        if (c >= 0xc2 && c <= 0xdf)
            k = 1;
        else if (c >= 0xe0 && c <= 0xef) {
            k = 2;
            if (c == 0xe0) lo = 0xa0; /* overlong */
            if (c == 0xed) hi = 0x9f; /* surrogates */
        } else if (c >= 0xf0 && c <= 0xf4) {
            k = 3;
            if (c == 0xf0) lo = 0x90; /* overlong */
            if (c == 0xf4) hi = 0x8f; /* past U+10FFFF */
        } else
            return 0;
        if (n - i <= k) return 0;
        if (p[i + 1] < lo || p[i + 1] > hi) return 0;
        for (size_t j = 2; j <= k; j++)
            if (p[i + j] < 0x80 || p[i + j] > 0xbf) return 0;
        i += k + 1;
    }
    return 1;
}

/* ---- views ---- */

/* Renders into v->tmp (grown as needed) with a snprintf-style call that
 * sees `buf` and `cap`; on failure v->tmp is "" (or NULL). */
#define VIEW_RENDER(v, call_with_buf_cap)                                                          \
    do {                                                                                           \
        for (int try_ = 0; try_ < 2; try_++) {                                                     \
            char *buf = (v)->tmp;                                                                  \
            size_t cap = (v)->tmp_cap;                                                             \
            size_t need = (call_with_buf_cap);                                                     \
            if (need < cap) break;                                                                 \
            char *p = realloc((v)->tmp, need + 1);                                                 \
            if (!p) {                                                                              \
                if ((v)->tmp) (v)->tmp[0] = '\0';                                                  \
                break;                                                                             \
            }                                                                                      \
            (v)->tmp = p;                                                                          \
            (v)->tmp_cap = need + 1;                                                               \
        }                                                                                          \
    } while (0)

int cr_view_init(cr_view *v, const cr_game *g)
{
    memset(v, 0, sizeof *v);
    v->obs = malloc(g->obs_size ? g->obs_size : 1);
    v->legal = malloc(sizeof(cr_action) * (size_t)g->max_legal);
    return v->obs && v->legal;
}

void cr_view_fini(cr_view *v)
{
    free(v->obs);
    free(v->legal);
    free(v->tmp);
    memset(v, 0, sizeof *v);
}

void cr_view_result_json(const cr_match *m, cr_jbuf *b)
{
    const cr_game *gm = cr_match_game(m);
    cr_result res;
    cr_match_result(m, &res);
    cr_jb_puts(b, "{\"scores\":[");
    for (int s = 0; s < gm->num_players; s++) cr_jb_printf(b, "%s%d", s ? "," : "", res.score[s]);
    cr_jb_puts(b, "],\"ranks\":[");
    for (int s = 0; s < gm->num_players; s++) cr_jb_printf(b, "%s%d", s ? "," : "", res.rank[s]);
    cr_jb_puts(b, "],\"winners\":[");
    int first = 1;
    for (int s = 0; s < gm->num_players; s++)
        if (res.winners & (1u << s)) {
            cr_jb_printf(b, "%s%d", first ? "" : ",", s);
            first = 0;
        }
    const char *by = "rules";
    for (int s = 0; s < gm->num_players; s++) {
        int left = cr_match_left(m, s);
        if (left == CR_MARK_RESIGN && strcmp(by, "rules") == 0) by = "resign";
        if (left == CR_MARK_TIMEOUT && strcmp(by, "rules") == 0) by = "timeout";
    }
    cr_jb_printf(b, "],\"ended_by\":\"%s\"", by);
    /* per seat, what it earned (a game over by the rules only): key + words */
    const cr_game_parts *parts = cr_parts(gm);
    const void *st = cr_match_state(m);
    cr_jb_puts(b, ",\"achievements\":[");
    for (int s = 0; s < gm->num_players; s++) {
        const char *keys[64];
        int n = parts->achievements ? parts->achievements(gm, st, s, keys, 64) : 0;
        cr_jb_puts(b, s ? ",[" : "[");
        for (int i = 0; i < n; i++) {
            const cr_achievement *a =
                cr_achievement_find(parts->achievement_list, parts->n_achievements, keys[i]);
            cr_jb_puts(b, i ? ",{\"key\":" : "{\"key\":");
            cr_jb_json_str(b, keys[i]);
            cr_jb_puts(b, ",\"title\":");
            cr_jb_json_str(b, a ? a->title : keys[i]);
            cr_jb_puts(b, ",\"words\":");
            cr_jb_json_str(b, a ? a->words : "");
            cr_jb_puts(b, "}");
        }
        cr_jb_puts(b, "]");
    }
    cr_jb_puts(b, "]}");
}

void cr_view_json(cr_view *v, const cr_match *m, int seat, uint32_t taken, cr_jbuf *b)
{
    const cr_game *gm = cr_match_game(m);
    int to_act = cr_match_to_act(m);
    int over = cr_match_over(m);
    int mine = seat >= 0 && to_act == seat && cr_match_is_human(m, seat);
    cr_jb_puts(b, "\"game\":");
    cr_jb_json_str(b, gm->def->name);
    if (seat >= 0)
        cr_jb_printf(b, ",\"seat\":%d,\"decision\":%d", seat, cr_match_decision(m, seat));
    else
        cr_jb_puts(b, ",\"seat\":null");
    if (to_act >= 0)
        cr_jb_printf(b, ",\"to_act\":%d", to_act);
    else
        cr_jb_puts(b, ",\"to_act\":null");
    cr_jb_printf(b, ",\"your_turn\":%s,\"over\":%s", mine ? "true" : "false",
                 over ? "true" : "false");
    cr_match_observe(m, seat, v->obs);
    VIEW_RENDER(v, gm->def->obs_to_json(gm, v->obs, buf, cap));
    cr_jb_puts(b, ",\"observation\":");
    cr_jb_puts(b, v->tmp && v->tmp[0] ? v->tmp : "null");
    VIEW_RENDER(v, mine ? cr_match_prompt(m, seat, buf, cap) : (buf && cap ? (buf[0] = 0) : 0));
    cr_jb_puts(b, ",\"prompt\":");
    cr_jb_json_str(b, mine && v->tmp ? v->tmp : "");
    VIEW_RENDER(v, mine ? cr_match_help(m, seat, buf, cap) : (buf && cap ? (buf[0] = 0) : 0));
    cr_jb_puts(b, ",\"help\":");
    cr_jb_json_str(b, mine && v->tmp ? v->tmp : "");
    cr_jb_puts(b, ",\"actions\":[");
    int n = mine ? cr_match_legal(m, seat, v->legal) : 0;
    for (int i = 0; i < n; i++) {
        VIEW_RENDER(v, cr_match_action_json(m, seat, v->legal[i], buf, cap));
        if (i) cr_jb_puts(b, ",");
        cr_jb_puts(b, v->tmp && v->tmp[0] ? v->tmp : "null");
    }
    cr_jb_printf(b, "],\"seq\":%u,\"seats\":[", cr_match_event_count(m));
    for (int s = 0; s < gm->num_players; s++) {
        int human = cr_match_is_human(m, s);
        int left = cr_match_left(m, s);
        cr_jb_printf(b, "%s{\"seat\":%d,\"kind\":\"%s\",\"spec\":", s ? "," : "", s,
                     human ? "human" : "bot");
        cr_jb_json_str(b, cr_match_seat_spec(m, s));
        cr_jb_printf(b, ",\"taken\":%s,\"left\":%s}",
                     human && !((taken >> s) & 1) ? "false" : "true",
                     left == CR_MARK_RESIGN    ? "\"resign\""
                     : left == CR_MARK_TIMEOUT ? "\"timeout\""
                                               : "false");
    }
    cr_jb_puts(b, "]");
    if (over) {
        cr_jb_puts(b, ",\"result\":");
        cr_view_result_json(m, b);
    }
}

void cr_view_events_json(cr_view *v, const cr_match *m, int seat, uint32_t since, int max,
                         cr_jbuf *b)
{
    const cr_match_event *ev = NULL;
    int ne = since < cr_match_event_count(m) ? cr_match_events_since(m, since, &ev) : 0;
    if (ne > max) ne = max;
    for (int i = 0; i < ne; i++) {
        VIEW_RENDER(v, cr_match_event_json(m, &ev[i], seat, buf, cap));
        const char *j = v->tmp && v->tmp[0] == '{' ? v->tmp : NULL;
        cr_jb_printf(b, "%s{\"seq\":%u", i ? "," : "", ev[i].seq);
        if (j && j[1] != '}') {
            cr_jb_puts(b, ",");
            cr_jb_puts(b, j + 1);
        } else {
            cr_jb_puts(b, "}");
        }
    }
}
