/* test_log_summary.c — the event log in words (croupier/log_summary.h) at
 * the widths the terminal clients ask for: packed and wrapped, no line is
 * wider than its width (in screen columns, a suit symbol counting one);
 * narrowing the width only moves the line breaks (the same headers and the
 * same items, in the same order); every event is counted; line mode's
 * byte-counted width is not a screen's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "croupier/log_summary.h"
#include "croupier/match.h"

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void emit(void *ctx, const char *s, size_t n)
{
    text *t = ctx;
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        assert_non_null(t->p);
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static cr_match *bots_match(const char *game, int players, uint64_t seed, int actions)
{
    const char *seats[CR_MAX_PLAYERS];
    for (int s = 0; s < players; s++) seats[s] = s % 2 ? "heuristic" : "random";
    cr_params p = {0};
    p.num_players = players;
    char err[256];
    const cr_game_def *def = cr_registry_find(game);
    assert_non_null(def);
    cr_match *m = cr_match_new(def, &p, seats, seed, err, sizeof err);
    assert_non_null(m);
    cr_match_run(m, actions);
    return m;
}

/* The widest word of a text (between spaces and line ends), in bytes. */
static int widest_word(const char *s)
{
    int best = 0, run = 0;
    for (; *s; s++) {
        run = *s == ' ' || *s == '\n' ? 0 : run + 1;
        if (run > best) best = run;
    }
    return best;
}

/* The summary of the whole log as `view` at `width`. */
static int summary(const cr_match *m, int view, int width, int wrap, int utf8, text *out)
{
    cr_log_summary_opts o = {.width = width, .utf8_columns = utf8, .wrap = wrap, .indent = ""};
    int oom = 0;
    out->len = 0;
    int k = cr_log_summary(m, 0, cr_match_event_count(m), view, &o, emit, out, &oom);
    assert_int_equal(oom, 0);
    assert_non_null(out->p);
    return k;
}

static size_t utf8_len(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

/* The summary with the layout taken out: each group's header on a line,
 * then its lines joined with a space on one (wrapping breaks at a space,
 * packing joins items with "; ", so a group's text is the same however it
 * was broken into lines). */
static char *normalized(const text *t)
{
    char *r = malloc(t->len + 2);
    assert_non_null(r);
    size_t n = 0;
    const char *s = t->p;
    int in_group = 0;
    while (*s) {
        const char *nl = strchr(s, '\n');
        assert_non_null(nl);
        if (strncmp(s, "  ", 2) == 0) {
            assert_true(n > 0); /* a header comes first */
            r[n++] = in_group ? ' ' : '\n';
            memcpy(r + n, s + 2, (size_t)(nl - s - 2));
            n += (size_t)(nl - s - 2);
            in_group = 1;
        } else {
            if (n > 0) r[n++] = '\n';
            memcpy(r + n, s, (size_t)(nl - s));
            n += (size_t)(nl - s);
            in_group = 0;
        }
        s = nl + 1;
    }
    r[n] = '\0';
    return r;
}

/* s without its spaces (and its newlines when `lines`). */
static void squeeze(char *s, int lines)
{
    char *d = s;
    for (; *s; s++)
        if (*s != ' ' && !(lines && *s == '\n')) *d++ = *s;
    *d = '\0';
}

static int count_lines(const text *t)
{
    int k = 0;
    for (size_t i = 0; i < t->len; i++) k += t->p[i] == '\n';
    return k;
}

/* No line of t is wider than width columns. */
static void check_fits(const text *t, int width)
{
    for (const char *s = t->p; *s;) {
        const char *nl = strchr(s, '\n');
        size_t cols = utf8_len(s, (size_t)(nl - s));
        if (cols > (size_t)width)
            fail_msg("%d columns > %d: '%.*s'", (int)cols, width, (int)(nl - s), s);
        s = nl + 1;
    }
}

/* Wrapped greedily: the first word of a group's next line would not have
 * fit at the end of the line before (a header's own line does not count
 * unless headers are inline). */
static void check_greedy(const text *t, int width, int inline_heads)
{
    for (const char *s = t->p; *s;) {
        const char *nl = strchr(s, '\n');
        const char *next = nl + 1;
        if (strncmp(next, "  ", 2) == 0 && (inline_heads || strncmp(s, "  ", 2) == 0)) {
            const char *word = next + 2, *end = word;
            while (*end != ' ' && *end != '\n') end++;
            size_t cols = utf8_len(s, (size_t)(nl - s)) + 1 + utf8_len(word, (size_t)(end - word));
            if (cols <= (size_t)width)
                fail_msg("'%.*s' would fit after '%.*s' (width %d)", (int)(end - word), word,
                         (int)(nl - s), s, width);
        }
        s = next;
    }
}

static void check_widths(const char *game, int players, uint64_t seed, int view)
{
    cr_match *m = bots_match(game, players, seed, 120);
    text wide = {0}, narrow = {0}, verbose = {0};
    int all = summary(m, view, 0, 0, 1, &wide);
    assert_true(all > 30);
    cr_log_summary_opts vo = {.verbose = 1};
    assert_int_equal(cr_log_summary(m, 0, cr_match_event_count(m), view, &vo, emit, &verbose, NULL),
                     all);
    char *want = normalized(&wide), *want_squeezed = normalized(&wide);
    int prev_lines = 0;
    static const int widths[] = {200, 96, 60, 36, 28, 20};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        int width = widths[w];
        assert_int_equal(summary(m, view, width, 1, 1, &narrow), all);
        check_fits(&narrow, width);
        check_greedy(&narrow, width, 0);
        /* the same headers and items, only the breaks moved (a word wider
         * than a line is cut: then only the spaces differ; an 18Dracula
         * route reads as one long word, "Hollick-Balath-Mirefold-Overlook") */
        char *got = normalized(&narrow);
        if (width >= widest_word(want) + 4) assert_string_equal(got, want);
        squeeze(got, 0);
        squeeze(want_squeezed, 0);
        assert_string_equal(got, want_squeezed);
        free(got);
        /* narrower: never fewer lines */
        int lines = count_lines(&narrow);
        assert_true(lines >= prev_lines);
        if (width == 20) assert_true(lines > prev_lines);
        prev_lines = lines;
    }
    /* headers inline: the same text, fewer rows, none too wide */
    text in = {0};
    cr_log_summary_opts io = {.width = 33, .utf8_columns = 1, .wrap = 1, .inline_headers = 1};
    assert_int_equal(cr_log_summary(m, 0, cr_match_event_count(m), view, &io, emit, &in, NULL),
                     all);
    check_fits(&in, 33);
    check_greedy(&in, 33, 1);
    assert_int_equal(summary(m, view, 33, 1, 1, &narrow), all);
    assert_true(count_lines(&in) < count_lines(&narrow));
    char *a = normalized(&narrow), *b = normalized(&in);
    squeeze(a, 1);
    squeeze(b, 1);
    assert_string_equal(a, b);
    free(a);
    free(b);
    free(in.p);
    /* verbose and wrapped: every event on its own lines, none too wide */
    text vw = {0};
    cr_log_summary_opts vwo = {.width = 28, .utf8_columns = 1, .wrap = 1, .verbose = 1};
    assert_int_equal(cr_log_summary(m, 0, cr_match_event_count(m), view, &vwo, emit, &vw, NULL),
                     all);
    check_fits(&vw, 28);
    assert_true(count_lines(&vw) >= count_lines(&verbose));
    free(vw.p);
    free(want);
    free(want_squeezed);
    free(wide.p);
    free(narrow.p);
    free(verbose.p);
    cr_match_free(m);
}

static void test_dml_widths(void **state)
{
    (void)state;
    check_widths("dml", 4, 21, 0);
    check_widths("dml", 4, 7, CR_SEAT_OMNISCIENT);
    check_widths("dml", 3, 3, CR_SEAT_PUBLIC);
}

static void test_18dracula_widths(void **state)
{
    (void)state;
    check_widths("18dracula", 3, 5, 1);
}

/* Line mode counts bytes, a screen counts characters: "×" is two bytes and
 * one column, so the same width packs fewer items per line in bytes. */
static void test_columns(void **state)
{
    (void)state;
    cr_log_summary_opts bytes = {0}, cols = {.utf8_columns = 1};
    const char *s = "a card moves ×2 \xe2\x99\xa0";
    assert_int_equal(cr_log_columns(&bytes, s, strlen(s)), strlen(s));
    assert_int_equal(cr_log_columns(&cols, s, strlen(s)), strlen(s) - 3);
    cr_match *m = bots_match("dml", 4, 21, 120);
    text b = {0}, c = {0};
    summary(m, 0, 40, 0, 0, &b);
    summary(m, 0, 40, 0, 1, &c);
    assert_true(count_lines(&b) >= count_lines(&c));
    /* headers name the seat: the viewer as "you", a bot by its spec */
    assert_non_null(strstr(c.p, "P1 (heuristic):\n"));
    assert_null(strstr(c.p, "P0 (random):\n"));
    /* an empty range emits nothing and counts nothing */
    text none = {0};
    cr_log_summary_opts o = {.width = 30, .wrap = 1};
    assert_int_equal(cr_log_summary(m, 9, 9, 0, &o, emit, &none, NULL), 0);
    assert_int_equal(none.len, 0);
    assert_int_equal(cr_log_summary(m, 9, 3, 0, &o, emit, &none, NULL), 0);
    assert_int_equal(none.len, 0);
    free(b.p);
    free(c.p);
    cr_match_free(m);
}

/* drop_actor: in a seat's group no item starts with the seat's name (the
 * header says it), "P1's ..." stays, nothing else changes. */
static void test_drop_actor(void **state)
{
    (void)state;
    cr_match *m = bots_match("dml", 4, 21, 150);
    text plain = {0}, dropped = {0};
    cr_log_summary_opts po = {.verbose = 1}, dro = {.verbose = 1, .drop_actor = 1};
    uint32_t n = cr_match_event_count(m);
    int k = cr_log_summary(m, 0, n, 0, &po, emit, &plain, NULL);
    assert_int_equal(cr_log_summary(m, 0, n, 0, &dro, emit, &dropped, NULL), k);
    /* line by line (verbose: one event a line): the same headers, and each
     * event either the same or without its group's seat name */
    const char *a = plain.p, *b = dropped.p;
    int actor = -1, stripped = 0, kept_possessive = 0;
    while (*a && *b) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        if (a[0] != ' ') { /* a header */
            assert_int_equal(ea - a, eb - b);
            assert_memory_equal(a, b, (size_t)(ea - a));
            actor = a[0] == 'P' ? atoi(a + 1) : -1;
        } else {
            char name[8];
            snprintf(name, sizeof name, "P%d", actor);
            size_t nl = strlen(name);
            const char *la = a + 2, *lb = b + 2;
            /* only the echo of a decision ("P1: buy") loses the name; a
             * line with the seat as subject ("P1 scores 34 VP") keeps it */
            if (actor >= 0 && strncmp(la, name, nl) == 0 && la[nl] == ':') {
                const char *rest = la + nl + 1;
                while (*rest == ' ') rest++;
                assert_int_equal(ea - rest, eb - lb);
                assert_memory_equal(rest, lb, (size_t)(eb - lb));
                stripped++;
            } else {
                assert_int_equal(ea - a, eb - b);
                assert_memory_equal(a, b, (size_t)(ea - a));
                if (actor >= 0 && strncmp(la, name, nl) == 0 && la[nl] == '\'') kept_possessive++;
            }
        }
        a = ea + 1;
        b = eb + 1;
    }
    assert_true(*a == '\0' && *b == '\0');
    assert_true(stripped > 10);
    assert_true(kept_possessive > 0);
    free(plain.p);
    free(dropped.p);
    cr_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dml_widths),
        cmocka_unit_test(test_18dracula_widths),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_drop_actor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
